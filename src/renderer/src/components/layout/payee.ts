/**
 * Who is paid and how much, as the analyst reads it (issue #26, names first): the payee's name — the book entry the
 * payment was made to, else the spreadsheet's name for a run's payment, else the name the service reported — with the CPF/CNPJ masked, the Pix key second; the
 * payout in cents when known, else the amount the request asked for.
 */
import { payeeNameOf } from '../../../../shared/payee-name'
import { maskTaxId } from '../../../../shared/tax-id'
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null
}

export interface Payee {
  name: string | null
  pixKey: string
  /** Masked CPF/CNPJ as the request carried it. */
  taxNumber: string | null
}

export function payeeOfRequest(request: Record<string, unknown>, name: string | null = null): Payee {
  const tax = str(request['taxNumber'])
  return { name, pixKey: str(request['pixKey']) ?? '', taxNumber: tax === null ? null : maskTaxId(tax) }
}

/** `runPayee`: the name on the spreadsheet row of the run the payment came from (shared/run-link.ts), if any. */
export function payeeOf(record: WithdrawalRecord, runPayee: string | null = null): Payee {
  const book = record.expectedPayee ?? null
  const p = payeeOfRequest(record.request, payeeNameOf(record, runPayee))
  const taxNumber = p.taxNumber ?? (book ? maskTaxId(book.taxNumber) : null)
  return { ...p, taxNumber, pixKey: p.pixKey === '' ? record.pixKey : p.pixKey }
}

/** One line: the name, else "key (CPF)", else the key (lists put the key and CPF/CNPJ on a second line). */
export function payeeText(p: Payee): string {
  if (p.name) return p.name
  return p.taxNumber ? `${p.pixKey} (${p.taxNumber})` : p.pixKey
}

/** What the payee receives by Pix: the reported payout, else the request's payout amount; null when unknown. */
export function payoutCentsOf(record: WithdrawalRecord): number | null {
  if (record.payoutAmountCents !== null) return record.payoutAmountCents
  return record.amountKind === 'payout' ? record.amountCents : null
}

/** DePix the payer sends (whole cents of DePix): the deposit amount, else the request's deposit amount. */
export function depositCentsOf(record: WithdrawalRecord): number | null {
  if (record.depositAmountCents !== null) return record.depositAmountCents
  return record.amountKind === 'deposit' ? record.amountCents : null
}

/** Fee = DePix in minus BRL out, when both are known and it is not negative. */
export function feeCentsOf(record: WithdrawalRecord): number | null {
  const d = depositCentsOf(record)
  const p = payoutCentsOf(record)
  return d !== null && p !== null && d >= p ? d - p : null
}
