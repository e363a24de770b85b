/**
 * Bulk load of complete records into a ledger file, outside the create flow. Two users:
 * - offline review (main/records/review.ts) loads the records of an export into a throwaway ledger, so the live
 *   list's query, filter and totals code serves the review unchanged;
 * - tests and benchmarks seed large ledgers without replaying the lifecycle.
 * It is not a way to edit the live ledger: records are inserted as given (validated, derived columns computed by
 * the same write path as every record), never updated: each record gets a `withdrawal.imported` entry carrying
 * its state hash, and one more row says that an import happened.
 */
import { withdrawalRecordSchema, type WithdrawalRecord } from '../../../shared/withdrawal-record'
import { appendAuditRow, SYSTEM_OPERATOR } from './audit'
import { openDb, type Db } from './db'
import { LedgerError } from '../model/errors'
import { migrate } from './migrations'
import { writeRecord } from './record-write'
import { insertRecordRow } from './rows'

export interface ImportOptions {
  /** Recorded in the audit row. */
  operator?: string
  /** Extra audit details (e.g. the manifest the records came from). */
  details?: Record<string, unknown>
  /** Epoch milliseconds, for the audit row. */
  now?: () => number
  /**
   * The records were already parsed by withdrawalRecordSchema (or stricter) by the caller — the offline review's
   * verifier does — so they are not validated a second time.
   */
  validated?: boolean
  /**
   * A throwaway file (the offline review's): no write-ahead log and no fsync for the import, so its hundreds of
   * megabytes are written once instead of to the log and again to the file. The rollback journal stays (in
   * memory), so a failed import still leaves nothing; a crash can only lose a file nobody keeps.
   */
  scratch?: boolean
  /** localId → recordStateHash of that very record, when the caller computed it (the review's verifier). */
  stateHashes?: ReadonlyMap<string, string>
  /**
   * The offline review's ledger (issue #30): never written to or checked, only queried. The records get no entry
   * each (100k state hashes and entries nobody reads); the one `records.imported` entry says what was loaded.
   */
  oneEntry?: boolean
  /**
   * SQLite's page cache for the import, in KiB (default 128 MiB). The offline review asks for less: its process
   * also holds the verification of the export (issue #30: 1,000,000 records reviewed in 400 MB).
   */
  cacheKiB?: number
}

const FTS_INSERT_TRIGGER = 'withdrawals_fts_insert'
/** Records written between two pauses of `importSteps`. */
const STEP_RECORDS = 1000

/**
 * Into an empty table, the full-text index is built once at the end ('rebuild') instead of row by row through
 * its trigger: the trigram index is most of the cost of an insert (≈ 6× at 20k rows). The trigger is dropped
 * here and re-created from its own stored SQL by the returned function, inside the import's transaction, so a
 * failure rolls everything back and a later migration's version of the trigger is what comes back.
 */
function deferFts(db: Db): () => void {
  const empty = db.stmt('SELECT count(*) AS n FROM withdrawals').get()?.n === 0
  const trigger = db.raw
    .prepare("SELECT sql FROM sqlite_master WHERE type = 'trigger' AND name = ?")
    .get(FTS_INSERT_TRIGGER)?.sql
  if (!empty || typeof trigger !== 'string') return () => undefined
  db.raw.exec(`DROP TRIGGER ${FTS_INSERT_TRIGGER}`)
  return () => {
    db.raw.exec("INSERT INTO withdrawals_fts (withdrawals_fts) VALUES ('rebuild')")
    db.raw.exec(trigger)
  }
}

/**
 * Likewise the table's plain (non-unique) indexes: into an empty table, each is built once at the end from
 * sorted keys instead of row by row (10 indexes on 100k rows were most of the review's import). The unique
 * indexes (localId, remoteId) stay, so a duplicate is still refused at its own record. Dropped here and
 * re-created from their stored SQL by the returned function, inside the import's transaction, like the trigger.
 */
function deferIndexes(db: Db): () => void {
  if (db.stmt('SELECT count(*) AS n FROM withdrawals').get()?.n !== 0) return () => undefined
  const indexes = db.raw
    .prepare(
      `SELECT name, sql FROM sqlite_master
       WHERE type = 'index' AND tbl_name = 'withdrawals' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%'`,
    )
    .all()
    .map((r) => ({ name: String(r.name), sql: String(r.sql) }))
  for (const i of indexes) db.raw.exec(`DROP INDEX "${i.name.replace(/"/g, '""')}"`)
  return () => {
    for (const i of indexes) db.raw.exec(i.sql)
  }
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
  const steps = importSteps(file, records, o)
  for (;;) {
    const r = steps.next()
    if (r.done) return r.value
  }
}

/**
 * importRecords as a generator that pauses every STEP_RECORDS records (the offline review loads its ledger
 * between the app's other work). Stopped early (`return()`), it rolls back: the file stays empty.
 */
export function* importSteps(
  file: string,
  records: Iterable<WithdrawalRecord>,
  o: ImportOptions = {},
): Generator<void, number> {
  const db = openDb(file)
  let committed = false
  try {
    migrate(db.raw)
    if (o.scratch) {
      db.raw.exec('PRAGMA journal_mode = MEMORY')
      db.raw.exec('PRAGMA synchronous = OFF')
    }
    // This connection only lives for the import: a large cache keeps the index pages of 100k rows in memory.
    db.raw.exec(`PRAGMA cache_size = -${Math.max(1024, Math.trunc(o.cacheKiB ?? 131072))}`)
    db.raw.exec('BEGIN IMMEDIATE')
    const restoreIndexes = deferIndexes(db)
    const restoreFts = deferFts(db)
    let n = 0
    const at = new Date((o.now ?? Date.now)()).toISOString()
    const operator = o.operator ?? SYSTEM_OPERATOR
    for (const input of records) {
      const parsed = o.validated
        ? ({ success: true, data: input } as const)
        : withdrawalRecordSchema.safeParse(input)
      if (!parsed.success) {
        throw new LedgerError('invalid_input', `import: record #${n + 1}: ${parsed.error.message}`)
      }
      try {
        if (o.oneEntry) insertRecordRow(db, parsed.data)
        else {
          const known = o.stateHashes?.get(parsed.data.localId)
          writeRecord(db, at, null, parsed.data, { operator, action: 'withdrawal.imported' }, known)
        }
      } catch (e) {
        const msg = e instanceof Error ? e.message : String(e)
        throw new LedgerError('invalid_input', `import: record ${parsed.data.localId}: ${msg}`)
      }
      n += 1
      if (n % STEP_RECORDS === 0) yield
    }
    appendAuditRow(db, at, { operator, action: 'records.imported', details: { ...o.details, count: n } })
    restoreFts()
    restoreIndexes()
    db.raw.exec('COMMIT')
    committed = true
    return n
  } finally {
    try {
      if (!committed) db.raw.exec('ROLLBACK')
    } catch {
      // no transaction was open
    } finally {
      db.close()
    }
  }
}
