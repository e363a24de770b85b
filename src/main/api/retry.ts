/** Retry timing: capped, jittered exponential backoff and `Retry-After` parsing. Pure, so tests can drive it. */
import { clampTimerMs } from '../clock'

export interface RetryPolicy {
  /** Total attempts of a read, first one included. */
  attempts: number
  baseDelayMs: number
  maxDelayMs: number
  /** A read told to wait longer than this (429, maintenance) fails instead of waiting. */
  maxRetryAfterMs: number
}

export const DEFAULT_RETRY: Readonly<RetryPolicy> = {
  attempts: 3,
  baseDelayMs: 250,
  maxDelayMs: 4_000,
  maxRetryAfterMs: 10_000,
}

/**
 * "Equal jitter": half the exponential step is kept, half is random, so concurrent readers spread out but none
 * retries immediately. `attempt` is the number of attempts already made (1 after the first failure).
 */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const step = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1))
  const r = Math.min(1, Math.max(0, random()))
  return Math.round(step / 2 + (r * step) / 2)
}

/**
 * The longest wait a `Retry-After` can impose (one hour). A service asking for days is broken or hostile; obeying
 * would stall the tracker for days (and beyond 2^31 ms, Node fires a timer at once: a spin). After the cap the
 * next request simply asks again.
 */
export const MAX_RETRY_AFTER_SECONDS = 3_600

/** Seconds to wait, from delta-seconds or an HTTP date, capped; undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (value === null) return undefined
  const trimmed = value.trim()
  if (/^\d+$/.test(trimmed)) {
    // Digits beyond a safe integer are still "very long": capped, not ignored.
    return Math.min(Number(trimmed), MAX_RETRY_AFTER_SECONDS)
  }
  // Only an HTTP date (`Wed, 21 Oct 2015 07:28:00 GMT`): Date.parse would read "-1" as the year -1.
  if (!/^[A-Za-z]{3},\s/.test(trimmed)) return undefined
  const date = Date.parse(trimmed)
  if (Number.isNaN(date)) return undefined
  return Math.min(MAX_RETRY_AFTER_SECONDS, Math.max(0, Math.ceil((date - nowMs) / 1000)))
}

export function defaultSleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, clampTimerMs(ms)))
}
