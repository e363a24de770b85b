import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { ZodError } from 'zod'
import { WITHDRAWAL_MAX_CENTS, WITHDRAWAL_MIN_CENTS } from '../../src/shared/api-limits'
import {
  DRAFT_ROOT_PATH,
  type WithdrawalDraft,
  describeDraftIssues,
  toWithdrawRequest,
  withdrawRequestSchema,
  withdrawalDraftSchema,
  withdrawalMessages,
} from '../../src/shared/withdrawal'

const REFUND =
  'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew5'

const base: WithdrawalDraft = {
  pixKey: '+5561988887777',
  taxNumber: '529.982.247-25',
  amount: { kind: 'deposit', cents: 10_000 },
  refundAddress: REFUND,
}

/** The issues of a draft as `path -> [codes]`, so a test can say which field a refusal names. */
function issuesOf(draft: unknown): Record<string, string[]> {
  const r = withdrawalDraftSchema.safeParse(draft)
  if (r.success) return {}
  const out: Record<string, string[]> = {}
  for (const i of r.error.issues) (out[i.path.join('.') || DRAFT_ROOT_PATH] ??= []).push(i.message)
  return out
}

describe('withdrawalDraftSchema: every refusal names its field with a stable code', () => {
  it('accepts a complete draft', () => {
    expect(issuesOf(base)).toEqual({})
    expect(withdrawalDraftSchema.parse(base)).toEqual(base)
  })

  it.each<[string, Record<string, unknown>, Record<string, string[]>]>([
    ['bad CPF', { taxNumber: '123.456.789-00' }, { taxNumber: ['tax_number_check_digits'] }],
    ['repeated-digit CPF', { taxNumber: '111.111.111-11' }, { taxNumber: ['tax_number_check_digits'] }],
    ['bad CNPJ', { taxNumber: '12ABC34501DE36' }, { taxNumber: ['tax_number_check_digits'] }],
    ['tax number of no known shape', { taxNumber: '1234' }, { taxNumber: ['tax_number_format'] }],
    ['199 cents', { amount: { kind: 'deposit', cents: 199 } }, { 'amount.cents': ['amount_below_min'] }],
    [
      '600001 cents',
      { amount: { kind: 'payout', cents: 600_001 } },
      { 'amount.cents': ['amount_above_max'] },
    ],
    [
      '1.5 cents',
      { amount: { kind: 'deposit', cents: 1.5 } },
      { 'amount.cents': ['amount_not_whole_cents'] },
    ],
    [
      '250.5 cents',
      { amount: { kind: 'payout', cents: 250.5 } },
      { 'amount.cents': ['amount_not_whole_cents'] },
    ],
    ['negative', { amount: { kind: 'deposit', cents: -500 } }, { 'amount.cents': ['amount_below_min'] }],
    ['2^53 cents', { amount: { kind: 'deposit', cents: 2 ** 53 } }, { 'amount.cents': ['amount_above_max'] }],
    [
      'NaN cents',
      { amount: { kind: 'deposit', cents: Number.NaN } },
      { 'amount.cents': ['amount_required'] },
    ],
    [
      'cents as a string',
      { amount: { kind: 'deposit', cents: '500' } },
      { 'amount.cents': ['amount_required'] },
    ],
    ['no amount', { amount: undefined }, { amount: ['amount_required'] }],
    [
      'unknown amount kind',
      { amount: { kind: 'both', cents: 500 } },
      { 'amount.kind': ['amount_kind_invalid'] },
    ],
    [
      'a second amount smuggled into the amount',
      { amount: { kind: 'deposit', cents: 500, payoutCents: 500 } },
      { amount: ['unknown_field'] },
    ],
    ['missing refundAddress', { refundAddress: undefined }, { refundAddress: ['refund_address_required'] }],
    ['empty refundAddress', { refundAddress: '' }, { refundAddress: ['refund_address_required'] }],
    ['blank refundAddress', { refundAddress: '  \t ' }, { refundAddress: ['refund_address_required'] }],
    [
      'refundAddress with a space',
      { refundAddress: 'lq1qq abc' },
      { refundAddress: ['refund_address_characters'] },
    ],
    [
      'refundAddress with NBSP',
      { refundAddress: 'lq1\u00a0abc' },
      { refundAddress: ['refund_address_characters'] },
    ],
    [
      'refundAddress with ZWSP',
      { refundAddress: 'lq1\u200babc' },
      { refundAddress: ['refund_address_characters'] },
    ],
    [
      'refundAddress of 201 chars',
      { refundAddress: 'a'.repeat(201) },
      { refundAddress: ['refund_address_too_long'] },
    ],
    [
      'no beneficiary',
      { taxNumber: undefined, euid: undefined },
      { taxNumber: ['beneficiary_required'], euid: ['beneficiary_required'] },
    ],
    [
      'beneficiary fields empty',
      { taxNumber: '', euid: '  ' },
      { taxNumber: ['beneficiary_required'], euid: ['beneficiary_required'] },
    ],
    ['euid too long', { euid: 'e'.repeat(201) }, { euid: ['euid_too_long'] }],
    ['euid not a string', { euid: 42 }, { euid: ['euid_invalid'] }],
    [
      'bad pix key (CPF check digits)',
      { pixKey: '123.456.789-00' },
      { pixKey: ['pix_key_cpf_check_digits'] },
    ],
    [
      'bad pix key (phone without +55)',
      { pixKey: '(61) 98888-7777' },
      { pixKey: ['pix_key_phone_needs_country_code'] },
    ],
    ['empty pix key', { pixKey: '' }, { pixKey: ['pix_key_empty'] }],
    ['missing pix key', { pixKey: undefined }, { pixKey: ['pix_key_empty'] }],
    ['pix key of another type', { pixKeyType: 'cpf' }, { pixKey: ['pix_key_cpf_format'] }],
    ['unknown pix key type', { pixKeyType: 'iban' }, { pixKeyType: ['pix_key_type_invalid'] }],
    ['unknown top-level field', { depositAmountInCents: 500 }, { [DRAFT_ROOT_PATH]: ['unknown_field'] }],
  ])('%s', (_name, patch, expected) => {
    const draft = { ...base, ...patch }
    for (const [k, v] of Object.entries(patch))
      if (v === undefined) delete (draft as Record<string, unknown>)[k]
    expect(issuesOf(draft)).toEqual(expected)
  })

  it.each([WITHDRAWAL_MIN_CENTS, WITHDRAWAL_MAX_CENTS])(
    'accepts the inclusive bound %i for both kinds',
    (cents) => {
      expect(issuesOf({ ...base, amount: { kind: 'deposit', cents } })).toEqual({})
      expect(issuesOf({ ...base, amount: { kind: 'payout', cents } })).toEqual({})
    },
  )

  it('accepts either beneficiary field alone, and treats empty strings as absent', () => {
    expect(issuesOf({ ...base, taxNumber: undefined, euid: 'user-42' })).toEqual({})
    expect(issuesOf({ ...base, taxNumber: '', euid: 'user-42' })).toEqual({})
    expect(issuesOf({ ...base, euid: '' })).toEqual({})
    expect(issuesOf({ ...base, taxNumber: '12.ABC.345/01DE-35' })).toEqual({})
    expect(issuesOf({ ...base, pixKeyType: '' })).toEqual({})
  })

  it('reports every field at once', () => {
    expect(
      issuesOf({ pixKey: 'x', taxNumber: '', amount: { kind: 'payout', cents: 199.5 }, refundAddress: '' }),
    ).toEqual({
      pixKey: ['pix_key_unrecognized'],
      taxNumber: ['beneficiary_required'],
      euid: ['beneficiary_required'],
      'amount.cents': ['amount_not_whole_cents'],
      refundAddress: ['refund_address_required'],
    })
  })

  it('refuses a draft that is not an object', () => {
    for (const bad of [null, undefined, 'draft', 42, []])
      expect(issuesOf(bad)).toEqual({ _form: ['invalid_value'] })
  })

  it('only ever emits codes of withdrawalMessages, whatever the input', () => {
    const anything = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.constant(undefined),
      fc.constant(null),
    )
    const draftish = fc.record(
      {
        pixKey: fc.oneof(anything, fc.constantFrom('52998224725', 'pix@bcb.gov.br', '+5561988887777')),
        pixKeyType: fc.oneof(anything, fc.constantFrom('cpf', 'cnpj', 'email', 'phone', 'evp', '')),
        taxNumber: fc.oneof(anything, fc.constant('529.982.247-25')),
        euid: anything,
        amount: fc.oneof(
          anything,
          fc.record({ kind: fc.oneof(anything, fc.constantFrom('deposit', 'payout')), cents: anything }),
        ),
        refundAddress: anything,
      },
      { requiredKeys: [] },
    )
    fc.assert(
      fc.property(draftish, (draft) => {
        const r = withdrawalDraftSchema.safeParse(draft)
        if (r.success) return
        for (const issue of r.error.issues) expect(Object.keys(withdrawalMessages)).toContain(issue.message)
      }),
      { numRuns: 2_000 },
    )
  })
})

describe('describeDraftIssues', () => {
  const error = withdrawalDraftSchema.safeParse({
    ...base,
    taxNumber: '',
    amount: { kind: 'deposit', cents: 199 },
    extra: true,
  }).error as ZodError

  it('gives one translated sentence per field path', () => {
    expect(describeDraftIssues(error, 'pt-BR')).toEqual({
      [DRAFT_ROOT_PATH]: 'Campo não reconhecido.',
      'amount.cents': 'O valor mínimo por pagamento é R$ 2,00.',
      taxNumber: 'Identifique o favorecido: informe o CPF/CNPJ ou o EUID.',
      euid: 'Identifique o favorecido: informe o CPF/CNPJ ou o EUID.',
    })
    expect(describeDraftIssues(error, 'en')['amount.cents']).toBe('The minimum per withdrawal is R$2.00.')
  })

  it('defaults to pt-BR and never shows a message that is not one of our codes', () => {
    expect(describeDraftIssues(error)).toEqual(describeDraftIssues(error, 'pt-BR'))
    expect(
      describeDraftIssues({ issues: [{ path: ['x'], message: 'Invalid input: expected string' }] }, 'en'),
    ).toEqual({ x: 'Invalid value.' })
  })

  it('has both locales for every code', () => {
    for (const [code, text] of Object.entries(withdrawalMessages)) {
      expect(text['pt-BR'], code).toMatch(/\S/)
      expect(text.en, code).toMatch(/\S/)
    }
  })
})

describe('toWithdrawRequest: the exact POST /withdraw body', () => {
  it('deposit amount, CPF beneficiary, detected phone key', () => {
    const body = JSON.stringify(toWithdrawRequest({ ...base, pixKey: ' +55 (61) 98888-7777 ', euid: '' }))
    expect(body).toBe(
      `{"pixKey":"+5561988887777","taxNumber":"52998224725","depositAmountInCents":10000,"refundAddress":"${REFUND}"}`,
    )
  })

  it('payout amount, euid only, email key, refund address trimmed', () => {
    const draft: WithdrawalDraft = {
      pixKey: 'Pix@BCB.gov.br',
      pixKeyType: 'email',
      taxNumber: '   ',
      euid: '  user-42 ',
      amount: { kind: 'payout', cents: 600_000 },
      refundAddress: `  ${REFUND}\n`,
    }
    expect(JSON.stringify(toWithdrawRequest(draft))).toBe(
      `{"pixKey":"pix@bcb.gov.br","euid":"user-42","payoutAmountInCents":600000,"refundAddress":"${REFUND}"}`,
    )
  })

  it('both beneficiary fields, alphanumeric CNPJ uppercased, CNPJ key', () => {
    const draft: WithdrawalDraft = {
      pixKey: '12.abc.345/01de-35',
      taxNumber: '12.abc.345/01de-35',
      euid: 'merchant-7',
      amount: { kind: 'deposit', cents: 200 },
      refundAddress: REFUND,
    }
    expect(toWithdrawRequest(draft)).toStrictEqual({
      pixKey: '12ABC34501DE35',
      taxNumber: '12ABC34501DE35',
      euid: 'merchant-7',
      depositAmountInCents: 200,
      refundAddress: REFUND,
    })
  })

  it('throws the ZodError of the draft for an invalid draft', () => {
    expect(() => toWithdrawRequest({ ...base, amount: { kind: 'deposit', cents: 199 } })).toThrow(ZodError)
    expect(() => toWithdrawRequest({ ...base, refundAddress: '' })).toThrow(ZodError)
  })

  it('never has both amounts, never an empty or undefined key, and always passes withdrawRequestSchema', () => {
    const draft = fc.record({
      pixKey: fc.constantFrom('52998224725', 'pix@bcb.gov.br', '+5561988887777', '12ABC34501DE35'),
      taxNumber: fc.constantFrom(undefined, '', ' ', '529.982.247-25', '12.ABC.345/01DE-35'),
      euid: fc.constantFrom(undefined, '', '  ', 'user-1', ' user-2 '),
      amount: fc.record({
        kind: fc.constantFrom('deposit' as const, 'payout' as const),
        cents: fc.integer({ min: WITHDRAWAL_MIN_CENTS, max: WITHDRAWAL_MAX_CENTS }),
      }),
      refundAddress: fc.constantFrom(REFUND, ` ${REFUND} `),
    })
    fc.assert(
      fc.property(draft, (d) => {
        const hasBeneficiary = Boolean(d.taxNumber?.trim() || d.euid?.trim())
        if (!hasBeneficiary) {
          expect(() => toWithdrawRequest(d)).toThrow(ZodError)
          return
        }
        const parsed = JSON.parse(JSON.stringify(toWithdrawRequest(d))) as Record<string, unknown>
        const amountKeys = Object.keys(parsed).filter((k) => k.endsWith('AmountInCents'))
        expect(amountKeys).toEqual([
          d.amount.kind === 'deposit' ? 'depositAmountInCents' : 'payoutAmountInCents',
        ])
        expect(parsed[amountKeys[0] ?? '']).toBe(d.amount.cents)
        for (const v of Object.values(parsed)) expect(v === '' || v === undefined || v === null).toBe(false)
        expect(Object.keys(parsed).length).toBe(Object.keys(toWithdrawRequest(d)).length)
        expect(withdrawRequestSchema.safeParse(parsed).success).toBe(true)
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('withdrawRequestSchema', () => {
  const ok = {
    pixKey: '52998224725',
    taxNumber: '52998224725',
    depositAmountInCents: 500,
    refundAddress: REFUND,
  }
  const codes = (v: unknown): Record<string, string> =>
    Object.fromEntries(
      (withdrawRequestSchema.safeParse(v).error?.issues ?? []).map((i) => [
        i.path.join('.') || '_',
        i.message,
      ]),
    )

  it('accepts a canonical body, with or without refundAddress (optional in the API)', () => {
    expect(codes(ok)).toEqual({})
    expect(codes({ pixKey: 'pix@bcb.gov.br', euid: 'u', payoutAmountInCents: 200 })).toEqual({})
  })

  it.each<[string, Record<string, unknown>, Record<string, string>]>([
    ['both amounts', { payoutAmountInCents: 500 }, { payoutAmountInCents: 'amount_conflict' }],
    ['no amount', { depositAmountInCents: undefined }, { payoutAmountInCents: 'amount_required' }],
    ['amount out of range', { depositAmountInCents: 600_001 }, { depositAmountInCents: 'amount_above_max' }],
    ['no beneficiary', { taxNumber: undefined }, { taxNumber: 'beneficiary_required' }],
    ['masked tax number', { taxNumber: '529.982.247-25' }, { taxNumber: 'not_canonical' }],
    ['empty euid', { euid: '' }, { euid: 'not_canonical' }],
    ['untrimmed euid', { euid: ' u ' }, { euid: 'not_canonical' }],
    ['uppercase email key', { pixKey: 'Pix@BCB.gov.br' }, { pixKey: 'not_canonical' }],
    ['invalid key', { pixKey: '12345678901' }, { pixKey: 'pix_key_cpf_check_digits' }],
    ['empty refundAddress', { refundAddress: '' }, { refundAddress: 'refund_address_required' }],
    ['unknown key', { async: true }, { _: 'unknown_field' }],
  ])('refuses %s', (_name, patch, expected) => {
    const body = { ...ok, ...patch }
    for (const [k, v] of Object.entries(patch))
      if (v === undefined) delete (body as Record<string, unknown>)[k]
    expect(codes(body)).toEqual(expected)
  })
})
