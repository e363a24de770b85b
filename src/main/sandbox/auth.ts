/**
 * Client credentials, refresh sessions and the three `/api/v2/auth/*` endpoints (docs/API-CONTRACT.md#s5-1–§5.5). Refresh
 * tokens are single-use and rotating; presenting a rotated one is a replay that revokes the whole session
 * (its access tokens included) and counts a security alert. Revoking a credential ends its sessions but
 * leaves already issued access tokens valid until they expire, as the API contract says.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import type { SandboxClock } from './clock'
import { AuthError, badInput, ControlError, notFound } from './errors'
import type { TokenBuckets } from './rate-limit'
import { LEGACY_MAX_SECONDS, type TokenService } from './tokens'
import type { SandboxCredential } from './types'

export const ALL_SCOPES = ['deposit', 'withdrawal', 'user'] as const
const LABEL = /^[A-Za-z0-9._-]{1,64}$/

export interface AuthConfig {
  accessTokenTtlSeconds: number
  refreshIdleSeconds: number
  sessionMaxSeconds: number
  loginRateLimitPerMinute: number
  maxCredentials: number
}

/**
 * What the HTTP layer hands over: the body is not parsed yet, so the content-type and size rules apply here.
 */
export interface RawBody {
  contentType: string | undefined
  text: string
  tooLarge: boolean
}

export interface AuthReply {
  status: number
  body?: unknown
}

interface Credential {
  clientId: string
  secretHash: Buffer
  label: string
  scopes: string[]
  createdAt: number
  revoked: boolean
}

interface Session {
  id: string
  clientId: string
  scopes: string[]
  absoluteEnd: number
  idleEnd: number
  revoked: boolean
  jtis: string[]
}

const sha256 = (s: string): Buffer => createHash('sha256').update(s).digest()
const opaque = (prefix: string): string => `${prefix}${randomBytes(32).toString('base64url')}`

function invalidRequest(message: string): AuthError {
  return new AuthError(400, 'invalid_request', message)
}

export function isJsonContentType(ct: string | undefined): boolean {
  if (ct === undefined) return false
  return ct.split(';', 1)[0]?.trim().toLowerCase() === 'application/json'
}

/** Scope list of a new credential: `all` expands; `withdraw` (the legacy payout scope) is refused. */
export function expandScopes(requested: readonly string[] | undefined): string[] {
  const list = requested === undefined || requested.length === 0 ? ['all'] : requested
  const out = new Set<string>()
  for (const s of list) {
    if (s === 'all') ALL_SCOPES.forEach((x) => out.add(x))
    else if ((ALL_SCOPES as readonly string[]).includes(s)) out.add(s)
    else throw badInput(`Invalid scope: ${String(s)}`)
  }
  return ALL_SCOPES.filter((s) => out.has(s))
}

export class Auth {
  private readonly credentials = new Map<string, Credential>()
  private readonly sessions = new Map<string, Session>()
  private readonly refreshTokens = new Map<string, { sessionId: string; rotated: boolean }>()
  private labelCounter = 0
  securityAlerts = 0

  constructor(
    private readonly clock: SandboxClock,
    private readonly tokens: TokenService,
    private readonly buckets: TokenBuckets,
    private readonly cfg: AuthConfig,
  ) {}

  createCredential(o: { label?: string; scopes?: string[] } = {}): SandboxCredential {
    const label = o.label ?? `sandbox-${++this.labelCounter}`
    if (typeof label !== 'string' || !LABEL.test(label)) {
      throw badInput('label: 1 to 64 characters from A-Z a-z 0-9 . _ -')
    }
    if (o.scopes !== undefined && !Array.isArray(o.scopes)) throw badInput('scopes must be an array')
    const scopes = expandScopes(o.scopes)
    const live = [...this.credentials.values()].filter((c) => !c.revoked)
    if (live.some((c) => c.label === label)) {
      throw badInput(`label already used by a live credential: ${label}`)
    }
    if (live.length >= this.cfg.maxCredentials) {
      throw new ControlError(409, 'too_many_clients', 'At the credential limit: remove a credential first')
    }
    const clientId = `cid_${randomBytes(12).toString('hex')}`
    const clientSecret = opaque('cs_')
    this.credentials.set(clientId, {
      clientId,
      secretHash: sha256(clientSecret),
      label,
      scopes,
      createdAt: this.clock.now(),
      revoked: false,
    })
    return { clientId, clientSecret, scopes: [...scopes] }
  }

  revokeCredential(clientId: string): void {
    const c = this.credentials.get(clientId)
    if (c === undefined) throw notFound('credential', clientId)
    c.revoked = true
    for (const s of this.sessions.values()) if (s.clientId === clientId) s.revoked = true
  }

  listCredentials(): Array<{ clientId: string; label: string; scopes: string[]; revoked: boolean }> {
    return [...this.credentials.values()].map((c) => ({
      clientId: c.clientId,
      label: c.label,
      scopes: [...c.scopes],
      revoked: c.revoked,
    }))
  }

  liveSessions(): number {
    const now = this.clock.now()
    let n = 0
    for (const s of this.sessions.values()) if (this.isLive(s, now)) n++
    return n
  }

  mintLegacyToken(expiresInSeconds = LEGACY_MAX_SECONDS): string {
    if (
      !Number.isSafeInteger(expiresInSeconds) ||
      expiresInSeconds < 1 ||
      expiresInSeconds > LEGACY_MAX_SECONDS
    ) {
      throw badInput(`expiresInSeconds must be an integer from 1 to ${LEGACY_MAX_SECONDS}`)
    }
    return this.tokens.mint(['withdraw'], expiresInSeconds).token
  }

  login(raw: RawBody, ip: string): AuthReply {
    this.checkShape(raw)
    this.limit(`login-ip:${ip}`, this.cfg.loginRateLimitPerMinute * 3)
    const body = this.parse(raw, ['client_id', 'client_secret', 'grant_type'])
    const clientId = body.client_id
    const secret = body.client_secret
    if (typeof clientId !== 'string' || clientId === '') {
      throw invalidRequest('client_id must be a non-empty string')
    }
    if (typeof secret !== 'string' || secret === '') {
      throw invalidRequest('client_secret must be a non-empty string')
    }
    if (body.grant_type !== undefined && body.grant_type !== 'client_credentials') {
      throw invalidRequest('grant_type must be client_credentials')
    }
    this.limit(`login-cred:${clientId}`, this.cfg.loginRateLimitPerMinute)
    const c = this.credentials.get(clientId)
    // Unknown, revoked and wrong secret are indistinguishable (docs/API-CONTRACT.md#s5-5); always compare, for flat timing.
    const ok = timingSafeEqual(c?.secretHash ?? sha256(''), sha256(secret))
    if (c === undefined || c.revoked || !ok) {
      throw new AuthError(401, 'invalid_client', 'Invalid client credentials')
    }
    const now = this.clock.now()
    const session: Session = {
      id: randomBytes(12).toString('hex'),
      clientId,
      scopes: [...c.scopes],
      absoluteEnd: now + this.cfg.sessionMaxSeconds * 1000,
      idleEnd: 0,
      revoked: false,
      jtis: [],
    }
    this.sessions.set(session.id, session)
    return { status: 200, body: this.issue(session, now) }
  }

  refresh(raw: RawBody, ip: string): AuthReply {
    this.checkShape(raw)
    this.limit(`refresh-ip:${ip}`, this.cfg.loginRateLimitPerMinute * 3)
    const body = this.parse(raw, ['refresh_token'])
    const token = body.refresh_token
    if (typeof token !== 'string' || token === '') {
      throw invalidRequest('refresh_token must be a non-empty string')
    }
    const invalidGrant = new AuthError(401, 'invalid_grant', 'Invalid refresh token')
    const entry = this.refreshTokens.get(token)
    const session = entry === undefined ? undefined : this.sessions.get(entry.sessionId)
    if (entry === undefined || session === undefined) throw invalidGrant
    this.limit(`refresh-cred:${session.clientId}`, this.cfg.loginRateLimitPerMinute)
    if (entry.rotated) {
      if (!session.revoked) this.securityAlerts += 1
      session.revoked = true
      this.tokens.revoke(session.jtis)
      throw invalidGrant
    }
    const now = this.clock.now()
    if (!this.isLive(session, now)) throw invalidGrant
    entry.rotated = true
    return { status: 200, body: this.issue(session, now) }
  }

  /** Always 204 (docs/API-CONTRACT.md#s5-4): whatever the body, the answer reveals nothing about the token. */
  logout(raw: RawBody): AuthReply {
    try {
      const v: unknown = JSON.parse(raw.text)
      const token =
        typeof v === 'object' && v !== null ? (v as Record<string, unknown>).refresh_token : undefined
      const entry = typeof token === 'string' ? this.refreshTokens.get(token) : undefined
      const session = entry === undefined ? undefined : this.sessions.get(entry.sessionId)
      if (session !== undefined) session.revoked = true
    } catch {
      // Malformed body: still 204.
    }
    return { status: 204 }
  }

  private isLive(s: Session, now: number): boolean {
    const c = this.credentials.get(s.clientId)
    return !s.revoked && c !== undefined && !c.revoked && now < s.idleEnd && now < s.absoluteEnd
  }

  /** New access token and refresh token; the idle expiry restarts but never passes the absolute end. */
  private issue(session: Session, now: number): Record<string, unknown> {
    const { token, claims } = this.tokens.mint(session.scopes, this.cfg.accessTokenTtlSeconds)
    session.jtis.push(claims.jti)
    session.idleEnd = Math.min(now + this.cfg.refreshIdleSeconds * 1000, session.absoluteEnd)
    const refreshToken = opaque('rt_')
    this.refreshTokens.set(refreshToken, { sessionId: session.id, rotated: false })
    return {
      access_token: token,
      token_type: 'Bearer',
      expires_in: this.cfg.accessTokenTtlSeconds,
      refresh_token: refreshToken,
      refresh_expires_in: Math.max(0, Math.floor((session.idleEnd - now) / 1000)),
      scope: [...session.scopes],
    }
  }

  private checkShape(raw: RawBody): void {
    if (!isJsonContentType(raw.contentType)) {
      throw new AuthError(415, 'invalid_request', 'Content-Type must be application/json')
    }
    if (raw.tooLarge) throw invalidRequest('Request body exceeds 4096 bytes')
  }

  private parse(raw: RawBody, allowed: readonly string[]): Record<string, unknown> {
    let v: unknown
    try {
      v = JSON.parse(raw.text)
    } catch {
      throw invalidRequest('Malformed JSON body')
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) {
      throw invalidRequest('Body must be a JSON object')
    }
    for (const k of Object.keys(v)) if (!allowed.includes(k)) throw invalidRequest(`Unknown field: ${k}`)
    return v as Record<string, unknown>
  }

  private limit(key: string, perMinute: number): void {
    const r = this.buckets.take(key, perMinute, this.clock.now())
    if (!r.ok) {
      throw new AuthError(429, 'rate_limited', 'Too many attempts; retry later', {
        'Retry-After': String(r.retryAfterSeconds),
      })
    }
  }
}
