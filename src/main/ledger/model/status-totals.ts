/**
 * One row of a "totals by status" query as a StatusTotal, for both engines and both record kinds. SQLite hands back
 * numbers, PostgreSQL's sum() and count() numeric strings; either way a sum is used only as a safe integer of cents.
 * No real ledger comes near 2^53 cents (each payment is at most R$ 6.000,00), so a sum beyond it, or below zero, is a
 * row written outside the app: refused as tampered rather than shown rounded.
 */
import type { StatusTotal } from '../../../shared/withdrawal-record'
import { LedgerError } from './errors'

function wholeNumber(v: unknown, what: string): number {
  const n =
    typeof v === 'number'
      ? v
      : typeof v === 'bigint' || (typeof v === 'string' && /^-?\d+$/.test(v))
        ? Number(v)
        : NaN
  if (Number.isSafeInteger(n) && n >= 0) return n
  throw new LedgerError('record_tampered', `the ${what} of a status group is not a safe integer`, {
    'pt-BR':
      'Os totais do livro-caixa não fecham: um valor foi alterado fora do aplicativo. Restaure um backup em Configurações ou procure o responsável antes de continuar.',
    en: 'The ledger’s totals do not add up: an amount was changed outside the app. Restore a backup in Settings or ask whoever is responsible before going on.',
  })
}

/**
 * Columns: `status`, `n`, `deposit`, and for withdrawals `has_refund` (1 on SQLite, true on PostgreSQL), `payout`
 * and `refund_fee`.
 */
export function statusTotalOf(r: Readonly<Record<string, unknown>>): StatusTotal {
  return {
    status: String(r.status),
    hasRefund: r.has_refund === true || r.has_refund === 1,
    count: wholeNumber(r.n, 'count'),
    depositCents: wholeNumber(r.deposit, 'deposit sum'),
    payoutCents: wholeNumber(r.payout ?? 0, 'payout sum'),
    refundFeeCents: wholeNumber(r.refund_fee ?? 0, 'refund fee sum'),
  }
}
