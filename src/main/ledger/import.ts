/**
 * Bulk load of complete records into a ledger file, outside the create flow. Two users:
 * - offline review (main/records/review.ts) loads the records of an export into a throwaway ledger, so the live
 *   list's query, filter and totals code serves the review unchanged;
 * - tests and benchmarks seed large ledgers without replaying the lifecycle.
 * It is not a way to edit the live ledger: records are inserted as given (validated, derived columns computed by
 * the same `insertRecordRow` as every write), never updated, with one audit row saying that an import happened.
 */
import { withdrawalRecordSchema, type WithdrawalRecord } from '../../shared/withdrawal-record'
import { appendAuditRow, SYSTEM_OPERATOR } from './audit'
import { openDb } from './db'
import { LedgerError } from './errors'
import { migrate } from './migrations'
import { insertRecordRow } from './rows'

export interface ImportOptions {
  /** Recorded in the audit row. */
  operator?: string
  /** Extra audit details (e.g. the manifest the records came from). */
  details?: Record<string, unknown>
  /** Epoch milliseconds, for the audit row. */
  now?: () => number
}

/**
 * Inserts every record in one transaction (all or nothing) and returns how many. The file is created and
 * migrated when new. A record that fails the schema or a constraint (duplicate localId or remoteId) aborts the
 * import with LedgerError('invalid_input') naming it. Must not run while another connection writes the file.
 */
export function importRecords(
  file: string,
  records: Iterable<WithdrawalRecord>,
  o: ImportOptions = {},
): number {
  const db = openDb(file)
  try {
    migrate(db.raw)
    return db.tx(() => {
      let n = 0
      for (const input of records) {
        const parsed = withdrawalRecordSchema.safeParse(input)
        if (!parsed.success) {
          throw new LedgerError('invalid_input', `import: record #${n + 1}: ${parsed.error.message}`)
        }
        try {
          insertRecordRow(db, parsed.data)
        } catch (e) {
          const msg = e instanceof Error ? e.message : String(e)
          throw new LedgerError('invalid_input', `import: record ${parsed.data.localId}: ${msg}`)
        }
        n += 1
      }
      appendAuditRow(db, new Date((o.now ?? Date.now)()).toISOString(), {
        operator: o.operator ?? SYSTEM_OPERATOR,
        action: 'records.imported',
        details: { ...o.details, count: n },
      })
      return n
    })
  } finally {
    db.close()
  }
}
