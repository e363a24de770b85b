/**
 * Reads on PostgreSQL with the SQLite ledger's semantics (queries.ts there): the same RecordFilter, the same
 * display status and folded search text (derived on write), the same sort orders with the row id as the last
 * key. Text search is a LIKE on the folded text, served by a pg_trgm index.
 */
import {
  ATTENTION_DEADLINE_MS,
  ATTENTION_FLAGS,
  type RecordFilter,
  type RecordPage,
  type StatusObservation,
  type StatusTotal,
  type WithdrawalRecord,
} from '../../../shared/withdrawal-record'
import { REFUND_FEE_KEYS } from '../../../shared/money-totals'
import { normalizeStatus } from '../../../shared/withdrawal-status'
import type { SimilarQuery } from '../model/inputs'
import { similarAmounts } from '../model/similar'
import { statusTotalOf } from '../model/status-totals'
import { WITHDRAWAL_DATES } from '../model/date-range'
import type { Queryable } from './queryable'
import { RECORD_SELECT, rowToRecord } from './rows'
import {
  compileSelection,
  compileWhere,
  iteratePages,
  parseFilter,
  queryPage,
  sinceBound,
  type KindFilterSql,
  type Selection,
} from './filter-sql'
import { readObservations } from './observation-rows'
import { runLinksFor } from './run-links'

const WITHDRAWALS: KindFilterSql = {
  alias: 'w',
  from: 'FROM withdrawals w',
  select: RECORD_SELECT,
  normalizeStatus,
  attention: (p) =>
    `(w.local_state = 'outcome_unknown' OR w.flags ?| ${p([...ATTENTION_FLAGS])}::text[] OR (w.local_state = 'created' AND ` +
    `w.display_status = 'unsent' AND safe_ts(w.expiration) <= ${p(new Date(Date.now() + ATTENTION_DEADLINE_MS).toISOString())}::timestamptz))`,
  dates: WITHDRAWAL_DATES,
  digits: true,
  sortColumns: {
    createdAt: ['w.created_at'],
    updatedAt: ['w.updated_at'],
    amount: ['w.amount_cents'],
    status: ['w.display_status', 'w.created_at'],
  },
}

/** A page of records, with the run each came from (issue #26's "Lote"), as the desk ledger's queryRecords. */
export async function queryRecords(c: Queryable, filter?: RecordFilter): Promise<RecordPage> {
  const page = await queryPage(c, filter, WITHDRAWALS, rowToRecord)
  const runs = await runLinksFor(
    c,
    page.rows.map((r) => r.localId),
  )
  return { ...page, runs: Object.fromEntries(runs) }
}

/**
 * Every matching record in the filter's order, fetched in batches through a server-side cursor. Must run inside
 * the caller's transaction (a REPEATABLE READ snapshot for an export: one moment of a live ledger).
 */
export const iterateRecords = (
  c: Queryable,
  filter: RecordFilter | undefined,
  batch = 1000,
  sel?: Selection,
): AsyncGenerator<WithdrawalRecord, void, undefined> =>
  iteratePages(c, filter, WITHDRAWALS, rowToRecord, 'export_walk', batch, sel)

/** The filter compiled once for an export: its records and the audit rows about them (filter-sql.ts). */
export const recordSelection = (filter: RecordFilter | undefined): Selection =>
  compileSelection(filter, WITHDRAWALS)

const REFUND_FEE_SQL = `CASE ${REFUND_FEE_KEYS.map(
  (k) =>
    `WHEN jsonb_typeof(w.refund -> '${k}') = 'number' AND (w.refund ->> '${k}')::numeric = trunc((w.refund ->> '${k}')::numeric)
       AND (w.refund ->> '${k}')::numeric BETWEEN 0 AND ${Number.MAX_SAFE_INTEGER} THEN (w.refund ->> '${k}')::numeric`,
).join(' ')} ELSE 0 END`

export async function totalsByStatus(c: Queryable, filter?: RecordFilter): Promise<StatusTotal[]> {
  const where = compileWhere(parseFilter(filter), WITHDRAWALS)
  const r = await c.query(
    `SELECT w.display_status AS status, w.has_refund, count(*) AS n,
       coalesce(sum(w.deposit_amount_cents), 0) AS deposit, coalesce(sum(w.payout_amount_cents), 0) AS payout,
       coalesce(sum(${REFUND_FEE_SQL}), 0) AS refund_fee
     FROM withdrawals w ${where.sql} GROUP BY w.display_status, w.has_refund ORDER BY n DESC, status`,
    where.params,
  )
  return r.rows.map(statusTotalOf)
}

export async function listOpen(c: Queryable): Promise<WithdrawalRecord[]> {
  const r = await c.query(
    `SELECT ${RECORD_SELECT} FROM withdrawals w WHERE w.is_open ORDER BY w.created_at DESC`,
  )
  return r.rows.map(rowToRecord)
}

/**
 * The same payment as ledger/sqlite/queries.ts findRecentSimilar means it: same key, same payout (ledger/model/similar.ts).
 */
export async function findRecentSimilar(c: Queryable, q: SimilarQuery): Promise<WithdrawalRecord[]> {
  const since = sinceBound(q, '$2')
  const a = similarAmounts(q)
  const params: unknown[] = [q.pixKey.trim(), since.value, a.payoutCents, a.depositMin, a.depositMax]
  let sql = `SELECT ${RECORD_SELECT} FROM withdrawals w
    WHERE lower(w.pix_key) = lower($1) AND w.created_at >= ${since.sql}
      AND ((w.amount_kind = 'payout' AND w.amount_cents = $3)
        OR (w.amount_kind = 'deposit' AND w.amount_cents BETWEEN $4 AND $5))
      AND w.local_state NOT IN ('rejected', 'not_created')`
  if (q.profile !== undefined) {
    params.push(q.profile)
    sql += ' AND w.profile = $6'
  }
  const r = await c.query(`${sql} ORDER BY w.created_at DESC LIMIT 20`, params)
  return r.rows.map(rowToRecord)
}

export const listObservations = (c: Queryable, localId: string): Promise<StatusObservation[]> =>
  readObservations(c, 'observations', localId)
