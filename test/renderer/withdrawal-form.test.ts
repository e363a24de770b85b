import { describe, expect, it } from 'vitest'
import type { ResolverOptions } from 'react-hook-form'
import {
  centsFromTypedDigits,
  draftPathToField,
  EMPTY_FORM,
  fieldCodesFromIpc,
  maskTaxIdAsTyped,
  recordErrorToIpc,
  remapDraftErrors,
  requestAmount,
  ROOT_FIELD,
  taxIdLiveState,
  toDraft,
  withdrawalFormResolver,
  type WithdrawalFormValues,
} from '../../src/renderer/src/components/withdrawal-form/form-model'
import { toWithdrawRequest } from '../../src/shared/withdrawal'
import type { WithdrawalRecord } from '../../src/shared/withdrawal-record'

const VALID: WithdrawalFormValues = {
  pixKey: '529.982.247-25',
  pixKeyType: '',
  taxNumber: '529.982.247-25',
  euid: '',
  amountKind: 'payout',
  amountCents: 12_345,
  refundAddress: 'ert1qexampleexampleexample',
}

const options = {
  fields: {},
  shouldUseNativeValidation: false,
} as unknown as ResolverOptions<WithdrawalFormValues>

async function resolve(v: WithdrawalFormValues): Promise<Record<string, string>> {
  const r = await withdrawalFormResolver(v, undefined, options)
  return Object.fromEntries(
    Object.entries(r.errors).map(([k, e]) => [k, String((e as { message: string }).message)]),
  )
}

describe('toDraft', () => {
  it('carries exactly one amount, of the kind the radio says', () => {
    expect(toDraft(VALID).amount).toEqual({ kind: 'payout', cents: 12_345 })
    expect(toDraft({ ...VALID, amountKind: 'deposit' }).amount).toEqual({ kind: 'deposit', cents: 12_345 })
    const body = toWithdrawRequest(toDraft(VALID))
    expect(body).toHaveProperty('payoutAmountInCents', 12_345)
    expect(body).not.toHaveProperty('depositAmountInCents')
  })

  it('leaves blank optional fields out and keeps a missing amount missing', () => {
    const d = toDraft({ ...EMPTY_FORM })
    expect(d).not.toHaveProperty('taxNumber')
    expect(d).not.toHaveProperty('euid')
    expect(d).not.toHaveProperty('pixKeyType')
    expect(d.amount).toEqual({ kind: 'payout' })
  })
})

describe('withdrawalFormResolver (shared draft schema through the zod resolver)', () => {
  it('accepts a valid form and returns the values untouched', async () => {
    const r = await withdrawalFormResolver(VALID, undefined, options)
    expect(r.errors).toEqual({})
    expect(r.values).toEqual(VALID)
  })

  it('puts every refusal on the form field that shows it, as a stable code', async () => {
    expect(await resolve({ ...EMPTY_FORM })).toEqual({
      pixKey: 'pix_key_empty',
      taxNumber: 'beneficiary_required',
      euid: 'beneficiary_required',
      amountCents: 'amount_required',
      refundAddress: 'refund_address_required',
    })
  })

  it('refuses 199 and 600001 cents with the bound messages, accepts 200 and 600000', async () => {
    expect((await resolve({ ...VALID, amountCents: 199 })).amountCents).toBe('amount_below_min')
    expect((await resolve({ ...VALID, amountCents: 600_001 })).amountCents).toBe('amount_above_max')
    expect(await resolve({ ...VALID, amountCents: 200 })).toEqual({})
    expect(await resolve({ ...VALID, amountCents: 600_000 })).toEqual({})
  })

  it('refuses a CPF whose check digits fail', async () => {
    expect((await resolve({ ...VALID, taxNumber: '529.982.247-24' })).taxNumber).toBe(
      'tax_number_check_digits',
    )
  })

  it('checks the key against the chosen type', async () => {
    expect((await resolve({ ...VALID, pixKeyType: 'email' })).pixKey).toBe('pix_key_email_format')
    expect(await resolve({ ...VALID, pixKeyType: 'cpf' })).toEqual({})
  })
})

describe('paths and codes', () => {
  it('maps draft and channel paths to form fields', () => {
    expect(draftPathToField('amount.cents')).toBe('amountCents')
    expect(draftPathToField('draft.amount')).toBe('amountCents')
    expect(draftPathToField('amount.kind')).toBe('amountKind')
    expect(draftPathToField('draft.refundAddress')).toBe('refundAddress')
    expect(draftPathToField('_form')).toBe(ROOT_FIELD)
    expect(draftPathToField('confirmDuplicate')).toBe(ROOT_FIELD)
  })

  it('keeps the first code per field from main', () => {
    expect(
      fieldCodesFromIpc({
        'draft.taxNumber': 'tax_number_format',
        'draft.amount.cents': 'amount_below_min',
        x: 'y',
      }),
    ).toEqual([
      ['taxNumber', 'tax_number_format'],
      ['amountCents', 'amount_below_min'],
      [ROOT_FIELD, 'y'],
    ])
    expect(fieldCodesFromIpc(undefined)).toEqual([])
  })

  it('flattens nested resolver errors', () => {
    expect(
      remapDraftErrors({
        amount: { cents: { type: 'custom', message: 'amount_below_min' } },
        pixKey: { type: 'custom', message: 'pix_key_empty', ref: { name: 'x' } },
      }),
    ).toEqual({
      amountCents: { type: 'custom', message: 'amount_below_min' },
      pixKey: { type: 'custom', message: 'pix_key_empty' },
    })
  })
})

describe('amount mask', () => {
  it('shifts digits in from the right and ignores everything else', () => {
    expect(centsFromTypedDigits('')).toBeNull()
    expect(centsFromTypedDigits('R$ ')).toBeNull()
    expect(centsFromTypedDigits('1')).toBe(1)
    expect(centsFromTypedDigits('199')).toBe(199)
    expect(centsFromTypedDigits('R$ 1,99')).toBe(199)
    expect(centsFromTypedDigits('R$ 1,990')).toBe(1990)
    expect(centsFromTypedDigits('R$ 6.000,01')).toBe(600_001)
    expect(centsFromTypedDigits('R$ 0,00')).toBe(0)
    expect(centsFromTypedDigits('9'.repeat(30))).toBe(999_999_999_999)
  })
})

describe('tax id typed mask', () => {
  it('masks a CPF progressively and switches to CNPJ past 11 characters', () => {
    expect(maskTaxIdAsTyped('529')).toBe('529')
    expect(maskTaxIdAsTyped('5299')).toBe('529.9')
    expect(maskTaxIdAsTyped('52998224725')).toBe('529.982.247-25')
    expect(maskTaxIdAsTyped('529.982.247-25')).toBe('529.982.247-25')
    expect(maskTaxIdAsTyped('112223330001')).toBe('11.222.333/0001')
    expect(maskTaxIdAsTyped('11222333000181')).toBe('11.222.333/0001-81')
    expect(maskTaxIdAsTyped('12abc34501de35')).toBe('12.ABC.345/01DE-35')
  })

  it('leaves input it cannot mask exactly as typed', () => {
    expect(maskTaxIdAsTyped('529=982')).toBe('529=982')
    expect(maskTaxIdAsTyped('112223330001811')).toBe('112223330001811')
  })

  it('judges check digits only at a tax id length', () => {
    expect(taxIdLiveState('')).toEqual({ state: 'empty' })
    expect(taxIdLiveState('529.982')).toEqual({ state: 'incomplete' })
    expect(taxIdLiveState('529.982.247-25')).toEqual({
      state: 'valid',
      kind: 'cpf',
      normalized: '52998224725',
    })
    expect(taxIdLiveState('529.982.247-24')).toEqual({ state: 'invalid' })
    expect(taxIdLiveState('11.222.333/0001')).toEqual({ state: 'incomplete' })
    expect(taxIdLiveState('11.222.333/0001-81')).toMatchObject({ state: 'valid', kind: 'cnpj' })
  })
})

describe('review helpers', () => {
  it('reads the one amount of a request body', () => {
    expect(requestAmount({ payoutAmountInCents: 500 })).toEqual({ kind: 'payout', cents: 500 })
    expect(requestAmount({ depositAmountInCents: 500 })).toEqual({ kind: 'deposit', cents: 500 })
    expect(requestAmount({ depositAmountInCents: 1, payoutAmountInCents: 1 })).toBeNull()
    expect(requestAmount({})).toBeNull()
  })

  it('shows a rejected record like any error: codes, service text, request id', () => {
    const record = {
      localState: 'rejected',
      requestId: 'req-create',
      updatedAt: '2026-05-01T12:00:00.000Z',
      error: {
        kind: 'business',
        status: 520,
        messageCode: 'INVALID_PARAMETER',
        denialCode: null,
        requestId: 'req-1',
        message: 'payoutAmountInCents out of range',
      },
    } as unknown as WithdrawalRecord
    expect(recordErrorToIpc(record)).toEqual({
      code: 'business',
      kind: 'business',
      message: 'payoutAmountInCents out of range',
      status: 520,
      requestId: 'req-1',
      messageCode: 'INVALID_PARAMETER',
      serviceMessage: 'payoutAmountInCents out of range',
    })
  })

  it('keeps the extra facts of the ledger: retry time from when it was recorded, denial text, support reference', () => {
    const record = {
      localState: 'rejected',
      requestId: 'req-create',
      updatedAt: '2026-05-01T12:00:00.000Z',
      error: {
        kind: 'compliance',
        status: 422,
        messageCode: null,
        denialCode: 'COMPLIANCE_BLOCKED',
        requestId: null,
        message: 'Blocked',
        denialMessage: 'Screening refused',
        supportReference: 'CMP-1',
        retryAfterSeconds: 300,
      },
    } as unknown as WithdrawalRecord
    const ipc = recordErrorToIpc(record, Date.parse('2026-05-01T12:01:00.000Z'))
    expect(ipc).toMatchObject({
      code: 'compliance',
      requestId: 'req-create',
      denialCode: 'COMPLIANCE_BLOCKED',
      serviceMessage: 'Blocked — Screening refused — ref. CMP-1',
      retryAfterSeconds: 240,
    })
  })
})
