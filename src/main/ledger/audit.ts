/**
 * Hash-chained audit log. Row n carries hash_n = SHA-256 over the canonical form of
 * [seq, at, operator, action, subject, canonicalJson(details), prev_hash], and prev_hash = hash_{n-1}
 * (64 zeros for the first row). Editing a row breaks its hash; deleting a middle row leaves a gap in seq and a
 * prev_hash that points at nothing; deleting the tail is caught by `audit_head` (see migration 3). Someone who
 * rewrites every row and the head consistently is not detectable from inside the file: anchor the head
 * elsewhere (signed exports carry it) for that.
 */
import { createHash } from 'node:crypto'
import type { SQLOutputValue } from 'node:sqlite'
import type { AuditEntry, AuditVerification } from '../../shared/withdrawal-record'
import { canonicalJson } from './canonical-json'
import type { Db } from './db'
import { LedgerError } from './errors'
import { GENESIS_HASH } from './migrations'

export interface AuditInput {
  operator: string
  action: string
  subject?: string | null
  details?: Record<string, unknown>
}

export interface AuditHead {
  seq: number
  hash: string
}

/** Operator name for actions the app takes on its own (recovery after a crash, automatic flags). */
export const SYSTEM_OPERATOR = 'system'

export function auditHash(e: Omit<AuditEntry, 'hash'>): string {
  const canonical = JSON.stringify([
    e.seq,
    e.at,
    e.operator,
    e.action,
    e.subject,
    canonicalJson(e.details),
    e.prevHash,
  ])
  return createHash('sha256').update(canonical, 'utf8').digest('hex')
}

export function readHead(db: Db): AuditHead {
  const row = db.stmt('SELECT seq, hash FROM audit_head WHERE id = 1').get()
  if (!row) throw new Error('ledger: audit_head row is missing')
  return { seq: Number(row.seq), hash: String(row.hash) }
}

/** Appends one row. Must run inside the caller's transaction, next to the change it records. */
export function appendAuditRow(db: Db, at: string, input: AuditInput): AuditEntry {
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
  }
  const entry: AuditEntry = { ...base, hash: auditHash(base) }
  db.stmt(
    `INSERT INTO audit_log (seq, at, operator, action, subject, details, prev_hash, hash)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(
    entry.seq,
    entry.at,
    entry.operator,
    entry.action,
    entry.subject,
    detailsText,
    entry.prevHash,
    entry.hash,
  )
  db.stmt('UPDATE audit_head SET seq = ?, hash = ? WHERE id = 1').run(entry.seq, entry.hash)
  return entry
}

function rowToEntry(row: Record<string, SQLOutputValue>): AuditEntry {
  return {
    seq: Number(row.seq),
    at: String(row.at),
    operator: String(row.operator),
    action: String(row.action),
    subject: typeof row.subject === 'string' ? row.subject : null,
    details: JSON.parse(String(row.details)) as Record<string, unknown>,
    prevHash: String(row.prev_hash),
    hash: String(row.hash),
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

/**
 * Walks the whole chain in seq order (streamed, constant memory) and reports the first row that does not
 * check out: an edited row at its own seq, a deleted middle row at the seq right after the gap, a deleted
 * tail at the first missing seq (from the head).
 */
export function verifyChain(db: Db): AuditVerification {
  let expectedSeq = 1
  let prevHash = GENESIS_HASH
  let rows = 0
  for (const row of db.stmt('SELECT * FROM audit_log ORDER BY seq').iterate()) {
    const seq = Number(row.seq)
    if (seq !== expectedSeq) {
      return {
        ok: false,
        brokenAt: seq,
        reason: `seq ${expectedSeq}${seq > expectedSeq + 1 ? `..${seq - 1}` : ''} missing`,
      }
    }
    let entry: AuditEntry
    try {
      entry = rowToEntry(row)
    } catch {
      return { ok: false, brokenAt: seq, reason: 'details are not valid JSON' }
    }
    if (entry.prevHash !== prevHash)
      return { ok: false, brokenAt: seq, reason: 'prev_hash does not match the previous row' }
    if (auditHash(entry) !== entry.hash)
      return { ok: false, brokenAt: seq, reason: 'hash does not match the row contents' }
    prevHash = entry.hash
    expectedSeq += 1
    rows += 1
  }
  let head: AuditHead
  try {
    head = readHead(db)
  } catch {
    return { ok: false, brokenAt: expectedSeq, reason: 'audit head is missing' }
  }
  if (head.seq > rows) {
    return {
      ok: false,
      brokenAt: expectedSeq,
      reason: `rows after seq ${rows} missing (head records seq ${head.seq})`,
    }
  }
  if (head.seq < rows) {
    return { ok: false, brokenAt: head.seq + 1, reason: `rows after the recorded head (seq ${head.seq})` }
  }
  if (head.hash !== prevHash) {
    return { ok: false, brokenAt: Math.max(rows, 1), reason: 'audit head does not match the last row' }
  }
  return { ok: true, rows }
}
