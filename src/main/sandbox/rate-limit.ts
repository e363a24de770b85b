/**
 * Token buckets of docs/API-CONTRACT.md#s8-1: capacity is a minute's worth, refill is continuous at `perMinute / 60` per
 * second. Keys are free-form ("partner:endpoint", "login-ip:127.0.0.1"): one class serves both API families.
 */

interface Bucket {
  tokens: number
  at: number
  perMinute: number
}

export type TakeResult = { ok: true } | { ok: false; retryAfterSeconds: number }

const OK: TakeResult = { ok: true }
// Floating-point refill can leave 0.9999999 where exactly one token is due.
const EPSILON = 1e-9

export class TokenBuckets {
  private readonly buckets = new Map<string, Bucket>()

  take(key: string, perMinute: number, now: number): TakeResult {
    let b = this.buckets.get(key)
    // A changed limit starts from a full bucket: raising a limit must take effect at once (bench, tests).
    if (b === undefined || b.perMinute !== perMinute) {
      b = { tokens: perMinute, at: now, perMinute }
      this.buckets.set(key, b)
    } else if (now > b.at) {
      b.tokens = Math.min(perMinute, b.tokens + ((now - b.at) * perMinute) / 60_000)
      b.at = now
    }
    if (b.tokens + EPSILON >= 1) {
      b.tokens -= 1
      return OK
    }
    const waitMs = ((1 - b.tokens) * 60_000) / perMinute
    return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000 - EPSILON)) }
  }

  clear(): void {
    this.buckets.clear()
  }
}
