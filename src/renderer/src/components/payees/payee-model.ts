/**
 * The payee editor's values and their translation to the shared payee input, and the words of a payee refusal.
 * Pure (no React), so what is sent and how a refusal is shown can be unit-tested.
 */
import type { IpcError } from '../../../../shared/contract'
import type { PixKeyType } from '../../../../shared/pix-key'
import {
  describePayeeCode,
  payeeInputSchema,
  payeeIssueCodes,
  type Payee,
  type PayeeInput,
} from '../../../../shared/payee'
import { maskTaxId } from '../../../../shared/tax-id'

export interface PayeeEditorValues {
  name: string
  taxNumber: string
  /** One row per key; '' type means "detect from the key", as in the payment form. */
  keys: Array<{ key: string; type: '' | PixKeyType }>
  euid: string
  notes: string
}

export const EMPTY_PAYEE: PayeeEditorValues = {
  name: '',
  taxNumber: '',
  keys: [{ key: '', type: '' }],
  euid: '',
  notes: '',
}

/** Every key row is sent, blank ones too: a refusal then points at the row the operator sees. */
export function toPayeeInput(v: PayeeEditorValues): PayeeInput {
  return {
    name: v.name,
    taxNumber: v.taxNumber,
    pixKeys: v.keys.map((k) => (k.type === '' ? { key: k.key } : { key: k.key, type: k.type })),
    ...(v.euid.trim() === '' ? {} : { euid: v.euid }),
    ...(v.notes.trim() === '' ? {} : { notes: v.notes }),
  }
}

export function fromPayee(p: Payee): PayeeEditorValues {
  return {
    name: p.name,
    taxNumber: maskTaxId(p.taxNumber),
    keys: p.pixKeys.map((k) => ({ key: k.key, type: k.type })),
    euid: p.euid ?? '',
    notes: p.notes ?? '',
  }
}

/** Field path ("name", "pixKeys.1.key") → code; empty when the shared schema accepts the values. */
export function payeeProblems(v: PayeeEditorValues): Record<string, string> {
  const r = payeeInputSchema.safeParse(toPayeeInput(v))
  return r.success ? {} : payeeIssueCodes(r.error)
}

/** main's field codes, with the channel's wrapper ("payee.") dropped. */
export function fieldsFromIpc(error: IpcError): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [path, code] of Object.entries(error.fields ?? {})) {
    const field = path.startsWith('payee.') ? path.slice('payee.'.length) : path
    out[field] ??= code
  }
  return out
}

/** The words for a field's code: the payee's own messages; an unknown code is shown as it is. */
export function problemText(code: string, lang: 'pt-BR' | 'en'): string {
  return describePayeeCode(code, lang)
}
