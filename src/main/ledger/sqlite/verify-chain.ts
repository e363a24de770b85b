/**
 * Verification of the audit chain and of every record against it. Written as a generator that pauses every
 * STEP_ROWS rows: `verifyChain` runs it to the end at once; a snapshot (snapshot.ts: the start-up check, exports)
 * runs it on its own read-only connection and lets the event loop breathe between steps.
 */
import type { SQLOutputValue } from 'node:sqlite'
import type { AuditEntry, AuditVerification } from '../../../shared/withdrawal-record'
import { auditHash, readHead, rowToEntry, type AuditHead } from './audit'
import { auditRows } from './audit-rows'
import { auditHashOfText } from '../model/audit-hash'
import type { Db } from './db'
import { GENESIS_HASH } from '../model/genesis'
import { DEPOSIT_SELECT, rowToDeposit } from './deposit-rows'
import { checkPayeeState, PAYEE_SUBJECT_PREFIX, verifyPayeeStates } from './payee-states'
import { arrayRowToRecord, RECORD_SELECT, rowToRecord } from './rows'
import { recordStateHash } from '../model/state-hash'

type ReadDb = Pick<Db, 'stmt' | 'fresh'>

const STEP_ROWS = 2000

type Broken = Extract<AuditVerification, { ok: false }>

/** Every record kind's table: each record must match the state hash of its latest entry. */
const KIND_TABLES: ReadonlyArray<{
  /** `SELECT … FROM table alias`: the alias is `a`, the last word. */
  from: string
  toRecord: (row: Parameters<typeof rowToRecord>[0]) => object
  /**
   * The same decoding of the row read as an array, where the kind has one: the start-up check reads every
   * record, and node:sqlite builds an array row about twice as fast as an object (queries.ts iterateRecords).
   * `localIdAt`: the local_id's position in the row, for the problem's text.
   */
  fromArray?: { toRecord: (a: readonly SQLOutputValue[]) => object; localIdAt: number }
}> = [
  {
    from: `SELECT ${RECORD_SELECT} FROM withdrawals w`,
    toRecord: rowToRecord,
    fromArray: { toRecord: arrayRowToRecord, localIdAt: RECORD_SELECT.split(', ').indexOf('w.local_id') },
  },
  { from: `SELECT ${DEPOSIT_SELECT} FROM deposits d`, toRecord: rowToDeposit },
]
const alias = (from: string): string => from.slice(from.lastIndexOf(' ') + 1)

/** One row of the walk: it must be the expected seq, parse, link to the previous hash and hash to itself. */
function checkLink(
  row: Parameters<typeof rowToEntry>[0],
  expectedSeq: number,
  prevHash: string,
): { ok: true; entry: { hash: string; subject: string | null } } | Broken {
  const seq = Number(row.seq)
  if (seq !== expectedSeq) {
    return {
      ok: false,
      brokenAt: seq,
      reason: `seq ${expectedSeq}${seq > expectedSeq + 1 ? `..${seq - 1}` : ''} missing`,
    }
  }
  const link = {
    hash: String(row.hash),
    subject: typeof row.subject === 'string' ? row.subject : null,
  }
  if (String(row.prev_hash) !== prevHash)
    return { ok: false, brokenAt: seq, reason: 'prev_hash does not match the previous row' }
  // The app stores details as their canonical text (appendAuditRow), so the hash is checked over the stored
  // text as it is: no JSON.parse and re-canonicalisation per row, which was most of the walk. Only a row whose
  // text is not what the hash covers takes the full path, which accepts exactly what it always did.
  const stateHash = typeof row.state_hash === 'string' && row.state_hash !== '' ? row.state_hash : undefined
  const fields = {
    seq,
    at: String(row.at),
    operator: String(row.operator),
    action: String(row.action),
    subject: link.subject,
    prevHash,
    ...(stateHash ? { stateHash } : {}),
  }
  if (auditHashOfText(fields, String(row.details)) === link.hash) return { ok: true, entry: link }
  let entry: AuditEntry
  try {
    entry = rowToEntry(row)
  } catch {
    return { ok: false, brokenAt: seq, reason: 'details are not valid JSON' }
  }
  if (auditHash(entry) !== entry.hash)
    return { ok: false, brokenAt: seq, reason: 'hash does not match the row contents' }
  return { ok: true, entry: link }
}

export function verifyChain(db: ReadDb): AuditVerification {
  const steps = verifyChainSteps(db)
  for (;;) {
    const r = steps.next()
    if (r.done) return r.value
  }
}

/**
 * Walks the whole chain in seq order (streamed, constant memory), or from a checkpoint the chain proves, and
 * reports the first row that does not check out; then hashes every record against its latest entry: an edited row at its own seq, a deleted middle row at the seq right after the gap, a deleted
 * tail at the first missing seq (from the head).
 */
export function* verifyChainSteps(db: ReadDb, from?: AuditHead | null): Generator<void, AuditVerification> {
  // A checkpoint (checkpoint.ts) is used only while the chain proves it: its entry still has its hash, and the
  // walk from there must link to it. Anything else walks from the genesis, as without one.
  const proven =
    from &&
    from.seq > 0 &&
    db.stmt('SELECT hash FROM audit_log WHERE seq = ?').get(from.seq)?.hash === from.hash
  let n = 0
  let expectedSeq = proven ? from.seq + 1 : 1
  let prevHash = proven ? from.hash : GENESIS_HASH
  let rows = expectedSeq - 1
  const walk = proven ? auditRows(db, 'WHERE seq > ? ORDER BY seq', from.seq) : auditRows(db, 'ORDER BY seq')
  for (const row of walk) {
    if (++n % STEP_ROWS === 0) yield
    const checked = checkLink(row, expectedSeq, prevHash)
    if (!checked.ok) return checked
    prevHash = checked.entry.hash
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
  const records = yield* verifyRecordStates(db)
  return records ?? verifyPayeeStates(db) ?? { ok: true, rows }
}

/**
 * The same verdict as verifyChainSteps for a ledger that an earlier full verification vouched for up to `since`
 * and that no other connection has written to since (the caller knows that from SQLite's data_version): only
 * the entries after `since` are walked, and only the records they are about are hashed. The entry at `since`
 * must still be the one that head names.
 */
export function* verifyChainSinceSteps(db: ReadDb, since: AuditHead): Generator<void, AuditVerification> {
  if (since.seq > 0) {
    const at = db.stmt('SELECT hash FROM audit_log WHERE seq = ?').get(since.seq)
    if (!at || at.hash !== since.hash) {
      return { ok: false, brokenAt: since.seq, reason: 'an entry already verified has changed' }
    }
  }
  let expectedSeq = since.seq + 1
  let prevHash = since.hash
  const subjects = new Set<string>()
  let n = 0
  for (const row of auditRows(db, 'WHERE seq > ? ORDER BY seq', since.seq)) {
    if (++n % STEP_ROWS === 0) yield
    const checked = checkLink(row, expectedSeq, prevHash)
    if (!checked.ok) return checked
    if (checked.entry.subject !== null) subjects.add(checked.entry.subject)
    prevHash = checked.entry.hash
    expectedSeq += 1
  }
  const rows = expectedSeq - 1
  let head: AuditHead
  try {
    head = readHead(db)
  } catch {
    return { ok: false, brokenAt: expectedSeq, reason: 'audit head is missing' }
  }
  if (head.seq !== rows || head.hash !== prevHash) {
    return {
      ok: false,
      brokenAt: Math.min(head.seq, rows) + 1,
      reason: 'audit head does not match the last row',
    }
  }
  for (const subject of subjects) {
    if (subject.startsWith(PAYEE_SUBJECT_PREFIX)) {
      const broken = checkPayeeState(db, subject.slice(PAYEE_SUBJECT_PREFIX.length))
      if (broken) return broken
      continue
    }
    let row
    let kind
    for (const k of KIND_TABLES) {
      row = db.stmt(`${k.from} WHERE ${alias(k.from)}.local_id = ?`).get(subject)
      kind = k
      if (row) break
    }
    if (!row || !kind) continue
    const latest = db
      .stmt(
        'SELECT seq, state_hash FROM audit_log WHERE subject = ? AND state_hash IS NOT NULL ORDER BY seq DESC LIMIT 1',
      )
      .get(subject)
    let record
    try {
      record = kind.toRecord(row)
    } catch {
      return { ok: false, brokenAt: 0, reason: `record ${subject}: a JSON column is not valid JSON` }
    }
    if (!latest)
      return { ok: false, brokenAt: 0, reason: `record ${subject} has no audit entry for its state` }
    if (recordStateHash(record) !== latest.state_hash) {
      return {
        ok: false,
        brokenAt: Number(latest.seq),
        reason: `record ${subject} differs from the state its last audit entry (seq ${String(latest.seq)}) recorded`,
      }
    }
  }
  return { ok: true, rows }
}

/**
 * Every record's current state must hash to the state hash of its latest entry that carries one. Each record
 * row comes with that entry's seq and hash (one lookup in `audit_state_by_subject`), so nothing grows with the
 * ledger: a 1,000,000-record check holds one row at a time.
 */
function* verifyRecordStates(db: ReadDb): Generator<void, AuditVerification | null> {
  let n = 0
  for (const kind of KIND_TABLES) {
    const a = alias(kind.from)
    const stmt = db.fresh(
      `${kind.from.replace(' FROM ', ', latest.seq, latest.state_hash FROM ')}
       LEFT JOIN audit_log latest ON latest.seq = (SELECT max(seq) FROM audit_log
         WHERE subject = ${a}.local_id AND state_hash IS NOT NULL)
       ORDER BY ${a}.id`,
    )
    // Array rows where the kind decodes them and this node:sqlite has them (Node ≥ 22.16); objects otherwise.
    const arrays = kind.fromArray && typeof stmt.setReturnArrays === 'function' ? kind.fromArray : null
    if (arrays) stmt.setReturnArrays(true)
    for (const row of stmt.iterate()) {
      if (++n % STEP_ROWS === 0) yield
      const array = row as unknown as SQLOutputValue[]
      const [seq, stateHash] = arrays ? array.slice(-2) : [row.seq, row.state_hash]
      let record: { localId: string; remoteCheckedAt: string | null }
      try {
        record = (arrays ? arrays.toRecord(array) : kind.toRecord(row)) as typeof record
      } catch {
        const id = arrays ? array[arrays.localIdAt] : row.local_id
        return { ok: false, brokenAt: 0, reason: `record ${String(id)}: a JSON column is not valid JSON` }
      }
      if (typeof stateHash !== 'string') {
        return { ok: false, brokenAt: 0, reason: `record ${record.localId} has no audit entry for its state` }
      }
      if (recordStateHash(record) !== stateHash) {
        return {
          ok: false,
          brokenAt: Number(seq),
          reason: `record ${record.localId} differs from the state its last audit entry (seq ${Number(seq)}) recorded`,
        }
      }
    }
  }
  return null
}

/**
 * Proves the ledger only grew since `older` (an earlier export's audit head): the chain verifies and its entry
 * at `older.seq` is the one that head names, so every entry up to it is unchanged (each hash covers the one
 * before it).
 */
export function verifyExtends(db: ReadDb, older: AuditHead): AuditVerification {
  const v = verifyChain(db)
  if (!v.ok || older.seq === 0) return v
  const row = db.fresh('SELECT hash FROM audit_log WHERE seq = ?').get(older.seq)
  if (!row) {
    return { ok: false, brokenAt: older.seq, reason: `no entry ${older.seq}: the ledger is behind that head` }
  }
  if (row.hash !== older.hash) {
    return {
      ok: false,
      brokenAt: older.seq,
      reason: `entry ${older.seq} is not the one that head names: history before it was rewritten`,
    }
  }
  return v
}
