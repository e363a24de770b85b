/**
 * The account's rate budget shared by every desk: per-endpoint token buckets in the team ledger (schema.ts),
 * taken atomically by `take_rate_token`. The desk's own RateLimiter (src/main/api/rate-limiter.ts) keeps its
 * FIFO queue and its 429 adaptation; `sharedLimiter` puts the team's bucket behind it, so a call leaves only when
 * both the desk and the whole team have a token. A 429 seen by any desk penalises the team's bucket for everyone.
 *
 * If the ledger server is unreachable the call waits (bounded by maxWaitMs) and then fails with nothing sent:
 * without the shared budget a desk cannot know what the others spent.
 */
import type pg from 'pg'
import { ENDPOINTS, type EndpointName } from '../../shared/api-limits'
import { ApiError } from './errors'
import { monotonicNow } from '../clock'
import type { Allowances, RateLimiter } from './rate-limiter'
import { mapPgError } from '../ledger/team-errors'

export interface SharedRateBudget {
  /** 0 when a token was taken for the team; otherwise ms until one is due (nothing taken). */
  tryTake(endpoint: EndpointName): Promise<number>
  /** Waits for a team token; rejects with ApiError rate_limited (nothing sent) beyond maxWaitMs. */
  take(endpoint: EndpointName): Promise<void>
  penalize(endpoint: EndpointName, retryAfterMs: number): Promise<void>
  /** Team limits per minute as configured in the ledger (the contract's, or a lower team allowance). */
  limits(): Promise<Record<EndpointName, number>>
}

export function sharedRateBudget(
  pool: pg.Pool,
  o: { maxWaitMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): SharedRateBudget {
  const maxWaitMs = o.maxWaitMs ?? 120_000
  const sleep = o.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)))
  const tryTake = async (endpoint: EndpointName): Promise<number> => {
    try {
      const r = await pool.query('SELECT take_rate_token($1) AS wait', [endpoint])
      return Number(r.rows[0]?.wait ?? 0)
    } catch (e) {
      throw mapPgError(e)
    }
  }
  return {
    tryTake,
    take: async (endpoint) => {
      // Monotonic: a wall-clock step must not stretch or cut the wait (src/main/clock.ts).
      const started = monotonicNow()
      for (;;) {
        const wait = await tryTake(endpoint)
        if (wait === 0) return
        if (monotonicNow() - started + wait > maxWaitMs) {
          throw new ApiError({
            kind: 'rate_limited',
            code: 'local_rate_limit_wait',
            endpoint,
            retryAfterSeconds: Math.ceil(wait / 1000),
          })
        }
        await sleep(wait)
      }
    },
    penalize: async (endpoint, ms) => {
      try {
        await pool.query('SELECT penalize_rate($1, $2)', [endpoint, ms])
      } catch (e) {
        throw mapPgError(e)
      }
    },
    limits: async () => {
      const r = await pool.query('SELECT endpoint, per_minute FROM rate_buckets')
      const out = {} as Record<EndpointName, number>
      for (const row of r.rows as { endpoint: string; per_minute: number }[]) {
        const e = ENDPOINTS.find((x) => x === row.endpoint)
        if (e) out[e] = Number(row.per_minute)
      }
      return out
    },
  }
}

/** The RateLimiter surface the client uses (src/main/api/index.ts). */
export type LimiterLike = Pick<
  RateLimiter,
  'enabled' | 'acquire' | 'penalize' | 'allowance' | 'onChange' | 'close'
> & {
  /** Takes the next call's team token now: 0 when taken, else ms until one is due (nothing taken). */
  reserve(endpoint: EndpointName): Promise<number>
}

/**
 * How long a reserved team token waits for its call. A create reserves right before it journals and POSTs, so it
 * is used within one ledger round trip; an unused one (the create was refused) lapses instead of letting a later
 * call skip the team's budget.
 */
export const RESERVED_TOKEN_TTL_MS = 5_000

/**
 * A limiter with the desk's RateLimiter interface whose `acquire` also takes the team's token. Penalties go to
 * both; allowance and listeners stay the desk's (what this desk may send right now).
 */
export function sharedLimiter(
  local: RateLimiter,
  budget: SharedRateBudget,
  o: { now?: () => number } = {},
): LimiterLike {
  const now = o.now ?? monotonicNow
  /**
   * The reserved team tokens per endpoint, oldest first, each with when it was taken (monotonic ms). One per
   * reserve: two creates at once on one desk each hold their own, or the second would journal and then wait in
   * the team's queue for its POST (the case reserving exists to prevent).
   */
  const reserved = new Map<EndpointName, number[]>()
  const takeReserved = (endpoint: EndpointName): boolean => {
    const live = (reserved.get(endpoint) ?? []).filter((at) => now() - at <= RESERVED_TOKEN_TTL_MS)
    const used = live.shift() !== undefined
    reserved.set(endpoint, live)
    return used
  }
  return {
    get enabled() {
      return local.enabled
    },
    acquire: (endpoint) => {
      const own = local.acquire(endpoint)
      if (takeReserved(endpoint)) return own
      return (own ?? Promise.resolve()).then(() => budget.take(endpoint))
    },
    reserve: async (endpoint) => {
      const wait = await budget.tryTake(endpoint)
      if (wait === 0) reserved.set(endpoint, [...(reserved.get(endpoint) ?? []), now()])
      return wait
    },
    penalize: (endpoint, ms) => {
      local.penalize(endpoint, ms)
      // Best effort: the desk's own penalty already holds this desk back if the server is unreachable.
      budget.penalize(endpoint, ms).catch(() => undefined)
    },
    allowance: (): Allowances => local.allowance(),
    onChange: (l) => local.onChange(l),
    close: () => local.close(),
  }
}
