import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { call, login, roomySandbox, UUID_RE } from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox()
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

describe('paths (API contract §1.8, §7.2)', () => {
  it('§1.8 a path without /api answers 404', async () => {
    const r = await call(sb.baseUrl, 'GET', '/ping', { token })
    expect(r.status).toBe(404)
  })

  it('§1.8 a base address ending in / produces // and answers 404 (not normalised)', async () => {
    expect((await call(sb.baseUrl, 'GET', '//api/ping', { token })).status).toBe(404)
    expect((await call(sb.baseUrl, 'GET', '/api//ping', { token })).status).toBe(404)
    expect((await call(sb.baseUrl, 'POST', '/api/v2/auth//login', { body: {} })).status).toBe(404)
  })

  it('§7.2 no route (unknown path or method under /api) answers 404', async () => {
    expect((await call(sb.baseUrl, 'GET', '/api/nothing-here', { token })).status).toBe(404)
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw', { token })).status).toBe(404)
    expect((await call(sb.baseUrl, 'GET', '/api/ping/', { token })).status).toBe(404)
  })
})

describe('headers (API contract §7.6, §1.7)', () => {
  it('§7.6 every response carries X-Request-ID and X-Nonce (UUID): 200, 401, 404, auth error, logout 204', async () => {
    const responses = await Promise.all([
      call(sb.baseUrl, 'GET', '/api/ping', { token }),
      call(sb.baseUrl, 'GET', '/api/ping'),
      call(sb.baseUrl, 'GET', '/nope'),
      call(sb.baseUrl, 'POST', '/api/v2/auth/login', { raw: 'x', headers: { 'content-type': 'text/plain' } }),
      call(sb.baseUrl, 'POST', '/api/v2/auth/logout', { body: { refresh_token: 'x' } }),
    ])
    expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 415, 204])
    for (const r of responses) {
      expect(r.headers['x-request-id']).toMatch(UUID_RE)
      expect(r.headers['x-nonce']).toMatch(UUID_RE)
    }
  })

  it('§1.7 X-Nonce is generated per request; a nonce sent by the client is not read', async () => {
    const sent = '00000000-0000-4000-8000-000000000000'
    const a = await call(sb.baseUrl, 'GET', '/api/ping', { token, headers: { 'x-nonce': sent } })
    const b = await call(sb.baseUrl, 'GET', '/api/ping', { token, headers: { 'x-nonce': sent } })
    expect(a.headers['x-nonce']).not.toBe(sent)
    expect(a.headers['x-nonce']).not.toBe(b.headers['x-nonce'])
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id'])
  })
})

describe('envelopes (API contract §2.1, §4, §7.2)', () => {
  it('§4 X-Async: true on an operation is refused with 400 in the envelope', async () => {
    const r = await call(sb.baseUrl, 'GET', '/api/ping', { token, headers: { 'X-Async': 'true' } })
    expect(r.status).toBe(400)
    expect(r.body).toMatchObject({ response: { errorMessage: expect.any(String) }, async: false })
    const w = await call(sb.baseUrl, 'POST', '/api/withdraw', {
      token,
      body: {},
      headers: { 'X-Async': 'true' },
    })
    expect(w.status).toBe(400)
  })

  it('§2.7 GET /ping answers { response: { msg, claims_for_token_debug }, async: false }', async () => {
    const r = await call(sb.baseUrl, 'GET', '/api/ping', { token })
    expect(r.status).toBe(200)
    expect(r.body.async).toBe(false)
    expect(typeof r.body.response.msg).toBe('string')
    expect(Object.keys(r.body.response.claims_for_token_debug).sort()).toEqual(
      ['alg', 'env', 'exp', 'iat', 'jti', 'scope', 'sub', 'typ'].sort(),
    )
  })

  it('§2.1 a request stopped before the operation (401) has a flat { errorMessage } body', async () => {
    const r = await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x')
    expect(r.status).toBe(401)
    expect(Object.keys(r.body)).toEqual(['errorMessage'])
  })

  it('§2.1 an operation error uses the { response: { errorMessage, messageCode }, async: false } envelope', async () => {
    const r = await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=does-not-exist', { token })
    expect(r.status).toBe(520)
    expect(r.body).toEqual({
      response: { errorMessage: expect.any(String), messageCode: 'WITHDRAW_NOT_FOUND' },
      async: false,
    })
  })

  it('§7.2 a malformed JSON body on an operation answers 400 in the envelope', async () => {
    const r = await call(sb.baseUrl, 'POST', '/api/withdraw', { token, raw: '{"pixKey":' })
    expect(r.status).toBe(400)
    expect(r.body.async).toBe(false)
  })

  it('§7.2 a body exceeding the accepted size answers 413', async () => {
    const r = await call(sb.baseUrl, 'POST', '/api/deposit', { token, body: { pad: 'x'.repeat(70_000) } })
    expect(r.status).toBe(413)
    expect(r.body.response.errorMessage).toEqual(expect.any(String))
  })
})

describe('tokens on operations (API contract §5.6)', () => {
  it('§5.6 a missing or malformed bearer token answers 401 flat', async () => {
    const variants: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer' },
      { authorization: 'Bearer not.a.jwt' },
      { authorization: token },
    ]
    for (const headers of variants) {
      const r = await call(sb.baseUrl, 'GET', '/api/ping', { headers })
      expect(r.status).toBe(401)
      expect(r.body).toEqual({ errorMessage: expect.any(String) })
    }
  })

  it('§5.6 a token with an invalid signature (another issuer) answers 401', async () => {
    const other = await startSandbox({ port: 0 })
    try {
      const foreign = (await login(other)).access_token
      expect((await call(sb.baseUrl, 'GET', '/api/ping', { token: foreign })).status).toBe(401)
      const [h, p] = token.split('.')
      const tampered = `${h}.${p}.${'A'.repeat(342)}`
      expect((await call(sb.baseUrl, 'GET', '/api/ping', { token: tampered })).status).toBe(401)
    } finally {
      await other.close()
    }
  })

  it('§5.6 an expired access token answers 401', async () => {
    const s = await roomySandbox({ accessTokenTtlSeconds: 60 })
    try {
      const t = (await login(s)).access_token
      expect((await call(s.baseUrl, 'GET', '/api/ping', { token: t })).status).toBe(200)
      s.control.advanceClock(61)
      expect((await call(s.baseUrl, 'GET', '/api/ping', { token: t })).status).toBe(401)
    } finally {
      await s.close()
    }
  })
})

describe('request counts (control surface)', () => {
  it('counts every API request as "METHOD /path", auth and 404 included, control routes excluded', async () => {
    sb.control.resetRequestCounts()
    await call(sb.baseUrl, 'GET', '/api/ping?x=1', { token })
    await call(sb.baseUrl, 'GET', '/nope')
    await call(sb.baseUrl, 'POST', '/api/v2/auth/refresh', { body: { refresh_token: 'x' } })
    await call(sb.baseUrl, 'GET', '/_sandbox/summary')
    expect(sb.control.requestCounts()).toEqual({
      'GET /api/ping': 1,
      'GET /nope': 1,
      'POST /api/v2/auth/refresh': 1,
    })
  })
})
