import { createRemoteJWKSet, decodeProtectedHeader, jwtVerify } from 'jose'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { call, login, roomySandbox } from './helpers'

const LOGIN = '/api/v2/auth/login'
const REFRESH = '/api/v2/auth/refresh'
const LOGOUT = '/api/v2/auth/logout'

let sb: Sandbox

beforeAll(async () => {
  sb = await roomySandbox({ env: 'sandbox-test' })
})
afterAll(() => sb.close())

const creds = (s: Sandbox = sb) => ({
  client_id: s.credentials.clientId,
  client_secret: s.credentials.clientSecret,
})
const refresh = (s: Sandbox, refresh_token: string) =>
  call(s.baseUrl, 'POST', REFRESH, { body: { refresh_token } })

describe('POST /api/v2/auth/login (API contract §5.2, §5.5)', () => {
  it('§5.2 login answers the flat token response: access_token, Bearer, expires_in, refresh_token, refresh_expires_in, scope[]', async () => {
    const r = await call(sb.baseUrl, 'POST', LOGIN, { body: creds() })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      access_token: expect.any(String),
      token_type: 'Bearer',
      expires_in: 900,
      refresh_token: expect.any(String),
      refresh_expires_in: 3600,
      scope: ['deposit', 'withdrawal', 'user'],
    })
  })

  it('§5.7 the access token is an RS256 JWT with claims jti sub exp iat scope[] typ alg env', async () => {
    const t = await login(sb)
    expect(decodeProtectedHeader(t.access_token)).toMatchObject({ alg: 'RS256', typ: 'JWT' })
    const jwks = createRemoteJWKSet(new URL(`${sb.controlUrl}/jwks`), {
      headers: { authorization: `Bearer ${sb.controlToken}` },
    })
    const { payload } = await jwtVerify(t.access_token, jwks, {
      algorithms: ['RS256'],
      currentDate: new Date(sb.control.now()),
    })
    expect(payload).toEqual({
      jti: expect.any(String),
      sub: expect.any(String),
      exp: expect.any(Number),
      iat: expect.any(Number),
      scope: ['deposit', 'withdrawal', 'user'],
      typ: 'JWT',
      alg: 'RS256',
      env: 'sandbox-test',
    })
    expect((payload.exp as number) - (payload.iat as number)).toBe(t.expires_in)
  })

  it('§5.2 a non-JSON content type answers 415 invalid_request', async () => {
    const r = await call(sb.baseUrl, 'POST', LOGIN, {
      raw: `client_id=${sb.credentials.clientId}&client_secret=x`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    })
    expect(r.status).toBe(415)
    expect(r.body).toEqual({ error: 'invalid_request', errorMessage: expect.any(String) })
  })

  it('§5.5 a body over 4 KiB answers 400 invalid_request', async () => {
    const r = await call(sb.baseUrl, 'POST', LOGIN, { body: { ...creds(), client_secret: 'x'.repeat(4100) } })
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('invalid_request')
  })

  it('§5.2 an unknown field is refused with 400 and the message names the key', async () => {
    const r = await call(sb.baseUrl, 'POST', LOGIN, { body: { ...creds(), audience: 'x' } })
    expect(r.status).toBe(400)
    expect(r.body.error).toBe('invalid_request')
    expect(r.body.errorMessage).toContain('audience')
  })

  it('§5.2 grant_type client_credentials is accepted and ignored; any other grant_type is refused', async () => {
    const ok = await call(sb.baseUrl, 'POST', LOGIN, {
      body: { ...creds(), grant_type: 'client_credentials' },
    })
    expect(ok.status).toBe(200)
    const bad = await call(sb.baseUrl, 'POST', LOGIN, { body: { ...creds(), grant_type: 'password' } })
    expect(bad.status).toBe(400)
    expect(bad.body.error).toBe('invalid_request')
  })

  it('§5.5 malformed JSON or a wrong JSON type answers 400 invalid_request', async () => {
    for (const raw of ['{', '[]', '"x"', JSON.stringify({ client_id: 1, client_secret: 'x' })]) {
      const r = await call(sb.baseUrl, 'POST', LOGIN, { raw })
      expect(r.status).toBe(400)
      expect(r.body.error).toBe('invalid_request')
    }
  })

  it('§5.5 unknown client, wrong secret and revoked credential all answer 401 invalid_client, indistinguishably', async () => {
    const c = sb.control.createCredential({ label: 'to-revoke' })
    sb.control.revokeCredential(c.clientId)
    const bodies = [
      { client_id: 'cid_unknown', client_secret: 'x' },
      { client_id: sb.credentials.clientId, client_secret: 'wrong' },
      { client_id: c.clientId, client_secret: c.clientSecret },
    ]
    const answers = await Promise.all(bodies.map((body) => call(sb.baseUrl, 'POST', LOGIN, { body })))
    for (const r of answers) {
      expect(r.status).toBe(401)
      expect(r.body).toEqual({ error: 'invalid_client', errorMessage: answers[0]?.body.errorMessage })
    }
  })

  it('§5.2 login is rate limited per credential: 429 rate_limited with Retry-After', async () => {
    const s = await startSandbox({ port: 0, loginRateLimitPerMinute: 3 })
    try {
      for (let i = 0; i < 3; i++)
        expect((await call(s.baseUrl, 'POST', LOGIN, { body: creds(s) })).status).toBe(200)
      const r = await call(s.baseUrl, 'POST', LOGIN, { body: creds(s) })
      expect(r.status).toBe(429)
      expect(r.body).toEqual({ error: 'rate_limited', errorMessage: expect.any(String) })
      expect(r.headers['retry-after']).toBe('20')
      // Another credential from the same IP still has its own allowance.
      const other = s.control.createCredential()
      const o = await call(s.baseUrl, 'POST', LOGIN, {
        body: { client_id: other.clientId, client_secret: other.clientSecret },
      })
      expect(o.status).toBe(200)
    } finally {
      await s.close()
    }
  })

  it('§5.2 login is rate limited per IP across credentials', async () => {
    const s = await startSandbox({ port: 0, loginRateLimitPerMinute: 2 })
    try {
      // Per IP the allowance is 3× the per-credential one: 6 attempts with 6 different client ids.
      for (let i = 0; i < 6; i++) {
        const r = await call(s.baseUrl, 'POST', LOGIN, {
          body: { client_id: `cid_${i}`, client_secret: 'x' },
        })
        expect(r.status).toBe(401)
      }
      const r = await call(s.baseUrl, 'POST', LOGIN, { body: creds(s) })
      expect(r.status).toBe(429)
      expect(Number(r.headers['retry-after'])).toBeGreaterThanOrEqual(1)
      s.control.advanceClock(60)
      expect((await call(s.baseUrl, 'POST', LOGIN, { body: creds(s) })).status).toBe(200)
    } finally {
      await s.close()
    }
  })
})

describe('POST /api/v2/auth/refresh (API contract §5.3)', () => {
  it('§5.3 refresh rotates: same response shape, a new refresh token, and the presented one is spent', async () => {
    const t = await login(sb)
    const r = await refresh(sb, t.refresh_token)
    expect(r.status).toBe(200)
    expect(Object.keys(r.body).sort()).toEqual(
      ['access_token', 'expires_in', 'refresh_expires_in', 'refresh_token', 'scope', 'token_type'].sort(),
    )
    expect(r.body.refresh_token).not.toBe(t.refresh_token)
    expect((await call(sb.baseUrl, 'GET', '/api/ping', { token: r.body.access_token })).status).toBe(200)
  })

  it('§5.3 presenting a rotated token is a replay: the whole session is revoked, its access tokens too', async () => {
    const t = await login(sb)
    const second = (await refresh(sb, t.refresh_token)).body
    const alerts = sb.control.state({ limit: 0 }).securityAlerts
    const replay = await refresh(sb, t.refresh_token)
    expect(replay.status).toBe(401)
    expect(replay.body).toEqual({ error: 'invalid_grant', errorMessage: expect.any(String) })
    expect((await refresh(sb, second.refresh_token)).status).toBe(401)
    expect((await call(sb.baseUrl, 'GET', '/api/ping', { token: second.access_token })).status).toBe(401)
    expect(sb.control.state({ limit: 0 }).securityAlerts).toBe(alerts + 1)
  })

  it('§5.3 two simultaneous refreshes of one token count as replay', async () => {
    const t = await login(sb)
    const [a, b] = await Promise.all([refresh(sb, t.refresh_token), refresh(sb, t.refresh_token)])
    expect([a.status, b.status].sort()).toEqual([200, 401])
    const winner = a.status === 200 ? a : b
    expect((await refresh(sb, winner.body.refresh_token)).status).toBe(401)
  })

  it('§5.3 unknown refresh token answers 401 invalid_grant; an unknown field answers 400 naming it', async () => {
    expect((await refresh(sb, 'rt_nope')).body).toEqual({
      error: 'invalid_grant',
      errorMessage: expect.any(String),
    })
    const r = await call(sb.baseUrl, 'POST', REFRESH, { body: { refresh_token: 'x', client_id: 'y' } })
    expect(r.status).toBe(400)
    expect(r.body.errorMessage).toContain('client_id')
  })

  it('§5.2 refresh_expires_in is an idle expiry, renewed on every rotation', async () => {
    const s = await startSandbox({ port: 0, refreshIdleSeconds: 100, sessionMaxSeconds: 10_000 })
    try {
      let t = await login(s)
      expect(t.refresh_expires_in).toBe(100)
      for (let i = 0; i < 3; i++) {
        s.control.advanceClock(90)
        const r = await refresh(s, t.refresh_token)
        expect(r.status).toBe(200)
        expect(r.body.refresh_expires_in).toBe(100)
        t = r.body
      }
      s.control.advanceClock(101)
      expect((await refresh(s, t.refresh_token)).status).toBe(401)
    } finally {
      await s.close()
    }
  })

  it('§5.2 a session ends after its absolute lifetime however actively it is renewed', async () => {
    const s = await startSandbox({
      port: 0,
      refreshIdleSeconds: 100,
      sessionMaxSeconds: 250,
      loginRateLimitPerMinute: 100,
    })
    try {
      let t = await login(s)
      s.control.advanceClock(90)
      t = (await refresh(s, t.refresh_token)).body
      s.control.advanceClock(90)
      const r = await refresh(s, t.refresh_token)
      expect(r.status).toBe(200)
      // About 70 s of the session remain (wall time moves too): idle expiry is capped by the absolute end.
      expect(r.body.refresh_expires_in).toBeGreaterThanOrEqual(69)
      expect(r.body.refresh_expires_in).toBeLessThanOrEqual(70)
      s.control.advanceClock(71)
      expect((await refresh(s, r.body.refresh_token)).status).toBe(401)
      expect((await call(s.baseUrl, 'POST', LOGIN, { body: creds(s) })).status).toBe(200)
    } finally {
      await s.close()
    }
  })

  it('§5.1 revoking a credential ends its sessions at once; access tokens already issued stay valid', async () => {
    const c = sb.control.createCredential({ label: 'revoked-later' })
    const t = await login(sb, c)
    sb.control.revokeCredential(c.clientId)
    expect((await refresh(sb, t.refresh_token)).status).toBe(401)
    expect((await call(sb.baseUrl, 'GET', '/api/ping', { token: t.access_token })).status).toBe(200)
  })
})

describe('POST /api/v2/auth/logout (API contract §5.4)', () => {
  it('§5.4 logout always answers 204 and ends the session; the credential stays usable', async () => {
    const t = await login(sb)
    const live = await call(sb.baseUrl, 'POST', LOGOUT, { body: { refresh_token: t.refresh_token } })
    expect(live.status).toBe(204)
    expect(live.text).toBe('')
    expect((await refresh(sb, t.refresh_token)).status).toBe(401)
    expect(
      (await call(sb.baseUrl, 'POST', LOGOUT, { body: { refresh_token: t.refresh_token } })).status,
    ).toBe(204)
    expect(
      (await call(sb.baseUrl, 'POST', LOGOUT, { body: { refresh_token: 'never-existed' } })).status,
    ).toBe(204)
    expect((await call(sb.baseUrl, 'POST', LOGOUT, { raw: 'garbage' })).status).toBe(204)
    expect((await call(sb.baseUrl, 'POST', LOGIN, { body: creds() })).status).toBe(200)
  })
})

describe('scopes (API contract §5.1, §5.6, §5.8)', () => {
  it('§5.1 scope all expands to deposit, withdrawal and user in the scope array', async () => {
    const c = sb.control.createCredential({ label: 'all-scopes', scopes: ['all'] })
    expect(c.scopes).toEqual(['deposit', 'withdrawal', 'user'])
    expect((await login(sb, c)).scope).toEqual(['deposit', 'withdrawal', 'user'])
  })

  it('§5.1 rule 2: a credential cannot be created with the legacy scope withdraw (Invalid scope)', () => {
    expect(() => sb.control.createCredential({ scopes: ['withdraw'] })).toThrow(/Invalid scope/)
  })

  it('§5.6 a valid token lacking the endpoint scope answers 403 flat', async () => {
    const c = sb.control.createCredential({ label: 'deposit-only', scopes: ['deposit'] })
    const t = (await login(sb, c)).access_token
    const w = await call(sb.baseUrl, 'POST', '/api/withdraw', { token: t, body: {} })
    expect(w.status).toBe(403)
    expect(w.body).toEqual({ errorMessage: expect.any(String) })
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token: t })).status).toBe(403)
    expect((await call(sb.baseUrl, 'GET', '/api/user-info?euid=x', { token: t })).status).toBe(403)
    expect((await call(sb.baseUrl, 'GET', '/api/deposit-status?id=x', { token: t })).status).toBe(520)
    expect((await call(sb.baseUrl, 'GET', '/api/ping', { token: t })).status).toBe(200)
  })

  it('§4.5 GET /user-info requires scope user; deposit endpoints require deposit', async () => {
    const c = sb.control.createCredential({ label: 'payout-only', scopes: ['withdrawal'] })
    const t = (await login(sb, c)).access_token
    expect((await call(sb.baseUrl, 'GET', '/api/user-info?euid=x', { token: t })).status).toBe(403)
    expect((await call(sb.baseUrl, 'POST', '/api/deposit', { token: t, body: {} })).status).toBe(403)
    expect(
      (await call(sb.baseUrl, 'GET', '/api/deposits?start=2026-01-01&end=2026-01-02', { token: t })).status,
    ).toBe(403)
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token: t })).status).toBe(520)
  })

  it('§5.8 a legacy token (scope withdraw) may call withdraw, withdraw-status and ping, nothing else', async () => {
    const legacy = sb.control.mintLegacyToken()
    const ping = await call(sb.baseUrl, 'GET', '/api/ping', { token: legacy })
    expect(ping.body.response.claims_for_token_debug.scope).toEqual(['withdraw'])
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token: legacy })).status).toBe(520)
    const w = await call(sb.baseUrl, 'POST', '/api/withdraw', {
      token: legacy,
      body: { pixKey: 'a@example.com', taxNumber: '52998224725', payoutAmountInCents: 1000 },
    })
    expect(w.status).toBe(200)
    expect((await call(sb.baseUrl, 'POST', '/api/deposit', { token: legacy, body: {} })).status).toBe(403)
    expect((await call(sb.baseUrl, 'GET', '/api/user-info?euid=x', { token: legacy })).status).toBe(403)
  })

  it('§5.8 a legacy token works until its own exp (at most 365 days), then 401', async () => {
    const s = await roomySandbox()
    try {
      expect(() => s.control.mintLegacyToken({ expiresInSeconds: 366 * 86_400 })).toThrow()
      const legacy = s.control.mintLegacyToken({ expiresInSeconds: 3600 })
      expect((await call(s.baseUrl, 'GET', '/api/ping', { token: legacy })).status).toBe(200)
      s.control.advanceClock(3600)
      expect((await call(s.baseUrl, 'GET', '/api/ping', { token: legacy })).status).toBe(401)
    } finally {
      await s.close()
    }
  })
})
