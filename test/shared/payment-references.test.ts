import { describe, expect, it } from 'vitest'
import {
  normalizeReferences,
  paymentReferencesSchema,
  REFERENCE_MAX_LENGTH,
} from '../../src/shared/payment-references'
import { describeDraftIssues, toWithdrawRequest, withdrawalDraftSchema } from '../../src/shared/withdrawal'

const draft = {
  pixKey: 'fornecedor@example.com',
  taxNumber: '52998224725',
  amount: { kind: 'payout' as const, cents: 15_000 },
  refundAddress: 'lq1qqexample',
}

describe('payment references', () => {
  it('accepts the four fields and drops blanks when normalised', () => {
    const refs = { invoice: ' NF 1234 ', costCentre: '', category: 'Fornecedores', note: '  ' }
    expect(paymentReferencesSchema.parse(refs)).toEqual(refs)
    expect(normalizeReferences(refs)).toEqual({ invoice: 'NF 1234', category: 'Fornecedores' })
  })

  it('refuses unknown keys, overlong text and control or bidi characters with stable codes', () => {
    expect(paymentReferencesSchema.safeParse({ nf: '1' }).success).toBe(false)
    const long = paymentReferencesSchema.safeParse({ invoice: 'x'.repeat(REFERENCE_MAX_LENGTH.invoice + 1) })
    expect(long.error?.issues[0]?.message).toBe('reference_too_long')
    for (const bad of ['a\nb', 'a\u202eb', 'a\u0000', 'a\u2028b']) {
      const r = paymentReferencesSchema.safeParse({ note: bad })
      expect(r.error?.issues[0]?.message).toBe('reference_characters')
    }
  })

  it('travels in the draft, is reported per field in pt-BR, and never reaches the API body', () => {
    const bad = withdrawalDraftSchema.safeParse({ ...draft, references: { invoice: 'a\tb' } })
    expect(bad.success).toBe(false)
    expect(describeDraftIssues(bad.error!)['references.invoice']).toMatch(/caracteres de controle/)
    const body = toWithdrawRequest({ ...draft, references: { invoice: 'NF 9' } })
    expect(JSON.stringify(body)).not.toContain('NF 9')
    expect(Object.keys(body)).not.toContain('references')
  })
})
