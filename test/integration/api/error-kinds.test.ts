/**
 * Every ApiError kind, each produced by a real behaviour of the sandbox over loopback.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createDepixClient } from '../../../src/main/api'
import { closedPort } from '../../main/api/helpers/fake-server'
import { expectApiError, harness, secretScan, TAX_NUMBER, WITHDRAWAL, type Harness } from './helpers'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

describe('business (520)', () => {
  it('an amount below R$ 2,00 is a business refusal with the service text kept for display', async () => {
    h = await harness()
    await h.client.signIn()
    const e = await expectApiError(
      h.client.withdraw({ pixKey: WITHDRAWAL.pixKey, taxNumber: TAX_NUMBER, payoutAmountInCents: 199 }),
      'business',
    )
    expect(e.status).toBe(520)
    expect(e.errorMessage).toMatch(/199/)
    expect(e.userMessage('pt-BR')).toContain('O serviço recusou a operação')
  })

  it('an unknown withdrawal id is WITHDRAW_NOT_FOUND, not retried', async () => {
    h = await harness()
    await h.client.signIn()
    const e = await expectApiError(h.client.withdrawStatus('does-not-exist'), 'business')
    expect(e.messageCode).toBe('WITHDRAW_NOT_FOUND')
    expect(h.sb.control.requestCounts()['GET /api/withdraw-status']).toBe(1)
    expect(e.userMessage('en')).toContain('Withdrawal not found')
  })

  it('a blocked user carries denialCode BLOCKED_USER', async () => {
    h = await harness()
    await h.client.signIn()
    h.sb.control.blockUser({ taxNumber: TAX_NUMBER })
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'business')
    expect(e.denialCode).toBe('BLOCKED_USER')
  })
})

describe('compliance (422)', () => {
  it('a compliance block is definitive and shows the support reference', async () => {
    h = await harness()
    await h.client.signIn()
    h.sb.control.complianceBlock(TAX_NUMBER)
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'compliance')
    expect(e).toMatchObject({ status: 422, denialCode: 'COMPLIANCE_BLOCKED' })
    expect(e.supportReference).toMatch(/^CMP-/)
    expect(e.errorMessage).toContain(e.supportReference)
    expect(e.userMessage('pt-BR')).toContain(e.supportReference)
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBe(1)
  })
})

describe('unauthorized (401)', () => {
  it('a revoked credential ends in invalid_client once its access token expires', async () => {
    h = await harness({ accessTokenTtlSeconds: 300 })
    const cred = h.sb.control.createCredential({ label: 'to-revoke' })
    const c = h.make({
      auth: { kind: 'client_credentials', clientId: cred.clientId, clientSecret: cred.clientSecret },
    })
    await c.signIn()
    h.sb.control.revokeCredential(cred.clientId)
    // Issued access tokens stay valid until they expire (docs/API-CONTRACT.md#s5-1).
    await expectApiError(c.withdrawStatus('nope'), 'business')
    h.sb.control.advanceClock(301)
    const e = await expectApiError(c.withdrawStatus('nope'), 'unauthorized')
    expect(e).toMatchObject({ status: 401, authError: 'invalid_client', endpoint: 'auth/login' })
    expect(c.session()).toBeNull()
  })

  it('an expired legacy token is refused by the service when our clock still believes it', async () => {
    h = await harness()
    const token = h.sb.control.mintLegacyToken({ expiresInSeconds: 60 })
    const c = h.make({ auth: { kind: 'legacy_token', token } })
    await c.signIn()
    h.sb.control.advanceClock(61)
    const e = await expectApiError(c.withdrawStatus('x'), 'unauthorized')
    expect(e.status).toBe(401)
    expect(h.sb.control.requestCounts()['POST /api/v2/auth/refresh']).toBeUndefined()
  })
})

describe('forbidden (403)', () => {
  it('a credential without the payout scope cannot read withdrawals', async () => {
    h = await harness()
    const cred = h.sb.control.createCredential({ label: 'deposit-only', scopes: ['deposit'] })
    const c = h.make({
      auth: { kind: 'client_credentials', clientId: cred.clientId, clientSecret: cred.clientSecret },
    })
    expect((await c.signIn()).scopes).toEqual(['deposit'])
    const e = await expectApiError(c.withdrawStatus('x'), 'forbidden')
    expect(e.status).toBe(403)
    await expectApiError(c.userInfo('euid-x'), 'forbidden')
  })
})

describe('rate_limited (429)', () => {
  it('a service limit lower than ours surfaces with Retry-After; the POST is not resent', async () => {
    h = await harness({ rateLimits: { withdraw: 1 } })
    await h.client.signIn()
    await h.client.withdraw(WITHDRAWAL)
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'rate_limited')
    expect(e.retryAfterSeconds).toBeGreaterThanOrEqual(1)
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBe(2)
    // The bucket is emptied until Retry-After: the UI sees it.
    expect(h.client.allowance().withdraw.available).toBe(0)
    expect(h.client.allowance().withdraw.nextTokenInMs).toBeGreaterThan(0)
  })

  it('a read told to wait longer than the cap fails instead of waiting', async () => {
    h = await harness({ rateLimits: { 'withdraw-status': 2 } })
    await h.client.signIn()
    await expectApiError(h.client.withdrawStatus('a'), 'business')
    await expectApiError(h.client.withdrawStatus('b'), 'business')
    const e = await expectApiError(h.client.withdrawStatus('c'), 'rate_limited')
    expect(e.retryAfterSeconds).toBeGreaterThan(10)
  })
})

describe('maintenance (503 + Retry-After)', () => {
  it('withdraw and reads answer maintenance with retryAfterSeconds 300, nothing created', async () => {
    h = await harness()
    await h.client.signIn()
    h.sb.control.setMaintenance(true)
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'maintenance')
    expect(e).toMatchObject({ status: 503, retryAfterSeconds: 300 })
    expect(e.userMessage('pt-BR')).toContain('5 min')
    const r = await expectApiError(h.client.withdrawStatus('x'), 'maintenance')
    expect(r.retryAfterSeconds).toBe(300)
    expect(h.sb.control.summary().withdrawals).toBe(0)
    h.sb.control.setMaintenance(false)
    await h.client.withdraw(WITHDRAWAL)
  })
})

describe('outcome_unknown', () => {
  it('503 after the create: the withdrawal exists although we got no answer', async () => {
    h = await harness()
    await h.client.signIn()
    h.sb.control.injectFault({ kind: 'timeout_after_create', endpoint: 'withdraw' })
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'outcome_unknown')
    expect(e).toMatchObject({ status: 503, outcomeUnknown: true })
    expect(e.retryAfterSeconds).toBeUndefined()
    expect(h.sb.control.summary().withdrawals).toBe(1)
    expect(e.userMessage('pt-BR')).toContain('NÃO reenvie')
  })

  it('a connection reset on POST is outcome_unknown', async () => {
    h = await harness()
    await h.client.signIn()
    h.sb.control.injectFault({ kind: 'reset', endpoint: 'withdraw' })
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'outcome_unknown')
    expect(e.code).toBe('connection_lost')
  })

  it('a 200 with a truncated body on POST is outcome_unknown, not invalid_response', async () => {
    h = await harness()
    await h.client.signIn()
    h.sb.control.injectFault({ kind: 'malformed_json', endpoint: 'withdraw' })
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'outcome_unknown')
    expect(e).toMatchObject({ status: 200, code: 'unreadable_response' })
    expect(h.sb.control.summary().withdrawals).toBe(1)
  })
})

describe('server (5xx)', () => {
  it('a persistent 502 on a read is server after the bounded retries', async () => {
    h = await harness({}, { sleep: async () => undefined })
    await h.client.signIn()
    h.sb.control.injectFault({ kind: 'status', status: 502, endpoint: 'withdraw-status', count: 3 })
    const e = await expectApiError(h.client.withdrawStatus('x'), 'server')
    expect(e.status).toBe(502)
    expect(h.sb.control.requestCounts()['GET /api/withdraw-status']).toBe(3)
  })

  it('a single 500 on a read is retried and the read succeeds', async () => {
    h = await harness({}, { sleep: async () => undefined })
    await h.client.signIn()
    const created = await h.client.withdraw(WITHDRAWAL)
    h.sb.control.injectFault({ kind: 'status', status: 500, endpoint: 'withdraw-status' })
    const r = await h.client.withdrawStatus(created.data.withdrawalId)
    expect(r.data.id).toBe(created.data.withdrawalId)
    expect(h.sb.control.requestCounts()['GET /api/withdraw-status']).toBe(2)
  })
})

describe('bad_request (400/413/415)', () => {
  it('a withdrawal without beneficiary identification is refused with MISSING_PARAMETER', async () => {
    h = await harness()
    await h.client.signIn()
    const e = await expectApiError(
      h.client.withdraw({ pixKey: 'fulano@example.com', payoutAmountInCents: 1_000 }),
      'bad_request',
    )
    expect(e).toMatchObject({ status: 400, messageCode: 'MISSING_PARAMETER' })
  })

  it('an invalid tax number is refused with INVALID_PARAMETER', async () => {
    h = await harness()
    await h.client.signIn()
    const e = await expectApiError(
      h.client.withdraw({ ...WITHDRAWAL, taxNumber: '11111111112' }),
      'bad_request',
    )
    expect(e).toMatchObject({ status: 400, messageCode: 'INVALID_PARAMETER' })
  })

  it('a 413 is bad_request', async () => {
    h = await harness()
    await h.client.signIn()
    h.sb.control.injectFault({ kind: 'status', status: 413, endpoint: 'withdraw' })
    await expectApiError(h.client.withdraw(WITHDRAWAL), 'bad_request')
    expect(h.sb.control.summary().withdrawals).toBe(0)
  })
})

describe('route_not_found (404)', () => {
  it('a base URL with an extra path segment reaches no route', async () => {
    h = await harness()
    const c = h.make({ baseUrl: `${h.sb.baseUrl}/depix/` })
    const e = await expectApiError(c.signIn(), 'route_not_found')
    expect(e.status).toBe(404)
    expect(h.sb.control.requestCounts()['POST /depix/api/v2/auth/login']).toBe(1)
  })
})

describe('network', () => {
  it('a closed port: nothing was sent', async () => {
    const c = createDepixClient({
      baseUrl: `http://127.0.0.1:${await closedPort()}`,
      auth: { kind: 'client_credentials', clientId: 'x', clientSecret: 'never-sent-secret-0003' },
    })
    const e = await expectApiError(c.signIn(), 'network')
    expect(e).toMatchObject({ code: 'connect_failed', nothingSent: true, status: null })
    await c.close()
  })
})

describe('invalid_response', () => {
  it('malformed JSON on a read', async () => {
    h = await harness()
    await h.client.signIn()
    const created = await h.client.withdraw(WITHDRAWAL)
    h.sb.control.injectFault({ kind: 'malformed_json', endpoint: 'withdraw-status' })
    const e = await expectApiError(h.client.withdrawStatus(created.data.withdrawalId), 'invalid_response')
    expect(e).toMatchObject({ status: 200, code: 'unreadable_response' })
  })
})

secretScan()
