/**
 * A RecordFilter as SQL on the team ledger, for either record kind (queries.ts: withdrawals, deposit-queries.ts:
 * top-ups), with the desk ledger's semantics: display status (a "created" filter also takes records still without
 * a remote status), the kind's "needs action" rule, a date range on the filter's date basis (created or paid, ledger/model/date-range.ts), LIKE on the folded search text
 * (pg_trgm index), and the sort orders with the row id as the last key. Pages and cursors are read the same way for
 * both kinds too.
 */
import { RECORD_PAGE_SIZE, recordFilterSchema, type RecordFilter } from '../../../shared/withdrawal-record'
import { LedgerError } from '../model/errors'
import { canonicalIso, dateRangeClause, type DateRangeKind } from '../model/date-range'
import { digitsVariant, foldText } from '../model/search-text'
import type { Queryable } from './queryable'

export interface KindFilterSql {
  /** The table's alias in every statement (`FROM withdrawals w`, `FROM deposits d`). */
  alias: 'w' | 'd'
  from: string
  select: string
  normalizeStatus(s: string): string
  /** The "needs action" clause; `p` binds a parameter. */
  attention(p: (v: unknown) => string): string
  /** Which dates a range filters on (ledger/model/date-range.ts, shared with the desk ledger). */
  dates: DateRangeKind
  /** Also match the digits of the text (a CPF or phone key typed with punctuation). */
  digits: boolean
  sortColumns: Record<NonNullable<RecordFilter['sort']>['field'], readonly string[]>
}

export { canonicalIso }

/** The longest duplicate window a caller may ask for (the guard's is 24 h). */
const MAX_WINDOW_MS = 31 * 24 * 3_600_000

/**
 * The lower bound of a duplicate window: with `windowMs`, the server's clock less the window, decided by the
 * database (the clock that stamped every record's created_at: a desk whose clock is hours off still sees the
 * payment made a minute ago); without it, the caller's `sinceIso`. `param` is the placeholder of the value.
 */
export function sinceBound(
  q: { sinceIso: string; windowMs?: number | undefined },
  param: string,
): { sql: string; value: string | number } {
  if (q.windowMs === undefined) return { sql: param, value: canonicalIso(q.sinceIso) }
  if (!Number.isSafeInteger(q.windowMs) || q.windowMs <= 0 || q.windowMs > MAX_WINDOW_MS)
    throw new LedgerError('invalid_input', `not a duplicate window: ${String(q.windowMs)}`)
  return {
    sql: `to_char((clock_timestamp() - make_interval(secs => ${param}::float8 / 1000)) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
    value: q.windowMs,
  }
}

export function parseFilter(filter: RecordFilter | undefined): RecordFilter {
  const r = recordFilterSchema.safeParse(filter ?? {})
  if (!r.success) throw new LedgerError('invalid_input', `filter: ${r.error.message}`)
  return r.data
}

const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`)

export function compileWhere(f: RecordFilter, k: KindFilterSql): { sql: string; params: unknown[] } {
  const a = k.alias
  const clauses: string[] = []
  const params: unknown[] = []
  const p = (v: unknown): string => {
    params.push(v)
    return `$${params.length}`
  }
  if (f.profile !== undefined) clauses.push(`${a}.profile = ${p(f.profile)}`)
  const statuses = [...new Set((f.statuses ?? []).map(k.normalizeStatus))]
  if (statuses.length > 0) {
    const inList = `${a}.display_status = ANY(${p(statuses)}::text[])`
    clauses.push(statuses.includes('created') ? `(${inList} OR ${a}.local_state = 'created')` : inList)
  }
  if (f.attention === true) clauses.push(k.attention(p))
  const range = dateRangeClause(f, k.dates, p)
  if (range !== null) clauses.push(range)
  const text = foldText(f.text ?? '')
    .replace(/[\p{Cc}]+/gu, ' ')
    .trim()
  if (text !== '') {
    const digits = k.digits ? digitsVariant(text) : null
    const one = `${a}.search_text LIKE ${p(`%${likeEscape(text)}%`)}`
    clauses.push(digits ? `(${one} OR ${a}.search_text LIKE ${p(`%${likeEscape(digits)}%`)})` : one)
  }
  return { sql: clauses.length > 0 ? `WHERE ${clauses.join(' AND ')}` : '', params }
}

export function compileOrder(f: RecordFilter, k: KindFilterSql): string {
  const sort = f.sort ?? { field: 'createdAt', dir: 'desc' }
  const dir = sort.dir === 'asc' ? 'ASC' : 'DESC'
  return `ORDER BY ${[...k.sortColumns[sort.field], `${k.alias}.id`].map((c) => `${c} ${dir}`).join(', ')}`
}

/** One page of the filter and the total (counted only when the page does not tell it). */
export async function queryPage<R>(
  c: Queryable,
  filter: RecordFilter | undefined,
  k: KindFilterSql,
  toRecord: (row: Record<string, unknown>) => R,
): Promise<{ rows: R[]; total: number }> {
  const f = parseFilter(filter)
  const where = compileWhere(f, k)
  const limit = f.limit ?? RECORD_PAGE_SIZE
  const offset = f.offset ?? 0
  const r = await c.query(
    `SELECT ${k.select} ${k.from} ${where.sql} ${compileOrder(f, k)} LIMIT ${limit} OFFSET ${offset}`,
    where.params,
  )
  const rows = r.rows.map(toRecord)
  const total =
    offset === 0 && rows.length < limit
      ? rows.length
      : Number((await c.query(`SELECT count(*) AS n ${k.from} ${where.sql}`, where.params)).rows[0]?.n ?? 0)
  return { rows, total }
}

/**
 * A filter compiled once: the records' statement and the condition that an audit row (alias `a`) is about one of
 * them (an export's audit.jsonl), so both agree even on a filter that reads the clock (attention).
 */
export interface Selection {
  select: string
  about: string
  params: unknown[]
}

export function compileSelection(filter: RecordFilter | undefined, k: KindFilterSql): Selection {
  const f = parseFilter(filter)
  const where = compileWhere(f, k)
  const and = where.sql === '' ? 'WHERE' : `${where.sql} AND`
  return {
    select: `SELECT ${k.select} ${k.from} ${where.sql} ${compileOrder(f, k)}`,
    about: `EXISTS (SELECT 1 ${k.from} ${and} ${k.alias}.local_id = a.subject)`,
    params: where.params,
  }
}

/**
 * Every matching record in the filter's order, in batches through a server-side cursor. Must run inside the
 * caller's transaction (a REPEATABLE READ snapshot for an export: one moment of a live ledger).
 */
export async function* iteratePages<R>(
  c: Queryable,
  filter: RecordFilter | undefined,
  k: KindFilterSql,
  toRecord: (row: Record<string, unknown>) => R,
  cursor: string,
  batch: number,
  sel: Selection = compileSelection(filter, k),
): AsyncGenerator<R, void, undefined> {
  await c.query(`DECLARE ${cursor} NO SCROLL CURSOR FOR ${sel.select}`, sel.params)
  for (;;) {
    const r = await c.query(`FETCH ${batch} FROM ${cursor}`)
    for (const row of r.rows) yield toRecord(row)
    if (r.rows.length < batch) break
  }
  await c.query(`CLOSE ${cursor}`)
}
