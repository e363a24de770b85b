/**
 * Issue #11, item 11: a huge `Retry-After` is capped, repeated 429s lower the client's own rate (and show it), and
 * a 503 on a create means "nothing created" only for the maintenance freeze (`Retry-After: 300`).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError, createDepixClient, type DepixClient } from '../../../src/main/api'
import { ADAPT_WINDOW_MS, RateLimiter, RECOVER_AFTER_MS } from '../../../src/main/api/rate-limiter'
import { MAX_RETRY_AFTER_SECONDS, parseRetryAfter } from '../../../src/main/api/retry'
import { clampTimerMs, MAX_TIMER_MS } from '../../../src/main/clock'
import type { WithdrawRequest } from '../../../src/shared/withdrawal'
import {
  authed,
  fail,
  fakeJwt,
  installFakeAuth,
  ok,
  startFakeServer,
  type FakeServer,
} from './helpers/fake-server'

const TOKEN = fakeJwt({ sub: 'p', scope: ['withdraw'], exp: Math.floor(Date.now() / 1000) + 3600 })
const WITHDRAW: WithdrawRequest = { pixKey: 'a@b.co', taxNumber: '52998224725', payoutAmountInCents: 1000 }

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

describe('Retry-After is capped and timers are clamped', () => {
  it('caps delta-seconds and HTTP dates at one hour, however large', () => {
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('120', now)).toBe(120)
    expect(parseRetryAfter('999999999', now)).toBe(MAX_RETRY_AFTER_SECONDS)
    expect(parseRetryAfter('99999999999999999999999999', now)).toBe(MAX_RETRY_AFTER_SECONDS)
    expect(parseRetryAfter('Tue, 06 Jan 2026 00:00:00 GMT', now)).toBe(MAX_RETRY_AFTER_SECONDS)
    expect(MAX_RETRY_AFTER_SECONDS).toBe(3_600)
  })

  it('clamps every delay to what setTimeout honours', () => {
    expect(clampTimerMs(2 ** 40)).toBe(MAX_TIMER_MS)
    expect(clampTimerMs(-5)).toBe(0)
    expect(clampTimerMs(Number.NaN)).toBe(0)
    expect(clampTimerMs(Infinity)).toBe(MAX_TIMER_MS)
    expect(clampTimerMs(1_500)).toBe(1_500)
  })
})

describe('the client against a loopback server', () => {
  let server: FakeServer
  let client: DepixClient

  beforeEach(async () => {
    server = await startFakeServer()
    client = createDepixClient({
      baseUrl: server.baseUrl,
      auth: { kind: 'legacy_token', token: TOKEN },
      retry: { attempts: 1 },
      timeoutMs: 3_000,
    })
    await client.signIn()
  })
  afterEach(async () => {
    await client.close()
    await server.close()
  })

  it('reports a days-long Retry-After as one hour', async () => {
    server.route('GET /api/withdraw-status', fail(429, { errorMessage: 'slow' }, { 'Retry-After': '864000' }))
    const e = await rejection(client.withdrawStatus('w1'))
    expect(e).toMatchObject({ kind: 'rate_limited', retryAfterSeconds: MAX_RETRY_AFTER_SECONDS })
    expect(client.allowance()['withdraw-status'].nextTokenInMs).toBeLessThanOrEqual(
      MAX_RETRY_AFTER_SECONDS * 1000,
    )
  })

  it('a 503 on a create is maintenance only with Retry-After: 300; any other 503 is outcome_unknown', async () => {
    const body = { response: { errorMessage: 'unavailable' }, async: false }
    server.route(
      'POST /api/withdraw',
      fail(503, body, { 'Retry-After': '300' }),
      fail(503, body, { 'Retry-After': '120' }),
      fail(503, body, { 'Retry-After': 'Wed, 21 Oct 2099 07:28:00 GMT' }),
      fail(503, body),
    )
    expect(await rejection(client.withdraw(WITHDRAW))).toMatchObject({
      kind: 'maintenance',
      retryAfterSeconds: 300,
    })
    for (let i = 0; i < 3; i++) {
      const e = await rejection(client.withdraw(WITHDRAW))
      expect(e.kind).toBe('outcome_unknown')
      expect(e.nothingSent).toBe(false)
    }
    // A read creates nothing: there a 503 with any Retry-After is still maintenance.
    server.route('GET /api/withdraw-status', fail(503, body, { 'Retry-After': '120' }))
    expect((await rejection(client.withdrawStatus('w1'))).kind).toBe('maintenance')
    expect(server.count('POST /api/withdraw')).toBe(4)
  })

  it('two 429s within five minutes lower the endpoint’s own rate, and the allowance shows it', async () => {
    server.route('GET /api/withdraw-status', fail(429, { errorMessage: 'slow' }, { 'Retry-After': '1' }))
    const before = client.allowance()['withdraw-status']
    expect(before).toMatchObject({ limitPerMinute: 60, configuredPerMinute: 60 })
    await rejection(client.withdrawStatus('w1'))
    expect(client.allowance()['withdraw-status'].limitPerMinute).toBe(60)
    // The second call waits out the penalty, then earns a second 429.
    await rejection(client.withdrawStatus('w1'))
    expect(client.allowance()['withdraw-status']).toMatchObject({
      limitPerMinute: 30,
      configuredPerMinute: 60,
    })
    // Other endpoints keep their own limit.
    expect(client.allowance().withdraw).toMatchObject({ limitPerMinute: 10, configuredPerMinute: 10 })
  })
})

describe('RateLimiter adapts to repeated 429s', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('halves per episode down to 1 a minute, ignores 429s during a penalty, and recovers when quiet', () => {
    const l = new RateLimiter({ limits: { 'withdraw-status': 100 } })
    const limit = () => l.allowance()['withdraw-status'].limitPerMinute
    l.penalize('withdraw-status', 1_000)
    // Answers to requests already in flight: the same episode, not counted.
    l.penalize('withdraw-status', 1_000)
    expect(limit()).toBe(100)
    vi.advanceTimersByTime(2_000)
    l.penalize('withdraw-status', 1_000)
    expect(limit()).toBe(50)
    // Two 429s further apart than the window do not lower it.
    vi.advanceTimersByTime(2_000)
    l.penalize('withdraw-status', 1_000)
    vi.advanceTimersByTime(ADAPT_WINDOW_MS + 1_000)
    l.penalize('withdraw-status', 1_000)
    expect(limit()).toBe(50)
    for (let i = 0; i < 20; i++) {
      vi.advanceTimersByTime(2_000)
      l.penalize('withdraw-status', 1_000)
    }
    expect(limit()).toBe(1)
    vi.advanceTimersByTime(RECOVER_AFTER_MS)
    expect(limit()).toBe(2)
    // One doubling per quiet period: 2 → 4 → … → 100 (capped at the configured limit).
    vi.advanceTimersByTime(RECOVER_AFTER_MS * 2)
    expect(limit()).toBe(8)
    vi.advanceTimersByTime(RECOVER_AFTER_MS * 10)
    expect(l.allowance()['withdraw-status']).toMatchObject({ limitPerMinute: 100, configuredPerMinute: 100 })
    l.close()
  })

  it('a lowered limit paces callers at the lowered rate', async () => {
    const l = new RateLimiter({ limits: { withdraw: 10 } })
    l.penalize('withdraw', 0)
    vi.advanceTimersByTime(1_000)
    l.penalize('withdraw', 0)
    expect(l.allowance().withdraw.limitPerMinute).toBe(5)
    const left: number[] = []
    for (let i = 0; i < 3; i++) {
      Promise.resolve(l.acquire('withdraw')).then(
        () => left.push(Date.now()),
        () => undefined, // the last one is still queued at close()
      )
    }
    await vi.advanceTimersByTimeAsync(0)
    expect(left).toHaveLength(1)
    // 5 a minute: one token every 12 s.
    await vi.advanceTimersByTimeAsync(11_900)
    expect(left).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(200)
    expect(left).toHaveLength(2)
    l.close()
  })
})

describe('a refresh answered 503 without the maintenance Retry-After', () => {
  it('is not presented again (it may have been consumed): one fresh login instead', async () => {
    const server = await startFakeServer()
    const auth = installFakeAuth(server, { secret: 'client-secret-for-503-tests-0003' })
    server.route('GET /api/withdraw-status', authed(auth, ok({ id: 'w1', status: 'sent' })))
    let clock = Date.now()
    const c = createDepixClient({
      baseUrl: server.baseUrl,
      auth: { kind: 'client_credentials', clientId: 'cid', clientSecret: 'client-secret-for-503-tests-0003' },
      now: () => clock,
      sleep: async () => undefined,
      timeoutMs: 1_000,
    })
    try {
      await c.signIn()
      auth.expireAll()
      clock += 290_000
      // The failed refresh is followed by one fresh login; the read then goes through.
      server.route(
        'POST /api/v2/auth/refresh',
        fail(503, { error: 'temporarily_unavailable' }, { 'Retry-After': '120' }),
        auth.refreshHandler,
      )
      await c.withdrawStatus('w1')
      expect(auth.logins).toBe(2)
      const presented = server.requests
        .filter((r) => r.path === '/api/v2/auth/refresh')
        .map((r) => (JSON.parse(r.body) as { refresh_token: string }).refresh_token)
      expect(presented).toHaveLength(1)
      expect(auth.replays).toBe(0)
    } finally {
      await c.close()
      await server.close()
    }
  })
})
