/**
 * Public shapes of the status tracker, kind-free: the engine (engine.ts) and its decisions (scheduler.ts) are
 * tracking's own; each record kind plugs in through engine.ts's `TrackerKind` (withdrawals/tracker.ts,
 * deposits/tracker.ts).
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { Cadence } from './scheduler'

/** Timers the tracker uses; tests pass a fake clock's. */
export interface Timers {
  setTimeout(fn: () => void, ms: number): unknown
  clearTimeout(handle: unknown): void
}

export interface TrackerOptions {
  /** Poll intervals and backoffs; see DEFAULT_CADENCE. */
  cadence?: Partial<Cadence>
  /** Status requests the tracker keeps in flight at once. Default 4. */
  maxInFlight?: number
  /**
   * withdraw-status tokens the tracker never takes, left for the operator's own "check now" and the follow-up
   * reads of create. Default max(2, 10% of the endpoint's limit).
   */
  reserve?: number
  /** Failures the tracker absorbed (it never throws from a timer). For logs: no secrets in them. */
  onError?: (e: unknown, localId: string | null) => void
  /**
   * The clock that stamped the records' times, epoch ms: on a team ledger the server's as this desk estimates it
   * (pg/leader.ts serverNow), so a desk hours ahead of the server still polls a fresh record as fresh. Default:
   * `now` (the desk's own ledger, stamped by this desk).
   */
  recordClock?: () => number
}

export type TrackerState = 'idle' | 'running' | 'paused' | 'stopped'

export interface TrackerStats {
  state: TrackerState
  /** Open records of this profile the tracker knows. */
  tracked: number
  inFlight: number
  /** Epoch ms until which every poll waits (429, maintenance, repeated failures); null when not blocked. */
  blockedUntil: number | null
  polls: number
  failures: number
}

/** The status tracker of one record kind (tracking/engine.ts); withdrawals by default. */
export interface StatusTracker<R = WithdrawalRecord> {
  start(): void
  /** No new polls; polls in flight finish. */
  pause(): void
  resume(): void
  /** No timer left, polls in flight awaited. `start()` may follow. */
  stop(): Promise<void>
  /** One poll now, regardless of cadence and pause (not of the limiter). Joins a poll already in flight. */
  pollNow(localId: string): Promise<R>
  /** Tells the tracker a record was created, funded or linked: it is (re)read and, if open, polled soon. */
  track(localId: string): void
  stats(): TrackerStats
}
