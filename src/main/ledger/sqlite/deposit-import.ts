/**
 * Bulk load of complete deposit records into a ledger file: the offline review of a deposit export (records/review.ts)
 * loads them into a throwaway ledger, as importRecords does for withdrawals, so the review lists them with the live
 * list's own queries and totals. Through the one write path (each gets a `deposit.imported` entry with its state
 * hash), all or nothing; never a way to edit the live ledger.
 */
import { depositRecordSchema, type DepositRecord } from '../../../shared/deposit-record'
import { appendAuditRow, SYSTEM_OPERATOR } from './audit'
import { openDb } from './db'
import { DEPOSIT_TABLE } from './deposit-rows'
import { LedgerError } from '../model/errors'
import type { ImportOptions } from './import'
import { migrate } from './migrations'
import { writeKindRecord } from './record-write'

export function importDepositRecords(
  file: string,
  records: Iterable<DepositRecord>,
  o: ImportOptions = {},
): number {
  const db = openDb(file)
  try {
    migrate(db.raw)
    return db.tx(() => {
      let n = 0
      const at = new Date((o.now ?? Date.now)()).toISOString()
      const operator = o.operator ?? SYSTEM_OPERATOR
      for (const input of records) {
        const parsed = depositRecordSchema.safeParse(input)
        if (!parsed.success) {
          throw new LedgerError('invalid_input', `import: deposit #${n + 1}: ${parsed.error.message}`)
        }
        try {
          writeKindRecord(db, DEPOSIT_TABLE, at, null, parsed.data, { operator, action: 'deposit.imported' })
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e)
          throw new LedgerError('invalid_input', `import: deposit ${parsed.data.localId}: ${msg}`)
        }
        n += 1
      }
      appendAuditRow(db, at, {
        operator,
        action: 'records.imported',
        details: { ...o.details, kind: 'deposit', count: n },
      })
      return n
    })
  } finally {
    db.close()
  }
}
