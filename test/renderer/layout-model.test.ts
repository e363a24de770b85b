/** Pure pieces of the issue #13 screens: payee words, deadlines, Hoje totals, dd/mm/aaaa dates. */
import { describe, expect, it } from 'vitest'
import { compactLeft, timeLeft } from '../../src/renderer/src/components/layout/deadline'
import { feeCentsOf, payeeOf, payeeText, payoutCentsOf } from '../../src/renderer/src/components/layout/payee'
import {
  todayTotals,
  monthStartIso,
  todayStartIso,
  withoutReconciled,
} from '../../src/renderer/src/components/layout/today-model'
import { dayToText, textToDay } from '../../src/renderer/src/components/ui/date-text'
import type { WithdrawalRecord } from '../../src/shared/withdrawal-record'

function record(over: Partial<WithdrawalRecord> = {}): WithdrawalRecord {
  return {
    localId: 'l1',
    profile: 'sandbox',
    operator: 'ana',
    createdAt: '2025-03-01T12:00:00.000Z',
    updatedAt: '2025-03-01T12:00:00.000Z',
    localState: 'created',
    request: { pixKey: 'maria@example.com', taxNumber: '52998224725', payoutAmountInCents: 10_000 },
    pixKey: 'maria@example.com',
    amountKind: 'payout',
    amountCents: 10_000,
    createResponse: null,
    remoteId: 'r1',
    remoteStatus: 'unsent',
    remoteStatusAt: null,
    remoteCheckedAt: null,
    lastRemote: null,
    depositAddress: null,
    depositAmountCents: 10_102,
    payoutAmountCents: null,
    expiration: null,
    fundedAt: null,
    fundingTxId: null,
    refund: null,
    receiverName: null,
    error: null,
    requestId: null,
    flags: [],
    ...over,
  }
}

describe('payee and amounts', () => {
  it('names the payee by the reported name, else key + masked CPF', () => {
    expect(payeeText(payeeOf(record()))).toBe('maria@example.com (529.982.247-25)')
    expect(payeeText(payeeOf(record({ receiverName: 'Maria Silva' })))).toBe('Maria Silva')
    // The last status body wins over the stored name.
    expect(
      payeeText(payeeOf(record({ receiverName: 'Old', lastRemote: { receiverName: 'Maria S.' } }))),
    ).toBe('Maria S.')
  })

  it('names first: the book entry the payment was made to, then the reported name; CPF/CNPJ masked beside', () => {
    const booked = record({
      receiverName: 'MARIA S',
      expectedPayee: { id: 'p1', name: 'Maria Silva Ltda', taxNumber: '11222333000181' },
      request: { pixKey: 'maria@example.com', payoutAmountInCents: 10_000 },
    })
    expect(payeeOf(booked)).toMatchObject({ name: 'Maria Silva Ltda', taxNumber: '11.222.333/0001-81' })
    expect(payeeText(payeeOf(booked))).toBe('Maria Silva Ltda')
  })

  it('payout: reported, else the requested payout; a deposit-kind request has none until reported', () => {
    expect(payoutCentsOf(record())).toBe(10_000)
    expect(payoutCentsOf(record({ payoutAmountCents: 9_900 }))).toBe(9_900)
    expect(payoutCentsOf(record({ amountKind: 'deposit' }))).toBeNull()
    expect(feeCentsOf(record())).toBe(102)
    expect(feeCentsOf(record({ payoutAmountCents: 20_000 }))).toBeNull()
  })
})

describe('deadlines', () => {
  const now = Date.parse('2025-03-01T12:00:00Z')
  it('time left, soon within 10 minutes, expired, none', () => {
    expect(timeLeft('2025-03-01T12:30:00Z', now)).toMatchObject({
      state: 'running',
      soon: false,
      compact: '30:00',
    })
    expect(timeLeft('2025-03-01T12:10:00Z', now)).toMatchObject({ state: 'running', soon: true })
    expect(timeLeft('2025-03-01T12:10:01Z', now)).toMatchObject({ state: 'running', soon: false })
    expect(timeLeft('2025-03-01T11:59:59Z', now)).toEqual({ state: 'expired' })
    expect(timeLeft(null, now)).toEqual({ state: 'none' })
    expect(timeLeft('not a date', now)).toEqual({ state: 'none' })
  })
  it('compact form fits a narrow column', () => {
    expect(compactLeft(59)).toBe('00:59')
    expect(compactLeft(3600 + 5 * 60)).toBe('1h05')
    expect(compactLeft(86_400 + 2 * 3600)).toBe('1d02h')
  })
})

describe('Hoje totals', () => {
  it('splits by meaning: paid (not refunded), fees, open, refunded or expired', () => {
    const all = [
      { status: 'sent', hasRefund: false, count: 2, depositCents: 20_400, payoutCents: 20_000 },
      { status: 'sent', hasRefund: true, count: 1, depositCents: 5_000, payoutCents: 4_900 },
      { status: 'unsent', hasRefund: false, count: 3, depositCents: 30_000, payoutCents: 29_000 },
      { status: 'outcome_unknown', hasRefund: false, count: 1, depositCents: 1_000, payoutCents: 900 },
      { status: 'expired', hasRefund: false, count: 1, depositCents: 7_000, payoutCents: 6_900 },
      { status: 'em_analise', hasRefund: false, count: 1, depositCents: 9_999, payoutCents: 9_000 },
    ]
    const m = todayTotals(all, all)
    expect(m).toEqual({
      paidCount: 2,
      paidCents: 20_000,
      feeCents: 400,
      openDepositCents: 31_000,
      returnedDepositCents: 12_000,
    })
  })
  it('takes paid and fees from the paid-date totals, open and returned from the created-date ones', () => {
    const paidToday = [
      { status: 'sent', hasRefund: false, count: 1, depositCents: 10_100, payoutCents: 10_000 },
    ]
    const createdToday = [
      { status: 'unsent', hasRefund: false, count: 1, depositCents: 5_000, payoutCents: 4_900 },
      { status: 'sent', hasRefund: false, count: 3, depositCents: 30_300, payoutCents: 30_000 },
    ]
    expect(todayTotals(paidToday, createdToday)).toEqual({
      paidCount: 1,
      paidCents: 10_000,
      feeCents: 100,
      openDepositCents: 5_000,
      returnedDepositCents: 0,
    })
  })
  it('day and month start at São Paulo midnight', () => {
    const at = Date.parse('2025-03-02T02:00:00Z') // 1 March, 23:00 in São Paulo
    expect(todayStartIso(at)).toBe('2025-03-01T00:00:00-03:00')
    expect(monthStartIso(at)).toBe('2025-03-01T00:00:00-03:00')
  })
})

describe('dates as typed', () => {
  it('pt-BR is dd/mm/aaaa both ways; en is mm/dd/yyyy; incomplete text is passed on', () => {
    expect(dayToText('2025-03-09', 'pt-BR')).toBe('09/03/2025')
    expect(textToDay('09/03/2025', 'pt-BR')).toBe('2025-03-09')
    expect(dayToText('2025-03-09', 'en')).toBe('03/09/2025')
    expect(textToDay('03/09/2025', 'en')).toBe('2025-03-09')
    expect(textToDay('31/02/2025', 'pt-BR')).toBe('31/02/2025')
    expect(textToDay('09/03', 'pt-BR')).toBe('09/03')
    expect(textToDay('  ', 'pt-BR')).toBe('')
  })
})

describe('Devoluções a conciliar without the reconciled (issue #26)', () => {
  it('drops the marked rows and counts them out of the total; unknown ids change nothing', () => {
    const page = { rows: [{ localId: 'a' }, { localId: 'b' }, { localId: 'c' }], total: 7 }
    expect(withoutReconciled(page, ['b', 'zz'])).toEqual({
      rows: [{ localId: 'a' }, { localId: 'c' }],
      total: 6,
    })
    expect(withoutReconciled(page, [])).toEqual(page)
    expect(withoutReconciled({ rows: [{ localId: 'a' }], total: 1 }, ['a'])).toEqual({ rows: [], total: 0 })
  })
})
