/**
 * The status tracker's decisions, pure: which open record to poll next, when, and whether a withdraw-status token
 * may be spent. No timers, no I/O; time is always passed in, so tests drive it with plain numbers.
 *
 * Cadence (docs/history/DECISIONS.md): a record marked funded in the last 15 minutes is "hot" and polled every 25 s (so
 * every ≤ 30 s even after waiting for a token); otherwise by age since creation: < 1 h every 2 min, < 24 h every
 * 10 min, older every 60 min. The intervals are floors: when more is due than the allowance can serve, hot records
 * go first and the rest are served longest-overdue first, which is a round robin over everything open.
 *
 * Lingering records (expired, cancelled, refunded without its refund object: terminal-looking, but a late deposit
 * can still be returned) are polled slowly: at most every 30 min in their first day, every 6 h after, for 14 days
 * from creation or from the last time the operator marked them funded (which also makes them hot again).
 */

export interface Cadence {
  hotWindowMs: number
  hotIntervalMs: number
  /** Ascending by maxAgeMs; a record older than the last tier uses oldIntervalMs. */
  ageTiers: ReadonlyArray<{ maxAgeMs: number; intervalMs: number }>
  oldIntervalMs: number
  /** Per-record backoff after a failed poll (WITHDRAW_NOT_FOUND, unreadable body): doubles up to the max. */
  recordBackoffMs: number
  recordBackoffMaxMs: number
  /** Backoff of every poll after failures that are not about one record (network, 5xx, no session). */
  globalBackoffMs: number
  globalBackoffMaxMs: number
  /** Floors for lingering records, by age since creation or funding; older than the last tier: lingerIntervalMs. */
  lingerTiers: ReadonlyArray<{ maxAgeMs: number; intervalMs: number }>
  lingerIntervalMs: number
  /** How long after creation or funding a lingering record is still asked about. */
  lingerWindowMs: number
  /**
   * How often the open list is re-read from the ledger. A safety net only: the service tells the tracker about
   * every record it opens or funds. listOpen() costs ~100 ms at 10,000 open records (bench/tracker.bench.ts).
   */
  resyncMs: number
}

const MINUTE = 60_000
const HOUR = 60 * MINUTE

export const DEFAULT_CADENCE: Readonly<Cadence> = {
  hotWindowMs: 15 * MINUTE,
  hotIntervalMs: 25_000,
  ageTiers: [
    { maxAgeMs: HOUR, intervalMs: 2 * MINUTE },
    { maxAgeMs: 24 * HOUR, intervalMs: 10 * MINUTE },
  ],
  oldIntervalMs: HOUR,
  lingerTiers: [{ maxAgeMs: 24 * HOUR, intervalMs: 30 * MINUTE }],
  lingerIntervalMs: 6 * HOUR,
  lingerWindowMs: 14 * 24 * HOUR,
  recordBackoffMs: 2 * MINUTE,
  recordBackoffMaxMs: HOUR,
  globalBackoffMs: 5_000,
  globalBackoffMaxMs: 5 * MINUTE,
  resyncMs: 5 * MINUTE,
}

/**
 * What the scheduler needs to know about an open record. Times are on the tracker's monotonic clock (record times
 * are mapped onto it, src/main/clock.ts), never the wall clock: a wall-clock step back would otherwise postpone
 * every poll by the size of the step.
 */
export interface TrackedRecord {
  localId: string
  createdAt: number
  fundedAt: number | null
  /** When the service was last asked about it (survives restarts through the ledger's remoteCheckedAt). */
  lastCheckedAt: number | null
  /** Terminal-looking status that can still change (`isLingeringStatus`): polled slowly. */
  lingering?: boolean
}

interface Entry extends TrackedRecord {
  dueAt: number
  failures: number
}

export class PollScheduler {
  readonly #entries = new Map<string, Entry>()
  #blockedUntil = 0
  #globalFailures = 0

  constructor(readonly cadence: Cadence) {}

  get size(): number {
    return this.#entries.size
  }

  has(localId: string): boolean {
    return this.#entries.has(localId)
  }

  dueAt(localId: string): number | undefined {
    return this.#entries.get(localId)?.dueAt
  }

  isHot(r: Pick<TrackedRecord, 'fundedAt'>, now: number): boolean {
    return r.fundedAt !== null && now - r.fundedAt < this.cadence.hotWindowMs
  }

  intervalFor(r: Pick<TrackedRecord, 'fundedAt' | 'createdAt' | 'lingering'>, now: number): number {
    if (this.isHot(r, now)) return this.cadence.hotIntervalMs
    const age = Math.max(0, now - r.createdAt)
    const normal = tierInterval(this.cadence.ageTiers, age, this.cadence.oldIntervalMs)
    if (r.lingering !== true) return normal
    const lingerAge = now - Math.max(r.createdAt, r.fundedAt ?? -Infinity)
    return Math.max(normal, tierInterval(this.cadence.lingerTiers, lingerAge, this.cadence.lingerIntervalMs))
  }

  /** A lingering record past its window is no longer worth a request; anything else always is. */
  stillWorthAsking(r: Pick<TrackedRecord, 'fundedAt' | 'createdAt' | 'lingering'>, now: number): boolean {
    if (r.lingering !== true) return true
    return now - Math.max(r.createdAt, r.fundedAt ?? -Infinity) < this.cadence.lingerWindowMs
  }

  /**
   * Adds or refreshes a record. A new record is due one interval after its last check (at once if never
   * checked); a record that was just marked funded, or an `urgent` one, is due now.
   */
  upsert(r: TrackedRecord, now: number, o: { urgent?: boolean } = {}): void {
    const e = this.#entries.get(r.localId)
    if (e === undefined) {
      // A stored check time mapped into the future (after a wall-clock step) counts as "just now".
      const dueAt =
        r.lastCheckedAt === null || o.urgent ? now : Math.min(r.lastCheckedAt, now) + this.intervalFor(r, now)
      this.#entries.set(r.localId, { ...r, dueAt, failures: 0 })
      return
    }
    const newlyFunded = r.fundedAt !== null && r.fundedAt !== e.fundedAt
    e.createdAt = r.createdAt
    e.fundedAt = r.fundedAt
    e.lingering = r.lingering
    if (r.lastCheckedAt !== null && (e.lastCheckedAt === null || r.lastCheckedAt > e.lastCheckedAt)) {
      e.lastCheckedAt = r.lastCheckedAt
    }
    if (newlyFunded || o.urgent) e.dueAt = Math.min(e.dueAt, now)
  }

  /** Drops every record not in `ids` (it became terminal, or belongs to nobody any more). */
  retain(ids: ReadonlySet<string>): void {
    for (const id of this.#entries.keys()) if (!ids.has(id)) this.#entries.delete(id)
  }

  remove(localId: string): void {
    this.#entries.delete(localId)
  }

  /**
   * The record to poll now, or undefined when nothing is due. Hot records first — those not checked since they
   * were funded before the others (freshest first) — then everything else longest-overdue first.
   */
  pick(now: number, busy: { has(id: string): boolean }): string | undefined {
    let best: Entry | undefined
    let bestKey: [number, number, number, number] | undefined
    for (const e of this.#entries.values()) {
      if (e.dueAt > now || busy.has(e.localId)) continue
      const hot = this.isHot(e, now)
      const fresh = hot && e.fundedAt !== null && (e.lastCheckedAt === null || e.lastCheckedAt < e.fundedAt)
      const key: [number, number, number, number] = [hot ? 0 : 1, fresh ? 0 : 1, e.dueAt, -e.createdAt]
      if (bestKey === undefined || lessThan(key, bestKey)) {
        best = e
        bestKey = key
      }
    }
    return best?.localId
  }

  /** When the next record becomes due (busy ones excluded), or null when none is tracked. */
  nextDueAt(busy: { has(id: string): boolean }): number | null {
    let min: number | null = null
    for (const e of this.#entries.values()) {
      if (busy.has(e.localId)) continue
      if (min === null || e.dueAt < min) min = e.dueAt
    }
    return min
  }

  /** A poll answered: next one interval from now. Also ends any run of global failures. */
  succeeded(localId: string, now: number): void {
    this.#globalFailures = 0
    const e = this.#entries.get(localId)
    if (e === undefined) return
    e.failures = 0
    e.lastCheckedAt = now
    e.dueAt = now + this.intervalFor(e, now)
  }

  /** A poll failed for this record only: back off, doubling. Returns the delay. */
  failed(localId: string, now: number): number {
    const e = this.#entries.get(localId)
    if (e === undefined) return 0
    e.failures += 1
    e.lastCheckedAt = now
    const delay = Math.min(
      this.cadence.recordBackoffMaxMs,
      this.cadence.recordBackoffMs * 2 ** Math.min(e.failures - 1, 20),
    )
    // Never poll a failing record more often than its normal cadence.
    e.dueAt = now + Math.max(delay, this.intervalFor(e, now))
    return delay
  }

  /** Nothing is polled before now + ms (a 429's Retry-After, a maintenance window). Never shortens a block. */
  block(now: number, ms: number): void {
    this.#blockedUntil = Math.max(this.#blockedUntil, now + Math.max(0, ms))
  }

  /** A failure not about one record (network, 5xx, no session): block everything, doubling. Returns the delay. */
  globalFailure(now: number): number {
    this.#globalFailures += 1
    const delay = Math.min(
      this.cadence.globalBackoffMaxMs,
      this.cadence.globalBackoffMs * 2 ** Math.min(this.#globalFailures - 1, 20),
    )
    this.block(now, delay)
    return delay
  }

  /** Lifts a backoff early (e.g. the session came back). */
  unblock(): void {
    this.#blockedUntil = 0
    this.#globalFailures = 0
  }

  blockedUntil(now: number): number | null {
    return this.#blockedUntil > now ? this.#blockedUntil : null
  }
}

function tierInterval(
  tiers: ReadonlyArray<{ maxAgeMs: number; intervalMs: number }>,
  age: number,
  beyond: number,
): number {
  for (const tier of tiers) if (age < tier.maxAgeMs) return tier.intervalMs
  return beyond
}

function lessThan(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) {
    const x = a[i] as number
    const y = b[i] as number
    if (x !== y) return x < y
  }
  return false
}

/** Tokens of withdraw-status the tracker leaves untouched: the operator's "check now" must never queue behind it. */
export function defaultReserve(limitPerMinute: number): number {
  return Math.max(2, Math.ceil(limitPerMinute * 0.1))
}

// Refill arithmetic can leave 0.9999999 where a whole token is due.
const EPSILON = 1e-9

/**
 * The tracker's own token bucket: capacity = limit − reserve, refilled at the endpoint's rate. It keeps the tracker
 * within the allowance even when the client's limiter is off, and paces it independently of other callers.
 */
export class TokenBudget {
  #tokens: number
  #at: number
  readonly #perMs: number

  constructor(
    readonly capacity: number,
    limitPerMinute: number,
    now: number,
  ) {
    this.#tokens = capacity
    this.#at = now
    this.#perMs = limitPerMinute / 60_000
  }

  level(now: number): number {
    return Math.min(this.capacity, this.#tokens + Math.max(0, now - this.#at) * this.#perMs)
  }

  take(now: number): void {
    this.#tokens = this.level(now) - 1
    this.#at = now
  }

  msUntilToken(now: number): number {
    const missing = 1 - this.level(now)
    return missing <= EPSILON ? 0 : Math.ceil(missing / this.#perMs)
  }
}

/** The shape of one endpoint in `DepixClient.allowance()`. */
export interface AllowanceView {
  limitPerMinute: number
  available: number
  queued?: number
}

/**
 * Milliseconds until the tracker may send one more status request: the client's bucket must hold more than
 * `reserve` tokens beyond anyone already queued, and the tracker's own budget must hold one. 0 means now.
 */
export function msUntilPollAllowed(
  a: AllowanceView,
  reserve: number,
  budget: TokenBudget,
  now: number,
): number {
  const perMs = a.limitPerMinute / 60_000
  const missing = reserve + 1 + (a.queued ?? 0) - a.available
  const fromClient = missing <= EPSILON ? 0 : Math.ceil(missing / perMs)
  return Math.max(fromClient, budget.msUntilToken(now))
}
