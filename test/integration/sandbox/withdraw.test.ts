import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { checkLiquidAddress } from '../../../src/main/liquid'
import type { Sandbox } from '../../../src/main/sandbox'
import {
  call,
  CNPJ_A,
  CPF_A,
  CPF_B,
  CPF_BAD,
  CPF_C,
  DEFAULT_CPF,
  DEFAULT_EUID,
  EX_MAIN,
  LQ_BAD_CHECKSUM,
  LQ_MAIN,
  login,
  Q_MAIN_BASE58,
  refusal,
  roomySandbox,
  TLQ_TESTNET,
  type Res,
} from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox()
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

const withdraw = (body: Record<string, unknown>): Promise<Res> =>
  call(sb.baseUrl, 'POST', '/api/withdraw', { token, body })
const base = { pixKey: 'maria@example.com', taxNumber: CPF_A }

describe('POST /withdraw (API contract §4.6)', () => {
  it('§4.6 creation answers the envelope with withdrawalId, a real Liquid mainnet confidential depositAddress, amounts, expiration, status unsent', async () => {
    const r = await withdraw({ ...base, payoutAmountInCents: 10_000 })
    expect(r.status).toBe(200)
    expect(r.body.async).toBe(false)
    const w = r.body.response
    expect(w).toMatchObject({
      withdrawalId: expect.any(String),
      status: 'unsent',
      depositAmountInCents: expect.any(Number),
      payoutAmountInCents: 10_000,
    })
    const check = checkLiquidAddress(w.depositAddress, 'liquid')
    expect(check).toMatchObject({
      ok: true,
      network: 'liquid',
      confidential: true,
      address: w.depositAddress,
    })
    expect(Date.parse(w.expiration) - sb.control.now()).toBeGreaterThan(29 * 60_000)
    expect(Date.parse(w.expiration) - sb.control.now()).toBeLessThanOrEqual(30 * 60_000)
  })

  it('§4.6 option minimalCreateResponse answers only withdrawalId', async () => {
    sb.control.setOptions({ minimalCreateResponse: true })
    try {
      const r = await withdraw({ ...base, payoutAmountInCents: 1000 })
      expect(r.body).toEqual({ response: { withdrawalId: expect.any(String) }, async: false })
    } finally {
      sb.control.setOptions({ minimalCreateResponse: false })
    }
  })

  it('§4.6 rule 1: without taxNumber and euid the request is refused (MISSING_PARAMETER)', async () => {
    const r = await withdraw({ pixKey: 'a@example.com', payoutAmountInCents: 1000 })
    expect(r.status).toBe(400)
    expect(refusal(r).messageCode).toBe('MISSING_PARAMETER')
  })

  it('§4.6 rule 1: an euid that resolves to nobody is END_USER_NOT_FOUND (520)', async () => {
    const r = await withdraw({ pixKey: 'a@example.com', euid: 'EU-NOBODY', payoutAmountInCents: 1000 })
    expect(r.status).toBe(520)
    expect(refusal(r).messageCode).toBe('END_USER_NOT_FOUND')
  })

  it('§4.6 rule 1: taxNumber and euid of different people are CONFLICTING_PARAMETERS', async () => {
    const r = await withdraw({
      pixKey: 'a@example.com',
      euid: DEFAULT_EUID,
      taxNumber: CPF_A,
      payoutAmountInCents: 1000,
    })
    expect(refusal(r).messageCode).toBe('CONFLICTING_PARAMETERS')
  })

  it('§4.6 rule 1: euid alone, or euid with its own tax number (any mask), identifies the beneficiary', async () => {
    expect(
      (await withdraw({ pixKey: 'a@example.com', euid: DEFAULT_EUID, payoutAmountInCents: 1000 })).status,
    ).toBe(200)
    const masked = `${DEFAULT_CPF.slice(0, 3)}.${DEFAULT_CPF.slice(3, 6)}.${DEFAULT_CPF.slice(6, 9)}-${DEFAULT_CPF.slice(9)}`
    const r = await withdraw({
      pixKey: 'a@example.com',
      euid: DEFAULT_EUID,
      taxNumber: masked,
      payoutAmountInCents: 1000,
    })
    expect(r.status).toBe(200)
  })

  it('§4.6 any CPF/CNPJ with valid check digits is a beneficiary without registration; bad check digits are INVALID_PARAMETER', async () => {
    for (const taxNumber of [CPF_B, CNPJ_A]) {
      expect((await withdraw({ pixKey: 'a@example.com', taxNumber, payoutAmountInCents: 1000 })).status).toBe(
        200,
      )
    }
    const r = await withdraw({ pixKey: 'a@example.com', taxNumber: CPF_BAD, payoutAmountInCents: 1000 })
    expect(r.status).toBe(400)
    expect(refusal(r).messageCode).toBe('INVALID_PARAMETER')
    expect(refusal(r).errorMessage).toContain('taxNumber')
  })

  it('§4.6 rule 2: sending both depositAmountInCents and payoutAmountInCents is CONFLICTING_PARAMETERS', async () => {
    const r = await withdraw({ ...base, depositAmountInCents: 1000, payoutAmountInCents: 900 })
    expect(r.status).toBe(400)
    expect(refusal(r).messageCode).toBe('CONFLICTING_PARAMETERS')
  })

  it('§7.4 a missing pixKey or a missing amount is MISSING_PARAMETER naming it', async () => {
    const noKey = await withdraw({ taxNumber: CPF_A, payoutAmountInCents: 1000 })
    expect(refusal(noKey)).toMatchObject({ messageCode: 'MISSING_PARAMETER' })
    expect(refusal(noKey).errorMessage).toContain('pixKey')
    const noAmount = await withdraw({ ...base })
    expect(refusal(noAmount).messageCode).toBe('MISSING_PARAMETER')
    expect(refusal(noAmount).errorMessage).toContain('AmountInCents')
  })

  it('§7.4 a wrong type or invalid value is INVALID_PARAMETER naming the parameter', async () => {
    for (const [key, value] of [
      ['payoutAmountInCents', '1000'],
      ['payoutAmountInCents', 10.5],
      ['pixKey', 42],
      ['euid', true],
    ] as const) {
      const r = await withdraw({ ...base, payoutAmountInCents: 1000, [key]: value })
      expect(r.status).toBe(400)
      expect(refusal(r).messageCode).toBe('INVALID_PARAMETER')
      expect(refusal(r).errorMessage).toContain(key)
    }
  })

  it('§8.2 depositAmountInCents is range-checked 200..600000 (520; the message names 200, 600000 and the parameter)', async () => {
    for (const v of [199, 600_001]) {
      const r = await withdraw({ ...base, depositAmountInCents: v })
      expect(r.status).toBe(520)
      const m = refusal(r).errorMessage
      expect(m).toContain('200')
      expect(m).toContain('600000')
      expect(m).toContain('depositAmountInCents')
    }
    expect((await withdraw({ ...base, taxNumber: CPF_C, depositAmountInCents: 200 })).status).toBe(200)
    expect((await withdraw({ ...base, taxNumber: CPF_C, depositAmountInCents: 600_000 })).status).toBe(200)
  })

  it('§8.2 note 1: the range applies to whichever amount is sent (payoutAmountInCents 600000 is accepted although its deposit exceeds it)', async () => {
    for (const v of [199, 600_001]) {
      const r = await withdraw({ ...base, payoutAmountInCents: v })
      expect(r.status).toBe(520)
      expect(refusal(r).errorMessage).toContain('payoutAmountInCents')
    }
    const ok = await withdraw({ ...base, taxNumber: CNPJ_A, payoutAmountInCents: 600_000 })
    expect(ok.status).toBe(200)
    expect(ok.body.response.depositAmountInCents).toBeGreaterThan(600_000)
  })

  it('§4.6 rule 3: the fee is the larger of the partner rate (default 1%) and R$ 1,00', async () => {
    const small = (await withdraw({ ...base, depositAmountInCents: 5000 })).body.response
    expect(small.payoutAmountInCents).toBe(4900)
    const large = (await withdraw({ ...base, depositAmountInCents: 20_000 })).body.response
    expect(large.payoutAmountInCents).toBe(19_800)
    const byPayout = (await withdraw({ ...base, payoutAmountInCents: 100_000 })).body.response
    expect(byPayout.depositAmountInCents).toBe(101_011)
  })

  it('§4.6 rule 3: the partner rate is configurable (basis points)', async () => {
    sb.control.setOptions({ partnerRateBps: 250 })
    try {
      const r = (await withdraw({ ...base, depositAmountInCents: 20_000 })).body.response
      expect(r.payoutAmountInCents).toBe(19_500)
    } finally {
      sb.control.setOptions({ partnerRateBps: 100 })
    }
  })

  it('§8.2 note 2: withdrawals are capped per day per recipient tax number; the message names the volume and the cap', async () => {
    sb.control.setOptions({ dailyCapPerTaxNumberCents: 50_000 })
    try {
      const cpf = '11144477735'
      expect(
        (await withdraw({ pixKey: 'a@example.com', taxNumber: cpf, payoutAmountInCents: 30_000 })).status,
      ).toBe(200)
      const r = await withdraw({ pixKey: 'b@example.com', taxNumber: cpf, payoutAmountInCents: 30_000 })
      expect(r.status).toBe(520)
      expect(refusal(r).errorMessage).toContain('30000')
      expect(refusal(r).errorMessage).toContain('50000')
      expect(
        (await withdraw({ pixKey: 'a@example.com', taxNumber: cpf, payoutAmountInCents: 20_000 })).status,
      ).toBe(200)
      // The next São Paulo day starts a new count.
      sb.control.advanceClock(86_400)
      token = (await login(sb)).access_token
      expect(
        (await withdraw({ pixKey: 'a@example.com', taxNumber: cpf, payoutAmountInCents: 30_000 })).status,
      ).toBe(200)
    } finally {
      sb.control.setOptions({ dailyCapPerTaxNumberCents: 2_000_000 })
    }
  })

  it('§4.6 refundAddress must be a valid Liquid mainnet address (INVALID_PARAMETER) and is echoed back', async () => {
    for (const bad of [
      TLQ_TESTNET,
      LQ_BAD_CHECKSUM,
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      `liquidnetwork:${LQ_MAIN}`,
    ]) {
      const r = await withdraw({ ...base, payoutAmountInCents: 1000, refundAddress: bad })
      expect(r.status).toBe(400)
      expect(refusal(r).messageCode).toBe('INVALID_PARAMETER')
      expect(refusal(r).errorMessage).toContain('refundAddress')
    }
    for (const good of [LQ_MAIN, EX_MAIN, Q_MAIN_BASE58]) {
      const r = await withdraw({ ...base, payoutAmountInCents: 1000, refundAddress: good })
      expect(r.status).toBe(200)
      const st = await call(sb.baseUrl, 'GET', `/api/withdraw-status?id=${r.body.response.withdrawalId}`, {
        token,
      })
      expect(st.body.response.refundAddress).toBe(good)
    }
  })

  it('§7.3 a blocked beneficiary is refused with 520, denialCode and messageCode BLOCKED_USER', async () => {
    const cpf = '86288366757'
    sb.control.blockUser({ taxNumber: cpf })
    const r = await withdraw({ pixKey: 'a@example.com', taxNumber: cpf, payoutAmountInCents: 1000 })
    expect(r.status).toBe(520)
    expect(refusal(r)).toMatchObject({ denialCode: 'BLOCKED_USER', messageCode: 'BLOCKED_USER' })
  })

  it('§7.2 a compliance block is 422 in the envelope with statusCode 422, denialCode COMPLIANCE_BLOCKED, no messageCode, a support reference', async () => {
    const cpf = '71428793860'
    sb.control.complianceBlock(cpf)
    const before = sb.control.summary().withdrawals
    const r = await withdraw({ pixKey: 'a@example.com', taxNumber: cpf, payoutAmountInCents: 1000 })
    expect(r.status).toBe(422)
    const e = refusal(r)
    expect(e).toMatchObject({ statusCode: 422, denialCode: 'COMPLIANCE_BLOCKED' })
    expect(e.messageCode).toBeUndefined()
    expect(e.errorMessage).toMatch(/CMP-[0-9A-F]{8}/)
    expect(sb.control.summary().withdrawals).toBe(before)
  })
})

describe('GET /withdraw-status (API contract §4.7, §2.3)', () => {
  it('§4.7 an unknown id answers 520 WITHDRAW_NOT_FOUND, never 404', async () => {
    const r = await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=00000000-0000-0000-0000-000000000000', {
      token,
    })
    expect(r.status).toBe(520)
    expect(refusal(r).messageCode).toBe('WITHDRAW_NOT_FOUND')
  })

  it('§2.3 the status body carries the withdrawal fields, with no refundAddress when none was declared', async () => {
    const created = (await withdraw({ ...base, payoutAmountInCents: 2500 })).body.response
    const r = await call(sb.baseUrl, 'GET', `/api/withdraw-status?id=${created.withdrawalId}`, { token })
    expect(r.status).toBe(200)
    expect(r.body).toEqual({
      response: {
        id: created.withdrawalId,
        pixKey: base.pixKey,
        status: 'unsent',
        expiration: created.expiration,
        depositAddress: created.depositAddress,
        depositAmountInCents: created.depositAmountInCents,
        payoutAmountInCents: 2500,
      },
      async: false,
    })
  })
})
