/**
 * The payee book's rows against the audit chain (issue #14): every change of a payee is an entry whose
 * `state_hash` is the hash of the payee it produced (or of `{ removed: true }` when it was removed), like the
 * records' state hashes (state-hash.ts). `verifyChain` checks that each payee row matches its latest entry and that
 * a payee whose latest entry is not a removal still exists, so a payee edited, added or deleted outside the app is
 * found. Here, not in main/payees, because the ledger's verification must not import the module built on it.
 */
import type { SQLOutputValue } from 'node:sqlite'
import { payeeKeySchema, type Payee } from '../../../shared/payee'
import type { AuditVerification } from '../../../shared/withdrawal-record'
import { payeeStateHash } from '../model/payees'
import type { Db } from './db'

export { payeeStateHash }

export const PAYEE_SUBJECT_PREFIX = 'payee:'

type Row = Record<string, SQLOutputValue>
const str = (v: SQLOutputValue | undefined): string => (typeof v === 'string' ? v : String(v ?? ''))

/** The stored payee; keys that do not parse read as none (and then no longer match their entry). */
export function rowToPayee(r: Row): Payee {
  let pixKeys: Payee['pixKeys'] = []
  try {
    const parsed = payeeKeySchema.array().safeParse(JSON.parse(str(r.pix_keys)))
    if (parsed.success) pixKeys = parsed.data
  } catch {
    pixKeys = []
  }
  return {
    id: str(r.id),
    name: str(r.name),
    taxNumber: str(r.tax_number),
    pixKeys,
    ...(typeof r.euid === 'string' ? { euid: r.euid } : {}),
    ...(typeof r.notes === 'string' ? { notes: r.notes } : {}),
    createdAt: str(r.created_at),
    updatedAt: str(r.updated_at),
  }
}

const REMOVED = payeeStateHash(null)

type Broken = Extract<AuditVerification, { ok: false }>

function hasPayees(db: Pick<Db, 'stmt'>): boolean {
  return (
    db.stmt("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'payees'").get() !== undefined
  )
}

/** One payee (`id`) against its latest state entry; null when they agree. */
export function checkPayeeState(db: Pick<Db, 'stmt'>, id: string): Broken | null {
  if (!hasPayees(db)) return null
  const latest = db
    .stmt(
      'SELECT seq, state_hash FROM audit_log WHERE subject = ? AND state_hash IS NOT NULL ORDER BY seq DESC LIMIT 1',
    )
    .get(`${PAYEE_SUBJECT_PREFIX}${id}`)
  const row = db.stmt('SELECT * FROM payees WHERE id = ?').get(id)
  if (!latest) {
    return row ? { ok: false, brokenAt: 0, reason: `payee ${id} has no audit entry for its state` } : null
  }
  const expected = String(latest.state_hash)
  const actual = row ? payeeStateHash(rowToPayee(row)) : REMOVED
  if (actual === expected) return null
  return {
    ok: false,
    brokenAt: Number(latest.seq),
    reason: row
      ? `payee ${id} differs from the state its last audit entry (seq ${String(latest.seq)}) recorded`
      : `payee ${id} was deleted without an audit entry`,
  }
}

/** Every payee row and every payee subject of the chain (the book is small: no pauses needed). */
export function verifyPayeeStates(db: Pick<Db, 'stmt'>): Broken | null {
  if (!hasPayees(db)) return null
  const ids = new Set<string>()
  for (const r of db.stmt('SELECT id FROM payees').all()) ids.add(str(r.id))
  for (const r of db
    .stmt("SELECT DISTINCT subject FROM audit_log WHERE subject LIKE 'payee:%' AND state_hash IS NOT NULL")
    .all()) {
    ids.add(str(r.subject).slice(PAYEE_SUBJECT_PREFIX.length))
  }
  for (const id of [...ids].sort()) {
    const broken = checkPayeeState(db, id)
    if (broken) return broken
  }
  return null
}
