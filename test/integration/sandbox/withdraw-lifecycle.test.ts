import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../src/main/sandbox'
import { call, CPF_A, DEFAULT_CPF, LQ_MAIN, login, roomySandbox, type Json } from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  // Long-lived access tokens: these tests move the clock by hours.
  sb = await roomySandbox({ accessTokenTtlSeconds: 30 * 86_400, refreshIdleSeconds: 30 * 86_400 })
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

async function create(o: {
  depositAmountInCents?: number
  payoutAmountInCents?: number
  refund?: boolean
  pixKey?: string
}): Promise<Json> {
  const body: Record<string, unknown> = { pixKey: o.pixKey ?? 'maria@example.com', taxNumber: CPF_A }
  if (o.depositAmountInCents !== undefined) body.depositAmountInCents = o.depositAmountInCents
  if (o.payoutAmountInCents !== undefined) body.payoutAmountInCents = o.payoutAmountInCents
  if (o.refund === true) body.refundAddress = LQ_MAIN
  const r = await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body })
  if (r.status !== 200) throw new Error(r.text)
  return r.body.response
}

async function status(id: string): Promise<Json> {
  const r = await call(sb.baseUrl, 'GET', `/api/withdraw-status?id=${id}`, { token })
  expect(r.status).toBe(200)
  return r.body.response
}

describe('funding (API contract §3.2, §6.4)', () => {
  it('§3.2 an exact funding proceeds: status sending, blockchainTxID recorded, payout unchanged', async () => {
    const w = await create({ payoutAmountInCents: 10_000 })
    sb.control.fundWithdrawal(w.withdrawalId, w.depositAmountInCents)
    const s = await status(w.withdrawalId)
    expect(s).toMatchObject({ status: 'sending', payoutAmountInCents: 10_000 })
    expect(s.blockchainTxID).toMatch(/^[0-9a-f]{64}$/)
  })

  it('§6.4 a funding up to 5% short proceeds with payoutAmountInCents recalculated from what arrived', async () => {
    const w = await create({ depositAmountInCents: 10_000 })
    const s = sb.control.fundWithdrawal(w.withdrawalId, 9_500)
    expect(s).toMatchObject({ status: 'sending', payoutAmountInCents: 9_400 })
    expect((await status(w.withdrawalId)).payoutAmountInCents).toBe(9_400)
  })

  it('§6.4 a funding up to 5% over proceeds with payoutAmountInCents recalculated from what arrived', async () => {
    const w = await create({ depositAmountInCents: 10_000 })
    expect(sb.control.fundWithdrawal(w.withdrawalId, 10_500)).toMatchObject({
      status: 'sending',
      payoutAmountInCents: 10_395,
    })
  })

  it('§3.2 a funding more than 5% off with refundAddress is returned in full, no fee: status refunded, reason amount_mismatch', async () => {
    const w = await create({ depositAmountInCents: 10_000, refund: true })
    sb.control.fundWithdrawal(w.withdrawalId, 9_499)
    const s = await status(w.withdrawalId)
    expect(s.status).toBe('refunded')
    expect(s.refund).toEqual({
      txId: expect.stringMatching(/^[0-9a-f]{64}$/),
      reason: 'amount_mismatch',
      initiatedBy: 'system',
      feeInCents: 0,
      amountInCents: 9_499,
    })
  })

  it('§6.4 a recalculated payout outside 200..600000 is treated as a mismatch', async () => {
    // Deposit 300 → payout 200; 290 arrives (within 5%) → payout 190, below the minimum.
    const w = await create({ depositAmountInCents: 300, refund: true })
    const s = sb.control.fundWithdrawal(w.withdrawalId, 290)
    expect(s.status).toBe('refunded')
    expect(s.refund).toMatchObject({ reason: 'amount_mismatch', feeInCents: 0, amountInCents: 290 })
  })

  it('§3.2 a mismatch without refundAddress is ignored (status unchanged); a later correct funding still works', async () => {
    const w = await create({ depositAmountInCents: 10_000 })
    sb.control.fundWithdrawal(w.withdrawalId, 5_000)
    const after = await status(w.withdrawalId)
    expect(after.status).toBe('unsent')
    expect(after.refund).toBeUndefined()
    expect(after.blockchainTxID).toBeUndefined()
    sb.control.fundWithdrawal(w.withdrawalId, 10_000)
    expect((await status(w.withdrawalId)).status).toBe('sending')
  })
})

describe('payout settlement (API contract §3.2, §2.3)', () => {
  it('§2.3 a sent payout reports receiptUrl (on the sandbox own origin), receiverName, masked receiverTaxNumber, transferDate, centralBankId', async () => {
    const w = await create({ payoutAmountInCents: 5_000 })
    sb.control.fundWithdrawal(w.withdrawalId, w.depositAmountInCents)
    sb.control.settlePayout(w.withdrawalId, 'sent')
    const s = await status(w.withdrawalId)
    expect(s.status).toBe('sent')
    expect(s.receiptUrl).toBe(`${sb.baseUrl}/receipts/${w.withdrawalId}`)
    expect(s.receiverName).toEqual(expect.any(String))
    expect(s.receiverTaxNumber).toBe(`***.${CPF_A.slice(3, 6)}.${CPF_A.slice(6, 9)}-**`)
    expect(Number.isNaN(Date.parse(s.transferDate))).toBe(false)
    expect(s.centralBankId).toMatch(/^E\d{8}\d{12}[A-Z0-9]{11}$/)
    expect(s.refund).toBeUndefined()
  })

  it('§3.2 an invalid Pix key with refundAddress is refunded withholding 1 token: reason invalid_pix_key', async () => {
    const w = await create({ depositAmountInCents: 10_000, refund: true })
    sb.control.fundWithdrawal(w.withdrawalId, 10_000)
    sb.control.settlePayout(w.withdrawalId, 'invalid_pix_key')
    const s = await status(w.withdrawalId)
    expect(s.status).toBe('refunded')
    expect(s.refund).toMatchObject({ reason: 'invalid_pix_key', feeInCents: 100, amountInCents: 9_900 })
  })

  it('§3.2 a Pix key not belonging to taxNumber (caused by the request) is refunded withholding 1 token', async () => {
    const w = await create({ depositAmountInCents: 10_000, refund: true })
    sb.control.fundWithdrawal(w.withdrawalId, 10_200)
    const s = sb.control.settlePayout(w.withdrawalId, 'key_tax_mismatch')
    expect(s.status).toBe('refunded')
    expect(s.refund).toMatchObject({ reason: 'invalid_pix_key', feeInCents: 100, amountInCents: 10_100 })
  })

  it('§3.2 a failure not caused by the request is refunded with no fee', async () => {
    const w = await create({ depositAmountInCents: 10_000, refund: true })
    sb.control.fundWithdrawal(w.withdrawalId, 10_000)
    sb.control.settlePayout(w.withdrawalId, 'processor_failure')
    const s = await status(w.withdrawalId)
    expect(s.status).toBe('refunded')
    expect(s.refund).toMatchObject({ reason: 'processor_failure', feeInCents: 0, amountInCents: 10_000 })
  })

  it('§3.2 any payout failure without refundAddress leaves status error with no refund (waits for the operator)', async () => {
    for (const outcome of ['invalid_pix_key', 'processor_failure'] as const) {
      const w = await create({ depositAmountInCents: 10_000 })
      sb.control.fundWithdrawal(w.withdrawalId, 10_000)
      sb.control.settlePayout(w.withdrawalId, outcome)
      const s = await status(w.withdrawalId)
      expect(s.status).toBe('error')
      expect(s.refund).toBeUndefined()
    }
  })

  it('§2.3 older records keep refund.reason payout_failure, which also withholds 1 token', async () => {
    const w = await create({ depositAmountInCents: 10_000, refund: true })
    sb.control.fundWithdrawal(w.withdrawalId, 10_000)
    const s = sb.control.settlePayout(w.withdrawalId, 'payout_failure')
    expect(s.refund).toMatchObject({ reason: 'payout_failure', feeInCents: 100, amountInCents: 9_900 })
  })

  it('option autoSettleSeconds settles a funded withdrawal by itself (sent, or invalid_pix_key for a malformed key)', async () => {
    sb.control.setOptions({ autoSettleSeconds: 30 })
    try {
      const good = await create({ payoutAmountInCents: 1_000 })
      const bad = await create({ payoutAmountInCents: 1_000, pixKey: 'not a pix key', refund: true })
      sb.control.fundWithdrawal(good.withdrawalId, good.depositAmountInCents)
      sb.control.fundWithdrawal(bad.withdrawalId, bad.depositAmountInCents)
      expect((await status(good.withdrawalId)).status).toBe('sending')
      sb.control.advanceClock(30)
      expect((await status(good.withdrawalId)).status).toBe('sent')
      expect((await status(bad.withdrawalId)).refund).toMatchObject({
        reason: 'invalid_pix_key',
        feeInCents: 100,
      })
    } finally {
      sb.control.setOptions({ autoSettleSeconds: null })
    }
  })
})

describe('expiry and cancellation', () => {
  it('§3.2 a withdrawal not funded before its expiration becomes expired (lazily, on the sandbox clock)', async () => {
    const w = await create({ payoutAmountInCents: 1_000 })
    sb.control.advanceClock(1_799)
    expect((await status(w.withdrawalId)).status).toBe('unsent')
    sb.control.advanceClock(1)
    expect((await status(w.withdrawalId)).status).toBe('expired')
  })

  it('option withdrawalTtlSeconds sets the funding window; token arriving after expiry goes back in full to refundAddress', async () => {
    sb.control.setOptions({ withdrawalTtlSeconds: 60 })
    try {
      const w = await create({ depositAmountInCents: 1_000, refund: true })
      expect(Date.parse(w.expiration) - sb.control.now()).toBeLessThanOrEqual(60_000)
      sb.control.advanceClock(60)
      const s = sb.control.fundWithdrawal(w.withdrawalId, 1_000)
      expect(s).toMatchObject({
        status: 'refunded',
        refund: { reason: 'expired', feeInCents: 0, amountInCents: 1_000 },
      })
    } finally {
      sb.control.setOptions({ withdrawalTtlSeconds: 1_800 })
    }
  })

  it('control cancelWithdrawal moves an unsent withdrawal to cancelled; only unsent can be cancelled', async () => {
    const w = await create({ payoutAmountInCents: 1_000 })
    sb.control.cancelWithdrawal(w.withdrawalId)
    expect((await status(w.withdrawalId)).status).toBe('cancelled')
    expect(() => sb.control.cancelWithdrawal(w.withdrawalId)).toThrow(/cancelled/)
  })

  it('cancelled, expired and refunded withdrawals stop counting towards the daily cap', async () => {
    sb.control.setOptions({ dailyCapPerTaxNumberCents: 1_500 })
    try {
      const body = { pixKey: 'x@example.com', taxNumber: DEFAULT_CPF, payoutAmountInCents: 1_000 }
      sb.control.advanceClock(86_400)
      const first = await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body })
      expect((await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body })).status).toBe(520)
      sb.control.cancelWithdrawal(first.body.response.withdrawalId)
      expect((await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body })).status).toBe(200)
    } finally {
      sb.control.setOptions({ dailyCapPerTaxNumberCents: 2_000_000 })
    }
  })
})
