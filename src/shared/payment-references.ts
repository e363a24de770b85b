/**
 * What a payment was for: invoice (NF), cost centre, category and a free note. Shared by the single-payment
 * form, payment runs and the ledger, so one schema and one set of messages decide what is acceptable.
 * Every field is optional; an empty or blank string means absent. Control characters are refused because the
 * values reach CSV, HTML and terminal output.
 */
import { z } from 'zod'
import type { LocalizedText } from './pix-key'

export const REFERENCE_FIELDS = ['invoice', 'costCentre', 'category', 'note'] as const
export type ReferenceField = (typeof REFERENCE_FIELDS)[number]

export const REFERENCE_MAX_LENGTH: Readonly<Record<ReferenceField, number>> = {
  invoice: 60,
  costCentre: 60,
  category: 60,
  note: 500,
}

export type PaymentReferences = Partial<Record<ReferenceField, string>>

export const referenceMessages = {
  reference_too_long: {
    'pt-BR': 'Texto longo demais para este campo.',
    en: 'Text is too long for this field.',
  },
  reference_characters: {
    'pt-BR': 'Use apenas texto comum: sem quebras de linha nem caracteres de controle.',
    en: 'Use plain text only: no line breaks or control characters.',
  },
  reference_invalid: { 'pt-BR': 'Valor inválido.', en: 'Invalid value.' },
} as const satisfies Record<string, LocalizedText>

export type ReferenceMessageCode = keyof typeof referenceMessages

// C0, DEL, C1, and the Unicode line/paragraph separators and bidi controls that can disguise text.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/

function referenceText(field: ReferenceField) {
  return z.string({ error: 'reference_invalid' }).superRefine((s, ctx) => {
    const t = s.trim()
    if (t.length > REFERENCE_MAX_LENGTH[field])
      ctx.addIssue({ code: 'custom', message: 'reference_too_long' })
    else if (FORBIDDEN.test(t)) ctx.addIssue({ code: 'custom', message: 'reference_characters' })
  })
}

export const paymentReferencesSchema = z.strictObject(
  {
    invoice: referenceText('invoice').optional(),
    costCentre: referenceText('costCentre').optional(),
    category: referenceText('category').optional(),
    note: referenceText('note').optional(),
  },
  { error: () => 'reference_invalid' },
)

/** Trimmed, blank fields dropped; `{}` when nothing is left. Input must already satisfy the schema. */
export function normalizeReferences(refs: PaymentReferences | undefined): PaymentReferences {
  const out: PaymentReferences = {}
  if (!refs) return out
  for (const f of REFERENCE_FIELDS) {
    const v = refs[f]?.trim()
    if (v) out[f] = v
  }
  return out
}
