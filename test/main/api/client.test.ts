/**
 * The client's policies against a scripted loopback server: what is retried, what never is, how each answer is
 * classified. The same behaviours are proven against the real sandbox in test/integration/api.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError, createDepixClient, type DepixClient, type DepixClientOptions } from '../../../src/main/api'
import type { WithdrawRequest } from '../../../src/shared/withdrawal'
import {
  authed,
  closedPort,
  fail,
  installFakeAuth,
  json,
  ok,
  reset,
  silent,
  startFakeServer,
  type FakeAuth,
  type FakeServer,
  type Handler,
} from './helpers/fake-server'

const SECRET = 'client-secret-for-unit-tests-0001'
const WITHDRAW: WithdrawRequest = { pixKey: 'a@b.co', taxNumber: '52998224725', payoutAmountInCents: 1000 }
const STATUS = { id: 'w1', status: 'unsent' }

let server: FakeServer
let auth: FakeAuth
let client: DepixClient
let sleeps: number[]

function make(over: Partial<DepixClientOptions> = {}): DepixClient {
  return createDepixClient({
    baseUrl: server.baseUrl,
    auth: { kind: 'client_credentials', clientId: 'cid', clientSecret: SECRET },
    rateLimits: { 'withdraw-status': 6000, withdraw: 6000, ping: 6000 },
    sleep: async (ms) => {
      sleeps.push(ms)
    },
    random: () => 0.5,
    timeoutMs: 1_000,
    ...over,
  })
}

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(ApiError)
  return e as ApiError
}

beforeEach(async () => {
  server = await startFakeServer()
  auth = installFakeAuth(server, { secret: SECRET })
  sleeps = []
  client = make()
  await client.signIn()
})
afterEach(async () => {
  await client.close()
  await server.close()
})

const statusRoute = (...hs: Handler[]) =>
  server.route('GET /api/withdraw-status', ...hs.map((h) => authed(auth, h)))
const withdrawRoute = (...hs: Handler[]) =>
  server.route('POST /api/withdraw', ...hs.map((h) => authed(auth, h)))

describe('reads retry what is safe to retry', () => {
  it('retries 502 and 500 with backoff, then succeeds', async () => {
    statusRoute(fail(502, 'Bad Gateway'), fail(500, { response: { errorMessage: 'x' } }), ok(STATUS))
    const r = await client.withdrawStatus('w1')
    expect(r.data).toMatchObject(STATUS)
    expect(server.count('GET /api/withdraw-status')).toBe(3)
    expect(sleeps).toEqual([188, 375])
  })

  it('gives up after the bounded attempts with kind server', async () => {
    statusRoute(fail(503, { response: { errorMessage: 'timeout' } }))
    const e = await rejection(client.withdrawStatus('w1'))
    expect(e).toMatchObject({ kind: 'server', status: 503, requestId: expect.any(String) })
    expect(server.count('GET /api/withdraw-status')).toBe(3)
  })

  it('never retries a 520 business refusal', async () => {
    statusRoute(
      fail(520, { response: { errorMessage: 'not found', messageCode: 'WITHDRAW_NOT_FOUND' }, async: false }),
    )
    const e = await rejection(client.withdrawStatus('nope'))
    expect(e).toMatchObject({ kind: 'business', messageCode: 'WITHDRAW_NOT_FOUND', status: 520 })
    expect(server.count('GET /api/withdraw-status')).toBe(1)
  })

  it('retries a dropped connection on a read', async () => {
    statusRoute(reset, ok(STATUS))
    await client.withdrawStatus('w1')
    expect(server.count('GET /api/withdraw-status')).toBe(2)
  })

  it('waits out a short Retry-After on 429, fails fast on a long one and empties the bucket', async () => {
    statusRoute(fail(429, { errorMessage: 'slow' }, { 'Retry-After': '1' }), ok(STATUS))
    const t0 = Date.now()
    await client.withdrawStatus('w1')
    expect(Date.now() - t0).toBeGreaterThanOrEqual(900)
    statusRoute(fail(429, { errorMessage: 'slow' }, { 'Retry-After': '120' }))
    const e = await rejection(client.withdrawStatus('w1'))
    expect(e).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: 120 })
    expect(client.allowance()['withdraw-status'].available).toBe(0)
    expect(client.allowance()['withdraw-status'].nextTokenInMs).toBeGreaterThan(100_000)
  })

  it('maintenance on a read returns at once with the wait', async () => {
    statusRoute(fail(503, { response: { errorMessage: 'maint' }, async: false }, { 'Retry-After': '300' }))
    const e = await rejection(client.withdrawStatus('w1'))
    expect(e).toMatchObject({ kind: 'maintenance', retryAfterSeconds: 300 })
    expect(server.count('GET /api/withdraw-status')).toBe(1)
  })

  it('a 200 whose body breaks the contract is invalid_response, not retried', async () => {
    // Without its id a status answer cannot be attributed; other odd fields are dropped one by one (issue #11).
    statusRoute(ok({ status: 'sent', payoutAmountInCents: 1050 }))
    const e = await rejection(client.withdrawStatus('w1'))
    expect(e).toMatchObject({ kind: 'invalid_response', status: 200, code: 'unreadable_response' })
    expect(server.count('GET /api/withdraw-status')).toBe(1)
  })
})

describe('POST /withdraw is sent exactly once, whatever happens', () => {
  const cases: Array<[string, Handler, Record<string, unknown>]> = [
    ['500', fail(500, { response: { errorMessage: 'boom' } }), { kind: 'outcome_unknown', status: 500 }],
    ['502', fail(502, 'Bad Gateway'), { kind: 'outcome_unknown', status: 502 }],
    [
      '503 without Retry-After',
      fail(503, { response: { errorMessage: 't' } }),
      { kind: 'outcome_unknown', status: 503 },
    ],
    [
      '503 with Retry-After',
      fail(503, { response: { errorMessage: 'm' } }, { 'Retry-After': '300' }),
      { kind: 'maintenance' },
    ],
    [
      '429',
      fail(429, { errorMessage: 'slow' }, { 'Retry-After': '1' }),
      { kind: 'rate_limited', retryAfterSeconds: 1 },
    ],
    ['520', fail(520, { response: { errorMessage: 'range' } }), { kind: 'business' }],
    ['a reset', reset, { kind: 'outcome_unknown', code: 'connection_lost' }],
    ['a silence past the timeout', silent, { kind: 'outcome_unknown', code: 'timeout' }],
    [
      'a 200 cut in half',
      (_q, res) => {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"response":{"withdrawalId":"w-77","depositAddress":"lq1')
      },
      { kind: 'outcome_unknown', status: 200, code: 'unreadable_response' },
    ],
    [
      'a 200 with a float amount',
      ok({ withdrawalId: 'w-78', depositAmountInCents: 1.5 }),
      { kind: 'outcome_unknown', createdId: 'w-78' },
    ],
  ]
  it.each(cases)('%s', async (_name, handler, expected) => {
    withdrawRoute(handler, ok({ withdrawalId: 'SECOND-SEND' }))
    const e = await rejection(client.withdraw(WITHDRAW))
    expect(e).toMatchObject({ endpoint: 'withdraw', ...expected })
    expect(server.count('POST /api/withdraw')).toBe(1)
    expect(sleeps).toEqual([])
  })

  it('a 401 is not resent; the next call renews the token before leaving', async () => {
    withdrawRoute(ok({ withdrawalId: 'w2' }))
    auth.expireAll()
    const e = await rejection(client.withdraw(WITHDRAW))
    expect(e).toMatchObject({ kind: 'unauthorized', code: 'access_token_rejected', status: 401 })
    expect(server.count('POST /api/withdraw')).toBe(1)
    expect(auth.refreshes).toBe(0)
    const r = await client.withdraw(WITHDRAW)
    expect(r.data.withdrawalId).toBe('w2')
    expect(auth.refreshes).toBe(1)
    expect(server.count('POST /api/withdraw')).toBe(2)
  })

  it('refuses both amounts locally: nothing leaves', async () => {
    const both = { ...WITHDRAW, depositAmountInCents: 1100 } as unknown as WithdrawRequest
    const e = await rejection(client.withdraw(both))
    expect(e).toMatchObject({ kind: 'bad_request', code: 'invalid_request', nothingSent: true })
    expect(server.count('POST /api/withdraw')).toBe(0)
  })

  it('a refused connection is network, nothing sent', async () => {
    const c = make({ baseUrl: `http://127.0.0.1:${await closedPort()}` })
    const e = await rejection(c.signIn())
    expect(e).toMatchObject({ kind: 'network', code: 'connect_failed', nothingSent: true })
    await c.close()
  })
})

describe('reads after a 401', () => {
  it('renew once (single-flight) and retry once', async () => {
    statusRoute(ok(STATUS))
    auth.expireAll()
    const results = await Promise.all(Array.from({ length: 20 }, () => client.withdrawStatus('w1')))
    expect(results).toHaveLength(20)
    expect(auth.refreshes).toBe(1)
    expect(auth.replays).toBe(0)
  })

  it('a second 401 after renewal is final', async () => {
    statusRoute(fail(401, { errorMessage: 'no' }))
    const e = await rejection(client.withdrawStatus('w1'))
    expect(e.kind).toBe('unauthorized')
    expect(server.count('GET /api/withdraw-status')).toBe(2)
    expect(auth.refreshes).toBe(1)
  })
})

describe('shape of results and rejections', () => {
  it('results carry data, status, request id and nonce; unknown fields are kept', async () => {
    statusRoute(ok({ ...STATUS, futureField: 1 }))
    const r = await client.withdrawStatus('w1')
    expect(r).toMatchObject({
      status: 200,
      requestId: expect.stringMatching(/^req-/),
      nonce: expect.stringMatching(/^nonce-/),
    })
    expect(r.data).toMatchObject({ futureField: 1 })
    const q = server.requests.find((x) => x.path === '/api/withdraw-status')
    expect(q?.query.get('id')).toBe('w1')
  })

  it('every operation rejects with ApiError, even on nonsense input', async () => {
    const errors = await Promise.all(
      [
        client.withdrawStatus(undefined as unknown as string),
        client.depositStatus(''),
        client.userInfo(42 as unknown as string),
        client.deposit({ amountInCents: -1 }),
        client.deposits({ start: '', end: 'x' }),
      ].map(rejection),
    )
    for (const e of errors) expect(e.kind).toBe('bad_request')
    expect(server.requests.filter((r) => !r.path.startsWith('/api/v2/auth'))).toHaveLength(0)
  })

  it('refuses calls before sign-in and after close, without a request', async () => {
    const c = make()
    const e = await rejection(c.withdrawStatus('w1'))
    expect(e).toMatchObject({ kind: 'unauthorized', code: 'not_signed_in' })
    await c.close()
    const after = await rejection(c.withdrawStatus('w1'))
    expect(after).toMatchObject({ kind: 'network', code: 'client_closed' })
    expect(server.count('GET /api/withdraw-status')).toBe(0)
  })

  it('close logs out with the refresh token and rejects queued calls', async () => {
    const c = make({ rateLimits: { ping: 1 } })
    await c.signIn()
    server.route('GET /api/ping', authed(auth, ok({ msg: 'pong', claims_for_token_debug: {} })))
    await c.ping()
    const queued = rejection(c.ping())
    await c.close()
    expect(await queued).toMatchObject({ code: 'client_closed' })
    expect(server.count('POST /api/v2/auth/logout')).toBe(1)
    const logout = server.requests.find((r) => r.path === '/api/v2/auth/logout')
    expect(JSON.parse(logout?.body ?? '{}')).toHaveProperty('refresh_token')
  })

  it('a trailing slash on the base URL is harmless', async () => {
    const c = make({ baseUrl: `${server.baseUrl}///` })
    await c.signIn()
    expect(server.requests.at(-1)?.path).toBe('/api/v2/auth/login')
    await c.close()
  })

  it('a slow JSON error page is still classified by status', async () => {
    statusRoute((_q, res) => json(res, 404, { errorMessage: 'no route' }))
    expect((await rejection(client.withdrawStatus('w1'))).kind).toBe('route_not_found')
  })
})
