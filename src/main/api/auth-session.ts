/**
 * The authentication lifecycle (docs/API-CONTRACT.md#s5): client-credentials login, rotating single-use refresh tokens, and the
 * legacy long-lived JWT as a second mode.
 *
 * Every change of tokens (login or refresh) goes through ONE in-flight promise. Concurrent callers share it, so a
 * refresh token is presented at most once: two refreshes of one token count as replay and revoke the session
 * (§5.3). A refresh token is taken out of the state before it is sent; it is put back only when the request
 * provably never reached the service. `invalid_grant`, or any answer that might have consumed it, leads to
 * exactly one fresh login.
 *
 * Tokens live in private fields of this object only: never in an error, a log line or SessionInfo.
 */
import { MAINTENANCE_RETRY_AFTER_SECONDS } from '../../shared/api-limits'
import { decodeJwt } from 'jose'
import { AUTH_BODY_MAX_BYTES } from '../../shared/api-limits'
import { contractError, errorFromResponse, toApiError } from './classify'
import { parseJson, tokenResponseSchema, type TokenResponse } from './envelope'
import { ApiError } from './errors'
import { AUTH_PATHS, type AuthEndpoint } from './endpoints'
import type { Redactor } from './redact'
import type { Timeouts, Transport } from './transport'

export type AuthConfig =
  | { kind: 'client_credentials'; clientId: string; clientSecret: string }
  | { kind: 'legacy_token'; token: string }

export interface SessionInfo {
  kind: 'client_credentials' | 'legacy_token'
  /** Partner identifier (`sub` claim), for display; null if the token does not say. */
  sub: string | null
  scopes: string[]
  env: string | null
  /** ISO 8601. For client credentials, local receipt time + `expires_in`; for a legacy token, its `exp`. */
  accessExpiresAt: string
}

/** `expiresAt`, `refreshAt` and `refreshIdleUntil` are on the monotonic clock; `expiresAtWall` is for display. */
interface TokenState {
  access: string
  expiresAt: number
  expiresAtWall: number
  refreshAt: number
  /** null once presented: a single-use token is never sent twice. */
  refreshToken: string | null
  refreshIdleUntil: number | null
  scopes: string[]
  sub: string | null
  env: string | null
}

interface LegacyState {
  token: string
  expMs: number
  scopes: string[]
  sub: string | null
  env: string | null
}

export interface AuthSessionDeps {
  transport: Transport
  timeouts: Timeouts
  redactor: Redactor
  /** Wall clock, epoch ms: legacy token `exp` and the displayed expiry. */
  now: () => number
  /** Monotonic ms: every lifetime and renewal decision, so a clock step cannot expire or prolong a session. */
  monotonic: () => number
}

/**
 * When to renew: at 80% of the lifetime or 30 s before the end, whichever is earlier, but never before half of
 * it (a 20 s token would otherwise be renewed on every call).
 */
export function refreshDelayMs(lifetimeMs: number): number {
  return Math.max(Math.min(0.8 * lifetimeMs, lifetimeMs - 30_000), 0.5 * lifetimeMs)
}

export class AuthSession {
  readonly #config: AuthConfig
  readonly #deps: AuthSessionDeps
  #state: TokenState | null = null
  #legacy: LegacyState | null = null
  #flight: Promise<void> | null = null
  /** Bumped on sign-out: a login or refresh that lands afterwards is discarded (and logged out). */
  #generation = 0
  readonly #listeners = new Set<(s: SessionInfo | null) => void>()

  constructor(config: AuthConfig, deps: AuthSessionDeps) {
    this.#config = config
    this.#deps = deps
    if (config.kind === 'client_credentials') deps.redactor.pin(config.clientSecret)
    else deps.redactor.pin(config.token)
  }

  get renewable(): boolean {
    return this.#config.kind === 'client_credentials'
  }

  info(): SessionInfo | null {
    const l = this.#legacy
    if (l) {
      return {
        kind: 'legacy_token',
        sub: l.sub,
        scopes: [...l.scopes],
        env: l.env,
        accessExpiresAt: iso(l.expMs),
      }
    }
    const s = this.#state
    if (!s) return null
    return {
      kind: 'client_credentials',
      sub: s.sub,
      scopes: [...s.scopes],
      env: s.env,
      accessExpiresAt: iso(s.expiresAtWall),
    }
  }

  onChange(listener: (s: SessionInfo | null) => void): () => void {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  async signIn(): Promise<SessionInfo> {
    if (this.#config.kind === 'legacy_token') return this.#signInLegacy(this.#config.token)
    if (this.#flight) await this.#flight
    else if (!this.#state || this.#deps.monotonic() >= this.#state.refreshAt)
      await this.#run(() => this.#renew())
    const info = this.info()
    if (!info) throw new ApiError({ kind: 'unauthorized', code: 'not_signed_in' })
    return info
  }

  /** Ends the session on the service (logout) and locally. Errors of the logout call are ignored (docs/API-CONTRACT.md#s5-4). */
  async signOut(): Promise<void> {
    this.#generation++
    this.#flight = null
    const had = this.#state !== null || this.#legacy !== null
    const refreshToken = this.#state?.refreshToken ?? null
    this.#state = null
    this.#legacy = null
    if (had) this.#emit()
    if (refreshToken !== null) await this.#logoutQuietly(refreshToken)
  }

  /**
   * The bearer for the next operation. Synchronous in the common case (the hot path of a polling loop);
   * renews first when the token is past its refresh point, so a POST never leaves with a token about to expire.
   */
  accessToken(): string | Promise<string> {
    const l = this.#legacy
    if (l) {
      // Refused locally, nothing sent: a legacy token cannot be renewed (docs/API-CONTRACT.md#s5-8).
      if (this.#deps.now() >= l.expMs) {
        throw new ApiError({ kind: 'unauthorized', code: 'legacy_token_expired' })
      }
      return l.token
    }
    const s = this.#state
    if (s && this.#deps.monotonic() < s.refreshAt) return s.access
    return this.#accessTokenSlow()
  }

  async #accessTokenSlow(): Promise<string> {
    let s = this.#state
    if (!s && this.#flight) {
      await this.#flight
      s = this.#state
    }
    if (!s) throw new ApiError({ kind: 'unauthorized', code: 'not_signed_in' })
    if (this.#deps.monotonic() < s.refreshAt) return s.access
    try {
      await this.renewAfter(s.access)
    } catch (e) {
      // A failed early renewal is not fatal while the current token is still comfortably valid.
      if (this.#state === s && this.#deps.monotonic() < s.expiresAt - 5_000) return s.access
      throw e
    }
    const next = this.#state
    if (!next) throw new ApiError({ kind: 'unauthorized', code: 'not_signed_in' })
    return next.access
  }

  /**
   * Renews because `stale` is no longer good (past its refresh point, or answered 401). Joins a renewal in
   * flight; does nothing if `stale` was already replaced. Resolves when a fresh token is in place.
   */
  renewAfter(stale: string): Promise<void> {
    if (this.#config.kind !== 'client_credentials') {
      return Promise.reject(new ApiError({ kind: 'unauthorized', code: 'access_token_rejected' }))
    }
    if (this.#flight) return this.#flight
    if (this.#state?.access !== stale) return Promise.resolve()
    return this.#run(() => this.#renew())
  }

  /** A 401 on a create: the token is not resent there, but the next call renews before leaving. */
  markRejected(token: string): void {
    if (this.#state?.access === token) this.#state.refreshAt = 0
  }

  #run(work: () => Promise<void>): Promise<void> {
    const p = work()
    this.#flight = p
    const clear = () => {
      if (this.#flight === p) this.#flight = null
    }
    p.then(clear, clear)
    return p
  }

  async #renew(): Promise<void> {
    const generation = this.#generation
    const s = this.#state
    const refreshToken = s?.refreshToken ?? null
    if (
      s &&
      refreshToken !== null &&
      (s.refreshIdleUntil === null || this.#deps.monotonic() < s.refreshIdleUntil)
    ) {
      s.refreshToken = null
      const sentAt = { mono: this.#deps.monotonic(), wall: this.#deps.now() }
      try {
        const tokens = await this.#call('auth/refresh', { refresh_token: refreshToken })
        this.#apply(tokens, generation, sentAt)
        return
      } catch (e) {
        const err = toApiError(e, { endpoint: 'auth/refresh', creates: false })
        if (
          (err.kind === 'network' && err.nothingSent) ||
          err.kind === 'rate_limited' ||
          (err.kind === 'maintenance' && err.retryAfterSeconds === MAINTENANCE_RETRY_AFTER_SECONDS)
        ) {
          // Provably unused (never left; or stopped before the operation by a rate limit or the maintenance
          // freeze, `Retry-After: 300`, which executes nothing): it is still the live token. Any other 503 may
          // have consumed it, and presenting it twice is a replay (spec section 5.3).
          if (this.#state === s && s.refreshToken === null) s.refreshToken = refreshToken
          throw err
        }
        if (generation !== this.#generation) throw err
        // invalid_grant (expired, revoked, session over) or an answer that may have consumed it: log in afresh.
      }
    }
    await this.#login(generation)
  }

  async #login(generation: number): Promise<void> {
    const config = this.#config
    if (config.kind !== 'client_credentials')
      throw new ApiError({ kind: 'unauthorized', code: 'not_signed_in' })
    const sentAt = { mono: this.#deps.monotonic(), wall: this.#deps.now() }
    let tokens: TokenResponse
    try {
      tokens = await this.#call('auth/login', {
        client_id: config.clientId,
        client_secret: config.clientSecret,
        grant_type: 'client_credentials',
      })
    } catch (e) {
      const err = toApiError(e, { endpoint: 'auth/login', creates: false })
      // The credential itself is refused (unknown, revoked, wrong secret): the session is over.
      if (err.kind === 'unauthorized' && generation === this.#generation && this.#state !== null) {
        this.#state = null
        this.#emit()
      }
      throw err
    }
    this.#apply(tokens, generation, sentAt)
  }

  #apply(t: TokenResponse, generation: number, sentAt: { mono: number; wall: number }): void {
    this.#deps.redactor.add(t.access_token)
    this.#deps.redactor.add(t.refresh_token)
    if (generation !== this.#generation) {
      void this.#logoutQuietly(t.refresh_token)
      throw new ApiError({ kind: 'unauthorized', code: 'not_signed_in' })
    }
    // Lifetimes are measured from when we sent the request: never later than the service's own clock start.
    const lifetimeMs = t.expires_in * 1000
    const claims = readClaims(t.access_token)
    this.#state = {
      access: t.access_token,
      expiresAt: sentAt.mono + lifetimeMs,
      expiresAtWall: sentAt.wall + lifetimeMs,
      refreshAt: sentAt.mono + refreshDelayMs(lifetimeMs),
      refreshToken: t.refresh_token,
      refreshIdleUntil: t.refresh_expires_in !== undefined ? sentAt.mono + t.refresh_expires_in * 1000 : null,
      scopes: t.scope ?? claims.scopes,
      sub: claims.sub,
      env: claims.env,
    }
    this.#emit()
  }

  #signInLegacy(token: string): SessionInfo {
    let claims: ReturnType<typeof decodeJwt>
    try {
      claims = decodeJwt(token)
    } catch {
      throw new ApiError({ kind: 'unauthorized', code: 'legacy_token_malformed' })
    }
    if (typeof claims.exp !== 'number' || !Number.isFinite(claims.exp)) {
      throw new ApiError({ kind: 'unauthorized', code: 'legacy_token_malformed' })
    }
    const expMs = claims.exp * 1000
    if (this.#deps.now() >= expMs) throw new ApiError({ kind: 'unauthorized', code: 'legacy_token_expired' })
    const c = readClaims(token)
    const changed = this.#legacy === null
    this.#legacy = { token, expMs, scopes: c.scopes, sub: c.sub, env: c.env }
    if (changed) this.#emit()
    const info = this.info()
    if (!info) throw new ApiError({ kind: 'unauthorized', code: 'not_signed_in' })
    return info
  }

  async #call(endpoint: AuthEndpoint, payload: Record<string, string>): Promise<TokenResponse> {
    const body = JSON.stringify(payload)
    // Checked before sending: the service refuses bodies over 4 KiB (docs/API-CONTRACT.md#s5-2), and we learn it for free.
    if (Buffer.byteLength(body, 'utf8') > AUTH_BODY_MAX_BYTES) {
      throw new ApiError({ kind: 'bad_request', code: 'auth_body_too_large', endpoint })
    }
    const ctx = { endpoint, creates: false, redactor: this.#deps.redactor, now: this.#deps.now() }
    let res
    try {
      res = await this.#deps.transport.send({
        method: 'POST',
        path: AUTH_PATHS[endpoint],
        body,
        headersTimeoutMs: this.#deps.timeouts.headersMs,
        bodyTimeoutMs: this.#deps.timeouts.bodyMs,
      })
    } catch (e) {
      throw toApiError(e, ctx)
    }
    ctx.now = this.#deps.now()
    if (res.status < 200 || res.status > 299) throw errorFromResponse(res, ctx)
    const parsed = tokenResponseSchema.safeParse(parseJson(res.text))
    if (!parsed.success) throw contractError(res, ctx)
    return parsed.data
  }

  async #logoutQuietly(refreshToken: string): Promise<void> {
    const body = JSON.stringify({ refresh_token: refreshToken })
    if (Buffer.byteLength(body, 'utf8') > AUTH_BODY_MAX_BYTES) return
    try {
      await this.#deps.transport.send({
        method: 'POST',
        path: AUTH_PATHS['auth/logout'],
        body,
        headersTimeoutMs: Math.min(5_000, this.#deps.timeouts.headersMs),
        bodyTimeoutMs: Math.min(5_000, this.#deps.timeouts.bodyMs),
      })
    } catch {
      // Logout always answers 204 and its failure changes nothing for us: the tokens are already forgotten.
    }
  }

  #emit(): void {
    const info = this.info()
    for (const l of this.#listeners) {
      try {
        l(info)
      } catch {
        // A faulty UI listener must not break authentication.
      }
    }
  }
}

function readClaims(token: string): { sub: string | null; env: string | null; scopes: string[] } {
  try {
    const c = decodeJwt(token)
    const scope = (c as { scope?: unknown }).scope
    const scopes = Array.isArray(scope)
      ? scope.filter((s): s is string => typeof s === 'string')
      : typeof scope === 'string'
        ? scope.split(/\s+/).filter(Boolean)
        : []
    const env = (c as { env?: unknown }).env
    return {
      sub: typeof c.sub === 'string' ? c.sub : null,
      env: typeof env === 'string' ? env : null,
      scopes,
    }
  } catch {
    // Claims are for display only; the service is the judge of the token.
    return { sub: null, env: null, scopes: [] }
  }
}

function iso(ms: number): string {
  return new Date(ms).toISOString()
}
