import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../src/main/sandbox'
import { call, CPF_A, LQ_MAIN, login, refusal, roomySandbox } from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox()
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())
afterEach(() => {
  sb.control.clearFaults()
  sb.control.setMaintenance(false)
})

const withdrawBody = { pixKey: 'maria@example.com', taxNumber: CPF_A, payoutAmountInCents: 1_000 }
const depositBody = { amountInCents: 1_000, depixAddress: LQ_MAIN, endUserTaxNumber: CPF_A }

describe('maintenance (API contract §7.2)', () => {
  it('§7.2 a maintenance freeze answers 503 with Retry-After: 300 and creates nothing', async () => {
    sb.control.setMaintenance(true)
    const before = sb.control.summary()
    const w = await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body: withdrawBody })
    const d = await call(sb.baseUrl, 'POST', '/api/deposit', { token, body: depositBody })
    for (const r of [w, d]) {
      expect(r.status).toBe(503)
      expect(r.headers['retry-after']).toBe('300')
      expect(refusal(r).errorMessage).toEqual(expect.any(String))
    }
    expect(sb.control.summary()).toMatchObject({ withdrawals: before.withdrawals, deposits: before.deposits })
    sb.control.setMaintenance(false)
    expect((await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body: withdrawBody })).status).toBe(200)
  })

  it('§5.5 during maintenance login and refresh answer 503 temporarily_unavailable; logout still 204', async () => {
    const t = await login(sb)
    sb.control.setMaintenance(true)
    const l = await call(sb.baseUrl, 'POST', '/api/v2/auth/login', {
      body: { client_id: sb.credentials.clientId, client_secret: sb.credentials.clientSecret },
    })
    expect(l.status).toBe(503)
    expect(l.body).toEqual({ error: 'temporarily_unavailable', errorMessage: expect.any(String) })
    expect(l.headers['retry-after']).toBe('300')
    const r = await call(sb.baseUrl, 'POST', '/api/v2/auth/refresh', {
      body: { refresh_token: t.refresh_token },
    })
    expect(r.body.error).toBe('temporarily_unavailable')
    expect(
      (await call(sb.baseUrl, 'POST', '/api/v2/auth/logout', { body: { refresh_token: 'x' } })).status,
    ).toBe(204)
  })
})

describe('injected faults (docs/SANDBOX.md)', () => {
  it('§7.2 timeout_after_create on POST /withdraw: 503 without Retry-After, yet the withdrawal exists', async () => {
    sb.control.injectFault({ kind: 'timeout_after_create', endpoint: 'withdraw' })
    const before = sb.control.summary().withdrawals
    const r = await call(sb.baseUrl, 'POST', '/api/withdraw', {
      token,
      body: { ...withdrawBody, pixKey: 'ghost@example.com' },
    })
    expect(r.status).toBe(503)
    expect(r.headers['retry-after']).toBeUndefined()
    expect(sb.control.summary().withdrawals).toBe(before + 1)
    const ghost = sb.control.state().withdrawals.find((w) => w.pixKey === 'ghost@example.com')
    expect(ghost?.status).toBe('unsent')
    // Only the next request was affected.
    expect((await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body: withdrawBody })).status).toBe(200)
  })

  it('§7.2 timeout_after_create on POST /deposit: 503 without Retry-After, yet the QR code exists', async () => {
    sb.control.injectFault({ kind: 'timeout_after_create', endpoint: 'deposit' })
    const before = sb.control.summary().deposits
    const r = await call(sb.baseUrl, 'POST', '/api/deposit', { token, body: depositBody })
    expect(r.status).toBe(503)
    expect(r.headers['retry-after']).toBeUndefined()
    expect(sb.control.summary().deposits).toBe(before + 1)
  })

  it('slow delays the answer by delayMs (the operation still runs)', async () => {
    sb.control.injectFault({ kind: 'slow', delayMs: 300, endpoint: 'withdraw-status' })
    const t0 = performance.now()
    const r = await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290)
    expect(r.status).toBe(520)
  })

  it('reset drops the connection without an answer', async () => {
    sb.control.injectFault({ kind: 'reset', endpoint: 'withdraw-status' })
    await expect(call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })).rejects.toThrow()
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })).status).toBe(520)
  })

  it('malformed_json answers a body that is not valid JSON', async () => {
    sb.control.injectFault({ kind: 'malformed_json', endpoint: 'deposit-status' })
    const r = await call(sb.baseUrl, 'GET', '/api/deposit-status?id=x', { token })
    expect(r.text.length).toBeGreaterThan(0)
    expect(() => JSON.parse(r.text)).toThrow()
  })

  it('status answers the given HTTP status for the next count requests, then normal service resumes', async () => {
    sb.control.injectFault({ kind: 'status', status: 502, endpoint: 'withdraw-status', count: 2 })
    const a = await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })
    const b = await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })
    const c = await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })
    expect([a.status, b.status, c.status]).toEqual([502, 502, 520])
    expect(a.body.async).toBe(false)
  })

  it('a fault aimed at one endpoint leaves the others alone; auth faults use the flat auth body; clearFaults disarms', async () => {
    sb.control.injectFault({ kind: 'status', status: 500, endpoint: 'deposit' })
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })).status).toBe(520)
    sb.control.injectFault({ kind: 'status', status: 503, endpoint: 'auth' })
    const l = await call(sb.baseUrl, 'POST', '/api/v2/auth/login', {
      body: { client_id: sb.credentials.clientId, client_secret: sb.credentials.clientSecret },
    })
    expect(l.status).toBe(503)
    expect(l.body.error).toBe('temporarily_unavailable')
    sb.control.clearFaults()
    expect((await call(sb.baseUrl, 'POST', '/api/deposit', { token, body: depositBody })).status).toBe(200)
  })

  it('§7.4 refusal injects an envelope refusal with any messageCode (e.g. NETWORK_WALLET_UNAVAILABLE or an unknown one); nothing is created', async () => {
    const before = sb.control.summary().deposits
    sb.control.injectFault({
      kind: 'refusal',
      endpoint: 'deposit',
      messageCode: 'NETWORK_WALLET_UNAVAILABLE',
    })
    const r = await call(sb.baseUrl, 'POST', '/api/deposit', { token, body: depositBody })
    expect(r.status).toBe(520)
    expect(r.body).toEqual({
      response: { errorMessage: expect.any(String), messageCode: 'NETWORK_WALLET_UNAVAILABLE' },
      async: false,
    })
    sb.control.injectFault({
      kind: 'refusal',
      status: 400,
      messageCode: 'SOMETHING_NEW',
      denialCode: 'ALSO_NEW',
    })
    const u = await call(sb.baseUrl, 'POST', '/api/deposit', { token, body: depositBody })
    expect(u.status).toBe(400)
    expect(refusal(u)).toMatchObject({ messageCode: 'SOMETHING_NEW', denialCode: 'ALSO_NEW' })
    expect(sb.control.summary().deposits).toBe(before)
  })

  it('faults apply only after authentication: an unauthenticated request is still 401', async () => {
    sb.control.injectFault({ kind: 'status', status: 500 })
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x')).status).toBe(401)
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token })).status).toBe(500)
  })
})
