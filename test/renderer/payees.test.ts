import { describe, expect, it } from 'vitest'
import {
  EMPTY_PAYEE,
  fieldsFromIpc,
  fromPayee,
  payeeProblems,
  toPayeeInput,
} from '../../src/renderer/src/components/payees/payee-model'
import { formMatchesPayee } from '../../src/renderer/src/components/payees/PayeePicker'
import { formForPayee, formForRepeat, withPayee } from '../../src/renderer/src/components/payees/prefill'
import { EMPTY_FORM, toDraft } from '../../src/renderer/src/components/withdrawal-form/form-model'
import type { Payee } from '../../src/shared/payee'
import { withdrawalDraftSchema } from '../../src/shared/withdrawal'
import type { WithdrawalRecord } from '../../src/shared/withdrawal-record'

const maria: Payee = {
  id: 'p-1',
  name: 'Maria da Silva',
  taxNumber: '52998224725',
  pixKeys: [
    { key: 'maria@example.com', type: 'email' },
    { key: '+5561988887777', type: 'phone' },
  ],
  euid: 'EU-1',
  createdAt: '2026-11-01T00:00:00.000Z',
  updatedAt: '2026-11-01T00:00:00.000Z',
}

describe('payee editor model', () => {
  it('round-trips a payee; every key row is sent, blank ones too, so a refusal points at the row shown', () => {
    const v = fromPayee(maria)
    expect(v.taxNumber).toBe('529.982.247-25')
    expect(toPayeeInput(v)).toEqual({
      name: 'Maria da Silva',
      taxNumber: '529.982.247-25',
      pixKeys: [
        { key: 'maria@example.com', type: 'email' },
        { key: '+5561988887777', type: 'phone' },
      ],
      euid: 'EU-1',
    })
    const withBlank = { ...v, keys: [...v.keys, { key: '', type: '' as const }] }
    expect(payeeProblems(withBlank)).toEqual({ 'pixKeys.2.key': 'pix_key_empty' })
  })

  it('an empty editor names every missing field; an invalid CPF/CNPJ names its check digits', () => {
    expect(payeeProblems(EMPTY_PAYEE)).toEqual({
      name: 'payee_name_required',
      taxNumber: 'payee_tax_number_required',
      'pixKeys.0.key': 'pix_key_empty',
    })
    expect(payeeProblems({ ...fromPayee(maria), taxNumber: '529.982.247-26' })).toEqual({
      taxNumber: 'tax_number_check_digits',
    })
  })

  it("reads main's field codes with or without the update channel's wrapper", () => {
    expect(
      fieldsFromIpc({
        code: 'invalid_input',
        message: '',
        fields: { 'payee.taxNumber': 'tax_number_format', 'pixKeys.1.key': 'payee_key_taken' },
      }),
    ).toEqual({ taxNumber: 'tax_number_format', 'pixKeys.1.key': 'payee_key_taken' })
  })
})

describe('prefilling the payment form', () => {
  it('paying a payee fills key, type, document, EUID and the link; the draft names the payee', () => {
    const v = formForPayee(maria)
    expect(v).toMatchObject({
      pixKey: 'maria@example.com',
      pixKeyType: 'email',
      taxNumber: '529.982.247-25',
      euid: 'EU-1',
      payeeId: 'p-1',
      amountCents: null,
    })
    expect(withPayee(v, maria, '+5561988887777').pixKey).toBe('+5561988887777')
    expect(toDraft({ ...v, amountCents: 1000, refundAddress: 'lq1x' }).payeeId).toBe('p-1')
    expect(formMatchesPayee(maria, v)).toBe(true)
    expect(formMatchesPayee(maria, { ...v, pixKey: 'outra@example.com' })).toBe(false)
    expect(formMatchesPayee(maria, { ...v, taxNumber: '111.444.777-35' })).toBe(false)
    expect(formMatchesPayee(maria, { ...v, pixKey: 'MARIA@example.com', pixKeyType: '' })).toBe(true)
  })

  const record = {
    localId: 'w-1',
    createdAt: '2026-11-20T10:00:00.000Z',
    pixKey: '+5561988887777',
    amountKind: 'payout',
    amountCents: 150_000,
    request: {
      pixKey: '+5561988887777',
      taxNumber: '52998224725',
      euid: 'EU-1',
      payoutAmountInCents: 150_000,
      refundAddress: 'lq1qqrefund',
    },
    references: { invoice: 'NF 10', category: 'Aluguel' },
    expectedPayee: { id: 'p-1', name: 'Maria da Silva', taxNumber: '52998224725' },
  } as unknown as WithdrawalRecord

  it('repeating copies payee, key, document, EUID, references and refund address; the amount starts blank', () => {
    const v = formForRepeat(record, true)
    expect(v).toEqual({
      ...EMPTY_FORM,
      pixKey: '+5561988887777',
      pixKeyType: 'phone',
      taxNumber: '529.982.247-25',
      euid: 'EU-1',
      amountKind: 'payout',
      amountCents: null,
      refundAddress: 'lq1qqrefund',
      payeeId: 'p-1',
      invoice: 'NF 10',
      costCentre: '',
      category: 'Aluguel',
      note: '',
    })
    // Once an amount is typed, the draft is one the shared schema accepts as is (the address is main's to check).
    const draft = toDraft({ ...v, amountCents: 150_000 })
    expect(withdrawalDraftSchema.safeParse(draft).success).toBe(true)
    expect(draft.references).toEqual({ invoice: 'NF 10', category: 'Aluguel' })
  })

  it('a payee removed from the book since is not linked again', () => {
    expect(formForRepeat(record, false).payeeId).toBe('')
    expect(formForRepeat({ ...record, expectedPayee: undefined } as WithdrawalRecord, true).payeeId).toBe('')
  })
})
