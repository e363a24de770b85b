/**
 * Reads of the deposits table: single records, the tracker's open list, the duplicate guard, the filtered, sorted,
 * paged listing, its totals, and the observation history. Same `RecordFilter` and paging as the withdrawal list,
 * so the renderer's list machinery serves both kinds.
 */
import { DEPOSIT_ATTENTION_FLAGS, type DepositRecord } from '../../../shared/deposit-record'
import { normalizeDepositStatus } from '../../../shared/deposit-status'
import {
  RECORD_PAGE_SIZE,
  recordFilterSchema,
  type RecordFilter,
  type StatusObservation,
  type StatusTotal,
} from '../../../shared/withdrawal-record'
import type { Db, Params } from './db'
import { DEPOSIT_SELECT, rowToDeposit } from './deposit-rows'
import { LedgerError } from '../model/errors'
import { canonicalIso, dateRangeClause, DEPOSIT_DATES } from '../model/date-range'
import { rowToObservation } from './queries'
import { foldText } from './rows'
import { statusTotalOf } from '../model/status-totals'
import { auditRows, type AuditRow } from './audit-rows'

type ReadDb = Pick<Db, 'stmt' | 'fresh'>

const FROM = 'FROM deposits d'

export function getDeposit(db: ReadDb, localId: string): DepositRecord | undefined {
  const row = db.stmt(`SELECT ${DEPOSIT_SELECT} ${FROM} WHERE d.local_id = ?`).get(localId)
  return row ? rowToDeposit(row) : undefined
}

export function mustGetDeposit(ctx: { db: ReadDb }, localId: string): DepositRecord {
  const r = getDeposit(ctx.db, localId)
  if (!r) throw new LedgerError('not_found', `no deposit record ${localId}`)
  return r
}

export function getDepositByRemoteId(
  db: ReadDb,
  profile: string,
  remoteId: string,
): DepositRecord | undefined {
  const row = db
    .stmt(`SELECT ${DEPOSIT_SELECT} ${FROM} WHERE d.profile = ? AND d.remote_id = ?`)
    .get(profile, remoteId)
  return row ? rowToDeposit(row) : undefined
}

/** Of `remoteIds`, those this profile's ledger already holds (reconciliation). */
export function knownDepositIds(db: ReadDb, profile: string, remoteIds: readonly string[]): Set<string> {
  const known = new Set<string>()
  const stmt = db.stmt(`SELECT 1 AS x ${FROM} WHERE d.profile = ? AND d.remote_id = ?`)
  for (const id of remoteIds) if (stmt.get(profile, id)) known.add(id)
  return known
}

/** Created and neither expired nor reversed: what the tracker polls. Newest first. */
export function listOpenDeposits(db: ReadDb): DepositRecord[] {
  return db
    .stmt(`SELECT ${DEPOSIT_SELECT} ${FROM} WHERE d.is_open = 1 ORDER BY d.created_at DESC`)
    .all()
    .map(rowToDeposit)
}

/** Same profile, amount and destination since `sinceIso`, leaving out what moved no money. */
export function findRecentSimilarDeposits(
  db: ReadDb,
  q: { profile: string; amountCents: number; depixAddress: string; sinceIso: string },
): DepositRecord[] {
  return db
    .stmt(
      `SELECT ${DEPOSIT_SELECT} ${FROM}
       WHERE d.profile = ? AND d.created_at >= ? AND d.amount_cents = ? AND d.depix_address = ?
         AND d.local_state NOT IN ('rejected', 'not_created') AND d.origin = 'app'
       ORDER BY d.created_at DESC LIMIT 20`,
    )
    .all(q.profile, canonicalIso(q.sinceIso), q.amountCents, q.depixAddress)
    .map(rowToDeposit)
}

function parseFilter(filter: RecordFilter | undefined): RecordFilter {
  const r = recordFilterSchema.safeParse(filter ?? {})
  if (!r.success) throw new LedgerError('invalid_input', `filter: ${r.error.message}`)
  return r.data
}

function compileWhere(f: RecordFilter): { sql: string; params: Params } {
  const clauses: string[] = []
  const params: Params = []
  if (f.profile !== undefined) {
    clauses.push('d.profile = ?')
    params.push(f.profile)
  }
  const statuses = [...new Set((f.statuses ?? []).map(normalizeDepositStatus))]
  if (statuses.length > 0) {
    const inList = `d.display_status IN (${statuses.map(() => '?').join(', ')})`
    clauses.push(statuses.includes('created') ? `(${inList} OR d.local_state = 'created')` : inList)
    params.push(...statuses)
  }
  if (f.attention === true) {
    // Flags are a JSON array of strings: the quoted match cannot hit a longer flag's name.
    const flagged = DEPOSIT_ATTENTION_FLAGS.map(() => 'd.flags LIKE ?').join(' OR ')
    clauses.push(`(d.local_state = 'outcome_unknown' OR ${flagged})`)
    params.push(...DEPOSIT_ATTENTION_FLAGS.map((flag) => `%"${flag}"%`))
  }
  const range = dateRangeClause(f, DEPOSIT_DATES, (v) => {
    params.push(v)
    return '?'
  })
  if (range !== null) clauses.push(range)
  const text = foldText(f.text ?? '')
    .replace(/[\p{Cc}]+/gu, ' ')
    .trim()
  if (text !== '') {
    clauses.push("d.search_text LIKE ? ESCAPE '\\'")
    params.push(`%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`)
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params }
}

/** The amount a list sorts and sums by: what the service reports, else what we asked for. */
const AMOUNT = 'coalesce(d.value_cents, d.amount_cents)'

const SORT_COLUMNS = {
  createdAt: ['d.created_at'],
  updatedAt: ['d.updated_at'],
  amount: [AMOUNT],
  status: ['d.display_status', 'd.created_at'],
} as const

function compileOrder(f: RecordFilter): string {
  const sort = f.sort ?? { field: 'createdAt', dir: 'desc' }
  const dir = sort.dir === 'asc' ? 'ASC' : 'DESC'
  return `ORDER BY ${[...SORT_COLUMNS[sort.field], 'd.id'].map((c) => `${c} ${dir}`).join(', ')}`
}

export function queryDeposits(db: ReadDb, filter?: RecordFilter): { rows: DepositRecord[]; total: number } {
  const f = parseFilter(filter)
  const where = compileWhere(f)
  const limit = f.limit ?? RECORD_PAGE_SIZE
  const offset = f.offset ?? 0
  const rows = db
    .stmt(`SELECT ${DEPOSIT_SELECT} ${FROM} ${where.sql} ${compileOrder(f)} LIMIT ? OFFSET ?`)
    .all(...where.params, limit, offset)
    .map(rowToDeposit)
  const total =
    offset === 0 && rows.length < limit
      ? rows.length
      : Number(db.stmt(`SELECT count(*) AS n ${FROM} ${where.sql}`).get(...where.params)?.n ?? 0)
  return { rows, total }
}

/** Every matching deposit in the filter's order, streamed (exports); limit/offset are ignored. */
export function* iterateDeposits(
  db: ReadDb,
  filter?: RecordFilter,
): Generator<DepositRecord, void, undefined> {
  yield* depositSelection(db, filter).records()
}

/** The deposits matching `filter` and the audit rows about them, from one compiled filter (queries.ts recordSelection). */
export function depositSelection(
  db: ReadDb,
  filter?: RecordFilter,
): { records: () => Generator<DepositRecord, void, undefined>; audit: () => Generator<AuditRow> } {
  const f = parseFilter(filter)
  const where = compileWhere(f)
  return {
    *records() {
      for (const row of db
        .fresh(`SELECT ${DEPOSIT_SELECT} ${FROM} ${where.sql} ${compileOrder(f)}`)
        .iterate(...where.params)) {
        yield rowToDeposit(row)
      }
    },
    audit: () =>
      auditRows(
        db,
        `a WHERE a.subject IS NOT NULL AND EXISTS (SELECT 1 ${FROM} ${where.sql === '' ? 'WHERE' : `${where.sql} AND`} d.local_id = a.subject) ORDER BY a.seq`,
        ...where.params,
      ),
  }
}

/**
 * Per display status: count and the amount (what the service reports, else what was asked). A deposit has no
 * payout and no refund object: `payoutCents` and `refundFeeCents` are 0, `hasRefund` false (a MED is the status
 * `refunded`). Totals by meaning come from `meaningTotals(…, 'deposit')` (shared/money-totals.ts).
 */
export function depositTotalsByStatus(db: ReadDb, filter?: RecordFilter): StatusTotal[] {
  const where = compileWhere(parseFilter(filter))
  return db
    .stmt(
      `SELECT d.display_status AS status, count(*) AS n, coalesce(sum(${AMOUNT}), 0) AS deposit
       ${FROM} ${where.sql} GROUP BY d.display_status ORDER BY n DESC, status`,
    )
    .all(...where.params)
    .map(statusTotalOf)
}

export function listDepositObservations(db: ReadDb, localId: string): StatusObservation[] {
  return db
    .stmt('SELECT * FROM deposit_observations WHERE local_id = ? ORDER BY id')
    .all(localId)
    .map(rowToObservation)
}

export function lastDepositObservation(db: ReadDb, localId: string): StatusObservation | undefined {
  const row = db
    .stmt('SELECT * FROM deposit_observations WHERE local_id = ? ORDER BY id DESC LIMIT 1')
    .get(localId)
  return row ? rowToObservation(row) : undefined
}
