/**
 * Time for the main process, in two kinds that must not be mixed:
 *
 * - the wall clock (`Date.now`) only for timestamps that are stored or shown, and for HTTP dates;
 * - the monotonic clock (`monotonicNow`) for every duration, deadline, budget and timer. It never steps: an NTP
 *   correction of a clock kept in local time (three hours in Brazil) moves the wall clock, and a limiter or
 *   scheduler reading the wall clock would then wait hours, or never.
 */
/**
 * Milliseconds on a clock that only moves forward; its zero is arbitrary (process start). Read through the global
 * at call time, so test fake timers that replace `performance` drive it too.
 */
export function monotonicNow(): number {
  return globalThis.performance.now()
}

/** Node treats a delay above 2^31−1 ms (~24.8 days) as 1 ms: a huge wait would become a spin. */
export const MAX_TIMER_MS = 2 ** 31 - 1

/** A delay that setTimeout honours: finite, ≥ 0, ≤ MAX_TIMER_MS. NaN becomes 0. */
export function clampTimerMs(ms: number): number {
  if (Number.isNaN(ms) || ms <= 0) return 0
  return Math.min(ms, MAX_TIMER_MS)
}

/**
 * Maps timestamps read back from storage (record times) onto the monotonic clock. `wall` must be the clock that
 * stamped them: the desk's wall clock for its own ledger, the server's (as the desk estimates it, on the
 * monotonic clock) for a team's. The offset between the two is fixed while the clocks agree, so the same stored
 * time always maps to the same instant. When the wall clock steps (more than `stepMs` away from the offset), a
 * new epoch begins with the new offset; a time is mapped with the offset of the latest epoch that began at or
 * before it on the wall clock. So after a step forward a record stamped before it keeps its true age (it is not
 * suddenly hours old), and after a step back every time stamped before it maps later than it was (at most "now",
 * callers clamp): polled too soon, never too late.
 */
export class WallToMonotonic {
  /** Oldest first: each epoch's offset and the wall time it began at. */
  #epochs: Array<{ offset: number; wallFrom: number }> = []

  constructor(
    readonly wall: () => number,
    readonly monotonic: () => number,
    readonly stepMs = 2_000,
  ) {}

  map(wallMs: number): number {
    const wall = this.wall()
    const offset = this.monotonic() - wall
    const current = this.#epochs.at(-1)
    if (current === undefined || Math.abs(offset - current.offset) > this.stepMs) {
      this.#epochs.push({ offset, wallFrom: wall })
      // The first epoch maps what was stamped before this process started; the rest only need the recent ones.
      if (this.#epochs.length > 16) this.#epochs.splice(1, 1)
    }
    let chosen = this.#epochs[0] as { offset: number }
    for (const e of this.#epochs) if (e.wallFrom <= wallMs) chosen = e
    return wallMs + chosen.offset
  }
}
