/**
 * Reads of the team ledger's deposits with the SQLite ledger's semantics (ledger/sqlite/deposit-queries.ts): the same
 * RecordFilter, display status, attention rule, sort orders (row id last) and totals, so the renderer's list
 * machinery serves both engines. A team ledger is one account's: remote-id and duplicate lookups span every desk.
 */
import { DEPOSIT_ATTENTION_FLAGS, type DepositRecord } from '../../../shared/deposit-record'
import { normalizeDepositStatus } from '../../../shared/deposit-status'
import {
  type RecordFilter,
  type StatusObservation,
  type StatusTotal,
} from '../../../shared/withdrawal-record'
import { statusTotalOf } from '../model/status-totals'
import { DEPOSIT_DATES } from '../model/date-range'
import type { Queryable } from './queryable'
import { DEPOSIT_SELECT, rowToDeposit } from './deposit-rows'
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

const FROM = 'FROM deposits d'

export async function findByRemoteId(c: Queryable, remoteId: string): Promise<DepositRecord | undefined> {
  const r = await c.query(`SELECT ${DEPOSIT_SELECT} ${FROM} WHERE d.remote_id = $1`, [remoteId])
  return r.rows[0] ? rowToDeposit(r.rows[0]) : undefined
}

export async function knownRemoteIds(c: Queryable, remoteIds: readonly string[]): Promise<Set<string>> {
  if (remoteIds.length === 0) return new Set()
  const r = await c.query(`SELECT d.remote_id ${FROM} WHERE d.remote_id = ANY($1::text[])`, [[...remoteIds]])
  return new Set(r.rows.map((x) => String(x.remote_id)))
}

export async function listOpen(c: Queryable): Promise<DepositRecord[]> {
  const r = await c.query(`SELECT ${DEPOSIT_SELECT} ${FROM} WHERE d.is_open ORDER BY d.created_at DESC`)
  return r.rows.map(rowToDeposit)
}

/** Same amount and destination since `sinceIso` on any desk, leaving out what moved no money. */
export async function findRecentSimilar(
  c: Queryable,
  q: { amountCents: number; depixAddress: string; sinceIso: string; windowMs?: number | undefined },
): Promise<DepositRecord[]> {
  const since = sinceBound(q, '$1')
  const r = await c.query(
    `SELECT ${DEPOSIT_SELECT} ${FROM}
     WHERE d.created_at >= ${since.sql} AND d.amount_cents = $2 AND d.depix_address = $3
       AND d.local_state NOT IN ('rejected', 'not_created') AND d.origin = 'app'
     ORDER BY d.created_at DESC LIMIT 20`,
    [since.value, q.amountCents, q.depixAddress],
  )
  return r.rows.map(rowToDeposit)
}

/** The amount a list sorts and sums by: what the service reports, else what we asked for. */
const AMOUNT = 'coalesce(d.value_cents, d.amount_cents)'

const DEPOSITS: KindFilterSql = {
  alias: 'd',
  from: FROM,
  select: DEPOSIT_SELECT,
  normalizeStatus: normalizeDepositStatus,
  attention: (p) =>
    `(d.local_state = 'outcome_unknown' OR d.flags ?| ${p([...DEPOSIT_ATTENTION_FLAGS])}::text[])`,
  dates: DEPOSIT_DATES,
  digits: false,
  sortColumns: {
    createdAt: ['d.created_at'],
    updatedAt: ['d.updated_at'],
    amount: [AMOUNT],
    status: ['d.display_status', 'd.created_at'],
  },
}

export const queryDeposits = (
  c: Queryable,
  filter?: RecordFilter,
): Promise<{ rows: DepositRecord[]; total: number }> => queryPage(c, filter, DEPOSITS, rowToDeposit)

/** Every matching deposit through a server-side cursor; inside the caller's (REPEATABLE READ) transaction. */
export const iterateDeposits = (
  c: Queryable,
  filter: RecordFilter | undefined,
  batch = 1000,
  sel?: Selection,
): AsyncGenerator<DepositRecord, void, undefined> =>
  iteratePages(c, filter, DEPOSITS, rowToDeposit, 'deposit_walk', batch, sel)

/** The filter compiled once for an export (queries.ts recordSelection). */
export const depositSelection = (filter: RecordFilter | undefined): Selection =>
  compileSelection(filter, DEPOSITS)

/** As ledger/sqlite/deposit-queries.ts: a deposit has no payout and no refund object. */
export async function depositTotals(c: Queryable, filter?: RecordFilter): Promise<StatusTotal[]> {
  const where = compileWhere(parseFilter(filter), DEPOSITS)
  const r = await c.query(
    `SELECT d.display_status AS status, count(*) AS n, coalesce(sum(${AMOUNT}), 0) AS deposit
     ${FROM} ${where.sql} GROUP BY d.display_status ORDER BY n DESC, status`,
    where.params,
  )
  return r.rows.map(statusTotalOf)
}

export const depositObservations = (c: Queryable, localId: string): Promise<StatusObservation[]> =>
  readObservations(c, 'deposit_observations', localId)
