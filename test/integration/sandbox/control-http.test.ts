import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { call, CPF_A, LQ_MAIN, login, roomySandbox } from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox()
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

const ctl = (method: string, path: string, body?: unknown) =>
  call(sb.controlUrl, method, path, body === undefined ? {} : { body })

describe('HTTP control surface under /_sandbox (not part of the API)', () => {
  it('drives a withdrawal: fund and settle over HTTP, seen through GET /api/withdraw-status', async () => {
    const w = (
      await call(sb.baseUrl, 'POST', '/api/withdraw', {
        token,
        body: {
          pixKey: 'maria@example.com',
          taxNumber: CPF_A,
          payoutAmountInCents: 10_000,
          refundAddress: LQ_MAIN,
        },
      })
    ).body.response
    const funded = await ctl('POST', `/withdrawals/${w.withdrawalId}/fund`, {
      amountInCents: w.depositAmountInCents,
    })
    expect(funded.status).toBe(200)
    expect(funded.body.status).toBe('sending')
    const settled = await ctl('POST', `/withdrawals/${w.withdrawalId}/settle`, { outcome: 'sent' })
    expect(settled.body.status).toBe('sent')
    const s = await call(sb.baseUrl, 'GET', `/api/withdraw-status?id=${w.withdrawalId}`, { token })
    expect(s.body.response.status).toBe('sent')
  })

  it('drives a deposit: pay and MED over HTTP', async () => {
    const d = (
      await call(sb.baseUrl, 'POST', '/api/deposit', {
        token,
        body: { amountInCents: 2_000, depixAddress: LQ_MAIN, endUserTaxNumber: CPF_A },
      })
    ).body.response
    expect((await ctl('POST', `/deposits/${d.id}/pay`, { payerName: 'Ana' })).body).toMatchObject({
      status: 'approved',
      payerName: 'Ana',
    })
    expect((await ctl('POST', `/deposits/${d.id}/med`)).body.status).toBe('refunded')
  })

  it('control requests are not counted, not rate limited and never faulted', async () => {
    sb.control.resetRequestCounts()
    sb.control.injectFault({ kind: 'status', status: 500 })
    for (let i = 0; i < 50; i++) expect((await ctl('GET', '/summary')).status).toBe(200)
    expect(sb.control.requestCounts()).toEqual({})
    sb.control.clearFaults()
  })

  it('answers flat { error, errorMessage }: 404 unknown id or route, 409 wrong state, 400 bad input', async () => {
    const unknown = await ctl('POST', '/withdrawals/nope/fund', { amountInCents: 100 })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'not_found', errorMessage: expect.any(String) })
    expect((await ctl('GET', '/no-such-route')).status).toBe(404)
    const w = (
      await call(sb.baseUrl, 'POST', '/api/withdraw', {
        token,
        body: { pixKey: 'a@example.com', taxNumber: CPF_A, payoutAmountInCents: 1_000 },
      })
    ).body.response
    expect((await ctl('POST', `/withdrawals/${w.withdrawalId}/settle`, { outcome: 'sent' })).status).toBe(409)
    expect((await ctl('POST', `/withdrawals/${w.withdrawalId}/fund`, { amountInCents: -1 })).status).toBe(400)
    expect((await ctl('POST', '/faults', { kind: 'explode' })).status).toBe(400)
    expect((await ctl('POST', '/options', { nonsense: 1 })).status).toBe(400)
  })

  it('covers the rest of the surface: credentials, legacy token, clock, users, limits, options, maintenance, state, counts', async () => {
    const c = await ctl('POST', '/credentials', { label: 'from-http', scopes: ['deposit'] })
    expect(c.status).toBe(201)
    expect(c.body).toEqual({
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      scopes: ['deposit'],
    })
    expect((await ctl('POST', `/credentials/${c.body.clientId}/revoke`)).status).toBe(204)
    const legacy = (await ctl('POST', '/legacy-token', { expiresInSeconds: 600 })).body.token
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token: legacy })).status).toBe(520)
    const before = (await ctl('GET', '/clock')).body.now
    const after = (await ctl('POST', '/clock/advance', { seconds: 10 })).body.now
    expect(after - before).toBeGreaterThanOrEqual(10_000)
    expect((await ctl('POST', '/end-users', { euid: 'EU-HTTP', taxNumber: '11144477735' })).status).toBe(204)
    expect((await ctl('POST', '/block-user', { euid: 'EU-HTTP' })).status).toBe(204)
    expect((await ctl('POST', '/compliance-block', { taxNumber: '86288366757' })).status).toBe(204)
    expect((await ctl('POST', '/rate-limits', { ping: 500 })).status).toBe(204)
    expect((await ctl('POST', '/options', { minimalCreateResponse: false })).status).toBe(204)
    expect((await ctl('POST', '/maintenance', { on: false })).status).toBe(204)
    expect((await ctl('POST', '/faults/clear')).status).toBe(204)
    const seeded = await ctl('POST', '/withdrawals/seed', { count: 3 })
    expect(seeded.body.count).toBe(3)
    const page = (await ctl('GET', '/state?offset=0&limit=2')).body
    expect(page.withdrawals).toHaveLength(2)
    expect(
      page.credentials.some(
        (x: { clientId: string; revoked: boolean }) => x.clientId === c.body.clientId && x.revoked,
      ),
    ).toBe(true)
    const summary = (await ctl('GET', '/summary')).body
    expect(summary.withdrawals).toBeGreaterThanOrEqual(5)
    expect(summary.withdrawalsByStatus.unsent).toBeGreaterThanOrEqual(3)
    await call(sb.baseUrl, 'GET', '/nope')
    expect((await ctl('GET', '/request-counts')).body['GET /nope']).toBe(1)
    expect((await ctl('POST', '/request-counts/reset')).status).toBe(204)
    expect((await ctl('GET', '/request-counts')).body).toEqual({})
  })

  it('answers loopback callers only (403 from another interface; the API itself still answers)', async (ctx) => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)
    if (external === undefined) return ctx.skip()
    const open = await startSandbox({ port: 0, host: '0.0.0.0' })
    try {
      const port = new URL(open.baseUrl).port
      const remote = `http://${external.address}:${port}`
      const r = await call(remote, 'GET', '/_sandbox/summary')
      expect(r.status).toBe(403)
      expect((await call(remote, 'GET', '/api/ping')).status).toBe(401)
      expect((await call(open.controlUrl, 'GET', '/summary')).status).toBe(200)
    } finally {
      await open.close()
    }
  })
})
