/**
 * The DePix API client of the main process. See docs/API-CLIENT.md for the behaviour as a whole.
 *
 * Retry policy in one place (this file): reads retry network failures and 5xx other than 520 with capped,
 * jittered backoff, and wait out a short `Retry-After`; creates (POST /withdraw, /deposit) are sent exactly once,
 * whatever happens. Nothing below this file retries: the transport has no retry layer (see transport.ts).
 */
import type { z } from 'zod'
import type { EndpointName } from '../../shared/api-limits'
import type { WithdrawRequest } from '../../shared/withdrawal'
import { monotonicNow } from '../clock'
import { AuthSession, type AuthConfig, type SessionInfo } from './auth-session'
import { contractError, errorFromResponse, toApiError } from './classify'
import { parseJson, salvageCreatedId } from './envelope'
import type {
  DepositCreated,
  DepositRow,
  DepositStatus,
  Ping,
  UserInfo,
  WithdrawCreated,
  WithdrawalStatus,
} from './envelope'
import {
  depositBody,
  ENDPOINT_DEFS,
  query,
  withdrawBody,
  type DepositRequest,
  type EndpointDef,
} from './endpoints'
import { ApiError, type ApiErrorInit } from './errors'
import { RateLimiter, type Allowance } from './rate-limiter'
import { Redactor } from './redact'
import { backoffMs, defaultSleep, DEFAULT_RETRY, type RetryPolicy } from './retry'
import { DEFAULT_TIMEOUTS, normalizeBaseUrl, Transport, type RawResponse, type Timeouts } from './transport'

export { ApiError, API_ERROR_KINDS, isApiError } from './errors'
export type { ApiErrorKind, ApiErrorCode, ApiErrorJson } from './errors'
export type { Locale } from './messages'
export type { SessionInfo, AuthConfig } from './auth-session'
export type { Allowance, Allowances } from './rate-limiter'
export type { DepositRequest } from './endpoints'
export type { WithdrawRequest } from '../../shared/withdrawal'
export type {
  Ping,
  WithdrawCreated,
  WithdrawalStatus,
  WithdrawalRefund,
  DepositCreated,
  DepositStatus,
  DepositRow,
  UserInfo,
} from './envelope'
export type { Timeouts } from './transport'
export type { RetryPolicy } from './retry'
export { DEFAULT_TIMEOUTS } from './transport'
export { DEFAULT_RETRY } from './retry'
export { invalidStatusFields } from './envelope'

export interface DepixClientOptions {
  /** Normalised once: trailing `/` removed; `/api` and `/api/v2/auth` are added by the client. */
  baseUrl: string
  auth: AuthConfig
  /** Operations per minute, per endpoint; missing ones use the docs/API-CONTRACT.md#s8-1 defaults. */
  rateLimits?: Partial<Record<EndpointName, number>>
  /** Overrides the headers and body timeouts of every request (and the connect timeout when shorter). */
  timeoutMs?: number
  /** Finer control than `timeoutMs`, applied after it. */
  timeouts?: Partial<Timeouts>
  /** 'off' skips the client-side limiter (benchmarks, or a sandbox with raised limits). Default 'on'. */
  limiter?: 'on' | 'off'
  /** A call that would wait longer than this for a limiter token fails at once (nothing sent). Default 120 s. */
  limiterMaxWaitMs?: number
  /** Puts another budget behind the desk's limiter: the team ledger's shared one (src/main/ledger/pg). */
  wrapLimiter?: (own: RateLimiter) => Pick<
    RateLimiter,
    'enabled' | 'acquire' | 'penalize' | 'allowance' | 'onChange' | 'close'
  > & {
    reserve?: (endpoint: EndpointName) => Promise<number>
  }
  retry?: Partial<RetryPolicy>
  /** Wall clock, epoch ms: HTTP dates and displayed times only. Injectable for tests. */
  now?: () => number
  /**
   * Monotonic ms for every wait, budget and lifetime (src/main/clock.ts). Defaults to `monotonicNow`, or to an
   * injected `now` when only that is given (a test clock then drives both).
   */
  monotonic?: () => number
  sleep?: (ms: number) => Promise<void>
  random?: () => number
  userAgent?: string
}

export interface ApiResult<T> {
  data: T
  /**
   * `response` exactly as the service sent it, before any field was checked: what the ledger stores, so an
   * observation keeps even the values `data` had to drop.
   */
  raw?: unknown
  requestId: string | null
  nonce: string | null
  status: number
}

export interface DepixClient {
  signIn(): Promise<SessionInfo>
  signOut(): Promise<void>
  session(): SessionInfo | null
  ping(): Promise<ApiResult<Ping>>
  withdraw(body: WithdrawRequest): Promise<ApiResult<WithdrawCreated>>
  withdrawStatus(id: string): Promise<ApiResult<WithdrawalStatus>>
  deposit(body: DepositRequest): Promise<ApiResult<DepositCreated>>
  depositStatus(id: string): Promise<ApiResult<DepositStatus>>
  deposits(q: { start: string; end: string; status?: string }): Promise<ApiResult<DepositRow[]>>
  userInfo(euid: string): Promise<ApiResult<UserInfo>>
  allowance(): Record<EndpointName, Allowance>
  /** Calls made to `endpoint` by an earlier run of the app, `agesMs` ago, that the service still counts. */
  spentBefore(endpoint: EndpointName, agesMs: readonly number[]): void
  /**
   * Takes the next `endpoint` call's token from a budget behind the desk's own (the team's) now, so a create does
   * not journal and then wait for it: 0 when taken, else ms until one is due (nothing taken). 0 without one.
   */
  reserve(endpoint: EndpointName): Promise<number>
  onAllowanceChange(l: (a: Record<EndpointName, Allowance>) => void): () => void
  onSessionChange(l: (s: SessionInfo | null) => void): () => void
  /** Signs out (logout is best effort), refuses queued and further calls, releases the connections. */
  close(): Promise<void>
}

interface CallInput {
  query?: Record<string, string>
  body?: string
}

export function createDepixClient(opts: DepixClientOptions): DepixClient {
  const base = normalizeBaseUrl(opts.baseUrl)
  const now = opts.now ?? (() => Date.now())
  const monotonic = opts.monotonic ?? opts.now ?? monotonicNow
  const sleep = opts.sleep ?? defaultSleep
  const random = opts.random ?? Math.random
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...opts.retry }
  const timeouts = resolveTimeouts(opts)
  const redactor = new Redactor()
  const transport = new Transport(base, timeouts.connectMs, opts.userAgent ?? 'tesouraria-depix')
  const ownLimiter = new RateLimiter({
    limits: opts.rateLimits,
    enabled: opts.limiter !== 'off',
    maxWaitMs: opts.limiterMaxWaitMs,
    now: monotonic,
  })
  const limiter: ReturnType<NonNullable<DepixClientOptions['wrapLimiter']>> = opts.wrapLimiter
    ? opts.wrapLimiter(ownLimiter)
    : ownLimiter
  const auth = new AuthSession(opts.auth, { transport, timeouts, redactor, now, monotonic })
  let closed = false

  async function call<S extends z.ZodType>(
    def: EndpointDef<S>,
    input: CallInput,
  ): Promise<ApiResult<z.output<S>>> {
    const ctx = { endpoint: def.name, creates: def.creates, redactor }
    let attempt = 0
    let renewed = false
    for (;;) {
      if (closed) throw new ApiError({ kind: 'network', code: 'client_closed', endpoint: def.name })
      attempt++
      const wait = limiter.acquire(def.name)
      if (wait) await wait
      const pending = auth.accessToken()
      const token = typeof pending === 'string' ? pending : await pending
      let res: RawResponse
      try {
        res = await transport.send({
          method: def.method,
          path: def.path,
          query: input.query,
          body: input.body,
          bearer: token,
          headersTimeoutMs: def.creates ? timeouts.createHeadersMs : timeouts.headersMs,
          bodyTimeoutMs: timeouts.bodyMs,
          ownConnection: def.creates,
        })
      } catch (e) {
        const err = toApiError(e, ctx)
        if (
          !def.creates &&
          err.kind === 'network' &&
          err.code !== 'client_closed' &&
          attempt < retry.attempts
        ) {
          await sleep(backoffMs(attempt, retry, random))
          continue
        }
        throw err
      }
      if (res.status >= 200 && res.status <= 299) return decode(def, res, ctx)

      const err = errorFromResponse(res, { ...ctx, now: now() })
      // Creates stop here, whatever the answer: no layer ever sends a withdrawal or deposit twice.
      if (def.creates) {
        if (err.kind === 'rate_limited') limiter.penalize(def.name, retryAfterMs(err, def.name))
        if (err.kind === 'unauthorized' && auth.renewable) {
          auth.markRejected(token)
          throw withCode(err, 'access_token_rejected')
        }
        throw err
      }
      if (err.kind === 'unauthorized' && !renewed && auth.renewable) {
        renewed = true
        attempt--
        await auth.renewAfter(token)
        continue
      }
      if (err.kind === 'rate_limited') {
        const ms = retryAfterMs(err, def.name)
        limiter.penalize(def.name, ms)
        if (attempt < retry.attempts && ms <= retry.maxRetryAfterMs) {
          // With the limiter on, the next acquire already waits until the penalty ends.
          if (!limiter.enabled) await sleep(ms)
          continue
        }
        throw err
      }
      if (err.kind === 'maintenance') {
        const ms = (err.retryAfterSeconds ?? 0) * 1000
        if (attempt < retry.attempts && ms <= retry.maxRetryAfterMs) {
          await sleep(ms)
          continue
        }
        throw err
      }
      if (err.kind === 'server' && attempt < retry.attempts) {
        await sleep(backoffMs(attempt, retry, random))
        continue
      }
      throw err
    }
  }

  function decode<S extends z.ZodType>(
    def: EndpointDef<S>,
    res: RawResponse,
    ctx: { endpoint: string; creates: boolean; redactor: Redactor },
  ): ApiResult<z.output<S>> {
    const json = parseJson(res.text)
    const parsed = json === undefined ? null : def.envelope.safeParse(json)
    if (!parsed?.success) {
      const createdId = def.createdIdKey ? salvageCreatedId(json, def.createdIdKey) : undefined
      throw contractError(res, { ...ctx, now: now() }, createdId)
    }
    return {
      data: parsed.data.response as z.output<S>,
      raw: (json as { response?: unknown }).response,
      requestId: res.requestId,
      nonce: res.nonce,
      status: res.status,
    }
  }

  function retryAfterMs(err: ApiError, endpoint: EndpointName): number {
    if (err.retryAfterSeconds !== undefined) return err.retryAfterSeconds * 1000
    // No header (off-spec): wait one refill period of the endpoint, at least a second.
    const perMinute = limiter.allowance()[endpoint].limitPerMinute
    return Math.max(1000, Math.ceil(60_000 / perMinute))
  }

  /** Every public operation rejects with ApiError only, even for a throw we did not foresee. */
  function guarded<A extends unknown[], T>(
    endpoint: EndpointName,
    fn: (...args: A) => Promise<T>,
  ): (...args: A) => Promise<T> {
    const creates = ENDPOINT_DEFS[endpoint].creates
    return async (...args: A) => {
      try {
        return await fn(...args)
      } catch (e) {
        throw toApiError(e, { endpoint, creates })
      }
    }
  }

  return {
    signIn: async () => {
      if (closed) throw new ApiError({ kind: 'network', code: 'client_closed' })
      try {
        return await auth.signIn()
      } catch (e) {
        throw toApiError(e, { endpoint: 'auth/login', creates: false })
      }
    },
    signOut: () => auth.signOut(),
    session: () => auth.info(),
    ping: guarded('ping', () => call(ENDPOINT_DEFS.ping, {})),
    withdraw: guarded('withdraw', async (body: WithdrawRequest) =>
      call(ENDPOINT_DEFS.withdraw, { body: withdrawBody(body) }),
    ),
    withdrawStatus: guarded('withdraw-status', async (id: string) =>
      call(ENDPOINT_DEFS['withdraw-status'], { query: query('withdraw-status', { id }) }),
    ),
    deposit: guarded('deposit', async (body: DepositRequest) =>
      call(ENDPOINT_DEFS.deposit, { body: depositBody(body) }),
    ),
    depositStatus: guarded('deposit-status', async (id: string) =>
      call(ENDPOINT_DEFS['deposit-status'], { query: query('deposit-status', { id }) }),
    ),
    deposits: guarded('deposits', async (q: { start: string; end: string; status?: string }) =>
      call(ENDPOINT_DEFS.deposits, {
        query: query('deposits', { start: q?.start, end: q?.end, status: q?.status }, ['status']),
      }),
    ),
    userInfo: guarded('user-info', async (euid: string) =>
      call(ENDPOINT_DEFS['user-info'], { query: query('user-info', { euid }) }),
    ),
    allowance: () => limiter.allowance(),
    // The desk's own bucket: a team budget behind it (wrapLimiter) keeps its count in the database.
    spentBefore: (endpoint, agesMs) => ownLimiter.spentBefore(endpoint, agesMs),
    reserve: (endpoint) => limiter.reserve?.(endpoint) ?? Promise.resolve(0),
    onAllowanceChange: (l) => limiter.onChange(l),
    onSessionChange: (l) => auth.onChange(l),
    close: async () => {
      if (closed) return
      closed = true
      limiter.close()
      await auth.signOut()
      await transport.close()
    },
  }
}

function resolveTimeouts(opts: DepixClientOptions): Timeouts {
  const t: Timeouts = { ...DEFAULT_TIMEOUTS }
  if (opts.timeoutMs !== undefined && opts.timeoutMs > 0) {
    t.headersMs = opts.timeoutMs
    t.createHeadersMs = opts.timeoutMs
    t.bodyMs = opts.timeoutMs
    t.connectMs = Math.min(t.connectMs, opts.timeoutMs)
  }
  for (const [key, value] of Object.entries(opts.timeouts ?? {})) {
    if (typeof value === 'number' && value > 0) t[key as keyof Timeouts] = value
  }
  return t
}

function withCode(err: ApiError, code: NonNullable<ApiErrorInit['code']>): ApiError {
  const { name: _name, message: _message, outcomeUnknown: _outcome, ...init } = err.toJSON()
  return new ApiError({ ...init, code })
}
