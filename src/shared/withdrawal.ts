/**
 * The withdrawal draft (what the form produces), its validation, and its translation into the exact body of
 * `POST /withdraw` (docs/API-CONTRACT.md#s4-6). Every refusal is a zod issue whose `path` names the field and whose `message` is
 * a stable code from `withdrawalMessages`; the UI translates codes, never zod's own English text.
 */
import { z } from 'zod'
import { WITHDRAWAL_MAX_CENTS, WITHDRAWAL_MIN_CENTS } from './api-limits'
import {
  PIX_KEY_REASONS,
  PIX_KEY_TYPES,
  type LocalizedText,
  type PixKeyReason,
  type PixKeyType,
  parsePixKey,
  pixKeyMessages,
} from './pix-key'
import { normalizeTaxId, taxIdKind } from './tax-id'
import { beneficiaryFieldMessages, commonFieldMessages, EUID_MAX_LENGTH } from './field-messages'
import { type PaymentReferences, paymentReferencesSchema, referenceMessages } from './payment-references'

export type WithdrawalAmount = { kind: 'deposit'; cents: number } | { kind: 'payout'; cents: number }

export type WithdrawalDraft = {
  pixKey: string
  pixKeyType?: PixKeyType
  taxNumber?: string
  euid?: string
  /** One amount by construction: the API refuses a request carrying both (CONFLICTING_PARAMETERS). */
  amount: WithdrawalAmount
  refundAddress: string
  /** What the payment is for; kept in the ledger and exports, never sent to the API. */
  references?: PaymentReferences
  /**
   * The payee-book entry this payment is for (payee.ts); never sent to the API. Main checks that the Pix key
   * and CPF/CNPJ are the entry's and keeps its name and document on the record for the name check.
   */
  payeeId?: string
}

/** Exact JSON body of `POST /withdraw`. Absent fields are absent keys, never `undefined` or "". */
export type WithdrawRequest = {
  pixKey: string
  taxNumber?: string
  euid?: string
  refundAddress?: string
} & (
  | { depositAmountInCents: number; payoutAmountInCents?: never }
  | { payoutAmountInCents: number; depositAmountInCents?: never }
)

/**
 * Required by us although optional in the API: without it a failed payout waits for the operator to reach the
 * partner in chat, and it cannot be supplied later (docs/API-CONTRACT.md#s3-2). Its Liquid validity is checked in main.
 */
export const REFUND_ADDRESS_MAX_LENGTH = 200
export { EUID_MAX_LENGTH }

type PixKeyMessageCode = `pix_key_${PixKeyReason}`

const OWN_MESSAGES = {
  ...commonFieldMessages,
  ...beneficiaryFieldMessages,
  not_canonical: {
    'pt-BR': 'Valor fora da forma canônica enviada à API.',
    en: 'Value is not in the canonical form sent to the API.',
  },
  euid_invalid: { 'pt-BR': 'EUID inválido.', en: 'Invalid EUID.' },
  beneficiary_required: {
    'pt-BR': 'Identifique o favorecido: informe o CPF/CNPJ ou o EUID.',
    en: 'Identify the beneficiary: enter the CPF/CNPJ or the EUID.',
  },
  amount_required: { 'pt-BR': 'Informe o valor.', en: 'Enter the amount.' },
  amount_kind_invalid: {
    'pt-BR': 'Escolha se o valor é o enviado em DePix ou o pago em Pix.',
    en: 'Choose whether the amount is the DePix sent or the BRL paid out.',
  },
  amount_conflict: {
    'pt-BR': 'Informe apenas um valor: o enviado em DePix ou o pago em Pix.',
    en: 'Give only one amount: the DePix sent or the BRL paid out.',
  },
  amount_not_whole_cents: {
    'pt-BR': 'O valor deve ser em centavos inteiros.',
    en: 'The amount must be a whole number of cents.',
  },
  amount_below_min: {
    'pt-BR': 'O valor mínimo por pagamento é R$ 2,00.',
    en: 'The minimum per withdrawal is R$2.00.',
  },
  amount_above_max: {
    'pt-BR': 'O valor máximo por pagamento é R$ 6.000,00.',
    en: 'The maximum per withdrawal is R$6,000.00.',
  },
  refund_address_required: {
    'pt-BR': 'Informe o endereço Liquid para devolução.',
    en: 'Enter the Liquid refund address.',
  },
  refund_address_too_long: {
    'pt-BR': 'Endereço de devolução longo demais.',
    en: 'Refund address is too long.',
  },
  refund_address_characters: {
    'pt-BR': 'O endereço de devolução não pode conter espaços nem caracteres especiais.',
    en: 'The refund address must not contain spaces or special characters.',
  },
  payee_not_found: {
    'pt-BR': 'Favorecido não encontrado no cadastro (pode ter sido excluído). Escolha outro ou desvincule.',
    en: 'Payee not found in the book (it may have been removed). Choose another or unlink it.',
  },
  payee_key_not_in_book: {
    'pt-BR': 'Esta chave Pix não é uma das chaves do favorecido escolhido.',
    en: "This Pix key is not one of the chosen payee's keys.",
  },
  payee_document_differs: {
    'pt-BR': 'Este CPF/CNPJ não é o do favorecido escolhido.',
    en: "This CPF/CNPJ is not the chosen payee's.",
  },
  ...referenceMessages,
} as const satisfies Record<string, LocalizedText>

export type WithdrawalMessageCode = keyof typeof OWN_MESSAGES | PixKeyMessageCode

export const withdrawalMessages: Readonly<Record<WithdrawalMessageCode, LocalizedText>> = {
  ...OWN_MESSAGES,
  ...(Object.fromEntries(PIX_KEY_REASONS.map((r) => [`pix_key_${r}`, pixKeyMessages[r]])) as Record<
    PixKeyMessageCode,
    LocalizedText
  >),
}

function isWithdrawalMessageCode(code: string): code is WithdrawalMessageCode {
  return Object.hasOwn(withdrawalMessages, code)
}

function objectError(iss: { code: string }): WithdrawalMessageCode {
  return iss.code === 'unrecognized_keys' ? 'unknown_field' : 'invalid_value'
}

/** Null when `cents` is an acceptable withdrawal amount (docs/API-CONTRACT.md#s8-2: 200..600000, per operation). */
function amountProblem(cents: number): WithdrawalMessageCode | null {
  if (!Number.isSafeInteger(cents)) {
    return Number.isInteger(cents)
      ? cents < 0
        ? 'amount_below_min'
        : 'amount_above_max'
      : 'amount_not_whole_cents'
  }
  if (cents < WITHDRAWAL_MIN_CENTS) return 'amount_below_min'
  if (cents > WITHDRAWAL_MAX_CENTS) return 'amount_above_max'
  return null
}

const centsSchema = z.number({ error: 'amount_required' }).superRefine((cents, ctx) => {
  const problem = amountProblem(cents)
  if (problem) ctx.addIssue({ code: 'custom', message: problem })
})

/** Null when `s` is an acceptable refund address as far as this layer can tell (presence and characters). */
function refundAddressProblem(s: string): WithdrawalMessageCode | null {
  const t = s.trim()
  if (t === '') return 'refund_address_required'
  if (t.length > REFUND_ADDRESS_MAX_LENGTH) return 'refund_address_too_long'
  // Liquid addresses are printable ASCII; a space, NBSP or zero-width character is always a paste accident.
  if (!/^[\x21-\x7e]+$/.test(t)) return 'refund_address_characters'
  return null
}

function taxNumberProblem(s: string): WithdrawalMessageCode | null {
  const n = normalizeTaxId(s)
  if (n === null) return 'tax_number_format'
  return taxIdKind(n) === null ? 'tax_number_check_digits' : null
}

function isPresent(v: unknown): v is string {
  return typeof v === 'string' && v.trim() !== ''
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

// Form selects and text inputs produce "" for "nothing chosen"; that means absent, not invalid.
const emptyAsAbsent = (v: unknown): unknown => (v === '' ? undefined : v)

const amountSchema = z.discriminatedUnion(
  'kind',
  [
    z.strictObject({ kind: z.literal('deposit'), cents: centsSchema }, { error: objectError }),
    z.strictObject({ kind: z.literal('payout'), cents: centsSchema }, { error: objectError }),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'amount_kind_invalid' : 'amount_required') },
)

const draftShape = z.strictObject(
  {
    pixKey: z.string({ error: 'pix_key_empty' }),
    pixKeyType: z.preprocess(
      emptyAsAbsent,
      z.enum(PIX_KEY_TYPES, { error: 'pix_key_type_invalid' }).optional(),
    ),
    taxNumber: z
      .string({ error: 'tax_number_format' })
      .superRefine((s, ctx) => {
        const problem = isPresent(s) ? taxNumberProblem(s) : null
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      })
      .optional(),
    euid: z
      .string({ error: 'euid_invalid' })
      .superRefine((s, ctx) => {
        if (s.trim().length > EUID_MAX_LENGTH) ctx.addIssue({ code: 'custom', message: 'euid_too_long' })
      })
      .optional(),
    amount: amountSchema,
    refundAddress: z.string({ error: 'refund_address_required' }).superRefine((s, ctx) => {
      const problem = refundAddressProblem(s)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    }),
    references: paymentReferencesSchema.optional(),
    payeeId: z.preprocess(
      emptyAsAbsent,
      z.string({ error: 'invalid_value' }).max(100, { error: 'invalid_value' }).optional(),
    ),
  },
  { error: objectError },
)

/**
 * Cross-field rules. They run even when a field already failed (`when`), so the form shows every problem at
 * once; the draft is therefore read defensively, as unknown input.
 */
function checkCrossFields(value: unknown, ctx: z.RefinementCtx): void {
  if (!isRecord(value)) return
  const { pixKey, taxNumber, euid } = value
  const pixKeyType = emptyAsAbsent(value.pixKeyType)
  const typeUsable = pixKeyType === undefined || (PIX_KEY_TYPES as readonly unknown[]).includes(pixKeyType)
  if (typeof pixKey === 'string' && typeUsable) {
    const parsed = parsePixKey(pixKey, pixKeyType as PixKeyType | undefined)
    if (!parsed.ok) ctx.addIssue({ code: 'custom', path: ['pixKey'], message: `pix_key_${parsed.reason}` })
  }
  if (!isPresent(taxNumber) && !isPresent(euid)) {
    // Both fields are named: either one satisfies the rule, and the form should highlight both.
    ctx.addIssue({ code: 'custom', path: ['taxNumber'], message: 'beneficiary_required' })
    ctx.addIssue({ code: 'custom', path: ['euid'], message: 'beneficiary_required' })
  }
}

export const withdrawalDraftSchema: z.ZodType<WithdrawalDraft> = draftShape.superRefine(checkCrossFields, {
  when: (payload) => isRecord(payload.value),
})

/** Key used by `describeDraftIssues` for problems of the draft as a whole (e.g. an unknown field). */
export const DRAFT_ROOT_PATH = '_form'

type IssueLike = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

/**
 * One translated sentence per field path ("pixKey", "amount.cents", "refundAddress", ...), the first issue
 * of each field winning. Messages that are not our codes fall back to `invalid_value`, never zod's English.
 */
export function describeDraftIssues(
  error: { readonly issues: ReadonlyArray<IssueLike> },
  locale: 'pt-BR' | 'en' = 'pt-BR',
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || DRAFT_ROOT_PATH
    if (Object.hasOwn(out, field)) continue
    const code = isWithdrawalMessageCode(issue.message) ? issue.message : 'invalid_value'
    out[field] = withdrawalMessages[code][locale]
  }
  return out
}

const canonicalPixKey = z.string({ error: 'pix_key_empty' }).superRefine((s, ctx) => {
  const parsed = parsePixKey(s)
  if (!parsed.ok) ctx.addIssue({ code: 'custom', message: `pix_key_${parsed.reason}` })
  else if (parsed.key !== s) ctx.addIssue({ code: 'custom', message: 'not_canonical' })
})

const requestShape = z.strictObject(
  {
    pixKey: canonicalPixKey,
    taxNumber: z
      .string({ error: 'tax_number_format' })
      .superRefine((s, ctx) => {
        const problem = taxNumberProblem(s) ?? (normalizeTaxId(s) === s ? null : 'not_canonical')
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      })
      .optional(),
    euid: z
      .string({ error: 'euid_invalid' })
      .superRefine((s, ctx) => {
        if (s.trim() !== s || s === '') ctx.addIssue({ code: 'custom', message: 'not_canonical' })
        else if (s.length > EUID_MAX_LENGTH) ctx.addIssue({ code: 'custom', message: 'euid_too_long' })
      })
      .optional(),
    depositAmountInCents: centsSchema.optional(),
    payoutAmountInCents: centsSchema.optional(),
    refundAddress: z
      .string({ error: 'refund_address_required' })
      .superRefine((s, ctx) => {
        const problem = refundAddressProblem(s) ?? (s.trim() === s ? null : 'not_canonical')
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      })
      .optional(),
  },
  { error: objectError },
)

function hasOneAmount(
  r: z.output<typeof requestShape>,
): r is z.output<typeof requestShape> & WithdrawRequest {
  return (r.depositAmountInCents === undefined) !== (r.payoutAmountInCents === undefined)
}

/**
 * A `POST /withdraw` body exactly as this app sends it: strict keys, canonical values, one amount, at least
 * one beneficiary field. Used by the sandbox and the tests; the real API may be more lenient.
 */
export const withdrawRequestSchema: z.ZodType<WithdrawRequest> = requestShape
  .superRefine((r, ctx) => {
    if (r.taxNumber === undefined && r.euid === undefined) {
      ctx.addIssue({ code: 'custom', path: ['taxNumber'], message: 'beneficiary_required' })
    }
  })
  .refine(hasOneAmount, {
    path: ['payoutAmountInCents'],
    error: (iss) =>
      isRecord(iss.input) && iss.input.depositAmountInCents !== undefined
        ? 'amount_conflict'
        : 'amount_required',
  })

/**
 * The exact `POST /withdraw` body for a draft: canonical Pix key, normalised tax number, trimmed euid and
 * refund address, exactly one amount key, and no key at all for an absent field. Throws the ZodError of
 * `withdrawalDraftSchema` for an invalid draft, so nothing unvalidated can reach the API.
 */
export function toWithdrawRequest(draft: WithdrawalDraft): WithdrawRequest {
  const d = withdrawalDraftSchema.parse(draft)
  const pix = parsePixKey(d.pixKey, d.pixKeyType)
  if (!pix.ok) throw new Error(`unreachable: pix key refused after validation (${pix.reason})`)
  const taxNumber = isPresent(d.taxNumber) ? normalizeTaxId(d.taxNumber) : null
  if (isPresent(d.taxNumber) && taxNumber === null)
    throw new Error('unreachable: tax number refused after validation')
  const euid = isPresent(d.euid) ? d.euid.trim() : null
  const base = {
    pixKey: pix.key,
    ...(taxNumber === null ? {} : { taxNumber }),
    ...(euid === null ? {} : { euid }),
  }
  const refundAddress = d.refundAddress.trim()
  const request: WithdrawRequest =
    d.amount.kind === 'deposit'
      ? { ...base, depositAmountInCents: d.amount.cents, refundAddress }
      : { ...base, payoutAmountInCents: d.amount.cents, refundAddress }
  // Belt and braces: the body we return is the body the request schema accepts, or we do not return at all.
  withdrawRequestSchema.parse(request)
  return request
}
