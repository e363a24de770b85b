import { describe, expect, it } from 'vitest'
import { statusTotalOf } from '../../../../src/main/ledger/model/status-totals'

describe('statusTotalOf', () => {
  it('reads SQLite numbers and PostgreSQL numeric strings alike', () => {
    const sqlite = {
      status: 'completed',
      has_refund: 1,
      n: 3,
      deposit: 123_456,
      payout: 120_000,
      refund_fee: 99,
    }
    const pg = {
      status: 'completed',
      has_refund: true,
      n: '3',
      deposit: '123456',
      payout: '120000',
      refund_fee: '99',
    }
    const want = {
      status: 'completed',
      hasRefund: true,
      count: 3,
      depositCents: 123_456,
      payoutCents: 120_000,
      refundFeeCents: 99,
    }
    expect(statusTotalOf(sqlite)).toEqual(want)
    expect(statusTotalOf(pg)).toEqual(want)
    expect(statusTotalOf({ ...pg, has_refund: 'true' }).hasRefund).toBe(false)
  })

  it('gives a deposit group no payout and no refund fee', () => {
    expect(statusTotalOf({ status: 'depix_sent', n: '2', deposit: '1000' })).toEqual({
      status: 'depix_sent',
      hasRefund: false,
      count: 2,
      depositCents: 1000,
      payoutCents: 0,
      refundFeeCents: 0,
    })
  })

  it('refuses, as tampered, a sum that is not a safe whole number of cents instead of rounding it', () => {
    const base = { status: 'completed', n: '1', deposit: '1', payout: '0', refund_fee: '0' }
    const bad: Array<Record<string, unknown>> = [
      { deposit: '9007199254740993' },
      { payout: 2 ** 53 },
      { refund_fee: '-1' },
      { deposit: '12.5' },
      { deposit: '1e3' },
      { n: null },
      { deposit: 'abc' },
      { payout: 10n ** 20n },
    ]
    for (const b of bad)
      expect(() => statusTotalOf({ ...base, ...b }), String(Object.keys(b))).toThrow(
        expect.objectContaining({
          name: 'LedgerError',
          code: 'record_tampered',
          userMessage: expect.objectContaining({ 'pt-BR': expect.stringMatching(/totais/) }),
        }),
      )
    expect(statusTotalOf({ ...base, deposit: String(Number.MAX_SAFE_INTEGER) }).depositCents).toBe(
      Number.MAX_SAFE_INTEGER,
    )
  })
})
