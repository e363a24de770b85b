import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { call, login } from './helpers'

let sb: Sandbox | undefined
afterEach(async () => {
  await sb?.close()
  sb = undefined
})

async function fresh(o: Parameters<typeof startSandbox>[0] = {}): Promise<{ s: Sandbox; token: string }> {
  sb = await startSandbox({ port: 0, ...o })
  return { s: sb, token: (await login(sb)).access_token }
}

describe('rate limits (API contract §8.1)', () => {
  it('§8.1 default GET /ping is 1 op/min: the second call answers 429 flat with Retry-After 60', async () => {
    const { s, token } = await fresh()
    expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
    const r = await call(s.baseUrl, 'GET', '/api/ping', { token })
    expect(r.status).toBe(429)
    expect(r.body).toEqual({ errorMessage: expect.any(String) })
    expect(r.headers['retry-after']).toBe('60')
  })

  it('§8.1 a full minute of allowance may be spent back to back, then 429 (60/min withdraw-status)', async () => {
    const { s, token } = await fresh()
    const statuses = []
    for (let i = 0; i < 61; i++)
      statuses.push((await call(s.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })).status)
    expect(statuses.slice(0, 60).every((st) => st === 520)).toBe(true)
    expect(statuses[60]).toBe(429)
  })

  it('§8.1 the allowance refills continuously, one request per 60/limit seconds', async () => {
    const { s, token } = await fresh()
    for (let i = 0; i < 10; i++) await call(s.baseUrl, 'POST', '/api/withdraw', { token, body: {} })
    const limited = await call(s.baseUrl, 'POST', '/api/withdraw', { token, body: {} })
    expect(limited.status).toBe(429)
    expect(limited.headers['retry-after']).toBe('6')
    s.control.advanceClock(6)
    expect((await call(s.baseUrl, 'POST', '/api/withdraw', { token, body: {} })).status).not.toBe(429)
    expect((await call(s.baseUrl, 'POST', '/api/withdraw', { token, body: {} })).status).toBe(429)
  })

  it('§8.1 Retry-After is in whole seconds, rounded up', async () => {
    const { s, token } = await fresh({ rateLimits: { deposits: 7 } })
    for (let i = 0; i < 7; i++)
      await call(s.baseUrl, 'GET', '/api/deposits?start=2026-01-01&end=2026-01-02', { token })
    const r = await call(s.baseUrl, 'GET', '/api/deposits?start=2026-01-01&end=2026-01-02', { token })
    expect(r.status).toBe(429)
    // 60/7 = 8.57 s until the next request is due.
    expect(r.headers['retry-after']).toBe('9')
  })

  it('§8.1 each endpoint has its own allowance', async () => {
    const { s, token } = await fresh()
    await call(s.baseUrl, 'GET', '/api/ping', { token })
    expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(429)
    expect((await call(s.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })).status).toBe(520)
    expect((await call(s.baseUrl, 'GET', '/api/deposit-status?id=x', { token })).status).toBe(520)
  })

  it('§8.1 limits are per account: two credentials of the partner share one allowance', async () => {
    const { s, token } = await fresh()
    const other = s.control.createCredential({ label: 'second-system' })
    const token2 = (await login(s, other)).access_token
    expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
    expect((await call(s.baseUrl, 'GET', '/api/ping', { token: token2 })).status).toBe(429)
  })

  it('§8.1 higher values by request: limits are overridable by option and by the control surface', async () => {
    const { s, token } = await fresh({ rateLimits: { ping: 3 } })
    for (let i = 0; i < 3; i++)
      expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
    expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(429)
    s.control.setRateLimits({ ping: 5 })
    for (let i = 0; i < 5; i++)
      expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
    expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(429)
  })

  it('§8.1 401 and 403 do not spend the allowance', async () => {
    const { s, token } = await fresh()
    await call(s.baseUrl, 'GET', '/api/ping', { token: 'bad' })
    const depositOnly = s.control.createCredential({ label: 'dep', scopes: ['deposit'] })
    const t2 = (await login(s, depositOnly)).access_token
    expect((await call(s.baseUrl, 'POST', '/api/withdraw', { token: t2, body: {} })).status).toBe(403)
    expect((await call(s.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
  })
})
