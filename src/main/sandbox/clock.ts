/**
 * Sandbox time. Everything time-based (token expiry, rate-limit refill, withdrawal and QR expiry, daily caps)
 * reads this clock, so tests move time forward with `advanceClock` instead of sleeping.
 */

const DAY_MS = 86_400_000
/** Daily caps and `dailyLimitResetTime` follow the Brazilian day; São Paulo has had no DST since 2019. */
const SAO_PAULO_OFFSET_MS = -3 * 3_600_000

export class SandboxClock {
  private offsetMs = 0

  now(): number {
    return Date.now() + this.offsetMs
  }

  advance(seconds: number): void {
    // Going backwards would let rate-limit buckets and expiries run in reverse; nothing in the API contract needs it.
    if (!Number.isFinite(seconds) || seconds < 0) throw new RangeError('seconds must be a finite number ≥ 0')
    this.offsetMs += seconds * 1000
  }
}

/** Index of the São Paulo calendar day containing `ms`. */
export function saoPauloDay(ms: number): number {
  return Math.floor((ms + SAO_PAULO_OFFSET_MS) / DAY_MS)
}

/** The next São Paulo midnight after `ms`, as an epoch ms. */
export function nextSaoPauloMidnight(ms: number): number {
  return (saoPauloDay(ms) + 1) * DAY_MS - SAO_PAULO_OFFSET_MS
}

export function iso(ms: number): string {
  return new Date(ms).toISOString()
}
