/**
 * The "Comprar DePix" draft (what the form produces), its validation, and its translation into the exact body of
 * `POST /deposit` (docs/API-CONTRACT.md#s4-2). Every refusal is a zod issue whose `path` names the field and whose `message` is a
 * stable code from `depositMessages`; the UI translates codes, never zod's English.
 *
 * The destination must be a Liquid address: the treasury buys DePix to pay withdrawals, and withdrawals are
 * processed exclusively on Liquid (docs/API-CONTRACT.md#s1-4, a standing rule). Arkade and Spark addresses, which POST /deposit
 * itself would accept, are refused here with their own message; the Liquid check proper runs in main.
 */
import { z } from 'zod'
import { DEPOSIT_DELAY_MAX_HOURS, DEPOSIT_DELAY_MIN_HOURS } from './api-limits'
import { normalizeTaxId, taxIdKind } from './tax-id'
import { EUID_MAX_LENGTH } from './withdrawal'

type LocalizedText = Readonly<{ 'pt-BR': string; en: string }>

export const DEPOSIT_ADDRESS_MAX_LENGTH = 200

export const depositMessages = {
  invalid_value: { 'pt-BR': 'Valor inválido.', en: 'Invalid value.' },
  unknown_field: { 'pt-BR': 'Campo não reconhecido.', en: 'Unrecognised field.' },
  amount_required: { 'pt-BR': 'Informe o valor da compra.', en: 'Enter the top-up amount.' },
  amount_not_whole_cents: {
    'pt-BR': 'O valor deve ser em centavos inteiros.',
    en: 'The amount must be a whole number of cents.',
  },
  amount_not_positive: {
    'pt-BR': 'O valor deve ser maior que zero.',
    en: 'The amount must be greater than zero.',
  },
  address_required: {
    'pt-BR': 'Informe o endereço Liquid da tesouraria que vai receber o DePix.',
    en: "Enter the treasury's Liquid address that will receive the DePix.",
  },
  address_too_long: { 'pt-BR': 'Endereço longo demais.', en: 'Address is too long.' },
  address_characters: {
    'pt-BR': 'O endereço não pode conter espaços nem caracteres especiais.',
    en: 'The address must not contain spaces or special characters.',
  },
  address_arkade: {
    'pt-BR':
      'Endereços Arkade não servem aqui: os pagamentos só saem da rede Liquid, então a compra precisa chegar num endereço Liquid.',
    en: 'Arkade addresses cannot be used here: withdrawals are processed only on Liquid, so the top-up must arrive at a Liquid address.',
  },
  address_spark: {
    'pt-BR':
      'Endereços Spark não servem aqui: os pagamentos só saem da rede Liquid, então a compra precisa chegar num endereço Liquid.',
    en: 'Spark addresses cannot be used here: withdrawals are processed only on Liquid, so the top-up must arrive at a Liquid address.',
  },
  tax_number_format: {
    'pt-BR': 'Informe um CPF (11 dígitos) ou CNPJ (14 caracteres).',
    en: 'Enter a CPF (11 digits) or a CNPJ (14 characters).',
  },
  tax_number_check_digits: {
    'pt-BR': 'CPF/CNPJ inválido: confira os dígitos verificadores.',
    en: 'Invalid CPF/CNPJ: check the check digits.',
  },
  euid_invalid: { 'pt-BR': 'EUID inválido.', en: 'Invalid EUID.' },
  euid_too_long: {
    'pt-BR': `O EUID pode ter no máximo ${EUID_MAX_LENGTH} caracteres.`,
    en: `The EUID can be at most ${EUID_MAX_LENGTH} characters long.`,
  },
  delay_range: {
    'pt-BR': `O prazo de retenção vai de ${DEPOSIT_DELAY_MIN_HOURS} a ${DEPOSIT_DELAY_MAX_HOURS} horas (números inteiros).`,
    en: `The hold goes from ${DEPOSIT_DELAY_MIN_HOURS} to ${DEPOSIT_DELAY_MAX_HOURS} hours (whole numbers).`,
  },
} as const satisfies Record<string, LocalizedText>
export type DepositMessageCode = keyof typeof depositMessages

export interface DepositDraft {
  /** R$ in cents: the Pix the treasury pays from its bank account. */
  amountCents: number
  /** The treasury's own Liquid address (the profile's default, or typed). */
  depixAddress: string
  /** CPF/CNPJ of the payer (the company paying the Pix). */
  endUserTaxNumber?: string
  euid?: string
  /** Hold the DePix this many hours after payment (docs/API-CONTRACT.md#s4-2 `delayDepixInHours`, 1..720). */
  delayHours?: number
}

/** Exact JSON body of `POST /deposit`. Absent fields are absent keys. */
export interface DepositRequestBody {
  amountInCents: number
  depixAddress: string
  endUserTaxNumber?: string
  euid?: string
  delayDepixInHours?: number
}

/** A stored body read back (an approval's, from the team database): exactly the fields `toDepositRequest` writes. */
export const depositRequestSchema = z.strictObject({
  amountInCents: z.number().int().positive().refine(Number.isSafeInteger),
  depixAddress: z.string().min(1),
  endUserTaxNumber: z.string().optional(),
  euid: z.string().optional(),
  delayDepixInHours: z.number().int().optional(),
})

/** The network a non-Liquid address names by its prefix (docs/API-CONTRACT.md#s1-3), or null. */
export function nonLiquidNetwork(address: string): 'arkade' | 'spark' | null {
  const a = address.trim().toLowerCase()
  if (a.startsWith('ark1') || a.startsWith('tark1')) return 'arkade'
  if (a.startsWith('spark1') || a.startsWith('sparkrt1')) return 'spark'
  return null
}

function addressProblem(s: string): DepositMessageCode | null {
  const t = s.trim()
  if (t === '') return 'address_required'
  if (t.length > DEPOSIT_ADDRESS_MAX_LENGTH) return 'address_too_long'
  if (!/^[\x21-\x7e]+$/.test(t)) return 'address_characters'
  const other = nonLiquidNetwork(t)
  if (other === 'arkade') return 'address_arkade'
  if (other === 'spark') return 'address_spark'
  return null
}

const emptyAsAbsent = (v: unknown): unknown =>
  v === '' || (typeof v === 'string' && v.trim() === '') ? undefined : v

export const depositDraftSchema = z.strictObject(
  {
    amountCents: z.number({ error: 'amount_required' }).superRefine((n, ctx) => {
      if (!Number.isSafeInteger(n)) ctx.addIssue({ code: 'custom', message: 'amount_not_whole_cents' })
      else if (n <= 0) ctx.addIssue({ code: 'custom', message: 'amount_not_positive' })
    }),
    depixAddress: z.string({ error: 'address_required' }).superRefine((s, ctx) => {
      const problem = addressProblem(s)
      if (problem) ctx.addIssue({ code: 'custom', message: problem })
    }),
    endUserTaxNumber: z.preprocess(
      emptyAsAbsent,
      z
        .string({ error: 'tax_number_format' })
        .superRefine((s, ctx) => {
          const n = normalizeTaxId(s)
          const problem =
            n === null ? 'tax_number_format' : taxIdKind(n) === null ? 'tax_number_check_digits' : null
          if (problem) ctx.addIssue({ code: 'custom', message: problem })
        })
        .optional(),
    ),
    euid: z.preprocess(
      emptyAsAbsent,
      z
        .string({ error: 'euid_invalid' })
        .superRefine((s, ctx) => {
          if (s.trim().length > EUID_MAX_LENGTH) ctx.addIssue({ code: 'custom', message: 'euid_too_long' })
          else if (!/^[\x21-\x7e]+$/.test(s.trim())) ctx.addIssue({ code: 'custom', message: 'euid_invalid' })
        })
        .optional(),
    ),
    delayHours: z.preprocess(
      (v) => (v === null || v === '' ? undefined : v),
      z
        .number({ error: 'delay_range' })
        .int('delay_range')
        .min(DEPOSIT_DELAY_MIN_HOURS, 'delay_range')
        .max(DEPOSIT_DELAY_MAX_HOURS, 'delay_range')
        .optional(),
    ),
  },
  { error: (iss) => (iss.code === 'unrecognized_keys' ? 'unknown_field' : 'invalid_value') },
)

/** The body sent, built field by field; `depixAddress` is the address the Liquid helper normalised in main. */
export function toDepositRequest(
  draft: z.output<typeof depositDraftSchema>,
  checkedAddress: string,
): DepositRequestBody {
  const body: DepositRequestBody = { amountInCents: draft.amountCents, depixAddress: checkedAddress }
  if (draft.endUserTaxNumber !== undefined) {
    body.endUserTaxNumber = normalizeTaxId(draft.endUserTaxNumber) ?? draft.endUserTaxNumber
  }
  if (draft.euid !== undefined) body.euid = draft.euid.trim()
  if (draft.delayHours !== undefined) body.delayDepixInHours = draft.delayHours
  return body
}

/** Field path → message code, for the form (zod's own text never reaches a user). */
export function depositDraftFields(
  issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }>,
): Record<string, DepositMessageCode> {
  const out: Record<string, DepositMessageCode> = {}
  for (const issue of issues) {
    const field = issue.path.map(String).join('.') || '(draft)'
    if (Object.hasOwn(out, field)) continue
    out[field] = Object.hasOwn(depositMessages, issue.message)
      ? (issue.message as DepositMessageCode)
      : 'invalid_value'
  }
  return out
}
