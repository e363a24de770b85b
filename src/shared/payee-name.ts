/**
 * The payee's name as an analyst reads it (issue #26, names first): the payee-book entry the payment was made to,
 * else the name on the spreadsheet row of the run it came from (`runPayee`: a name typed that matched no book
 * entry; read beside the record, shared/run-link.ts), else the name the service reported in its last status, else
 * the name stored when it was first reported. Screens and the CSV for people both use it.
 */
import type { WithdrawalRecord } from './withdrawal-record'

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null
}

export function payeeNameOf(
  record: Pick<WithdrawalRecord, 'expectedPayee' | 'lastRemote' | 'receiverName'>,
  runPayee: string | null = null,
): string | null {
  return (
    str(record.expectedPayee?.name) ??
    str(runPayee) ??
    str(record.lastRemote?.['receiverName']) ??
    str(record.receiverName)
  )
}
