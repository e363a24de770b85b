/**
 * The status tracker engine, for every record kind: polls the kind's status endpoint for this profile's open
 * records, within that endpoint's own allowance, and stores every answer in the ledger. Decisions live in
 * scheduler.ts (pure, kind-free); this file owns the timer, the in-flight polls and the mapping of
 * errors to backoff. What is a kind's own — which records are open, how an answer is fetched and stored, what a
 * "not found" is — comes in `TrackerKind` (withdrawals/tracker.ts, deposits/tracker.ts).
 *
 * Allowance: the tracker takes a token only while the client's bucket holds more than `reserve` (default 10% of
 * the limit, at least 2), so the operator's "check now" never waits behind it; its own TokenBudget keeps it within
 * the limit even if the client's limiter is off. A 429 that still arrives blocks every poll for its Retry-After.
 */
import { MAINTENANCE_RETRY_AFTER_SECONDS } from '../../shared/api-limits'
import type { RecordKindId } from '../../shared/record-kinds'
import { ApiError, type DepixClient } from '../api'
import { clampTimerMs, WallToMonotonic } from '../clock'
import {
  DEFAULT_CADENCE,
  defaultReserve,
  msUntilPollAllowed,
  PollScheduler,
  TokenBudget,
  type TrackedRecord,
} from './scheduler'
import type { StatusTracker, Timers, TrackerOptions, TrackerState } from './types'

/** What the engine needs of any record kind. */
export interface TrackableRecord {
  localId: string
  profile: string
  localState: string
  remoteId: string | null
  remoteStatus: string | null
}

export type TrackerRefusal = 'not_found' | 'illegal_state' | 'remote_mismatch' | 'remote_not_found'

type MaybePromise<T> = T | Promise<T>

/**
 * A kind as the tracker drives it. Its identity is the one id of shared/record-kinds.ts; the rest stays here
 * because it is behaviour only the tracker calls (fetch, store, open rule), supplied by the feature, which
 * tracking/ may not import.
 */
export interface TrackerKind<R extends TrackableRecord, Res> {
  /** The status endpoint, whose allowance the tracker spends. */
  endpoint: 'withdraw-status' | 'deposit-status'
  /** Which kind this is; also the noun of the English fallback texts. */
  id: RecordKindId
  /** The embedded ledger answers at once, the team ledger (ledger/pg) with a promise. */
  get(localId: string): MaybePromise<R | undefined>
  listOpen(): MaybePromise<R[]>
  fetch(remoteId: string): Promise<Res>
  /** The id the answer is about (it must be the one asked for). */
  answerId(res: Res): string
  store(localId: string, res: Res, observedAtMs: number): MaybePromise<{ record: R; changed: boolean }>
  /** Created and not settled: the money can still move. */
  isOpen(r: R): boolean
  /** The record's stored (wall-clock ISO) times, and whether its status is a slow-polled lingering one. */
  times(r: R): { createdAt: string; fundedAt: string | null; checkedAt: string | null; lingering: boolean }
  isNotFound(e: unknown): boolean
  /** Raises the kind's "not found at the service" flag; returns the record unchanged when already raised. */
  flagNotFound(r: R): MaybePromise<R>
  refuse(code: TrackerRefusal, message: string, localId?: string): Error
  /** A ledger refusal as the kind's error; anything else returned unchanged. */
  fromLedgerError(e: unknown, localId: string): unknown
}

export interface EngineDeps<R extends TrackableRecord, Res> extends TrackerOptions {
  kind: TrackerKind<R, Res>
  client: Pick<DepixClient, 'allowance'> & Partial<Pick<DepixClient, 'onSessionChange'>>
  profile: string
  /** Wall clock, epoch ms: stored timestamps (when an answer was observed) and record times read back. */
  now: () => number
  /** Monotonic ms for every interval, budget, backoff and timer. Defaults to `now` (a test clock drives both). */
  monotonic?: () => number
  timers: Timers
  changed: (record: R) => void
  /**
   * Every open record of the ledger, whatever its profile: a team ledger is one account's, and its leader tracks
   * every desk's payments. Default false: only `profile`'s.
   */
  allProfiles?: boolean
}

const DEFAULT_MAX_IN_FLIGHT = 4

/** The record's stored (wall-clock) times, mapped onto the monotonic clock the scheduler runs on. */
function tracked<R extends TrackableRecord>(
  kind: TrackerKind<R, unknown>,
  r: R,
  clock: WallToMonotonic,
): TrackedRecord {
  const times = kind.times(r)
  const t = (iso: string | null): number | null => {
    if (iso === null) return null
    const ms = Date.parse(iso)
    return Number.isNaN(ms) ? null : clock.map(ms)
  }
  return {
    localId: r.localId,
    createdAt: t(times.createdAt) ?? clock.map(0),
    fundedAt: t(times.fundedAt),
    lastCheckedAt: t(times.checkedAt),
    lingering: times.lingering,
  }
}

/** Not settled: a created record whose money can still move (lingering ones only within their window). */
function isOpen<R extends TrackableRecord>(
  kind: TrackerKind<R, unknown>,
  r: R,
  scheduler: PollScheduler,
  clock: WallToMonotonic,
  now: number,
): boolean {
  return kind.isOpen(r) && scheduler.stillWorthAsking(tracked(kind, r, clock), now)
}

export function createTracker<R extends TrackableRecord, Res>(deps: EngineDeps<R, Res>): StatusTracker<R> {
  const { kind, client, now, timers } = deps
  const mono = deps.monotonic ?? now
  // Ages are measured on the clock that stamped the record (the server's on a team), carried by the monotonic one.
  const wallToMono = new WallToMonotonic(deps.recordClock ?? now, mono)
  const scheduler = new PollScheduler({ ...DEFAULT_CADENCE, ...deps.cadence })
  const maxInFlight = Math.max(1, deps.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT)
  const onError = deps.onError ?? (() => undefined)
  const inFlight = new Map<string, Promise<R>>()
  let state: TrackerState = 'idle'
  let timer: unknown = null
  let timerAt = Infinity
  let lastSyncAt = -Infinity
  let budget: TokenBudget | null = null
  let polls = 0
  let failures = 0
  let unsubscribe: (() => void) | null = null
  /** The tick under way (it awaits the ledger); a tick asked for meanwhile runs right after it. */
  let ticking = false
  let tickAgain = false

  const ours = (r: R): boolean => deps.allProfiles === true || r.profile === deps.profile
  async function call<T>(localId: string, fn: () => MaybePromise<T>): Promise<T> {
    try {
      return await fn()
    } catch (e) {
      throw kind.fromLedgerError(e, localId)
    }
  }

  const limit = (): number => client.allowance()[kind.endpoint].limitPerMinute
  const reserve = (): number => deps.reserve ?? defaultReserve(limit())

  function ownBudget(t: number): TokenBudget {
    const l = limit()
    const capacity = Math.max(1, l - reserve())
    if (budget === null || budget.capacity !== capacity) budget = new TokenBudget(capacity, l, t)
    return budget
  }

  function clearTimer(): void {
    if (timer !== null) timers.clearTimeout(timer)
    timer = null
    timerAt = Infinity
  }

  /** Arms the one timer for `ms` from now, unless it is already due sooner. */
  function wake(ms: number): void {
    if (state !== 'running') return
    // Clamped: a delay beyond 2^31−1 ms would fire at once, and a tick that re-arms it would spin.
    const delay = clampTimerMs(ms)
    const at = mono() + delay
    if (timer !== null && timerAt <= at) return
    clearTimer()
    timerAt = at
    timer = timers.setTimeout(() => {
      timer = null
      timerAt = Infinity
      tick()
    }, delay)
  }

  async function sync(t: number): Promise<void> {
    lastSyncAt = t
    let open: R[]
    try {
      open = (await kind.listOpen()).filter((r) => ours(r) && isOpen(kind, r, scheduler, wallToMono, t))
    } catch (e) {
      onError(e, null)
      return
    }
    scheduler.retain(new Set(open.map((r) => r.localId)))
    for (const r of open) scheduler.upsert(tracked(kind, r, wallToMono), t)
  }

  function tick(): void {
    if (ticking) {
      tickAgain = true
      return
    }
    ticking = true
    void (async () => {
      do {
        tickAgain = false
        await tickOnce()
      } while (tickAgain)
    })()
      .catch((e: unknown) => onError(e, null))
      .finally(() => {
        ticking = false
      })
  }

  async function tickOnce(): Promise<void> {
    if (state !== 'running') return
    let t = mono()
    if (t - lastSyncAt >= scheduler.cadence.resyncMs) {
      await sync(t)
      if (state !== 'running') return
      t = mono()
    }
    const blocked = scheduler.blockedUntil(t)
    if (blocked !== null) return wake(blocked - t)
    while (inFlight.size < maxInFlight) {
      const localId = scheduler.pick(t, inFlight)
      if (localId === undefined) break
      const wait = msUntilPollAllowed(client.allowance()[kind.endpoint], reserve(), ownBudget(t), t)
      if (wait > 0) return wake(wait)
      ownBudget(t).take(t)
      launch(localId, false).catch((e: unknown) => onError(e, localId))
    }
    // At capacity: the poll that finishes first wakes the loop (a timer now would spin).
    if (inFlight.size >= maxInFlight) return
    const next = scheduler.nextDueAt(inFlight)
    const resync = lastSyncAt + scheduler.cadence.resyncMs
    wake(Math.min(next ?? Infinity, resync) - t)
  }

  function launch(localId: string, manual: boolean): Promise<R> {
    const p = poll(localId, manual).finally(() => {
      inFlight.delete(localId)
      wake(0)
    })
    inFlight.set(localId, p)
    return p
  }

  async function poll(localId: string, manual: boolean): Promise<R> {
    const record = await call(localId, () => kind.get(localId))
    if (record === undefined || record.remoteId === null || record.localState !== 'created') {
      scheduler.remove(localId)
      if (record === undefined) throw kind.refuse('not_found', `No ${kind.id} record ${localId}.`)
      throw kind.refuse('illegal_state', `${localId} is ${record.localState}: it has no ${kind.id} id.`)
    }
    const remoteId = record.remoteId
    polls += 1
    let res: Res
    try {
      res = await kind.fetch(remoteId)
    } catch (e) {
      failures += 1
      return await failedPoll(record, e, manual)
    }
    const t = mono()
    const observedAt = now()
    const answered = kind.answerId(res)
    if (answered !== remoteId) {
      failures += 1
      scheduler.failed(localId, t)
      const e = kind.refuse('remote_mismatch', `Status answer for ${answered}, not ${remoteId}.`)
      onError(e, localId)
      if (manual) throw e
      return record
    }
    // Stored even after stop(): the answer is a fact about money, and writing it is cheap.
    let stored: { record: R; changed: boolean }
    try {
      stored = await call(localId, () => kind.store(localId, res, observedAt))
    } catch (e) {
      failures += 1
      scheduler.failed(localId, t)
      onError(e, localId)
      if (manual) throw e
      return record
    }
    if (!isOpen(kind, stored.record, scheduler, wallToMono, t)) scheduler.remove(localId)
    else scheduler.upsert(tracked(kind, stored.record, wallToMono), t)
    scheduler.succeeded(localId, t)
    if (stored.changed) deps.changed(stored.record)
    return stored.record
  }

  async function failedPoll(record: R, e: unknown, manual: boolean): Promise<R> {
    const t = mono()
    const localId = record.localId
    onError(e, localId)
    if (kind.isNotFound(e)) {
      // A created record the service does not know: flag it for a human, keep asking now and then.
      scheduler.failed(localId, t)
      try {
        const flagged = await kind.flagNotFound(record)
        if (flagged !== record) deps.changed(flagged)
      } catch (le) {
        onError(le, localId)
      }
      if (manual) {
        throw kind.refuse('remote_not_found', `The API does not know ${kind.id} ${record.remoteId}.`, localId)
      }
      return record
    }
    if (e instanceof ApiError) {
      switch (e.kind) {
        case 'rate_limited':
          scheduler.block(t, (e.retryAfterSeconds ?? 60) * 1000)
          break
        case 'maintenance':
          scheduler.block(t, (e.retryAfterSeconds ?? MAINTENANCE_RETRY_AFTER_SECONDS) * 1000)
          break
        case 'business':
        case 'invalid_response':
          // About this record's answer only.
          scheduler.failed(localId, t)
          break
        default:
          // network, server, unauthorized, forbidden, bad_request, route_not_found: nothing will work for a while.
          scheduler.globalFailure(t)
      }
    } else {
      scheduler.failed(localId, t)
    }
    if (manual) throw e
    return record
  }

  return {
    start() {
      if (state === 'running' || state === 'paused') return
      state = 'running'
      lastSyncAt = -Infinity
      // A session that comes back ends a backoff earned by "not signed in".
      unsubscribe =
        client.onSessionChange?.((s) => {
          if (s !== null) {
            scheduler.unblock()
            wake(0)
          }
        }) ?? null
      wake(0)
    },
    pause() {
      if (state !== 'running') return
      state = 'paused'
      clearTimer()
    },
    resume() {
      if (state !== 'paused') return
      state = 'running'
      wake(0)
    },
    async stop() {
      state = 'stopped'
      clearTimer()
      unsubscribe?.()
      unsubscribe = null
      await Promise.allSettled([...inFlight.values()])
      // A poll that finished during the wait may have re-armed nothing (state is stopped), but be sure.
      clearTimer()
    },
    pollNow(localId) {
      const running = inFlight.get(localId)
      if (running) return running
      return launch(localId, true)
    },
    track(localId) {
      void (async () => {
        const r = await kind.get(localId)
        if (r === undefined || !ours(r)) return
        const t = mono()
        if (!isOpen(kind, r, scheduler, wallToMono, t)) {
          scheduler.remove(localId)
          return
        }
        scheduler.upsert(tracked(kind, r, wallToMono), t, { urgent: r.remoteStatus === null })
        wake(0)
      })().catch((e: unknown) => onError(e, localId))
    },
    stats() {
      const t = mono()
      const blocked = scheduler.blockedUntil(t)
      return {
        state,
        tracked: scheduler.size,
        inFlight: inFlight.size,
        // Shown as a time of day: the monotonic deadline, expressed on the wall clock.
        blockedUntil: blocked === null ? null : now() + (blocked - t),
        polls,
        failures,
      }
    },
  }
}
