/**
 * Reads on PostgreSQL with the SQLite ledger's semantics (queries.ts there): the same RecordFilter, the same
 * display status and folded search text (derived on write), the same sort orders with the row id as the last
 * key. Text search is a LIKE on the folded text, served by a pg_trgm index.
 */
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
import { LedgerError, type SimilarQuery } from '../../ledger'
import { digitsVariant, foldText } from '../../ledger/rows'
import type { Queryable } from './audit'
import { RECORD_SELECT, rowToRecord } from './rows'

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

const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`)

function compileWhere(f: RecordFilter): { sql: string; params: unknown[] } {
  const clauses: string[] = []
  const params: unknown[] = []
  const p = (v: unknown): string => {
    params.push(v)
    return `$${params.length}`
  }
  if (f.profile !== undefined) clauses.push(`w.profile = ${p(f.profile)}`)
  const statuses = [...new Set((f.statuses ?? []).map(normalizeStatus))]
  if (statuses.length > 0) {
    const inList = `w.display_status = ANY(${p(statuses)}::text[])`
    clauses.push(statuses.includes('created') ? `(${inList} OR w.local_state = 'created')` : inList)
  }
  if (f.attention === true) {
    clauses.push(
      `(w.local_state = 'outcome_unknown' OR w.flags ?| ${p([...ATTENTION_FLAGS])}::text[] OR (w.local_state = 'created' AND ` +
        `w.display_status = 'unsent' AND safe_ts(w.expiration) <= ${p(new Date(Date.now() + ATTENTION_DEADLINE_MS).toISOString())}::timestamptz))`,
    )
  }
  if (f.from !== undefined) clauses.push(`w.created_at >= ${p(canonicalIso(f.from))}`)
  if (f.to !== undefined) clauses.push(`w.created_at < ${p(canonicalIso(f.to))}`)
  const text = foldText(f.text ?? '')
    .replace(/[\p{Cc}]+/gu, ' ')
    .trim()
  if (text !== '') {
    const digits = digitsVariant(text)
    const one = `w.search_text LIKE ${p(`%${likeEscape(text)}%`)}`
    clauses.push(digits ? `(${one} OR w.search_text LIKE ${p(`%${likeEscape(digits)}%`)})` : one)
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params }
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
  return `ORDER BY ${[...SORT_COLUMNS[sort.field], 'w.id'].map((c) => `${c} ${dir}`).join(', ')}`
}

export async function queryRecords(c: Queryable, filter?: RecordFilter): Promise<RecordPage> {
  const f = parseFilter(filter)
  const where = compileWhere(f)
  const limit = f.limit ?? RECORD_PAGE_SIZE
  const offset = f.offset ?? 0
  const r = await c.query(
    `SELECT ${RECORD_SELECT} FROM withdrawals w ${where.sql} ${compileOrder(f)} LIMIT ${limit} OFFSET ${offset}`,
    where.params,
  )
  const rows = r.rows.map(rowToRecord)
  const total =
    offset === 0 && rows.length < limit
      ? rows.length
      : Number(
          (await c.query(`SELECT count(*) AS n FROM withdrawals w ${where.sql}`, where.params)).rows[0]?.n ??
            0,
        )
  return { rows, total }
}

/**
 * Every matching record in the filter's order, fetched in batches through a server-side cursor. Must run inside
 * the caller's transaction (a REPEATABLE READ snapshot for an export: one moment of a live ledger).
 */
export async function* iterateRecords(
  c: Queryable,
  filter: RecordFilter | undefined,
  batch = 1000,
): AsyncGenerator<WithdrawalRecord, void, undefined> {
  const f = parseFilter(filter)
  const where = compileWhere(f)
  await c.query(
    `DECLARE export_walk NO SCROLL CURSOR FOR SELECT ${RECORD_SELECT} FROM withdrawals w ${where.sql} ${compileOrder(f)}`,
    where.params,
  )
  for (;;) {
    const r = await c.query(`FETCH ${batch} FROM export_walk`)
    for (const row of r.rows) yield rowToRecord(row)
    if (r.rows.length < batch) break
  }
  await c.query('CLOSE export_walk')
}

const REFUND_FEE_SQL = `CASE ${REFUND_FEE_KEYS.map(
  (k) =>
    `WHEN jsonb_typeof(w.refund -> '${k}') = 'number' AND (w.refund ->> '${k}')::numeric = trunc((w.refund ->> '${k}')::numeric)
       AND (w.refund ->> '${k}')::numeric BETWEEN 0 AND ${Number.MAX_SAFE_INTEGER} THEN (w.refund ->> '${k}')::numeric`,
).join(' ')} ELSE 0 END`

export async function totalsByStatus(c: Queryable, filter?: RecordFilter): Promise<StatusTotal[]> {
  const where = compileWhere(parseFilter(filter))
  const r = await c.query(
    `SELECT w.display_status AS status, w.has_refund, count(*) AS n,
       coalesce(sum(w.deposit_amount_cents), 0) AS deposit, coalesce(sum(w.payout_amount_cents), 0) AS payout,
       coalesce(sum(${REFUND_FEE_SQL}), 0) AS refund_fee
     FROM withdrawals w ${where.sql} GROUP BY w.display_status, w.has_refund ORDER BY n DESC, status`,
    where.params,
  )
  return r.rows.map((x) => ({
    status: String(x.status),
    hasRefund: x.has_refund === true,
    count: Number(x.n),
    depositCents: Number(x.deposit),
    payoutCents: Number(x.payout),
    refundFeeCents: Number(x.refund_fee),
  }))
}

export async function listOpen(c: Queryable): Promise<WithdrawalRecord[]> {
  const r = await c.query(
    `SELECT ${RECORD_SELECT} FROM withdrawals w WHERE w.is_open ORDER BY w.created_at DESC`,
  )
  return r.rows.map(rowToRecord)
}

export async function findRecentSimilar(c: Queryable, q: SimilarQuery): Promise<WithdrawalRecord[]> {
  const params: unknown[] = [q.pixKey.trim(), canonicalIso(q.sinceIso), q.amountKind, q.amountCents]
  let sql = `SELECT ${RECORD_SELECT} FROM withdrawals w
    WHERE lower(w.pix_key) = lower($1) AND w.created_at >= $2 AND w.amount_kind = $3 AND w.amount_cents = $4
      AND w.local_state NOT IN ('rejected', 'not_created')`
  if (q.profile !== undefined) {
    params.push(q.profile)
    sql += ' AND w.profile = $5'
  }
  const r = await c.query(`${sql} ORDER BY w.created_at DESC LIMIT 20`, params)
  return r.rows.map(rowToRecord)
}

export async function listObservations(c: Queryable, localId: string): Promise<StatusObservation[]> {
  const r = await c.query('SELECT * FROM observations WHERE local_id = $1 ORDER BY id', [localId])
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
