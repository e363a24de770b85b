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
 * Maps wall-clock timestamps read back from storage (record times) onto the monotonic clock. The offset between
 * the two is fixed while the clocks agree, so the same stored time always maps to the same instant; when the wall
 * clock steps (more than `stepMs` away from the offset), the offset is taken again. A mapped time may then lie
 * in the future; callers clamp where that matters.
 */
export class WallToMonotonic {
  #offset: number | null = null

  constructor(
    readonly wall: () => number,
    readonly monotonic: () => number,
    readonly stepMs = 2_000,
  ) {}

  map(wallMs: number): number {
    const offset = this.monotonic() - this.wall()
    if (this.#offset === null || Math.abs(offset - this.#offset) > this.stepMs) this.#offset = offset
    return wallMs + this.#offset
  }
}
