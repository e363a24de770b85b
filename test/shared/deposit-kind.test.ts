/**
 * The pure rules of the deposit kind: the draft's refusals (one code per field, Arkade and Spark named), the exact
 * body sent, the status order (a MED after the DePix went out is a move, not a conflict), what totals count as
 * paid, and the words (an unknown code is shown as sent, never guessed).
 */
import { describe, expect, it } from 'vitest'
import { depositDraftFields, depositDraftSchema, toDepositRequest } from '../../src/shared/deposit-draft'
import {
  decideDepositStatus,
  isLingeringDepositStatus,
  isSettledDepositStatus,
} from '../../src/shared/deposit-status'
import { depositStatusInWords, rejectionReasonInWords } from '../../src/shared/deposit-words'
import { meaningOf, meaningTotals } from '../../src/shared/money-totals'

const ADDRESS = 'lq1qqexample'
const fieldsOf = (draft: unknown): Record<string, string> => {
  const r = depositDraftSchema.safeParse(draft)
  return r.success ? {} : depositDraftFields(r.error.issues)
}

describe('deposit draft', () => {
  it('refuses each bad field with its own code', () => {
    expect(fieldsOf({ depixAddress: ADDRESS })).toEqual({ amountCents: 'amount_required' })
    expect(fieldsOf({ amountCents: 1.5, depixAddress: ADDRESS })).toEqual({
      amountCents: 'amount_not_whole_cents',
    })
    expect(fieldsOf({ amountCents: 0, depixAddress: ADDRESS })).toEqual({
      amountCents: 'amount_not_positive',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: ' ' })).toEqual({ depixAddress: 'address_required' })
    expect(fieldsOf({ amountCents: 100, depixAddress: 'ark1qq' })).toEqual({ depixAddress: 'address_arkade' })
    expect(fieldsOf({ amountCents: 100, depixAddress: 'TARK1QQ' })).toEqual({
      depixAddress: 'address_arkade',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: 'spark1qq' })).toEqual({
      depixAddress: 'address_spark',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: 'lq1 qq' })).toEqual({
      depixAddress: 'address_characters',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: ADDRESS, endUserTaxNumber: '123' })).toEqual({
      endUserTaxNumber: 'tax_number_format',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: ADDRESS, endUserTaxNumber: '52998224724' })).toEqual({
      endUserTaxNumber: 'tax_number_check_digits',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: ADDRESS, delayHours: 0 })).toEqual({
      delayHours: 'delay_range',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: ADDRESS, delayHours: 721 })).toEqual({
      delayHours: 'delay_range',
    })
    expect(fieldsOf({ amountCents: 100, depixAddress: ADDRESS, surprise: 1 })).toEqual({
      '(draft)': 'unknown_field',
    })
  })

  it('the body sent: the checked address, a normalised CPF, absent fields absent', () => {
    const d = depositDraftSchema.parse({
      amountCents: 50_000,
      depixAddress: ` ${ADDRESS} `,
      endUserTaxNumber: '529.982.247-25',
      euid: '',
      delayHours: '',
    })
    expect(toDepositRequest(d, ADDRESS)).toEqual({
      amountInCents: 50_000,
      depixAddress: ADDRESS,
      endUserTaxNumber: '52998224725',
    })
    expect(
      toDepositRequest(
        depositDraftSchema.parse({ amountCents: 1, depixAddress: ADDRESS, delayHours: 24 }),
        ADDRESS,
      ),
    ).toEqual({ amountInCents: 1, depixAddress: ADDRESS, delayDepixInHours: 24 })
  })
})

describe('deposit status order', () => {
  const at = (s: string, i: number) => ({ status: s, hasRefund: false, at: `2025-06-01T12:0${i}:00.000Z` })
  it('moves forward, and a MED after depix_sent is a move, not a conflict', () => {
    expect(decideDepositStatus(at('pending', 0), at('approved', 1)).replace).toBe(true)
    expect(decideDepositStatus(at('depix_sent', 1), at('approved', 2)).replace).toBe(false)
    expect(decideDepositStatus(at('depix_sent', 1), at('refunded', 2))).toEqual({
      replace: true,
      conflict: false,
    })
  })
  it('two terminal answers that contradict each other are a conflict', () => {
    expect(decideDepositStatus(at('expired', 1), at('refunded', 2)).conflict).toBe(true)
  })
  it('depix_sent lingers (a MED can still come); expired and refunded are settled', () => {
    expect(isLingeringDepositStatus('depix_sent')).toBe(true)
    expect(isSettledDepositStatus('depix_sent')).toBe(false)
    expect(isSettledDepositStatus('EXPIRED')).toBe(true)
    expect(isSettledDepositStatus('refunded')).toBe(true)
    expect(isSettledDepositStatus('something_new')).toBe(false)
  })
})

describe('deposit totals and words', () => {
  it('only DePix received is paid; a MED is returned; an unknown status is other, never paid', () => {
    expect(meaningOf('depix_sent', false, 'deposit')).toBe('paid')
    expect(meaningOf('approved', false, 'deposit')).toBe('open')
    expect(meaningOf('refunded', false, 'deposit')).toBe('returned')
    expect(meaningOf('expired', false, 'deposit')).toBe('ended')
    expect(meaningOf('mystery', false, 'deposit')).toBe('other')
    // The same code means something else for a withdrawal: the kind is not optional in effect.
    expect(meaningOf('pending', false, 'withdrawal')).not.toBe(meaningOf('pending', false, 'deposit'))
    const t = meaningTotals(
      [
        {
          status: 'depix_sent',
          hasRefund: false,
          count: 2,
          depositCents: 1000,
          payoutCents: 0,
          refundFeeCents: 0,
        },
        { status: 'mystery', hasRefund: false, count: 1, depositCents: 5, payoutCents: 0, refundFeeCents: 0 },
      ],
      'deposit',
    )
    expect(t.paid).toEqual({ count: 2, depositCents: 1000, payoutCents: 0 })
    expect(t.other.count).toBe(1)
    expect(t.feesPaidCents).toBe(0)
  })

  it('words in both languages; unknown codes shown as sent', () => {
    expect(depositStatusInWords('depix_sent', 'pt-BR')).toBe('DePix recebido')
    expect(depositStatusInWords('depix_sent', 'en')).toBe('DePix received')
    expect(depositStatusInWords('outcome_unknown', 'pt-BR')).toBe('Resultado desconhecido')
    expect(depositStatusInWords('brand_new', 'pt-BR')).toContain('brand_new')
    expect(depositStatusInWords('constructor', 'pt-BR')).toContain('constructor')
    expect(rejectionReasonInWords('PAST_DAILY_LIMIT', 'pt-BR')).toBe('limite diário do pagador ultrapassado')
    expect(rejectionReasonInWords('NEW_REASON', 'en')).toContain('NEW_REASON')
  })
})
