import { inspect } from 'node:util'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  ApiError,
  createDepixClient,
  type DepixClient,
  type DepixClientOptions,
  type SessionInfo,
} from '../../../src/main/api'
import { refreshDelayMs } from '../../../src/main/api/auth-session'
import {
  authed,
  fail,
  fakeJwt,
  installFakeAuth,
  ok,
  reset,
  startFakeServer,
  type FakeAuth,
  type FakeServer,
} from './helpers/fake-server'

const SECRET = 'client-secret-for-auth-tests-0002'
const STATUS = { id: 'w1', status: 'sent' }

let server: FakeServer
let auth: FakeAuth
let clock: number
const clients: DepixClient[] = []
const errors: ApiError[] = []

function make(over: Partial<DepixClientOptions> = {}): DepixClient {
  const c = createDepixClient({
    baseUrl: server.baseUrl,
    auth: { kind: 'client_credentials', clientId: 'cid', clientSecret: SECRET },
    rateLimits: { 'withdraw-status': 6000, withdraw: 6000 },
    now: () => clock,
    sleep: async () => undefined,
    timeoutMs: 1_000,
    ...over,
  })
  clients.push(c)
  return c
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(ApiError)
  errors.push(e as ApiError)
  return e as ApiError
}

beforeEach(async () => {
  clock = Date.now()
  server = await startFakeServer()
  auth = installFakeAuth(server, { secret: SECRET, expiresIn: 300 })
  server.route('GET /api/withdraw-status', authed(auth, ok(STATUS)))
  server.route('POST /api/withdraw', authed(auth, ok({ withdrawalId: 'w1' })))
})
afterEach(async () => {
  for (const c of clients.splice(0)) await c.close()
  await server.close()
})

describe('refresh timing', () => {
  it('renews at 80% of the lifetime or 30 s before the end, whichever is earlier, never before half', () => {
    expect(refreshDelayMs(300_000)).toBe(240_000)
    expect(refreshDelayMs(60_000)).toBe(30_000)
    expect(refreshDelayMs(100_000)).toBe(70_000)
    expect(refreshDelayMs(20_000)).toBe(10_000)
    expect(refreshDelayMs(3_600_000)).toBe(2_880_000)
  })
})

describe('client-credentials session', () => {
  it('signs in and exposes claims for display only', async () => {
    const c = make()
    const seen: Array<SessionInfo | null> = []
    c.onSessionChange((s) => seen.push(s))
    const info = await c.signIn()
    expect(info).toEqual({
      kind: 'client_credentials',
      sub: 'partner-1',
      env: 'test',
      scopes: ['withdrawal', 'deposit'],
      accessExpiresAt: new Date(clock + 300_000).toISOString(),
    })
    expect(seen).toEqual([info])
    expect(c.session()).toEqual(info)
    const body = JSON.parse(server.requests[0]?.body ?? '{}') as Record<string, unknown>
    expect(body).toEqual({ client_id: 'cid', client_secret: SECRET, grant_type: 'client_credentials' })
    // A second signIn with a live session sends nothing.
    await c.signIn()
    expect(auth.logins).toBe(1)
  })

  it('renews proactively before a read and before a POST, with the lifetime read from expires_in', async () => {
    auth.expiresIn = 100
    const c = make()
    await c.signIn()
    clock += 69_000
    await c.withdrawStatus('w1')
    expect(auth.refreshes).toBe(0)
    clock += 1_000
    await c.withdrawStatus('w1')
    expect(auth.refreshes).toBe(1)
    clock += 70_000
    await c.withdraw({ pixKey: 'a@b.co', taxNumber: '52998224725', payoutAmountInCents: 1000 })
    expect(auth.refreshes).toBe(2)
    const order = server.requests.map((r) => `${r.method} ${r.path}`)
    expect(order.indexOf('POST /api/withdraw')).toBeGreaterThan(
      order.lastIndexOf('POST /api/v2/auth/refresh'),
    )
  })

  it('concurrent callers past the refresh point share ONE refresh', async () => {
    const c = make()
    await c.signIn()
    clock += 250_000
    await Promise.all(Array.from({ length: 50 }, () => c.withdrawStatus('w1')))
    expect(auth.refreshes).toBe(1)
    expect(auth.replays).toBe(0)
  })

  it('invalid_grant leads to exactly one fresh login, never a second try of the refresh token', async () => {
    const c = make()
    await c.signIn()
    auth.refuseRefresh = true
    auth.expireAll()
    await Promise.all(Array.from({ length: 10 }, () => c.withdrawStatus('w1')))
    expect(auth.refreshes).toBe(1)
    expect(auth.logins).toBe(2)
    expect(auth.replays).toBe(0)
  })

  it('a refresh whose answer was lost is never replayed: a fresh login follows', async () => {
    const c = make()
    await c.signIn()
    const original = server.requests.length
    server.route('POST /api/v2/auth/refresh', reset)
    auth.expireAll()
    await c.withdrawStatus('w1')
    expect(server.count('POST /api/v2/auth/refresh')).toBe(1)
    expect(auth.logins).toBe(2)
    expect(server.requests.length).toBeGreaterThan(original)
  })

  it('a refresh stopped by 429 keeps its still-unused token and surfaces rate_limited', async () => {
    const c = make()
    await c.signIn()
    server.route(
      'POST /api/v2/auth/refresh',
      fail(429, { error: 'rate_limited', errorMessage: 'slow' }, { 'Retry-After': '30' }),
    )
    clock += 250_000
    // Past the refresh point but still valid: the read goes on with the current token.
    await c.withdrawStatus('w1')
    clock += 60_000
    const e = await rejection(c.withdrawStatus('w1'))
    expect(e).toMatchObject({
      kind: 'rate_limited',
      authError: 'rate_limited',
      endpoint: 'auth/refresh',
      retryAfterSeconds: 30,
    })
    const presented = server.requests
      .filter((r) => r.path === '/api/v2/auth/refresh')
      .map((r) => (JSON.parse(r.body) as { refresh_token: string }).refresh_token)
    expect(new Set(presented).size).toBe(1)
    expect(auth.logins).toBe(1)
  })

  it('a refresh refused by a maintenance freeze keeps its token for after the freeze', async () => {
    const c = make()
    await c.signIn()
    server.route(
      'POST /api/v2/auth/refresh',
      fail(503, { error: 'temporarily_unavailable', errorMessage: 'maintenance' }, { 'Retry-After': '300' }),
    )
    auth.expireAll()
    const e = await rejection(c.withdrawStatus('w1'))
    expect(e).toMatchObject({ kind: 'maintenance', retryAfterSeconds: 300, endpoint: 'auth/refresh' })
    expect(auth.logins).toBe(1)
    // After the freeze the same, still unused, token is presented once more and accepted.
    server.route('POST /api/v2/auth/refresh', auth.refreshHandler)
    await c.withdrawStatus('w1')
    expect(auth.replays).toBe(0)
  })

  it('a refused credential ends the session (listeners hear null)', async () => {
    const c = make()
    const seen: Array<SessionInfo | null> = []
    c.onSessionChange((s) => seen.push(s))
    await c.signIn()
    auth.refuseRefresh = true
    auth.refuseLogin = true
    auth.expireAll()
    const e = await rejection(c.withdrawStatus('w1'))
    expect(e).toMatchObject({
      kind: 'unauthorized',
      authError: 'invalid_client',
      status: 401,
      endpoint: 'auth/login',
    })
    expect(c.session()).toBeNull()
    expect(seen.at(-1)).toBeNull()
    const after = await rejection(c.withdrawStatus('w1'))
    expect(after.code).toBe('not_signed_in')
  })

  it('checks the 4 KiB auth body limit before sending', async () => {
    const c = make({ auth: { kind: 'client_credentials', clientId: 'cid', clientSecret: 'x'.repeat(5000) } })
    const e = await rejection(c.signIn())
    expect(e).toMatchObject({ kind: 'bad_request', code: 'auth_body_too_large', nothingSent: true })
    expect(server.requests).toHaveLength(0)
  })

  it('signOut logs out with the refresh token, ignores its failure, and forgets the session', async () => {
    const c = make()
    await c.signIn()
    server.route('POST /api/v2/auth/logout', fail(500, 'oops'))
    await c.signOut()
    expect(server.count('POST /api/v2/auth/logout')).toBe(1)
    expect(c.session()).toBeNull()
    expect((await rejection(c.withdrawStatus('w1'))).code).toBe('not_signed_in')
  })

  it('never exposes the secret or a token in errors, sessions or an inspected client', async () => {
    const c = make()
    await c.signIn()
    server.route('GET /api/withdraw-status', (req, res) => {
      // A hostile echo of everything it received.
      res.writeHead(520, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          response: { errorMessage: `got ${req.headers.authorization} ${SECRET} ${auth.issued.join(' ')}` },
        }),
      )
    })
    const e = await rejection(c.withdrawStatus('w1'))
    const texts = [
      JSON.stringify(e),
      e.message,
      e.stack ?? '',
      e.userMessage('pt-BR'),
      e.userMessage('en'),
      JSON.stringify(e.toIpcError()),
      inspect(e, { depth: 5 }),
      inspect(c, { depth: 5, showHidden: true }),
      JSON.stringify(c.session()),
    ]
    for (const secret of [SECRET, ...auth.issued]) {
      for (const t of texts) expect(t).not.toContain(secret)
    }
  })
})

describe('legacy token mode', () => {
  const legacy = (expInSeconds: number) =>
    fakeJwt({
      sub: 'partner-legacy',
      scope: ['withdraw'],
      env: 'prod',
      exp: Math.floor(clock / 1000) + expInSeconds,
    })

  it('works with the token as bearer and shows its exp', async () => {
    const token = legacy(86_400)
    server.route('GET /api/withdraw-status', (req, res, raw) =>
      (req.headers.authorization === `Bearer ${token}` ? ok(STATUS) : fail(401, {}))(req, res, raw),
    )
    const c = make({ auth: { kind: 'legacy_token', token } })
    const info = await c.signIn()
    expect(info).toMatchObject({
      kind: 'legacy_token',
      sub: 'partner-legacy',
      scopes: ['withdraw'],
      env: 'prod',
    })
    expect(Date.parse(info.accessExpiresAt)).toBe((Math.floor(clock / 1000) + 86_400) * 1000)
    await c.withdrawStatus('w1')
    expect(server.count('POST /api/v2/auth/login')).toBe(0)
  })

  it('refuses locally once expired: no request leaves', async () => {
    const c = make({ auth: { kind: 'legacy_token', token: legacy(60) } })
    await c.signIn()
    clock += 61_000
    const e = await rejection(
      c.withdraw({ pixKey: 'a@b.co', taxNumber: '52998224725', payoutAmountInCents: 1000 }),
    )
    expect(e).toMatchObject({ kind: 'unauthorized', code: 'legacy_token_expired', nothingSent: true })
    expect(server.requests).toHaveLength(0)
    expect(c.session()?.kind).toBe('legacy_token')
  })

  it('refuses an already expired or unreadable token at sign-in', async () => {
    expect((await rejection(make({ auth: { kind: 'legacy_token', token: legacy(-1) } }).signIn())).code).toBe(
      'legacy_token_expired',
    )
    expect(
      (await rejection(make({ auth: { kind: 'legacy_token', token: 'not-a-jwt' } }).signIn())).code,
    ).toBe('legacy_token_malformed')
  })

  it('a 401 on a create in legacy mode is plain unauthorized (nothing to renew)', async () => {
    server.route('POST /api/withdraw', fail(401, { errorMessage: 'expired' }))
    const c = make({ auth: { kind: 'legacy_token', token: legacy(3600) } })
    await c.signIn()
    const e = await rejection(
      c.withdraw({ pixKey: 'a@b.co', taxNumber: '52998224725', payoutAmountInCents: 1000 }),
    )
    expect(e.kind).toBe('unauthorized')
    expect(e.code).toBeUndefined()
    expect(server.count('POST /api/withdraw')).toBe(1)
  })

  it('a 401 in legacy mode is final: no refresh, no login', async () => {
    server.route('GET /api/withdraw-status', fail(401, { errorMessage: 'revoked' }))
    const c = make({ auth: { kind: 'legacy_token', token: legacy(3600) } })
    await c.signIn()
    const e = await rejection(c.withdrawStatus('w1'))
    expect(e.kind).toBe('unauthorized')
    expect(server.count('GET /api/withdraw-status')).toBe(1)
    expect(server.requests.filter((r) => r.path.startsWith('/api/v2/auth'))).toHaveLength(0)
  })
})
