/**
 * The team ledger's audit chain: appended only through `append_audit` (schema.ts), read and verified here with
 * the SQLite ledger's own hash rule (audit-hash.ts), so a chain written by the database is checked by the same
 * code that checks a desk's file.
 */
import type { AuditEntry, AuditVerification } from '../../../shared/withdrawal-record'
import { auditHash } from '../model/audit-hash'
import { canonicalJson } from '../model/canonical-json'
import { GENESIS_HASH } from '../model/genesis'
import { recordStateHash } from '../model/state-hash'
import type { AuditHead } from '../sqlite'
import { verifyDepositStates } from './deposit-verify'
import type { Queryable } from './queryable'
import { RECORD_SELECT, rowToRecord } from './rows'

export type { Queryable }

export function rowToEntry(row: Record<string, unknown>): AuditEntry {
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

/** An entry's details as stored: canonical JSON, the desk's operator kept as `appOperator` when not the role. */
export function auditDetails(
  identity: string,
  e: { operator: string; details?: Record<string, unknown> },
): string {
  const details = { ...(e.details ?? {}) }
  if (e.operator && e.operator !== identity) details.appOperator = e.operator
  return canonicalJson(details)
}

/**
 * Appends one entry in the caller's transaction. The operator the desk names is kept as `appOperator` when it is
 * not the database role (the entry's operator is always the role, set by the database).
 */
export async function appendAudit(
  c: Queryable,
  identity: string,
  e: {
    operator: string
    action: string
    subject?: string | null
    details?: Record<string, unknown>
    stateHash?: string | null
  },
): Promise<AuditEntry> {
  const r = await c.query('SELECT * FROM append_audit($1, $2, $3, $4)', [
    e.action,
    e.subject ?? null,
    auditDetails(identity, e),
    e.stateHash ?? null,
  ])
  const row = r.rows[0]
  if (!row) throw new Error('ledger: append_audit returned nothing')
  return rowToEntry(row)
}

export async function readHead(c: Queryable): Promise<AuditHead> {
  const r = await c.query('SELECT seq, hash FROM audit_head WHERE id = 1')
  const row = r.rows[0]
  if (!row) throw new Error('ledger: audit_head row is missing')
  return { seq: Number(row.seq), hash: String(row.hash) }
}

export async function readAudit(
  c: Queryable,
  o: { limit?: number; offset?: number; subject?: string } = {},
): Promise<{ rows: AuditEntry[]; total: number }> {
  const limit = Math.min(Math.max(Math.trunc(o.limit ?? 50), 1), 1000)
  const offset = Math.max(Math.trunc(o.offset ?? 0), 0)
  const where = o.subject === undefined ? '' : 'WHERE subject = $1'
  const params = o.subject === undefined ? [] : [o.subject]
  const total = await c.query(`SELECT count(*) AS n FROM audit_log ${where}`, params)
  const rows = await c.query(
    `SELECT * FROM audit_log ${where} ORDER BY seq DESC LIMIT ${limit} OFFSET ${offset}`,
    params,
  )
  return { rows: rows.rows.map(rowToEntry), total: Number(total.rows[0]?.n ?? 0) }
}

/** The last state hash the trail recorded for a record (what its row must still hash to). */
export async function lastStateHash(
  c: Queryable,
  localId: string,
): Promise<{ seq: number; hash: string } | null> {
  const r = await c.query(
    `SELECT seq, state_hash FROM audit_log WHERE subject = $1 AND state_hash IS NOT NULL ORDER BY seq DESC LIMIT 1`,
    [localId],
  )
  const row = r.rows[0]
  return row ? { seq: Number(row.seq), hash: String(row.state_hash) } : null
}

const BATCH = 5000

/**
 * Walks the chain in seq order in batches (keyset, constant memory), then every record against its latest
 * entry's state hash. Run it in a REPEATABLE READ transaction so the walk sees one moment of a live ledger.
 */
export async function verifyChain(c: Queryable): Promise<AuditVerification> {
  let expectedSeq = 1
  let prevHash = GENESIS_HASH
  for (;;) {
    const batch = await c.query(`SELECT * FROM audit_log WHERE seq >= $1 ORDER BY seq LIMIT ${BATCH}`, [
      expectedSeq,
    ])
    for (const row of batch.rows) {
      const seq = Number(row.seq)
      if (seq !== expectedSeq) return { ok: false, brokenAt: seq, reason: `seq ${expectedSeq} missing` }
      let entry: AuditEntry
      try {
        entry = rowToEntry(row)
        // Stored details must be canonical: the hash was computed over the text as stored.
        if (canonicalJson(entry.details) !== String(row.details)) {
          return { ok: false, brokenAt: seq, reason: 'details are not in canonical form' }
        }
      } catch {
        return { ok: false, brokenAt: seq, reason: 'details are not valid JSON' }
      }
      if (entry.prevHash !== prevHash)
        return { ok: false, brokenAt: seq, reason: 'prev_hash does not match the previous row' }
      if (auditHash(entry) !== entry.hash)
        return { ok: false, brokenAt: seq, reason: 'hash does not match the row contents' }
      prevHash = entry.hash
      expectedSeq += 1
    }
    if (batch.rows.length < BATCH) break
  }
  const rows = expectedSeq - 1
  const head = await readHead(c)
  if (head.seq !== rows || head.hash !== prevHash) {
    return {
      ok: false,
      brokenAt: Math.min(head.seq, rows + 1),
      reason: 'audit head does not match the last row',
    }
  }
  let lastId = 0
  for (;;) {
    const recs = await c.query(
      `SELECT w.id, ${RECORD_SELECT},
         (SELECT a.state_hash FROM audit_log a WHERE a.subject = w.local_id AND a.state_hash IS NOT NULL
           ORDER BY a.seq DESC LIMIT 1) AS last_state
       FROM withdrawals w WHERE w.id > $1 ORDER BY w.id LIMIT ${BATCH}`,
      [lastId],
    )
    for (const row of recs.rows) {
      lastId = Number(row.id)
      if (row.last_state !== recordStateHash(rowToRecord(row))) {
        return {
          ok: false,
          brokenAt: rows,
          reason: `record ${String(row.local_id)} differs from its latest audit entry`,
        }
      }
    }
    if (recs.rows.length < BATCH) break
  }
  return (await verifyDepositStates(c, rows)) ?? { ok: true, rows }
}
