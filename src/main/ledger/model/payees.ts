/**
 * The payee book's rules both engines apply (the SQLite book in src/main/payees/service.ts, the team's in
 * pg/payees.ts): validation, the refusals and their codes, the audit subject and summary, the search text.
 */
import { createHash } from 'node:crypto'
import { canonicalPayeeFields, payeeInputSchema, payeeIssueCodes, type Payee } from '../../../shared/payee'
import { canonicalJson } from './canonical-json'
import { digitsVariant, foldText } from './search-text'

export type PayeeErrorCode =
  | 'invalid_payee'
  | 'payee_tax_number_taken'
  | 'payee_key_taken'
  | 'payee_not_found'
  /** Another desk changed the entry after this one read it (team book only): nothing was written. */
  | 'payee_changed'

export class PayeeError extends Error {
  override readonly name = 'PayeeError'
  constructor(
    readonly code: PayeeErrorCode,
    message: string,
    /** Field path ("name", "pixKeys.1.key") → stable code of shared/payee.ts. */
    readonly fields: Record<string, string> = {},
    readonly userMessage?: { 'pt-BR': string; en: string },
  ) {
    super(message)
  }
}

/** The audit subject of a payee: never a withdrawal's local id (those are UUIDs without a prefix). */
export const payeeSubject = (id: string): string => `payee:${id}`

export const PAYEE_PAGE_MAX = 200

export function validated(input: unknown): ReturnType<typeof canonicalPayeeFields> {
  const parsed = payeeInputSchema.safeParse(input)
  if (!parsed.success) {
    throw new PayeeError('invalid_payee', 'The payee is invalid.', payeeIssueCodes(parsed.error))
  }
  return canonicalPayeeFields(parsed.data)
}

/** What an audit entry says of a payee (both engines). */
export function summary(p: Payee): Record<string, unknown> {
  return {
    name: p.name,
    taxNumber: p.taxNumber,
    pixKeys: p.pixKeys.map((k) => `${k.type}:${k.key}`),
    ...(p.euid ? { euid: p.euid } : {}),
    ...(p.notes ? { notes: p.notes } : {}),
  }
}

/** Folded name, document and keys (and their digits), one per line so no match spans two of them. */
export function payeeSearchText(p: Pick<Payee, 'name' | 'taxNumber' | 'pixKeys' | 'euid'>): string {
  const parts: Array<string | null | undefined> = [p.name, p.taxNumber, p.euid]
  for (const k of p.pixKeys) parts.push(k.key, digitsVariant(k.key))
  return parts
    .filter((x): x is string => typeof x === 'string' && x !== '')
    .map(foldText)
    .join('\n')
}

/** The hash an audit entry carries of the payee state it produced (a removal: `{ removed: true }`). */
export function payeeStateHash(p: Payee | null): string {
  return createHash('sha256')
    .update(canonicalJson(p ?? { removed: true }), 'utf8')
    .digest('hex')
}
