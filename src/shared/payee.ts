/**
 * The payee book (favorecidos): who the treasury pays again and again. One shared schema decides what a payee is
 * for the form, main (IPC input, CSV import) and payment runs; every refusal is a stable code with pt-BR and en
 * text (`payeeMessages`), never zod's English. A payee is identified by its CPF/CNPJ (one entry per document) and
 * carries one or more Pix keys, each stored in the canonical form the API receives, with its type.
 */
import { z } from 'zod'
import {
  PIX_KEY_REASONS,
  PIX_KEY_TYPES,
  parsePixKey,
  pixKeyMessages,
  type LocalizedText,
  type PixKeyReason,
  type PixKeyType,
} from './pix-key'
import { normalizeTaxId, taxIdKind } from './tax-id'
import { beneficiaryFieldMessages, commonFieldMessages, EUID_MAX_LENGTH } from './field-messages'

export const PAYEE_NAME_MAX = 120
export const PAYEE_NOTES_MAX = 500
/** The same bound as a payment's EUID: a payee's EUID is sent as one. */
export const PAYEE_EUID_MAX = EUID_MAX_LENGTH
/** Keys per payee: a supplier has a handful; a bound keeps a hostile import row small. */
export const PAYEE_KEYS_MAX = 10

type PixKeyMessageCode = `pix_key_${PixKeyReason}`

const OWN_MESSAGES = {
  ...commonFieldMessages,
  ...beneficiaryFieldMessages,
  payee_name_required: { 'pt-BR': 'Informe o nome do favorecido.', en: "Enter the payee's name." },
  payee_name_too_long: {
    'pt-BR': `O nome pode ter no máximo ${PAYEE_NAME_MAX} caracteres.`,
    en: `The name can be at most ${PAYEE_NAME_MAX} characters long.`,
  },
  payee_text_characters: {
    'pt-BR': 'Use apenas texto comum: sem quebras de linha nem caracteres de controle.',
    en: 'Use plain text only: no line breaks or control characters.',
  },
  payee_tax_number_required: {
    'pt-BR': 'Informe o CPF/CNPJ do favorecido.',
    en: "Enter the payee's CPF/CNPJ.",
  },
  payee_keys_required: {
    'pt-BR': 'Informe ao menos uma chave Pix.',
    en: 'Enter at least one Pix key.',
  },
  payee_keys_too_many: {
    'pt-BR': `Um favorecido pode ter no máximo ${PAYEE_KEYS_MAX} chaves Pix.`,
    en: `A payee can have at most ${PAYEE_KEYS_MAX} Pix keys.`,
  },
  payee_key_repeated: {
    'pt-BR': 'Esta chave Pix já está na lista.',
    en: 'This Pix key is already in the list.',
  },
  payee_tax_number_taken: {
    'pt-BR': 'Já existe um favorecido com este CPF/CNPJ no cadastro.',
    en: 'A payee with this CPF/CNPJ is already in the book.',
  },
  payee_key_taken: {
    'pt-BR': 'Esta chave Pix já pertence a outro favorecido do cadastro.',
    en: 'This Pix key already belongs to another payee in the book.',
  },
  payee_not_found: {
    'pt-BR': 'Favorecido não encontrado no cadastro (pode ter sido excluído).',
    en: 'Payee not found in the book (it may have been removed).',
  },
  payee_changed: {
    'pt-BR':
      'Outro analista alterou este favorecido depois que você o abriu. Nada foi gravado: feche, abra de novo para ver a versão atual e refaça sua alteração.',
    en: 'Another analyst changed this payee after you opened it. Nothing was saved: close it, open it again to see the current version and redo your change.',
  },
  payee_repeated_in_file: {
    'pt-BR': 'CPF/CNPJ repetido: já aparece em uma linha anterior do arquivo.',
    en: 'Repeated CPF/CNPJ: it already appears on an earlier line of the file.',
  },
  payee_notes_too_long: {
    'pt-BR': `As observações podem ter no máximo ${PAYEE_NOTES_MAX} caracteres.`,
    en: `Notes can be at most ${PAYEE_NOTES_MAX} characters long.`,
  },
} as const satisfies Record<string, LocalizedText>

export type PayeeMessageCode = keyof typeof OWN_MESSAGES | PixKeyMessageCode

export const payeeMessages: Readonly<Record<PayeeMessageCode, LocalizedText>> = {
  ...OWN_MESSAGES,
  ...(Object.fromEntries(PIX_KEY_REASONS.map((r) => [`pix_key_${r}`, pixKeyMessages[r]])) as Record<
    PixKeyMessageCode,
    LocalizedText
  >),
}

export function isPayeeMessageCode(code: string): code is PayeeMessageCode {
  return Object.hasOwn(payeeMessages, code)
}

// C0, DEL, C1, line/paragraph separators and bidi controls: the values reach CSV, HTML and search.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

const objectError = (iss: { code: string }): PayeeMessageCode =>
  iss.code === 'unrecognized_keys' ? 'unknown_field' : 'invalid_value'

/** Null when `s` is an acceptable payee document: a CPF or CNPJ whose check digits hold. */
export function payeeTaxNumberProblem(s: string): PayeeMessageCode | null {
  if (s.trim() === '') return 'payee_tax_number_required'
  const n = normalizeTaxId(s)
  if (n === null) return 'tax_number_format'
  return taxIdKind(n) === null ? 'tax_number_check_digits' : null
}

const nameSchema = z.string({ error: 'payee_name_required' }).superRefine((s, ctx) => {
  const t = s.trim()
  if (t === '') ctx.addIssue({ code: 'custom', message: 'payee_name_required' })
  else if (t.length > PAYEE_NAME_MAX) ctx.addIssue({ code: 'custom', message: 'payee_name_too_long' })
  else if (FORBIDDEN.test(t)) ctx.addIssue({ code: 'custom', message: 'payee_text_characters' })
})

const keyInputSchema = z.strictObject(
  {
    key: z.string({ error: 'pix_key_empty' }),
    /** Absent or '': detected from the key, as in the payment form. */
    type: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z.enum(PIX_KEY_TYPES, { error: 'pix_key_type_invalid' }).optional(),
    ),
  },
  { error: objectError },
)

/** What the form, IPC and the CSV import give: loose forms (masks, spaces) accepted, canonicalised on save. */
export const payeeInputSchema = z
  .strictObject(
    {
      name: nameSchema,
      taxNumber: z.string({ error: 'payee_tax_number_required' }).superRefine((s, ctx) => {
        const problem = payeeTaxNumberProblem(s)
        if (problem) ctx.addIssue({ code: 'custom', message: problem })
      }),
      pixKeys: z.array(keyInputSchema, { error: 'payee_keys_required' }),
      euid: z
        .string({ error: 'invalid_value' })
        .superRefine((s, ctx) => {
          const t = s.trim()
          if (t.length > PAYEE_EUID_MAX) ctx.addIssue({ code: 'custom', message: 'euid_too_long' })
          else if (t !== '' && !/^[\x21-\x7e]+$/.test(t))
            ctx.addIssue({ code: 'custom', message: 'payee_text_characters' })
        })
        .optional(),
      notes: z
        .string({ error: 'invalid_value' })
        .superRefine((s, ctx) => {
          const t = s.trim()
          if (t.length > PAYEE_NOTES_MAX) ctx.addIssue({ code: 'custom', message: 'payee_notes_too_long' })
          else if (FORBIDDEN.test(t)) ctx.addIssue({ code: 'custom', message: 'payee_text_characters' })
        })
        .optional(),
    },
    { error: objectError },
  )
  .superRefine((v, ctx) => {
    // Keys are checked as a list so the form can point at the exact entry ("pixKeys.1.key").
    if (v.pixKeys.length === 0) {
      ctx.addIssue({ code: 'custom', path: ['pixKeys'], message: 'payee_keys_required' })
      return
    }
    if (v.pixKeys.length > PAYEE_KEYS_MAX) {
      ctx.addIssue({ code: 'custom', path: ['pixKeys'], message: 'payee_keys_too_many' })
      return
    }
    const seen = new Set<string>()
    v.pixKeys.forEach((k, i) => {
      const parsed = parsePixKey(k.key, k.type)
      if (!parsed.ok) {
        ctx.addIssue({ code: 'custom', path: ['pixKeys', i, 'key'], message: `pix_key_${parsed.reason}` })
      } else if (seen.has(parsed.key)) {
        ctx.addIssue({ code: 'custom', path: ['pixKeys', i, 'key'], message: 'payee_key_repeated' })
      } else seen.add(parsed.key)
    })
  })
export type PayeeInput = z.input<typeof payeeInputSchema>

export const payeeKeySchema = z.object({ key: z.string(), type: z.enum(PIX_KEY_TYPES) })
export type PayeeKey = z.infer<typeof payeeKeySchema>

/** A stored payee: canonical document and keys, trimmed texts, absent optional fields left out. */
export const payeeSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  /** Canonical CPF/CNPJ (digits; an alphanumeric CNPJ in upper case). */
  taxNumber: z.string(),
  pixKeys: z.array(payeeKeySchema),
  euid: z.string().optional(),
  notes: z.string().optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
})
export type Payee = z.infer<typeof payeeSchema>

/** The fields of a payee that its input sets, canonical. Throws the ZodError of `payeeInputSchema`. */
export function canonicalPayeeFields(
  input: unknown,
): Pick<Payee, 'name' | 'taxNumber' | 'pixKeys'> & Partial<Pick<Payee, 'euid' | 'notes'>> {
  const v = payeeInputSchema.parse(input)
  const taxNumber = normalizeTaxId(v.taxNumber)
  if (taxNumber === null) throw new Error('unreachable: tax number refused after validation')
  const pixKeys = v.pixKeys.map((k): PayeeKey => {
    const parsed = parsePixKey(k.key, k.type)
    if (!parsed.ok) throw new Error('unreachable: Pix key refused after validation')
    return { key: parsed.key, type: parsed.type }
  })
  const euid = v.euid?.trim()
  const notes = v.notes?.trim()
  return {
    name: v.name.trim().replace(/\s+/g, ' '),
    taxNumber,
    pixKeys,
    ...(euid ? { euid } : {}),
    ...(notes ? { notes } : {}),
  }
}

type IssueLike = { readonly path: ReadonlyArray<PropertyKey>; readonly message: string }

/** Field path ("name", "pixKeys.1.key") → stable code, the first issue of each path winning. */
export function payeeIssueCodes(error: {
  readonly issues: ReadonlyArray<IssueLike>
}): Record<string, string> {
  const out: Record<string, string> = {}
  for (const issue of error.issues) {
    const field = issue.path.map(String).join('.') || '_form'
    if (Object.hasOwn(out, field)) continue
    out[field] = isPayeeMessageCode(issue.message) ? issue.message : 'invalid_value'
  }
  return out
}

/** A code (ours, or one main sent) in words; an unknown code is shown as is rather than hidden. */
export function describePayeeCode(code: string, lang: 'pt-BR' | 'en'): string {
  return isPayeeMessageCode(code) ? payeeMessages[code][lang] : code
}

/** Is this (canonical) Pix key one of the payee's? */
export function payeeHasKey(p: Pick<Payee, 'pixKeys'>, key: string): boolean {
  return p.pixKeys.some((k) => k.key === key)
}

/** The type the book records for a key, for prefilling the form's type select. */
export function payeeKeyType(p: Pick<Payee, 'pixKeys'>, key: string): PixKeyType | undefined {
  return p.pixKeys.find((k) => k.key === key)?.type
}

/**
 * The expected payee a payment record keeps (withdrawal-record.ts `expectedPayee`): the book entry's id and, as
 * they were when the payment was created, its name and document. The name check compares the service's
 * `receiverName` / masked `receiverTaxNumber` with these.
 */
export const expectedPayeeSchema = z.object({
  id: z.string(),
  name: z.string(),
  taxNumber: z.string(),
})
export type ExpectedPayee = z.infer<typeof expectedPayeeSchema>
