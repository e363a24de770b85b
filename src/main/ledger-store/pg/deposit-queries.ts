/**
 * Reads of the team ledger's deposits with the SQLite ledger's semantics (ledger/deposit-queries.ts): the same
 * RecordFilter, display status, attention rule, sort orders (row id last) and totals, so the renderer's list
 * machinery serves both engines. A team ledger is one account's: remote-id and duplicate lookups span every desk.
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
import { LedgerError } from '../../ledger'
import { foldText } from '../../ledger/rows'
import type { Queryable } from './audit'
import { DEPOSIT_SELECT, rowToDeposit } from './deposit-rows'

const FROM = 'FROM deposits d'

function canonicalIso(iso: string): string {
  const t = Date.parse(iso)
  if (Number.isNaN(t)) throw new LedgerError('invalid_input', `not a date: ${iso}`)
  return new Date(t).toISOString()
}

function parseFilter(filter: RecordFilter | undefined): RecordFilter {
  const r = recordFilterSchema.safeParse(filter ?? {})
  if (!r.success) throw new LedgerError('invalid_input', `filter: ${r.error.message}`)
  return r.data
}

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
  q: { amountCents: number; depixAddress: string; sinceIso: string },
): Promise<DepositRecord[]> {
  const r = await c.query(
    `SELECT ${DEPOSIT_SELECT} ${FROM}
     WHERE d.created_at >= $1 AND d.amount_cents = $2 AND d.depix_address = $3
       AND d.local_state NOT IN ('rejected', 'not_created') AND d.origin = 'app'
     ORDER BY d.created_at DESC LIMIT 20`,
    [canonicalIso(q.sinceIso), q.amountCents, q.depixAddress],
  )
  return r.rows.map(rowToDeposit)
}

function compileWhere(f: RecordFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = []
  const params: unknown[] = []
  const p = (v: unknown): string => {
    params.push(v)
    return `$${params.length}`
  }
  if (f.profile !== undefined) clauses.push(`d.profile = ${p(f.profile)}`)
  const statuses = [...new Set((f.statuses ?? []).map(normalizeDepositStatus))]
  if (statuses.length > 0) {
    const inList = `d.display_status = ANY(${p(statuses)}::text[])`
    clauses.push(statuses.includes('created') ? `(${inList} OR d.local_state = 'created')` : inList)
  }
  if (f.attention === true) {
    clauses.push(
      `(d.local_state = 'outcome_unknown' OR d.flags ?| ${p([...DEPOSIT_ATTENTION_FLAGS])}::text[])`,
    )
  }
  if (f.from !== undefined) clauses.push(`d.created_at >= ${p(canonicalIso(f.from))}`)
  if (f.to !== undefined) clauses.push(`d.created_at < ${p(canonicalIso(f.to))}`)
  const text = foldText(f.text ?? '')
    .replace(/[\p{Cc}]+/gu, ' ')
    .trim()
  if (text !== '') {
    clauses.push(`d.search_text LIKE ${p(`%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`)}`)
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
  return `ORDER BY ${[...SORT_COLUMNS[sort.field], 'd.id'].map((col) => `${col} ${dir}`).join(', ')}`
}

export async function queryDeposits(
  c: Queryable,
  filter?: RecordFilter,
): Promise<{ rows: DepositRecord[]; total: number }> {
  const f = parseFilter(filter)
  const where = compileWhere(f)
  const limit = f.limit ?? RECORD_PAGE_SIZE
  const offset = f.offset ?? 0
  const r = await c.query(
    `SELECT ${DEPOSIT_SELECT} ${FROM} ${where.sql} ${compileOrder(f)} LIMIT ${limit} OFFSET ${offset}`,
    where.params,
  )
  const rows = r.rows.map(rowToDeposit)
  const total =
    offset === 0 && rows.length < limit
      ? rows.length
      : Number((await c.query(`SELECT count(*) AS n ${FROM} ${where.sql}`, where.params)).rows[0]?.n ?? 0)
  return { rows, total }
}

/** Every matching deposit through a server-side cursor; inside the caller's (REPEATABLE READ) transaction. */
export async function* iterateDeposits(
  c: Queryable,
  filter: RecordFilter | undefined,
  batch = 1000,
): AsyncGenerator<DepositRecord, void, undefined> {
  const f = parseFilter(filter)
  const where = compileWhere(f)
  await c.query(
    `DECLARE deposit_walk NO SCROLL CURSOR FOR SELECT ${DEPOSIT_SELECT} ${FROM} ${where.sql} ${compileOrder(f)}`,
    where.params,
  )
  for (;;) {
    const r = await c.query(`FETCH ${batch} FROM deposit_walk`)
    for (const row of r.rows) yield rowToDeposit(row)
    if (r.rows.length < batch) break
  }
  await c.query('CLOSE deposit_walk')
}

/** As ledger/deposit-queries.ts: a deposit has no payout and no refund object. */
export async function depositTotals(c: Queryable, filter?: RecordFilter): Promise<StatusTotal[]> {
  const where = compileWhere(parseFilter(filter))
  const r = await c.query(
    `SELECT d.display_status AS status, count(*) AS n, coalesce(sum(${AMOUNT}), 0) AS amount
     ${FROM} ${where.sql} GROUP BY d.display_status ORDER BY n DESC, status`,
    where.params,
  )
  return r.rows.map((x) => ({
    status: String(x.status),
    hasRefund: false,
    count: Number(x.n),
    depositCents: Number(x.amount),
    payoutCents: 0,
    refundFeeCents: 0,
  }))
}

export async function depositObservations(c: Queryable, localId: string): Promise<StatusObservation[]> {
  const r = await c.query('SELECT * FROM deposit_observations WHERE local_id = $1 ORDER BY id', [localId])
  return r.rows.map((x) => ({
    id: Number(x.id),
    localId: String(x.local_id),
    observedAt: String(x.observed_at),
    remoteStatus: String(x.remote_status),
    body: (x.body ?? null) as Record<string, unknown> | null,
    requestId: typeof x.request_id === 'string' ? x.request_id : null,
    nonce: typeof x.nonce === 'string' ? x.nonce : null,
    applied: x.applied === true,
  }))
}
