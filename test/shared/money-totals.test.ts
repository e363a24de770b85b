import { describe, expect, it } from 'vitest'
import { meaningOf, meaningTotals, refundFeeCents } from '../../src/shared/money-totals'
import type { StatusTotal } from '../../src/shared/withdrawal-record'

const t = (
  status: string,
  hasRefund: boolean,
  count: number,
  depositCents: number,
  payoutCents: number,
  refundFeeCents?: number,
): StatusTotal => ({
  status,
  hasRefund,
  count,
  depositCents,
  payoutCents,
  ...(refundFeeCents === undefined ? {} : { refundFeeCents }),
})

/** The list: R$ 1.024,00 summed over every status, R$ 150,00 actually paid. */
const MIXED: StatusTotal[] = [
  t('sent', false, 2, 15_300, 15_000, 0),
  t('unsent', false, 3, 40_400, 40_000, 0),
  t('sending', false, 1, 10_100, 10_000, 0),
  t('refunded', true, 2, 20_200, 20_000, 200),
  t('sent', true, 1, 5_050, 5_000, 100),
  t('expired', false, 1, 10_100, 10_000, 0),
  t('error', false, 1, 2_020, 2_000, 0),
  t('created', false, 1, 0, 0, 0),
  t('outcome_unknown', false, 1, 0, 400, 0),
  t('rejected', false, 1, 0, 0, 0),
  t('em_analise', false, 1, 0, 0, 0),
]

describe('meaningTotals', () => {
  it('counts only sent records without a refund as paid: pending and refunded never add to it', () => {
    const m = meaningTotals(MIXED)
    expect(m.paid).toEqual({ count: 2, depositCents: 15_300, payoutCents: 15_000 })
    const everyPayout = MIXED.reduce((n, x) => n + x.payoutCents, 0)
    expect(everyPayout).toBe(102_400)
    expect(m.paid.payoutCents).not.toBe(everyPayout)
  })

  it('puts every record in exactly one group', () => {
    const m = meaningTotals(MIXED)
    expect(m.open).toEqual({ count: 6, depositCents: 50_500, payoutCents: 50_400 })
    // A sent record that carries a refund is a return, not a payment.
    expect(m.returned).toEqual({ count: 3, depositCents: 25_250, payoutCents: 25_000 })
    expect(m.ended).toEqual({ count: 3, depositCents: 12_120, payoutCents: 12_000 })
    expect(m.other).toEqual({ count: 1, depositCents: 0, payoutCents: 0 })
    const groups = [m.paid, m.open, m.returned, m.ended, m.other]
    expect(groups.reduce((n, g) => n + g.count, 0)).toBe(MIXED.reduce((n, x) => n + x.count, 0))
  })

  it('fees paid are deposit minus payout of the paid group; fees withheld sum the refunds’ fees', () => {
    const m = meaningTotals(MIXED)
    expect(m.feesPaidCents).toBe(300)
    expect(m.feesWithheldCents).toBe(300)
  })

  it('fees withheld are unknown (null), not zero, when refunded totals do not carry them', () => {
    expect(meaningTotals([t('refunded', true, 1, 100, 0)]).feesWithheldCents).toBeNull()
    // A group without refunds carries no fee to miss.
    expect(meaningTotals([t('sent', false, 1, 101, 100)]).feesWithheldCents).toBe(0)
  })

  it('zero totals for no records', () => {
    const m = meaningTotals([])
    expect(m.paid).toEqual({ count: 0, depositCents: 0, payoutCents: 0 })
    expect(m.feesPaidCents).toBe(0)
    expect(m.feesWithheldCents).toBe(0)
  })

  it('an unknown status, even one spelled like a known word, is "other"', () => {
    expect(meaningOf('paid', false)).toBe('other')
    expect(meaningOf('toString', false)).toBe('other')
    expect(meaningOf('__proto__', false)).toBe('other')
    expect(meaningOf('em_analise', true)).toBe('returned')
  })
})

describe('refundFeeCents', () => {
  it('reads the first fee name holding a non-negative safe integer', () => {
    expect(refundFeeCents({ feeInCents: 100 })).toBe(100)
    expect(refundFeeCents({ feeWithheldInCents: 50 })).toBe(50)
    expect(refundFeeCents({ feeInCents: '100', withheldFeeInCents: 7 })).toBe(7)
    expect(refundFeeCents({ feeInCents: -1 })).toBe(0)
    expect(refundFeeCents({ feeInCents: 1.5 })).toBe(0)
    expect(refundFeeCents({ fee: 100 })).toBe(0)
    expect(refundFeeCents(null)).toBe(0)
  })
})
