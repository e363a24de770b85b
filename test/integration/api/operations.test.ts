/**
 * Every operation of the client against the sandbox: paths, envelopes, unknown fields, ids on every answer.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { DEFAULT_END_USER } from '../../../src/main/sandbox'
import { expectApiError, harness, secretScan, TAX_NUMBER, WITHDRAWAL, type Harness } from './helpers'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const EX_ADDRESS = 'ex1q7gkeyjut0mrxc3j0kjlt7rmcnvsh0gt45d3fud'

describe('base URL', () => {
  it('a trailing slash works: the client never sends //api', async () => {
    h = await harness()
    const c = h.make({ baseUrl: `${h.sb.baseUrl}/` })
    await c.signIn()
    await c.withdraw(WITHDRAWAL)
    const paths = Object.keys(h.sb.control.requestCounts())
    expect(paths.some((p) => p.includes('//'))).toBe(false)
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBe(1)
  })
})

describe('withdrawals', () => {
  it('create then status: request id and nonce on every answer, unknown fields kept', async () => {
    h = await harness()
    await h.client.signIn()
    const created = await h.client.withdraw({ ...WITHDRAWAL, refundAddress: EX_ADDRESS })
    expect(created).toMatchObject({ status: 200, requestId: expect.any(String), nonce: expect.any(String) })
    expect(created.data.withdrawalId).toMatch(/\S/)
    expect(Number.isSafeInteger(created.data.depositAmountInCents)).toBe(true)
    // `pixKey` is not in our schema for the create answer; it is kept, not dropped.
    expect(created.data).toHaveProperty('pixKey', WITHDRAWAL.pixKey)
    const status = await h.client.withdrawStatus(created.data.withdrawalId)
    expect(status.data).toMatchObject({ id: created.data.withdrawalId, refundAddress: EX_ADDRESS })
    expect(status.requestId).not.toBe(created.requestId)
  })

  it('copes with a create answer that carries only withdrawalId', async () => {
    h = await harness({ minimalCreateResponse: true })
    await h.client.signIn()
    const created = await h.client.withdraw(WITHDRAWAL)
    expect(Object.keys(created.data)).toEqual(['withdrawalId'])
  })

  it('a refund recorded after a failed payout is read whole, unknown refund fields included', async () => {
    h = await harness()
    await h.client.signIn()
    const created = await h.client.withdraw({ ...WITHDRAWAL, refundAddress: EX_ADDRESS })
    h.sb.control.fundWithdrawal(created.data.withdrawalId, created.data.depositAmountInCents ?? 0)
    h.sb.control.settlePayout(created.data.withdrawalId, 'invalid_pix_key')
    const status = await h.client.withdrawStatus(created.data.withdrawalId)
    expect(status.data.status).toBe('refunded')
    expect(status.data.refund).toMatchObject({ reason: 'invalid_pix_key', txId: expect.any(String) })
    expect(status.data.refund).toHaveProperty('feeInCents', 100)
  })
})

describe('deposits and user info', () => {
  it('deposit, deposit status, deposits sweep, user info', async () => {
    h = await harness()
    await h.client.signIn()
    const created = await h.client.deposit({
      amountInCents: 5_000,
      depixAddress: EX_ADDRESS,
      endUserTaxNumber: TAX_NUMBER,
    })
    expect(created.data.id).toMatch(/\S/)
    const status = await h.client.depositStatus(created.data.id)
    expect(status.data.qrId).toBe(created.data.id)
    const day = new Date(h.sb.control.now()).toISOString().slice(0, 10)
    const rows = await h.client.deposits({
      start: `${day}T00:00:00Z`,
      end: new Date(h.sb.control.now() + 86_400_000).toISOString(),
    })
    expect(rows.data.map((r) => r.qrId)).toContain(created.data.id)
    const info = await h.client.userInfo(DEFAULT_END_USER.euid)
    expect(Number.isSafeInteger(info.data.maxDailyInCents)).toBe(true)
    await expectApiError(h.client.depositStatus('missing'), 'business')
  })

  it('ping echoes the token claims', async () => {
    h = await harness()
    const info = await h.client.signIn()
    const pong = await h.client.ping()
    expect(pong.data.claims_for_token_debug).toMatchObject({ sub: info.sub, env: info.env })
  })
})

secretScan()
