import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../src/main/sandbox'
import {
  ARK_ADDR,
  ARK_ADDR_2,
  ARK_BAD,
  BTC_BECH32,
  call,
  CPF_A,
  CPF_B,
  DEFAULT_CPF,
  DEFAULT_EUID,
  EX_MAIN,
  LQ_BAD_CHECKSUM,
  LQ_MAIN,
  LQ_MAIN_2,
  login,
  Q_MAIN_BASE58,
  refusal,
  roomySandbox,
  SPARK_ADDR,
  TLQ_TESTNET,
  type Json,
  type Res,
} from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox({ accessTokenTtlSeconds: 60 * 86_400, depositTtlSeconds: 1800 })
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

const deposit = (body: Record<string, unknown>): Promise<Res> =>
  call(sb.baseUrl, 'POST', '/api/deposit', { token, body })
const base = { amountInCents: 5_000, depixAddress: LQ_MAIN, endUserTaxNumber: CPF_A }
const get = (path: string): Promise<Res> => call(sb.baseUrl, 'GET', path, { token })
async function created(body: Record<string, unknown> = base): Promise<Json> {
  const r = await deposit(body)
  if (r.status !== 200) throw new Error(r.text)
  return r.body.response
}
const codeOf = async (body: Record<string, unknown>): Promise<string | undefined> =>
  refusal(await deposit(body)).messageCode

/** CRC16/CCITT-FALSE as EMV QRCPS specifies it, for checking the copy-and-paste payload. */
function crc16(s: string): string {
  let crc = 0xffff
  for (const ch of Buffer.from(s, 'latin1')) {
    crc ^= ch << 8
    for (let i = 0; i < 8; i++) crc = (crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1) & 0xffff
  }
  return crc.toString(16).toUpperCase().padStart(4, '0')
}

describe('POST /deposit (API contract §4.2)', () => {
  it('§4.2 creating a QR answers { id, qrCopyPaste, expiration } in the envelope; the payload is a Pix BR Code with a valid CRC', async () => {
    const r = await deposit(base)
    expect(r.status).toBe(200)
    expect(r.body.async).toBe(false)
    const d = r.body.response
    expect(d).toMatchObject({
      id: expect.any(String),
      qrCopyPaste: expect.any(String),
      expiration: expect.any(String),
    })
    const qr: string = d.qrCopyPaste
    expect(qr.startsWith('000201')).toBe(true)
    expect(qr).toContain('br.gov.bcb.pix')
    expect(qr).toContain('540550.00')
    expect(qr.slice(-4)).toBe(crc16(qr.slice(0, -4)))
  })

  it('§4.2 amountInCents must be greater than zero (INVALID_PARAMETER)', async () => {
    for (const amountInCents of [0, -5, 1.5, '100', undefined]) {
      const r = await deposit({ ...base, amountInCents })
      expect(r.status).toBe(400)
      expect(refusal(r).messageCode).toBe('INVALID_PARAMETER')
    }
  })

  it('§4.2 an amount below the per-account deposit fee is refused with a message naming the fee in force', async () => {
    const r = await deposit({ ...base, amountInCents: 98 })
    expect(r.status).toBe(520)
    expect(refusal(r).errorMessage).toContain('99')
    expect((await deposit({ ...base, amountInCents: 99 })).status).toBe(200)
  })

  it('§8.2 the QR minimum is the fee configured on the account, not a fixed number', async () => {
    sb.control.setOptions({ depositFeeCents: 250 })
    try {
      const r = await deposit({ ...base, amountInCents: 249 })
      expect(refusal(r).errorMessage).toContain('250')
    } finally {
      sb.control.setOptions({ depositFeeCents: 99 })
    }
  })

  it('§1.3 the payout network is read from the address: lq1 and ex1 (Liquid), ark1 (Arkade), spark1 (Spark) are accepted', async () => {
    for (const depixAddress of [LQ_MAIN, EX_MAIN, ARK_ADDR, SPARK_ADDR, LQ_MAIN.toUpperCase()]) {
      expect((await deposit({ ...base, depixAddress })).status).toBe(200)
    }
  })

  it('§7.4 an address that is not Liquid, Arkade or Spark is DEPOSIT_ADDRESS_NETWORK_UNKNOWN', async () => {
    for (const depixAddress of [BTC_BECH32, TLQ_TESTNET, Q_MAIN_BASE58, 'hello']) {
      const r = await deposit({ ...base, depixAddress })
      expect(r.status).toBe(520)
      expect(refusal(r).messageCode).toBe('DEPOSIT_ADDRESS_NETWORK_UNKNOWN')
      expect(refusal(r).errorMessage).toMatch(/Liquid, Arkade or Spark/)
    }
  })

  it('§7.4 an address its network refuses (checksum) is INVALID_DEPOSIT_ADDRESS', async () => {
    for (const depixAddress of [LQ_BAD_CHECKSUM, ARK_BAD, 'spark1qqqq']) {
      expect(await codeOf({ ...base, depixAddress })).toBe('INVALID_DEPOSIT_ADDRESS')
    }
  })

  it('§7.4 splitFee without depixSplitAddress is SPLIT_ADDRESS_REQUIRED', async () => {
    expect(await codeOf({ ...base, splitFee: 5 })).toBe('SPLIT_ADDRESS_REQUIRED')
  })

  it('§7.4 depixSplitAddress without splitFee is SPLIT_FEE_REQUIRED', async () => {
    expect(await codeOf({ ...base, depixSplitAddress: LQ_MAIN_2 })).toBe('SPLIT_FEE_REQUIRED')
  })

  it('§7.4 depixSplitAddress equal to depixAddress is SPLIT_ADDRESS_CONFLICT', async () => {
    expect(await codeOf({ ...base, depixSplitAddress: LQ_MAIN, splitFee: 5 })).toBe('SPLIT_ADDRESS_CONFLICT')
  })

  it('§7.4 a split address on another network is SPLIT_ADDRESS_NETWORK_MISMATCH (lq1 and ex1 are one network)', async () => {
    expect(await codeOf({ ...base, depixSplitAddress: ARK_ADDR, splitFee: 5 })).toBe(
      'SPLIT_ADDRESS_NETWORK_MISMATCH',
    )
    expect((await deposit({ ...base, depixSplitAddress: EX_MAIN, splitFee: 5 })).status).toBe(200)
    expect(
      (await deposit({ ...base, depixAddress: ARK_ADDR, depixSplitAddress: ARK_ADDR_2, splitFee: 5 })).status,
    ).toBe(200)
  })

  it('§7.4 a refused split address is INVALID_SPLIT_ADDRESS; an unknown one DEPOSIT_ADDRESS_NETWORK_UNKNOWN', async () => {
    expect(await codeOf({ ...base, depixSplitAddress: LQ_BAD_CHECKSUM, splitFee: 5 })).toBe(
      'INVALID_SPLIT_ADDRESS',
    )
    expect(await codeOf({ ...base, depixSplitAddress: BTC_BECH32, splitFee: 5 })).toBe(
      'DEPOSIT_ADDRESS_NETWORK_UNKNOWN',
    )
  })

  it('§4.2 splitFee must be greater than 0% and at most 20%', async () => {
    for (const splitFee of [0, -1, 20.01, 50]) {
      const r = await deposit({ ...base, depixSplitAddress: LQ_MAIN_2, splitFee })
      expect(refusal(r).messageCode).toBe('INVALID_PARAMETER')
      expect(refusal(r).errorMessage).toContain('splitFee')
    }
    expect((await deposit({ ...base, depixSplitAddress: LQ_MAIN_2, splitFee: 20 })).status).toBe(200)
    expect((await deposit({ ...base, depixSplitAddress: LQ_MAIN_2, splitFee: 0.5 })).status).toBe(200)
  })

  it('§7.4 a split that leaves less than the fee on the remainder is SPLIT_PORTION_TOO_LARGE', async () => {
    // 110 cents, 20% split = 22 → 88 left, below the 99-cent fee.
    expect(await codeOf({ ...base, amountInCents: 110, depixSplitAddress: LQ_MAIN_2, splitFee: 20 })).toBe(
      'SPLIT_PORTION_TOO_LARGE',
    )
    expect(
      (await deposit({ ...base, amountInCents: 124, depixSplitAddress: LQ_MAIN_2, splitFee: 20 })).status,
    ).toBe(200)
  })

  it('§8.2 delayDepixInHours is 1 to 720; omitted means immediate', async () => {
    for (const delayDepixInHours of [0, 721, 1.5, '2']) {
      const r = await deposit({ ...base, delayDepixInHours })
      expect(refusal(r).messageCode).toBe('INVALID_PARAMETER')
    }
    for (const delayDepixInHours of [1, 720])
      expect((await deposit({ ...base, delayDepixInHours })).status).toBe(200)
    const d = await created()
    const paid = sb.control.payDeposit(d.id)
    expect(paid.status).toBe('approved')
    expect(paid.delayUntil).toBeNull()
  })

  it('§4.2 a deposit without payer identification is refused with IDENTIFICATION_REQUIRED (configurable)', async () => {
    const { endUserTaxNumber: _drop, ...anonymous } = base
    expect(await codeOf(anonymous)).toBe('IDENTIFICATION_REQUIRED')
    sb.control.setOptions({ requireDepositIdentification: false })
    try {
      expect((await deposit(anonymous)).status).toBe(200)
    } finally {
      sb.control.setOptions({ requireDepositIdentification: true })
    }
  })

  it('§4.2 endUserTaxNumber and euid of different people are CONFLICTING_PARAMETERS', async () => {
    const r = await deposit({ ...base, euid: DEFAULT_EUID, endUserTaxNumber: CPF_B })
    expect(r.status).toBe(400)
    expect(refusal(r).messageCode).toBe('CONFLICTING_PARAMETERS')
    expect((await deposit({ ...base, euid: DEFAULT_EUID, endUserTaxNumber: DEFAULT_CPF })).status).toBe(200)
  })

  it('§7.4 an euid that resolves to nobody is END_USER_NOT_FOUND on POST /deposit', async () => {
    const { endUserTaxNumber: _drop, ...rest } = base
    expect(await codeOf({ ...rest, euid: 'EU-NOBODY' })).toBe('END_USER_NOT_FOUND')
  })

  it('§7.3 a blocked payer is 520 BLOCKED_USER; a compliance hold is 422 COMPLIANCE_BLOCKED, and nothing is created', async () => {
    const before = sb.control.summary().deposits
    sb.control.blockUser({ euid: 'EU-BLOCKED' })
    sb.control.registerEndUser({ euid: 'EU-BLOCKED', taxNumber: '52513127765' })
    const blocked = await deposit({ amountInCents: 1000, depixAddress: LQ_MAIN, euid: 'EU-BLOCKED' })
    expect(blocked.status).toBe(520)
    expect(refusal(blocked)).toMatchObject({ denialCode: 'BLOCKED_USER', messageCode: 'BLOCKED_USER' })
    sb.control.complianceBlock('34608514300')
    const held = await deposit({ ...base, endUserTaxNumber: '346.085.143-00' })
    expect(held.status).toBe(422)
    expect(refusal(held)).toMatchObject({ statusCode: 422, denialCode: 'COMPLIANCE_BLOCKED' })
    expect(refusal(held).messageCode).toBeUndefined()
    expect(sb.control.summary().deposits).toBe(before)
  })

  it('§7.4 daily ceilings: END_USER_DEPOSIT_DAILY_LIMIT_REACHED by euid, DEPOSIT_DAILY_LIMIT_REACHED naming what is left by tax number', async () => {
    sb.control.registerEndUser({ euid: 'EU-SMALL', taxNumber: '74682489070', maxDailyInCents: 10_000 })
    expect((await deposit({ amountInCents: 6_000, depixAddress: LQ_MAIN, euid: 'EU-SMALL' })).status).toBe(
      200,
    )
    expect(await codeOf({ amountInCents: 6_000, depixAddress: LQ_MAIN, euid: 'EU-SMALL' })).toBe(
      'END_USER_DEPOSIT_DAILY_LIMIT_REACHED',
    )
    sb.control.setOptions({ payerDailyLimitCents: 7_000 })
    try {
      const cpf = '93541134780'
      expect((await deposit({ ...base, endUserTaxNumber: cpf, amountInCents: 5_000 })).status).toBe(200)
      const r = await deposit({ ...base, endUserTaxNumber: cpf, amountInCents: 5_000 })
      expect(refusal(r).messageCode).toBe('DEPOSIT_DAILY_LIMIT_REACHED')
      expect(refusal(r).errorMessage).toContain('2000')
    } finally {
      sb.control.setOptions({ payerDailyLimitCents: 1_000_000 })
    }
  })
})

describe('deposit lifecycle (API contract §3.1, §4.3, §2.2)', () => {
  it('§4.3 an unknown deposit id answers 520 DEPOSIT_NOT_FOUND', async () => {
    const r = await get('/api/deposit-status?id=nope')
    expect(r.status).toBe(520)
    expect(refusal(r).messageCode).toBe('DEPOSIT_NOT_FOUND')
  })

  it('§2.2 a paid deposit reports approved, then depix_sent with bankTxId, blockchainTxID, payer fields', async () => {
    const d = await created()
    const pending = (await get(`/api/deposit-status?id=${d.id}`)).body.response
    expect(pending).toMatchObject({
      qrId: d.id,
      valueInCents: 5_000,
      expiration: d.expiration,
      delayUntil: null,
    })
    sb.control.payDeposit(d.id, { payerName: 'João Pagador', payerTaxNumber: CPF_B })
    const approved = (await get(`/api/deposit-status?id=${d.id}`)).body.response
    expect(approved).toMatchObject({
      status: 'approved',
      bankTxId: expect.any(String),
      payerName: 'João Pagador',
      payerTaxNumber: CPF_B,
    })
    sb.control.advanceClock(10)
    const sent = (await get(`/api/deposit-status?id=${d.id}`)).body.response
    expect(sent.status).toBe('depix_sent')
    expect(sent.blockchainTxID).toMatch(/^[0-9a-f]{64}$/)
    expect(sent.webhookType).toBeUndefined()
  })

  it('§3.1 a delayed deposit is held until delayUntil, then processing continues', async () => {
    const d = await created({ ...base, delayDepixInHours: 2 })
    const paid = sb.control.payDeposit(d.id)
    expect(paid.status).toBe('delayed')
    expect(Date.parse(paid.delayUntil as string) - sb.control.now()).toBeGreaterThan(2 * 3_600_000 - 5_000)
    sb.control.advanceClock(2 * 3_600 + 10)
    expect((await get(`/api/deposit-status?id=${d.id}`)).body.response.status).toBe('depix_sent')
  })

  it('§3.1 a MED filed against a paid deposit moves it to refunded', async () => {
    const d = await created()
    sb.control.payDeposit(d.id)
    sb.control.advanceClock(10)
    sb.control.fileMed(d.id)
    expect((await get(`/api/deposit-status?id=${d.id}`)).body.response.status).toBe('refunded')
    const unpaid = await created()
    expect(() => sb.control.fileMed(unpaid.id)).toThrow()
  })

  it('an unpaid QR code expires at its expiration and can no longer be paid', async () => {
    const d = await created()
    sb.control.advanceClock(1_800)
    expect((await get(`/api/deposit-status?id=${d.id}`)).body.response.status).toBe('expired')
    expect(() => sb.control.payDeposit(d.id)).toThrow(/expired/)
  })
})

describe('GET /deposits (API contract §4.4, §2.5)', () => {
  it('§4.4 start is inclusive and end exclusive; rows are { qrId, status, bankTxId }', async () => {
    sb.control.advanceClock(3_600)
    const a = await created()
    sb.control.advanceClock(60)
    const b = await created()
    sb.control.payDeposit(b.id)
    sb.control.advanceClock(60)
    const c = await created()
    const createdAt = (d: Json): string => new Date(Date.parse(d.expiration) - 1_800_000).toISOString()
    const r = await get(`/api/deposits?start=${createdAt(b)}&end=${createdAt(c)}`)
    expect(r.status).toBe(200)
    expect(r.body.response).toEqual([{ qrId: b.id, status: 'depix_sent', bankTxId: expect.any(String) }])
    const all = (
      await get(
        `/api/deposits?start=${createdAt(a)}&end=${encodeURIComponent(new Date(sb.control.now() + 1000).toISOString())}`,
      )
    ).body.response
    expect(all.map((x: Json) => x.qrId)).toEqual([a.id, b.id, c.id])
    expect(all[0]).toEqual({ qrId: a.id, status: 'pending' })
  })

  it('§4.4 status filters the rows', async () => {
    const start = new Date(sb.control.now()).toISOString()
    const paid = await created()
    await created()
    sb.control.payDeposit(paid.id)
    const end = new Date(sb.control.now() + 1_000).toISOString()
    const r = await get(`/api/deposits?start=${start}&end=${end}&status=approved`)
    expect(r.body.response.map((x: Json) => x.qrId)).toEqual([paid.id])
  })

  it('§4.4 a missing start or end is MISSING_PARAMETER; an invalid one INVALID_PARAMETER', async () => {
    expect(refusal(await get('/api/deposits?end=2026-01-02')).messageCode).toBe('MISSING_PARAMETER')
    expect(refusal(await get('/api/deposits?start=2026-01-01')).messageCode).toBe('MISSING_PARAMETER')
    for (const q of [
      'start=yesterday&end=2026-01-02',
      'start=2026-01-01&end=2026-13-45',
      'start=2026-01-02&end=2026-01-01',
    ]) {
      const r = await get(`/api/deposits?${q}`)
      expect(r.status).toBe(400)
      expect(refusal(r).messageCode).toBe('INVALID_PARAMETER')
    }
  })

  it('§4.4 at most 200 rows are returned', async () => {
    sb.control.advanceClock(86_400)
    const start = new Date(sb.control.now()).toISOString()
    for (let i = 0; i < 205; i++)
      await created({ ...base, amountInCents: 100, endUserTaxNumber: '29537995593' })
    const end = new Date(sb.control.now() + 1_000).toISOString()
    const r = await get(`/api/deposits?start=${start}&end=${end}`)
    expect(r.body.response).toHaveLength(200)
  })
})

describe('GET /user-info (API contract §4.5, §2.6)', () => {
  it('§2.6 user-info reports maxDailyInCents, dailyVolumeInCents (deposits only, open QR codes included) and dailyLimitResetTime', async () => {
    sb.control.registerEndUser({ euid: 'EU-INFO', taxNumber: '15350946056', maxDailyInCents: 50_000 })
    await created({ amountInCents: 1_234, depixAddress: LQ_MAIN, euid: 'EU-INFO' })
    await call(sb.baseUrl, 'POST', '/api/withdraw', {
      token,
      body: { pixKey: 'x@example.com', euid: 'EU-INFO', payoutAmountInCents: 9_999 },
    })
    const r = await get('/api/user-info?euid=EU-INFO')
    expect(r.status).toBe(200)
    expect(r.body.response).toMatchObject({ maxDailyInCents: 50_000, dailyVolumeInCents: 1_234 })
    const reset = Date.parse(r.body.response.dailyLimitResetTime)
    expect(reset).toBeGreaterThan(sb.control.now())
    expect(reset - sb.control.now()).toBeLessThanOrEqual(86_400_000)
    // Midnight in São Paulo (UTC−03:00).
    expect(new Date(reset).getUTCHours()).toBe(3)
  })

  it('§4.5 user-info refuses a missing euid (MISSING_PARAMETER), a malformed one (INVALID_PARAMETER), an unknown one (END_USER_NOT_FOUND)', async () => {
    expect(refusal(await get('/api/user-info')).messageCode).toBe('MISSING_PARAMETER')
    expect(refusal(await get('/api/user-info?euid=%20bad%20euid%20')).messageCode).toBe('INVALID_PARAMETER')
    const r = await get('/api/user-info?euid=EU-NOBODY')
    expect(r.status).toBe(520)
    expect(refusal(r).messageCode).toBe('END_USER_NOT_FOUND')
  })
})
