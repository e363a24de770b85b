/**
 * Opening the ledger file, refusing what must not be used as the ledger: a file that is missing, empty, another
 * ledger or behind the head recorded in the identity file (identity.ts), and a file SQLite finds damaged
 * (`PRAGMA quick_check`; a zeroed page is refused, never "repaired": what a repair drops is the record of a
 * payment). Takes a backup before any migration. A file larger than SYNC_QUICK_CHECK_MAX_BYTES is checked on a
 * worker instead (`Ledger.checkFile`, run by the app right after open): seconds of reading must not block open.
 */
import { statSync } from 'node:fs'
import { readHead } from './audit'
import { createBackup } from './backups'
import { openDb, type Db } from './db'
import { readIdentity, refusal, writeIdentity, type LedgerIdentity } from './identity'
import { LATEST_VERSION, migrate, schemaVersion } from './migrations'

/** SQLITE_CORRUPT, SQLITE_NOTADB (primary codes). */
const CORRUPT_CODES = new Set([11, 26])

function isCorruption(e: unknown): boolean {
  const code = (e as { errcode?: unknown }).errcode
  return typeof code === 'number' && CORRUPT_CODES.has(code & 0xff)
}

export interface OpenedLedger {
  db: Db
  version: number
  ledgerId: string
}

export function readLedgerId(db: Db): string {
  const row = db.stmt('SELECT ledger_id FROM ledger_meta WHERE id = 1').get()
  if (!row) throw new Error('ledger: ledger_meta row is missing')
  return String(row.ledger_id)
}

export function recordCount(db: Db): number {
  return Number(db.stmt('SELECT count(*) AS n FROM withdrawals').get()?.n ?? 0)
}

function quickCheck(db: Db, file: string): void {
  const rows = db.raw.prepare('PRAGMA quick_check').all()
  const problems = rows.map((r) => String(Object.values(r)[0])).filter((v) => v !== 'ok')
  if (problems.length > 0) throw refusal('ledger_corrupt', file, problems.slice(0, 3).join('; '))
}

function checkAgainstIdentity(db: Db, file: string, identity: LedgerIdentity, version: number): void {
  if (version < 5) throw refusal('ledger_replaced', file, 'the file carries no ledger identity')
  const ledgerId = readLedgerId(db)
  if (ledgerId !== identity.ledgerId) {
    throw refusal('ledger_replaced', file, `ledger id ${ledgerId} is not ${identity.ledgerId}`)
  }
  const head = readHead(db)
  if (head.seq < identity.head.seq || recordCount(db) < identity.records) {
    throw refusal(
      'ledger_behind',
      file,
      `audit head seq ${head.seq} (identity: ${identity.head.seq}), ${recordCount(db)} records (identity: ${identity.records})`,
    )
  }
  const at = db.stmt('SELECT hash FROM audit_log WHERE seq = ?').get(identity.head.seq)
  const hashAt = identity.head.seq === 0 ? identity.head.hash : at?.hash
  if (identity.head.seq > 0 && hashAt !== identity.head.hash) {
    throw refusal('ledger_replaced', file, `audit entry ${identity.head.seq} is not the one recorded`)
  }
}

export function isInMemory(file: string): boolean {
  return file === ':memory:' || file === ''
}

/** Files up to this size are quick_checked on open; larger ones on a worker right after (file-check.ts). */
export const SYNC_QUICK_CHECK_MAX_BYTES = 64 * 1024 * 1024

export function openChecked(
  file: string,
  onCommit: () => void,
  now: () => Date,
  syncQuickCheckMaxBytes: number = SYNC_QUICK_CHECK_MAX_BYTES,
): OpenedLedger & { quickChecked: boolean } {
  // An in-memory database (tests) has no file to guard: no identity, no backups.
  const inMemory = isInMemory(file)
  const identity = inMemory ? null : readIdentity(file)
  const st = inMemory ? undefined : statSync(file, { throwIfNoEntry: false })
  if (identity) {
    if (!st) throw refusal('ledger_missing', file, 'file not found')
    if (st.size === 0) throw refusal('ledger_empty', file, 'file is 0 bytes')
  }
  const quickChecked = (st?.size ?? 0) <= syncQuickCheckMaxBytes
  let db: Db
  try {
    db = openDb(file, { onCommit })
  } catch (e) {
    if (isCorruption(e)) throw refusal('ledger_corrupt', file, (e as Error).message, e)
    throw e
  }
  try {
    try {
      if (quickChecked) quickCheck(db, file)
    } catch (e) {
      if (isCorruption(e)) throw refusal('ledger_corrupt', file, (e as Error).message, e)
      throw e
    }
    const before = schemaVersion(db.raw)
    if (identity && before < 5) checkAgainstIdentity(db, file, identity, before)
    if (before > 0 && before < LATEST_VERSION) createBackup(db.raw, file, 'migration', now())
    // No ANALYZE / PRAGMA optimize: the listing indexes are shaped so that the planner's default heuristics
    // (most equality columns first) pick them; sampled statistics made plans worse and vary with the data.
    const version = migrate(db.raw)
    if (identity) checkAgainstIdentity(db, file, identity, version)
    const ledgerId = readLedgerId(db)
    if (!inMemory)
      writeIdentity(file, {
        ledgerId,
        head: readHead(db),
        records: recordCount(db),
        now: new Date().toISOString(),
      })
    return { db, version, ledgerId, quickChecked }
  } catch (e) {
    db.close()
    throw e
  }
}
