/**
 * Reads: single records, the status tracker's open list, the duplicate guard, and the filtered, sorted, paged
 * listing. Every filter and sort of `RecordFilter` maps to an index (migration 2); text goes through the trigram
 * FTS5 table, so a page costs a few index lookups even at 100k records.
 */
import type { SQLOutputValue } from 'node:sqlite'
import {
  ATTENTION_DEADLINE_MS,
  ATTENTION_FLAGS,
  RECORD_PAGE_SIZE,
  recordFilterSchema,
  type RecordFilter,
  type RecordPage,
  type StatusObservation,
  type StatusTotal,
  type WithdrawalRecord,
} from '../../../shared/withdrawal-record'
import { REFUND_FEE_KEYS } from '../../../shared/money-totals'
import { normalizeStatus } from '../../../shared/withdrawal-status'
import { fromJson, type Db, type Params } from './db'
import { canonicalIso, dateRangeClause, WITHDRAWAL_DATES } from '../model/date-range'
import { LedgerError } from '../model/errors'
import { statusTotalOf } from '../model/status-totals'
import { arrayRowToRecord, digitsVariant, foldText, RECORD_SELECT, rowToRecord } from './rows'
import { similarAmounts } from '../model/similar'
import type { SimilarQuery } from '../model/inputs'
import { auditRows, type AuditRow } from './audit-rows'
import { runLinksFor } from './run-links'

const FROM = `FROM withdrawals w`

export function getRecord(db: Db, localId: string): WithdrawalRecord | undefined {
  const row = db.stmt(`SELECT ${RECORD_SELECT} ${FROM} WHERE w.local_id = ?`).get(localId)
  return row ? rowToRecord(row) : undefined
}

export function getByRemoteId(db: Db, remoteId: string): WithdrawalRecord | undefined {
  const row = db.stmt(`SELECT ${RECORD_SELECT} ${FROM} WHERE w.remote_id = ?`).get(remoteId)
  return row ? rowToRecord(row) : undefined
}

/** Created and not terminal: what the status tracker polls. Newest first. */
export function listOpen(db: Db): WithdrawalRecord[] {
  return db
    .stmt(`SELECT ${RECORD_SELECT} ${FROM} WHERE w.is_open = 1 ORDER BY w.created_at DESC`)
    .all()
    .map(rowToRecord)
}

/**
 * Same Pix key (case-insensitive; a CPF/CNPJ key is stored canonical), same payout whichever amount kind (ledger/model/similar.ts), since `sinceIso`. Rejected
 * and not-created records are left out: they moved no money, and the guard exists to stop a second payment.
 */
export function findRecentSimilar(db: Db, q: SimilarQuery): WithdrawalRecord[] {
  const a = similarAmounts(q)
  const params: Params = [
    q.pixKey.trim(),
    canonicalIso(q.sinceIso),
    a.payoutCents,
    a.depositMin,
    a.depositMax,
  ]
  let sql = `SELECT ${RECORD_SELECT} ${FROM}
    WHERE w.pix_key = ? COLLATE NOCASE AND w.created_at >= ?
      AND ((w.amount_kind = 'payout' AND w.amount_cents = ?)
        OR (w.amount_kind = 'deposit' AND w.amount_cents BETWEEN ? AND ?))
      AND w.local_state NOT IN ('rejected', 'not_created')`
  if (q.profile !== undefined) {
    sql += ' AND w.profile = ?'
    params.push(q.profile)
  }
  return db
    .stmt(`${sql} ORDER BY w.created_at DESC LIMIT 20`)
    .all(...params)
    .map(rowToRecord)
}

export { canonicalIso }

interface Where {
  sql: string
  params: Params
  /** The text matches nothing: the answer is empty without touching the table. */
  empty: boolean
}

/** FTS5 query: the text as one quoted phrase (a substring, for trigram), or either of two phrases. */
function ftsPhrase(s: string): string {
  return `"${s.replace(/"/g, '""')}"`
}

/**
 * Up to this many text matches, the planner may fetch them by rowid and filter (a rare string: a remote id, a
 * key fragment). Beyond it ('silva'), fetching thousands of wide rows is the slow path, so the match list is
 * demoted to a filter on the listing index (`+w.id` hides the rowid from the planner).
 */
const FTS_DRIVE_MAX = 500

function compileWhere(db: Db, f: RecordFilter): Where {
  const clauses: string[] = []
  const params: Params = []
  if (f.profile !== undefined) {
    clauses.push('w.profile = ?')
    params.push(f.profile)
  }
  // An empty selection means "no status filter", as in a multi-select with nothing ticked.
  const statuses = [...new Set((f.statuses ?? []).map(normalizeStatus))]
  if (statuses.length > 0) {
    // display_status is the local state unless the record is created and has a remote status, so this matches
    // "local state or normalised remote status"; 'created' itself covers every created record.
    const inList = `w.display_status IN (${statuses.map(() => '?').join(', ')})`
    clauses.push(statuses.includes('created') ? `(${inList} OR w.local_state = 'created')` : inList)
    params.push(...statuses)
  }
  if (f.attention === true) {
    // Flags are stored as a JSON array of strings: a quoted match cannot hit a longer flag's name.
    const flagged = ATTENTION_FLAGS.map(() => 'w.flags LIKE ?').join(' OR ')
    clauses.push(
      `(w.local_state = 'outcome_unknown' OR ${flagged} OR (w.local_state = 'created' AND ` +
        `w.display_status = 'unsent' AND w.expiration IS NOT NULL AND julianday(w.expiration) <= julianday(?)))`,
    )
    params.push(
      ...ATTENTION_FLAGS.map((flag) => `%"${flag}"%`),
      new Date(Date.now() + ATTENTION_DEADLINE_MS).toISOString(),
    )
  }
  if (f.runId !== undefined) {
    clauses.push('w.local_id IN (SELECT local_id FROM run_rows WHERE run_id = ? AND local_id IS NOT NULL)')
    params.push(f.runId)
  }
  const range = dateRangeClause(f, WITHDRAWAL_DATES, (v) => {
    params.push(v)
    return '?'
  })
  if (range !== null) clauses.push(range)
  let empty = false
  const text = foldText(f.text ?? '')
    .replace(/[\p{Cc}]+/gu, ' ')
    .trim()
  if (text !== '') {
    const digits = digitsVariant(text)
    if (text.length >= 3) {
      const match = digits ? `${ftsPhrase(text)} OR ${ftsPhrase(digits)}` : ftsPhrase(text)
      const probe = db
        .stmt(
          `SELECT count(*) AS n FROM (SELECT 1 FROM withdrawals_fts WHERE withdrawals_fts MATCH ? LIMIT ?)`,
        )
        .get(match, FTS_DRIVE_MAX + 1)
      const n = Number(probe?.n ?? 0)
      empty = n === 0
      const id = n > FTS_DRIVE_MAX ? '+w.id' : 'w.id'
      clauses.push(`${id} IN (SELECT rowid FROM withdrawals_fts WHERE withdrawals_fts MATCH ?)`)
      params.push(match)
    } else {
      // Trigrams need three characters; one or two are checked row by row on the folded column, after the
      // other filters have narrowed the rows. The slow path (tens of ms at 100k without a date range): the UI
      // should wait for a third character.
      clauses.push("w.search_text LIKE ? ESCAPE '\\'")
      params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
    }
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params, empty }
}

const SORT_COLUMNS = {
  createdAt: ['w.created_at'],
  updatedAt: ['w.updated_at'],
  amount: ['w.amount_cents'],
  status: ['w.display_status', 'w.created_at'],
} as const

function compileOrder(f: RecordFilter): string {
  const sort = f.sort ?? { field: 'createdAt', dir: 'desc' }
  const dir = sort.dir === 'asc' ? 'ASC' : 'DESC'
  // id last: a total order, so pages never repeat or skip rows with equal keys.
  return `ORDER BY ${[...SORT_COLUMNS[sort.field], 'w.id'].map((c) => `${c} ${dir}`).join(', ')}`
}

function parseFilter(filter: RecordFilter | undefined): RecordFilter {
  const r = recordFilterSchema.safeParse(filter ?? {})
  if (!r.success) throw new LedgerError('invalid_input', `filter: ${r.error.message}`)
  return r.data
}

export function queryRecords(db: Db, filter?: RecordFilter): RecordPage {
  const f = parseFilter(filter)
  const where = compileWhere(db, f)
  if (where.empty) return { rows: [], total: 0 }
  const limit = f.limit ?? RECORD_PAGE_SIZE
  const offset = f.offset ?? 0
  const order = compileOrder(f)
  // Ids first (index-only: filter, text match, sort), then the 50 wide rows: SQLite's sorter would otherwise
  // carry every matching row in full.
  const rows = db
    .stmt(
      `SELECT ${RECORD_SELECT} FROM (SELECT w.id ${FROM} ${where.sql} ${order} LIMIT ? OFFSET ?) AS page
       JOIN withdrawals w ON w.id = page.id ${order}`,
    )
    .all(...where.params, limit, offset)
    .map(rowToRecord)
  // The count is only needed beyond a short first page; otherwise the page itself is the count.
  const total =
    offset === 0 && rows.length < limit
      ? rows.length
      : Number(db.stmt(`SELECT count(*) AS n ${FROM} ${where.sql}`).get(...where.params)?.n ?? 0)
  const runs = runLinksFor(
    db,
    rows.map((r) => r.localId),
  )
  return { rows, total, runs: Object.fromEntries(runs) }
}

/**
 * Every matching record in the filter's order, streamed one row at a time (exports of the whole ledger).
 * limit/offset are ignored. A fresh statement per call: a cached one would be reset if the consumer queried
 * the ledger mid-iteration.
 */
export function* iterateRecords(db: Db, filter?: RecordFilter): Generator<WithdrawalRecord, void, undefined> {
  yield* recordSelection(db, filter).records()
}

/**
 * The records matching `filter` and the audit rows about them (an export's records.json and audit.jsonl), both
 * from one compiled filter, so both sides agree even on a filter that reads the clock (attention). The audit
 * rows are found per row in SQL (an index lookup of the subject), not from a set of the ids exported: nothing
 * grows with the number of records.
 */
export function recordSelection(
  db: Db,
  filter?: RecordFilter,
): { records: () => Generator<WithdrawalRecord, void, undefined>; audit: () => Generator<AuditRow> } {
  const f = parseFilter(filter)
  const where = compileWhere(db, f)
  return {
    *records() {
      if (where.empty) return
      const stmt = db.fresh(`SELECT ${RECORD_SELECT} ${FROM} ${where.sql} ${compileOrder(f)}`)
      // Array rows: node:sqlite builds them about twice as fast as objects (Node ≥ 22.16; objects before that).
      if (typeof stmt.setReturnArrays === 'function') {
        stmt.setReturnArrays(true)
        const rows = stmt.iterate(...where.params) as unknown as Iterable<SQLOutputValue[]>
        for (const row of rows) yield arrayRowToRecord(row)
      } else {
        for (const row of stmt.iterate(...where.params)) yield rowToRecord(row)
      }
    },
    *audit() {
      if (where.empty) return
      const about = `${where.sql === '' ? 'WHERE' : `${where.sql} AND`} w.local_id = a.subject`
      yield* auditRows(
        db,
        `a WHERE a.subject IS NOT NULL AND EXISTS (SELECT 1 ${FROM} ${about}) ORDER BY a.seq`,
        ...where.params,
      )
    },
  }
}

/**
 * `refundFeeCents` of money-totals.ts in SQL: the first of REFUND_FEE_KEYS holding a non-negative safe integer.
 * The refund column is JSON written by JSON.stringify, so an integer-valued number is stored without a fraction
 * and json_type says 'integer' exactly when Number.isSafeInteger would (within the bound below).
 */
const REFUND_FEE_SQL = `CASE WHEN w.refund IS NULL OR NOT json_valid(w.refund) THEN 0 ${REFUND_FEE_KEYS.map(
  (k) =>
    `WHEN json_type(w.refund, '$.${k}') = 'integer' AND json_extract(w.refund, '$.${k}') BETWEEN 0 AND ${Number.MAX_SAFE_INTEGER} THEN json_extract(w.refund, '$.${k}')`,
).join(' ')} ELSE 0 END`

export function totalsByStatus(db: Db, filter?: RecordFilter): StatusTotal[] {
  const where = compileWhere(db, parseFilter(filter))
  if (where.empty) return []
  return db
    .stmt(
      `SELECT w.display_status AS status, w.has_refund AS has_refund, count(*) AS n,
         coalesce(sum(w.deposit_amount_cents), 0) AS deposit, coalesce(sum(w.payout_amount_cents), 0) AS payout,
         coalesce(sum(${REFUND_FEE_SQL}), 0) AS refund_fee
       ${FROM} ${where.sql} GROUP BY w.display_status, w.has_refund ORDER BY n DESC, status`,
    )
    .all(...where.params)
    .map(statusTotalOf)
}

export function rowToObservation(r: Record<string, SQLOutputValue>): StatusObservation {
  return {
    id: Number(r.id),
    localId: String(r.local_id),
    observedAt: String(r.observed_at),
    remoteStatus: String(r.remote_status),
    body: fromJson<Record<string, unknown>>(r.body),
    requestId: typeof r.request_id === 'string' ? r.request_id : null,
    nonce: typeof r.nonce === 'string' ? r.nonce : null,
    applied: r.applied === 1,
  }
}

export function listObservations(db: Db, localId: string): StatusObservation[] {
  return db
    .stmt('SELECT * FROM observations WHERE local_id = ? ORDER BY id')
    .all(localId)
    .map(rowToObservation)
}

export function lastObservation(db: Db, localId: string): StatusObservation | undefined {
  const row = db.stmt('SELECT * FROM observations WHERE local_id = ? ORDER BY id DESC LIMIT 1').get(localId)
  return row ? rowToObservation(row) : undefined
}
