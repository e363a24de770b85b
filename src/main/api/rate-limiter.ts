/**
 * Client-side token buckets, one per endpoint, mirroring the service's model (docs/API-CONTRACT.md#s8-1): capacity = one minute's
 * worth, continuous refill at limit/60 s. Callers wait in a FIFO queue for a token instead of failing, so normal
 * use never earns a 429. A 429 that still arrives empties the bucket until its `Retry-After`.
 *
 * Repeated 429s mean the configured limit is above the account's real one (a profile allowance set too high):
 * the second 429 within 5 minutes halves the endpoint's limit (never below 1 a minute), and every 30 minutes
 * without a 429 doubles it back towards the configured value. `allowance()` shows both figures.
 */
import { DEFAULT_RATE_LIMITS, ENDPOINTS, type EndpointName } from '../../shared/api-limits'
import { clampTimerMs, monotonicNow } from '../clock'
import { ApiError } from './errors'

export interface Allowance {
  /** The limit in force: the configured one, or lower after repeated 429s. */
  limitPerMinute: number
  /** The limit the profile configured (or the API contract default); `limitPerMinute` below it means "lowered". */
  configuredPerMinute?: number
  /** Tokens in the bucket now; fractional while refilling (not money). */
  available: number
  /** 0 when a call would leave now; otherwise when the next token appears. */
  nextTokenInMs: number
  /** Calls waiting for a token. */
  queued: number
}
export type Allowances = Record<EndpointName, Allowance>

export interface RateLimiterOptions {
  limits?: Partial<Record<EndpointName, number>>
  enabled?: boolean
  /** A call that would wait longer than this is refused at once (nothing sent) rather than parked. */
  maxWaitMs?: number
  /** Monotonic ms (src/main/clock.ts): a wall-clock step must not empty or freeze a bucket. */
  now?: () => number
}

// Floating-point refill can leave 0.9999999 where exactly one token is due.
const EPSILON = 1e-9

/** Two 429s this close together lower the endpoint's limit. */
export const ADAPT_WINDOW_MS = 5 * 60_000
/** A lowered limit is doubled back after this long without a 429. */
export const RECOVER_AFTER_MS = 30 * 60_000
const MIN_ADAPTED_LIMIT = 1

interface Waiter {
  resolve: () => void
  reject: (e: ApiError) => void
}

interface Bucket {
  /** In force; below `configured` after repeated 429s. */
  limit: number
  readonly configured: number
  /** tokens per ms */
  rate: number
  /** When the last counted 429 arrived (null: none yet). */
  last429: number | null
  /** When the limit last changed by adaptation. */
  adaptedAt: number
  /** Token level valued at time `at`; before `at` (a 429 penalty) the bucket is empty. */
  tokens: number
  at: number
  readonly queue: Waiter[]
  timer: NodeJS.Timeout | null
}

export class RateLimiter {
  readonly #buckets: Map<EndpointName, Bucket>
  readonly #enabled: boolean
  readonly #maxWaitMs: number
  readonly #now: () => number
  readonly #listeners = new Set<(a: Allowances) => void>()
  #notifyScheduled = false
  #closed = false

  constructor(opts: RateLimiterOptions = {}) {
    this.#enabled = opts.enabled ?? true
    this.#maxWaitMs = opts.maxWaitMs ?? 120_000
    this.#now = opts.now ?? monotonicNow
    const start = this.#now()
    this.#buckets = new Map(
      ENDPOINTS.map((name) => {
        const limit = validLimit(opts.limits?.[name]) ?? DEFAULT_RATE_LIMITS[name]
        const b: Bucket = {
          limit,
          configured: limit,
          rate: limit / 60_000,
          last429: null,
          adaptedAt: start,
          tokens: limit,
          at: start,
          queue: [],
          timer: null,
        }
        return [name, b]
      }),
    )
  }

  get enabled(): boolean {
    return this.#enabled
  }

  /** Resolves when the call may leave; rejects (nothing sent) if the wait would exceed the bound or on close. */
  acquire(endpoint: EndpointName): Promise<void> | undefined {
    if (!this.#enabled) return undefined
    if (this.#closed) return Promise.reject(closedError(endpoint))
    const b = this.#bucket(endpoint)
    const now = this.#now()
    recover(b, now)
    if (b.queue.length === 0 && level(b, now) + EPSILON >= 1) {
      take(b, now)
      this.#changed()
      return undefined
    }
    const wait = waitForTokens(b, now, b.queue.length + 1)
    if (wait > this.#maxWaitMs) {
      return Promise.reject(
        new ApiError({
          kind: 'rate_limited',
          code: 'local_rate_limit_wait',
          endpoint,
          retryAfterSeconds: Math.ceil(wait / 1000),
        }),
      )
    }
    return new Promise<void>((resolve, reject) => {
      b.queue.push({ resolve, reject })
      this.#changed()
      this.#schedule(endpoint, b)
    })
  }

  /**
   * Calls to this endpoint made before this limiter existed (a previous run of the app), as ms ago. The service's
   * bucket still counts them while this one starts full, so they are replayed on a bucket assumed empty a minute
   * ago (a lower bound of the service's: older calls are refilled by now) and kept only if that is lower.
   */
  spentBefore(endpoint: EndpointName, agesMs: readonly number[]): void {
    if (!this.#enabled) return
    const b = this.#bucket(endpoint)
    const now = this.#now()
    let tokens = 0
    let at = now - 60_000
    const times = agesMs
      .filter((a) => Number.isFinite(a) && a >= 0 && a < 60_000)
      .map((a) => now - a)
      .sort((x, y) => x - y)
    for (const t of times) {
      tokens = Math.min(b.limit, tokens + (t - at) * b.rate) - 1
      at = t
    }
    const replayed = Math.min(b.limit, tokens + (now - at) * b.rate)
    if (replayed >= level(b, now)) return
    b.tokens = replayed
    b.at = now
    this.#schedule(endpoint, b)
    this.#changed()
  }

  /** A 429 arrived: nothing leaves for this endpoint until `retryAfterMs` from now, then one token is there. */
  penalize(endpoint: EndpointName, retryAfterMs: number): void {
    if (!this.#enabled) return
    const b = this.#bucket(endpoint)
    const now = this.#now()
    adapt(b, now)
    const until = now + Math.max(0, retryAfterMs)
    // Never shorten a longer penalty already in force.
    if (b.at > until) {
      this.#changed()
      return
    }
    b.tokens = 1
    b.at = until
    this.#schedule(endpoint, b)
    this.#changed()
  }

  allowance(): Allowances {
    const now = this.#now()
    const out = {} as Allowances
    for (const [name, b] of this.#buckets) {
      if (!this.#enabled) {
        out[name] = {
          limitPerMinute: b.limit,
          configuredPerMinute: b.configured,
          available: b.limit,
          nextTokenInMs: 0,
          queued: 0,
        }
        continue
      }
      recover(b, now)
      const available = level(b, now)
      out[name] = {
        limitPerMinute: b.limit,
        configuredPerMinute: b.configured,
        available,
        nextTokenInMs: available + EPSILON >= 1 ? 0 : Math.ceil(waitForTokens(b, now, 1)),
        queued: b.queue.length,
      }
    }
    return out
  }

  onChange(listener: (a: Allowances) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  close(): void {
    this.#closed = true
    for (const [name, b] of this.#buckets) {
      if (b.timer) clearTimeout(b.timer)
      b.timer = null
      for (const w of b.queue.splice(0)) w.reject(closedError(name))
    }
    this.#listeners.clear()
  }

  #bucket(endpoint: EndpointName): Bucket {
    const b = this.#buckets.get(endpoint)
    if (!b) throw new ApiError({ kind: 'bad_request', code: 'invalid_request', endpoint })
    return b
  }

  #schedule(endpoint: EndpointName, b: Bucket): void {
    if (b.timer) clearTimeout(b.timer)
    b.timer = null
    if (b.queue.length === 0) return
    const delay = clampTimerMs(Math.max(1, Math.ceil(waitForTokens(b, this.#now(), 1))))
    b.timer = setTimeout(() => {
      b.timer = null
      this.#pump(endpoint, b)
    }, delay)
  }

  #pump(endpoint: EndpointName, b: Bucket): void {
    const now = this.#now()
    let released = false
    while (b.queue.length > 0 && level(b, now) + EPSILON >= 1) {
      take(b, now)
      b.queue.shift()?.resolve()
      released = true
    }
    if (released) this.#changed()
    this.#schedule(endpoint, b)
  }

  /** Coalesced to one notification per tick: a burst of 200 calls is one UI update, not 200. */
  #changed(): void {
    if (this.#notifyScheduled || this.#listeners.size === 0) return
    this.#notifyScheduled = true
    queueMicrotask(() => {
      this.#notifyScheduled = false
      const snapshot = this.allowance()
      for (const l of this.#listeners) {
        try {
          l(snapshot)
        } catch {
          // A faulty UI listener must not break the client.
        }
      }
    })
  }
}

function validLimit(n: number | undefined): number | undefined {
  return n !== undefined && Number.isFinite(n) && n > 0 ? n : undefined
}

function level(b: Bucket, now: number): number {
  if (now < b.at) return 0
  return Math.min(b.limit, b.tokens + (now - b.at) * b.rate)
}

function take(b: Bucket, now: number): void {
  b.tokens = level(b, now) - 1
  b.at = now
}

/** ms until the bucket holds `n` tokens (n ≤ capacity assumed for the head; later waiters queue behind it). */
function waitForTokens(b: Bucket, now: number, n: number): number {
  const start = Math.max(now, b.at)
  const have = now < b.at ? b.tokens : level(b, now)
  return Math.max(0, start - now + (n - have) / b.rate)
}

/** Re-values the bucket at `now` under a new limit (a penalty in force is kept as it is). */
function setLimit(b: Bucket, now: number, limit: number): void {
  if (now >= b.at) {
    b.tokens = level(b, now)
    b.at = now
  }
  b.limit = limit
  b.rate = limit / 60_000
  b.tokens = Math.min(b.tokens, limit)
  b.adaptedAt = now
}

/**
 * A 429 arrived. It counts only when no penalty was in force (requests already in flight when the first 429 came
 * back answer 429 too: one episode, not many). The second counted 429 within ADAPT_WINDOW_MS halves the limit.
 */
function adapt(b: Bucket, now: number): void {
  if (now < b.at) return
  const previous = b.last429
  b.last429 = now
  if (previous !== null && now - previous <= ADAPT_WINDOW_MS && b.limit > MIN_ADAPTED_LIMIT) {
    setLimit(b, now, Math.max(MIN_ADAPTED_LIMIT, Math.floor(b.limit / 2)))
    b.last429 = null
  }
}

/** A lowered limit doubles back towards the configured one for every RECOVER_AFTER_MS without a 429. */
function recover(b: Bucket, now: number): void {
  if (b.limit >= b.configured) return
  const quietSince = Math.max(b.adaptedAt, b.last429 ?? -Infinity)
  const periods = Math.floor((now - quietSince) / RECOVER_AFTER_MS)
  if (periods < 1) return
  setLimit(b, now, Math.min(b.configured, b.limit * 2 ** Math.min(periods, 30)))
  b.adaptedAt = quietSince + periods * RECOVER_AFTER_MS
}

function closedError(endpoint: EndpointName): ApiError {
  return new ApiError({ kind: 'network', code: 'client_closed', endpoint })
}
