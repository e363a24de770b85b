/**
 * Hash-chained audit log. Row n carries hash_n = SHA-256 over the canonical form of
 * [seq, at, operator, action, subject, canonicalJson(details), prev_hash], and prev_hash = hash_{n-1}
 * (64 zeros for the first row). Editing a row breaks its hash; deleting a middle row leaves a gap in seq and a
 * prev_hash that points at nothing; deleting the tail is caught by `audit_head` (see migration 3). Someone who
 * rewrites every row and the head consistently is not detectable from inside the file: anchor the head
 * elsewhere (signed exports carry it) for that.
 *
 * Since migration 5 an entry that changed a record also carries `state_hash`, the hash of the record state it
 * produced (state-hash.ts), appended to the hashed array when present (older rows keep their hashes).
 * `verifyChain` recomputes every record's state hash and compares it with the record's latest entry: a record
 * row edited without a matching entry is detected.
 */
import type { SQLOutputValue } from 'node:sqlite'
import type { AuditEntry } from '../../../shared/withdrawal-record'
import { auditHash } from '../model/audit-hash'
import { canonicalJson } from '../model/canonical-json'
import type { Db } from './db'
import { LedgerError } from '../model/errors'
import { SYSTEM_OPERATOR } from '../model/transitions'

export interface AuditInput {
  operator: string
  action: string
  subject?: string | null
  details?: Record<string, unknown>
  /** Hash of the record state this entry produced; set by the record write path (record-write.ts) only. */
  stateHash?: string | null
}

export interface AuditHead {
  seq: number
  hash: string
}

/** Operator name for actions the app takes on its own (recovery after a crash, automatic flags). */
export { SYSTEM_OPERATOR }

type StmtDb = Pick<Db, 'stmt'>

export function readHead(db: StmtDb): AuditHead {
  const row = db.stmt('SELECT seq, hash FROM audit_head WHERE id = 1').get()
  if (!row) throw new Error('ledger: audit_head row is missing')
  return { seq: Number(row.seq), hash: String(row.hash) }
}

/** Appends one row. Must run inside the caller's transaction, next to the change it records. */
export function appendAuditRow(db: StmtDb, at: string, input: AuditInput): AuditEntry {
  if (!input.operator || !input.action)
    throw new LedgerError('invalid_input', 'audit entry needs operator and action')
  const details = input.details ?? {}
  const detailsText = canonicalJson(details)
  const head = readHead(db)
  const base = {
    seq: head.seq + 1,
    at,
    operator: input.operator,
    action: input.action,
    subject: input.subject ?? null,
    // Parsed back so the returned entry equals what a later read yields.
    details: JSON.parse(detailsText) as Record<string, unknown>,
    prevHash: head.hash,
    ...(input.stateHash ? { stateHash: input.stateHash } : {}),
  }
  const entry: AuditEntry = { ...base, hash: auditHash(base) }
  db.stmt(
    `INSERT INTO audit_log (seq, at, operator, action, subject, details, prev_hash, hash, state_hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.seq,
    entry.at,
    entry.operator,
    entry.action,
    entry.subject,
    detailsText,
    entry.prevHash,
    entry.hash,
    entry.stateHash ?? null,
  )
  db.stmt('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1').run(entry.seq, entry.hash)
  return entry
}

export function rowToEntry(row: Record<string, SQLOutputValue>): AuditEntry {
  const stateHash = typeof row.state_hash === 'string' ? row.state_hash : null
  return {
    seq: Number(row.seq),
    at: String(row.at),
    operator: String(row.operator),
    action: String(row.action),
    subject: typeof row.subject === 'string' ? row.subject : null,
    details: JSON.parse(String(row.details)) as Record<string, unknown>,
    prevHash: String(row.prev_hash),
    hash: String(row.hash),
    ...(stateHash ? { stateHash } : {}),
  }
}

export function readAudit(
  db: Db,
  o: { limit?: number; offset?: number; subject?: string } = {},
): { rows: AuditEntry[]; total: number } {
  const limit = Math.min(Math.max(Math.trunc(o.limit ?? 50), 1), 1000)
  const offset = Math.max(Math.trunc(o.offset ?? 0), 0)
  const where = o.subject === undefined ? '' : 'WHERE subject = ?'
  const params = o.subject === undefined ? [] : [o.subject]
  const total = Number(db.stmt(`SELECT count(*) AS n FROM audit_log ${where}`).get(...params)?.n ?? 0)
  const rows = db
    .stmt(`SELECT * FROM audit_log ${where} ORDER BY seq DESC LIMIT ? OFFSET ?`)
    .all(...params, limit, offset)
    .map(rowToEntry)
  return { rows, total }
}

export { auditHash }
