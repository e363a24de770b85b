/**
 * The team ledger as an export and the offline review read it (issue #16): one REPEATABLE READ, READ ONLY
 * transaction on one connection of the desk's pool, held until `close()`. The chain check, the records, their
 * audit entries, the head and the earlier exports' anchors are then one moment of the ledger, while every other
 * desk keeps writing (what they commit after the view began is simply not in it). Rows are read through
 * server-side cursors in batches (constant memory for 100k records) and checked with zod as they come back.
 * This is the team engine's `ExportLedger` (the port, ledger/export-view.ts); its receipts are export-receipts.ts.
 */
import type pg from 'pg'
import { z } from 'zod'
import { depositRecordSchema, type DepositRecord } from '../../../shared/deposit-record'
import {
  withdrawalRecordSchema,
  type RecordFilter,
  type WithdrawalRecord,
} from '../../../shared/withdrawal-record'
import type { RecordKindId } from '../../../shared/record-kinds'
import type { AuditHead } from '../sqlite'
import { LedgerError } from '../model/errors'
import type { AuditText, ExportAuditInput, ExportLedger, ExportView } from '../export-view'
import { mapPgError } from '../team-errors'
import { readHead } from './audit'
import { depositSelection, iterateDeposits, queryDeposits } from './deposit-queries'
import { verifyTeamLedger } from './verify-ledger'
import { teamReceiptCandidates } from './export-receipts'
import { iterateRecords, queryRecords, recordSelection } from './queries'
import type { Selection } from './filter-sql'
import { runLinksFor } from './run-links'
import { begin, release } from './tx'

export interface PgLedgerView extends ExportView {
  /** seq, hash and subject of every entry up to `seq`, in seq order (the review's check, against-ledger.ts). */
  auditHashesUpTo(seq: number): AsyncGenerator<{ seq: number; hash: string; subject: string | null }>
}

const BATCH = 1000

const seqOf = z
  .union([z.number(), z.string().regex(/^\d+$/)])
  .transform(Number)
  .pipe(z.number().int().positive())
const auditTextRow = z.object({
  seq: seqOf,
  at: z.string(),
  operator: z.string(),
  action: z.string(),
  subject: z.string().nullable(),
  details: z.string(),
  prev_hash: z.string(),
  hash: z.string(),
  state_hash: z.string().nullable(),
})
const exportedRow = z.object({ seq: seqOf, details: z.string() })
const hashRow = z.object({ seq: seqOf, hash: z.string(), subject: z.string().nullable() })

function checked<S extends z.ZodType>(schema: S, row: unknown, what: string): z.output<S> {
  const r = schema.safeParse(row)
  if (!r.success) throw new LedgerError('record_tampered', `team ledger: a ${what} row is malformed`)
  return r.data
}

function toText(row: unknown): AuditText {
  const r = checked(auditTextRow, row, 'audit')
  return {
    entry: {
      seq: r.seq,
      at: r.at,
      operator: r.operator,
      action: r.action,
      subject: r.subject,
      prevHash: r.prev_hash,
      hash: r.hash,
      ...(r.state_hash ? { stateHash: r.state_hash } : {}),
    },
    detailsText: r.details,
  }
}

const TEXT_COLUMNS = 'seq, at, operator, action, subject, details, prev_hash, hash, state_hash'

/** A record kind's reader over the view's connection. */
interface TeamKind {
  count(c: pg.PoolClient, f: RecordFilter): Promise<number>
  /** The filter compiled once: the records and the audit rows about them agree (pg/filter-sql.ts). */
  select(f: RecordFilter): Selection
  iterate(c: pg.PoolClient, f: RecordFilter, sel: Selection): AsyncGenerator<WithdrawalRecord | DepositRecord>
}

function teamKind<R extends WithdrawalRecord | DepositRecord>(
  query: (c: pg.PoolClient, f: RecordFilter & { limit: number }) => Promise<{ total: number }>,
  select: (f: RecordFilter) => Selection,
  iterate: (c: pg.PoolClient, f: RecordFilter, batch: number, sel: Selection) => AsyncIterable<R>,
  schema: z.ZodType,
  what: string,
): TeamKind {
  return {
    count: async (c, f) => (await query(c, { ...f, limit: 1 })).total,
    select,
    iterate: async function* (c, f, sel) {
      for await (const r of iterate(c, f, BATCH, sel)) {
        // What leaves the machine must be a well-formed record, whatever the table holds.
        if (!schema.safeParse(r).success)
          throw new LedgerError('record_tampered', `team ledger: ${what} ${r.localId} is malformed`)
        yield r
      }
    },
  }
}

/** Each record kind's reader (keyed by the one kind id: a kind added without one fails to compile). */
const TEAM_KINDS: Readonly<Record<RecordKindId, TeamKind>> = {
  withdrawal: teamKind(queryRecords, recordSelection, iterateRecords, withdrawalRecordSchema, 'record'),
  deposit: teamKind(queryDeposits, depositSelection, iterateDeposits, depositRecordSchema, 'top-up'),
}

/** Rows of `sql` through a cursor of its own, in batches, inside the view's transaction. */
async function* walk(
  c: pg.PoolClient,
  name: string,
  sql: string,
  params: unknown[],
): AsyncGenerator<Record<string, unknown>> {
  await c.query(`DECLARE ${name} NO SCROLL CURSOR FOR ${sql}`, params)
  for (;;) {
    const r = await c.query(`FETCH ${BATCH} FROM ${name}`)
    yield* r.rows as Record<string, unknown>[]
    if (r.rows.length < BATCH) break
  }
  await c.query(`CLOSE ${name}`)
}

export async function openPgLedgerView(pool: pg.Pool): Promise<PgLedgerView> {
  const c = await begin(pool, 'REPEATABLE READ READ ONLY')
  let closed = false
  let broken = false
  // The records and their entries from one compiled filter (as the desk ledger's snapshot `selection`).
  let last: { kind: RecordKindId; filter: RecordFilter; sel: Selection } | null = null
  const selection = (kind: RecordKindId, filter: RecordFilter): Selection => {
    if (last?.kind !== kind || last.filter !== filter)
      last = { kind, filter, sel: TEAM_KINDS[kind].select(filter) }
    return last.sel
  }
  const guard = async <T>(fn: () => Promise<T>): Promise<T> => {
    if (closed) throw new Error('ledger: the export view is closed')
    try {
      return await fn()
    } catch (e) {
      throw mapPgError(e)
    }
  }
  async function* guarded<T>(gen: () => AsyncGenerator<T>): AsyncGenerator<T> {
    if (closed) throw new Error('ledger: the export view is closed')
    try {
      yield* gen()
    } catch (e) {
      throw mapPgError(e)
    }
  }
  try {
    // The snapshot starts at the first statement, not at BEGIN: take it now, before anything else is read.
    await c.query('SELECT 1')
  } catch (e) {
    release(c, true)
    throw mapPgError(e)
  }
  return {
    verify: () => guard(() => verifyTeamLedger(c)),
    auditHead: () => guard((): Promise<AuditHead> => readHead(c)),
    count: (kind, filter) => guard(() => TEAM_KINDS[kind].count(c, filter)),
    runLinksOf: (localIds) => guard(() => runLinksFor(c, localIds)),
    records: (kind, filter) =>
      guarded(async function* () {
        const sel = selection(kind, filter)
        yield* TEAM_KINDS[kind].iterate(c, filter, sel)
      }),
    auditTextsOf: (kind, filter) =>
      guarded(async function* () {
        const sel = selection(kind, filter)
        const rows = walk(
          c,
          'export_audit',
          `SELECT ${TEXT_COLUMNS} FROM audit_log a WHERE a.subject IS NOT NULL AND ${sel.about} ORDER BY a.seq`,
          sel.params,
        )
        for await (const row of rows) yield toText(row)
      }),
    exportedEntries: () =>
      guard(async () => {
        const r = await c.query(
          `SELECT seq, details FROM audit_log WHERE action = 'records.exported' ORDER BY seq`,
        )
        return r.rows.map((row) => {
          const x = checked(exportedRow, row, 'audit')
          return { seq: x.seq, detailsText: x.details }
        })
      }),
    auditTextsAt: (seqs) =>
      guard(async () => {
        if (seqs.length === 0) return []
        const r = await c.query(
          `SELECT ${TEXT_COLUMNS} FROM audit_log WHERE seq = ANY($1::bigint[]) ORDER BY seq`,
          [[...seqs]],
        )
        return r.rows.map(toText)
      }),
    auditHashesUpTo: (seq) =>
      guarded(async function* () {
        const rows = walk(
          c,
          'review_hashes',
          'SELECT seq, hash, subject FROM audit_log WHERE seq <= $1 ORDER BY seq',
          [seq],
        )
        for await (const row of rows) yield checked(hashRow, row, 'audit')
      }),
    receiptCandidates: (exported) =>
      guarded(async function* () {
        // Each read is on the view's connection too: refused once closed, its errors mapped as the rows'.
        for await (const r of teamReceiptCandidates(c, exported)) yield { ...r, read: () => guard(r.read) }
      }),
    close: async () => {
      if (closed) return
      closed = true
      try {
        await c.query('COMMIT')
      } catch {
        broken = true
      } finally {
        release(c, broken)
      }
    },
  }
}

/**
 * The team ledger for exportFrom (records/export.ts): its view, and `records.exported` through the store's
 * appendAudit (chained by append_audit, its operator the desk's role).
 */
export function pgExportLedger(store: {
  readonly pool: pg.Pool
  appendAudit(entry: ExportAuditInput): Promise<unknown>
}): ExportLedger {
  return {
    shared: true,
    open: () => openPgLedgerView(store.pool),
    appendExported: async (entry) => {
      await store.appendAudit(entry)
    },
  }
}
