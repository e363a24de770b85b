import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  depositForPayout,
  formatBps,
  fundingToleranceRange,
  payoutForDeposit,
  quoteWithdrawal,
  withdrawalFeeCents,
} from '../../src/shared/fees'

describe('withdrawal fees (API contract §4.6 rule 3)', () => {
  it('uses the R$ 1,00 floor when the rate is lower', () => {
    expect(withdrawalFeeCents(5_000, 100)).toBe(100)
    expect(withdrawalFeeCents(200, 100)).toBe(100)
  })
  it('uses the rate when it is higher, rounded up to the cent', () => {
    expect(withdrawalFeeCents(100_000, 100)).toBe(1_000)
    expect(withdrawalFeeCents(100_001, 100)).toBe(1_001)
  })
  it('quotes from either amount', () => {
    expect(quoteWithdrawal({ depositAmountInCents: 100_000 }, 100)).toEqual({
      depositCents: 100_000,
      payoutCents: 99_000,
      feeCents: 1_000,
    })
    expect(quoteWithdrawal({ payoutAmountInCents: 5_000 }, 100)).toEqual({
      depositCents: 5_100,
      payoutCents: 5_000,
      feeCents: 100,
    })
    // 1% of 10 102 rounds up to 102, above the floor.
    expect(quoteWithdrawal({ payoutAmountInCents: 10_000 }, 100)).toEqual({
      depositCents: 10_102,
      payoutCents: 10_000,
      feeCents: 102,
    })
  })
  it('depositForPayout is the smallest exact inverse', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 600_000 }), fc.integer({ min: 0, max: 2_000 }), (p, bps) => {
        const d = depositForPayout(p, bps)
        expect(payoutForDeposit(d, bps)).toBe(p)
        expect(payoutForDeposit(d - 1, bps)).toBeLessThan(p)
      }),
    )
  })
  it('refuses non-integer money', () => {
    expect(() => withdrawalFeeCents(1.5, 100)).toThrow(RangeError)
    expect(() => withdrawalFeeCents(100, 1.5)).toThrow(RangeError)
  })
})

describe('funding tolerance (API contract §3.2, §6.4)', () => {
  it('is ±5% inclusive, rounded so it never promises more than the rule', () => {
    expect(fundingToleranceRange(10_000)).toEqual({ min: 9_500, max: 10_500 })
    expect(fundingToleranceRange(1_235, 500)).toEqual({ min: 1_174, max: 1_296 })
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 600_000 }), (cents) => {
        const { min, max } = fundingToleranceRange(cents)
        const within = (a: number): boolean => Math.abs(a - cents) * 10_000 <= cents * 500
        expect(within(min) && within(max)).toBe(true)
        expect(within(min - 1) || within(max + 1)).toBe(false)
      }),
    )
  })
})

describe('basis points as a percentage', () => {
  it('trims by default and keeps two decimals when asked', () => {
    expect(formatBps(500, 'pt-BR')).toBe('5%')
    expect(formatBps(250, 'pt-BR')).toBe('2,5%')
    expect(formatBps(250, 'en')).toBe('2.5%')
    expect(formatBps(150, 'pt-BR', 'fixed')).toBe('1,50%')
    expect(formatBps(100, 'en', 'fixed')).toBe('1.00%')
    expect(formatBps(5, 'pt-BR', 'fixed')).toBe('0,05%')
  })
})
