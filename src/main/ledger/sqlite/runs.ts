/**
 * Payment runs in the ledger (migration 9). Every change is one transaction that writes the run or row and appends
 * its audit entry, whose state hash is that of the run (subject `<runId>`) or row (subject `<runId>#<idx>`) it
 * produced; a write first checks that the stored state still matches its latest entry (an edit made outside the
 * app is never built upon), like `writeRecord` does for withdrawal records.
 */
import { createHash, randomUUID } from 'node:crypto'
import type { SQLOutputValue } from 'node:sqlite'
import {
  runRecordSchema,
  runRowRecordSchema,
  runWaveSchema,
  type ImportedRow,
  type RowDecision,
  type RunRecord,
  type RunRowRecord,
  type RunRowState,
  type RunState,
  type RunWave,
} from '../../../shared/run'
import { appendAuditRow } from './audit'
import { canonicalJson } from '../model/canonical-json'
import type { Ctx } from './context'
import type { Db } from './db'
import { LedgerError } from '../model/errors'

export const runSubject = (runId: string): string => runId
export const rowSubject = (runId: string, idx: number): string => `${runId}#${idx}`

/** The hash a run's or row's audit entry carries of the state it produced (both engines). */
export function stateHash(v: unknown): string {
  return createHash('sha256').update(canonicalJson(v), 'utf8').digest('hex')
}

type Columns = Record<string, unknown>

/**
 * A `runs` / `run_rows` / `run_waves` row as the fields its zod schema checks, on either engine (the team ledger's
 * ledger/pg/run-store.ts too); `json` decodes a JSON column (SQLite keeps text, PostgreSQL hands objects).
 */
export const runFields = (row: Columns): unknown => ({
  runId: row.run_id,
  profile: row.profile,
  operator: row.operator,
  name: row.name,
  createdAt: row.created_at,
  updatedAt: row.updated_at,
  state: row.state,
  approvedHash: row.approved_hash,
  approvedAt: row.approved_at,
  approvedBy: row.approved_by,
  wave: Number(row.wave),
  rowCount: Number(row.row_count),
})

export const runRowFields = (row: Columns, json: (v: unknown) => unknown): unknown => ({
  runId: row.run_id,
  idx: Number(row.idx),
  line: Number(row.line),
  draft: json(row.draft),
  payee: json(row.payee),
  duplicate: json(row.duplicate) ?? null,
  decision: row.decision,
  state: row.state,
  wave: row.wave === null ? null : Number(row.wave),
  localId: row.local_id,
  heldReason: row.held_reason,
})

export const runWaveFields = (row: Columns): unknown => ({
  runId: row.run_id,
  wave: Number(row.wave),
  planned: Number(row.planned),
  startedAt: row.started_at,
  fundedAt: row.funded_at,
  fundingTxId: row.funding_tx_id,
})

const jsonText = (v: unknown): unknown => (typeof v === 'string' ? JSON.parse(v) : null)

function toRun(row: Record<string, SQLOutputValue>): RunRecord {
  return runRecordSchema.parse(runFields(row))
}

function toRow(row: Record<string, SQLOutputValue>): RunRowRecord {
  return runRowRecordSchema.parse(runRowFields(row, jsonText)) as RunRowRecord
}

function toWave(row: Record<string, SQLOutputValue>): RunWave {
  return runWaveSchema.parse(runWaveFields(row))
}

type StmtDb = Pick<Db, 'stmt'>

function assertUntampered(db: StmtDb, subject: string, current: unknown): void {
  const row = db
    .stmt(
      `SELECT seq, state_hash FROM audit_log WHERE subject = ? AND state_hash IS NOT NULL
       ORDER BY seq DESC LIMIT 1`,
    )
    .get(subject)
  if (row && row.state_hash === stateHash(current)) return
  throw new LedgerError('record_tampered', `run state ${subject} differs from its last audit entry`, {
    'pt-BR': `O lote ${subject} foi alterado fora do aplicativo (não confere com a trilha de auditoria); nada mais é gravado nele.`,
    en: `Run ${subject} was changed outside the app (it does not match the audit trail); nothing more is written to it.`,
  })
}

function getRun(db: StmtDb, runId: string): RunRecord | undefined {
  const row = db.stmt('SELECT * FROM runs WHERE run_id = ?').get(runId)
  return row ? toRun(row) : undefined
}

function mustRun(db: StmtDb, runId: string): RunRecord {
  const r = getRun(db, runId)
  if (!r) throw new LedgerError('not_found', `no run ${runId}`)
  return r
}

function getRow(db: StmtDb, runId: string, idx: number): RunRowRecord {
  const row = db.stmt('SELECT * FROM run_rows WHERE run_id = ? AND idx = ?').get(runId, idx)
  if (!row) throw new LedgerError('not_found', `no row ${idx} in run ${runId}`)
  return toRow(row)
}

function writeRun(
  db: StmtDb,
  at: string,
  prev: RunRecord,
  next: RunRecord,
  operator: string,
  action: string,
  details: Record<string, unknown>,
): RunRecord {
  assertUntampered(db, runSubject(prev.runId), prev)
  db.stmt(
    `UPDATE runs SET updated_at = ?, state = ?, approved_hash = ?, approved_at = ?, approved_by = ?, wave = ?
     WHERE run_id = ?`,
  ).run(
    next.updatedAt,
    next.state,
    next.approvedHash,
    next.approvedAt,
    next.approvedBy,
    next.wave,
    next.runId,
  )
  appendAuditRow(db, at, {
    operator,
    action,
    subject: runSubject(next.runId),
    details,
    stateHash: stateHash(next),
  })
  return next
}

function writeRow(
  db: StmtDb,
  at: string,
  prev: RunRowRecord,
  next: RunRowRecord,
  operator: string,
  action: string,
  details: Record<string, unknown> = {},
): RunRowRecord {
  assertUntampered(db, rowSubject(prev.runId, prev.idx), prev)
  db.stmt(
    `UPDATE run_rows SET draft = ?, decision = ?, state = ?, wave = ?, local_id = ?, held_reason = ?
     WHERE run_id = ? AND idx = ?`,
  ).run(
    JSON.stringify(next.draft),
    next.decision,
    next.state,
    next.wave,
    next.localId,
    next.heldReason,
    next.runId,
    next.idx,
  )
  appendAuditRow(db, at, {
    operator,
    action,
    subject: rowSubject(next.runId, next.idx),
    details: { state: next.state, ...details },
    stateHash: stateHash(next),
  })
  return next
}

export interface NewRun {
  profile: string
  name: string
  rows: readonly ImportedRow[]
}

export interface RowChange {
  state?: RunRowState
  wave?: number | null
  localId?: string | null
  heldReason?: string | null
  decision?: RowDecision | null
}

export interface LedgerRuns {
  create(input: NewRun, operator: string): RunRecord
  get(runId: string): RunRecord | undefined
  list(profile?: string): RunRecord[]
  rows(runId: string): RunRowRecord[]
  row(runId: string, idx: number): RunRowRecord
  waves(runId: string): RunWave[]
  /** The run's state moves from one of `from` to `to`; the approval fields are replaced when `approval` is given. */
  setState(
    runId: string,
    from: readonly RunState[],
    to: RunState,
    operator: string,
    action: string,
    details?: Record<string, unknown>,
    approval?: { hash: string | null },
  ): RunRecord
  /** One row's change; a change to what the approval named (draft, decision) clears the approval. */
  changeRow(
    runId: string,
    idx: number,
    from: readonly RunRowState[],
    change: RowChange,
    operator: string,
    action: string,
    details?: Record<string, unknown>,
  ): RunRowRecord
  /** Opens wave `wave` with the rows `idxs` (pending → queued) and moves the run to `creating`, in one transaction. */
  startWave(runId: string, wave: number, idxs: readonly number[], operator: string): RunRecord
  markWaveFunded(runId: string, wave: number, txId: string | null, operator: string): RunWave
}

export function ledgerRuns(ctx: Ctx): LedgerRuns {
  const db = (): Db => ctx.db
  const rows = (runId: string): RunRowRecord[] =>
    db().stmt('SELECT * FROM run_rows WHERE run_id = ? ORDER BY idx').all(runId).map(toRow)

  return {
    create: (input, operator) => {
      if (input.rows.length === 0 || input.rows.length > 1000) {
        throw new LedgerError('invalid_input', 'a run has 1 to 1000 rows')
      }
      return db().tx(() => {
        const now = ctx.nowIso()
        const runId = `run-${randomUUID()}`
        const run: RunRecord = {
          runId,
          profile: input.profile,
          operator,
          name: input.name,
          createdAt: now,
          updatedAt: now,
          state: 'draft',
          approvedHash: null,
          approvedAt: null,
          approvedBy: null,
          wave: 0,
          rowCount: input.rows.length,
        }
        db()
          .stmt(
            `INSERT INTO runs (run_id, profile, operator, name, created_at, updated_at, state, wave, row_count)
             VALUES (?, ?, ?, ?, ?, ?, 'draft', 0, ?)`,
          )
          .run(runId, run.profile, operator, run.name, now, now, run.rowCount)
        appendAuditRow(db(), now, {
          operator,
          action: 'run.imported',
          subject: runSubject(runId),
          details: { profile: run.profile, name: run.name, rows: run.rowCount },
          stateHash: stateHash(run),
        })
        const insert = db().stmt(
          `INSERT INTO run_rows (run_id, idx, line, draft, payee, duplicate, decision, state)
           VALUES (?, ?, ?, ?, ?, ?, NULL, 'pending')`,
        )
        input.rows.forEach((r, idx) => {
          insert.run(
            runId,
            idx,
            r.line,
            JSON.stringify(r.draft),
            JSON.stringify(r.payee),
            r.duplicate ? JSON.stringify(r.duplicate) : null,
          )
          appendAuditRow(db(), now, {
            operator,
            action: 'run.row_imported',
            subject: rowSubject(runId, idx),
            details: { line: r.line, state: 'pending' },
            stateHash: stateHash(
              toRow(db().stmt('SELECT * FROM run_rows WHERE run_id = ? AND idx = ?').get(runId, idx)!),
            ),
          })
        })
        return run
      })
    },
    get: (runId) => getRun(db(), runId),
    list: (profile) =>
      (profile === undefined
        ? db().stmt('SELECT * FROM runs ORDER BY created_at DESC').all()
        : db().stmt('SELECT * FROM runs WHERE profile = ? ORDER BY created_at DESC').all(profile)
      ).map(toRun),
    rows,
    row: (runId, idx) => getRow(db(), runId, idx),
    waves: (runId) =>
      db().stmt('SELECT * FROM run_waves WHERE run_id = ? ORDER BY wave').all(runId).map(toWave),
    setState: (runId, from, to, operator, action, details = {}, approval) =>
      db().tx(() => {
        const prev = mustRun(db(), runId)
        if (!from.includes(prev.state)) {
          throw new LedgerError('illegal_transition', `run ${runId}: ${prev.state} → ${to} is not allowed`)
        }
        const now = ctx.nowIso()
        const next: RunRecord = {
          ...prev,
          state: to,
          updatedAt: now,
          ...(approval
            ? {
                approvedHash: approval.hash,
                approvedAt: approval.hash ? now : null,
                approvedBy: approval.hash ? operator : null,
              }
            : {}),
        }
        return writeRun(db(), now, prev, next, operator, action, { from: prev.state, to, ...details })
      }),
    changeRow: (runId, idx, from, change, operator, action, details = {}) =>
      db().tx(() => {
        const prev = getRow(db(), runId, idx)
        if (!from.includes(prev.state)) {
          throw new LedgerError(
            'illegal_transition',
            `run ${runId} row ${idx}: ${prev.state} is not one of ${from.join(', ')}`,
          )
        }
        const now = ctx.nowIso()
        const next: RunRowRecord = { ...prev, ...change }
        const written = writeRow(db(), now, prev, next, operator, action, details)
        if (change.decision !== undefined && change.decision !== prev.decision) {
          // The approval named the rows as they were: a changed decision needs a new approval.
          const run = mustRun(db(), runId)
          if (run.approvedHash !== null) {
            writeRun(
              db(),
              now,
              run,
              {
                ...run,
                state: 'draft',
                approvedHash: null,
                approvedAt: null,
                approvedBy: null,
                updatedAt: now,
              },
              operator,
              'run.approval_voided',
              { row: idx },
            )
          }
        }
        return written
      }),
    startWave: (runId, wave, idxs, operator) =>
      db().tx(() => {
        const prev = mustRun(db(), runId)
        if (!['approved', 'awaiting_funding', 'paused'].includes(prev.state) || wave !== prev.wave + 1) {
          throw new LedgerError(
            'illegal_transition',
            `run ${runId}: cannot start wave ${wave} from ${prev.state}`,
          )
        }
        const now = ctx.nowIso()
        db()
          .stmt('INSERT INTO run_waves (run_id, wave, planned, started_at) VALUES (?, ?, ?, ?)')
          .run(runId, wave, idxs.length, now)
        for (const idx of idxs) {
          const row = getRow(db(), runId, idx)
          if (row.state !== 'pending')
            throw new LedgerError('illegal_transition', `row ${idx} is ${row.state}`)
          writeRow(db(), now, row, { ...row, state: 'queued', wave }, operator, 'run.row_queued', { wave })
        }
        return writeRun(
          db(),
          now,
          prev,
          { ...prev, state: 'creating', wave, updatedAt: now },
          operator,
          'run.wave_started',
          {
            wave,
            rows: [...idxs],
          },
        )
      }),
    markWaveFunded: (runId, wave, txId, operator) =>
      db().tx(() => {
        const w = db().stmt('SELECT * FROM run_waves WHERE run_id = ? AND wave = ?').get(runId, wave)
        if (!w) throw new LedgerError('not_found', `no wave ${wave} in run ${runId}`)
        if (w.funded_at !== null)
          throw new LedgerError('illegal_transition', `wave ${wave} is already marked funded`)
        const now = ctx.nowIso()
        db()
          .stmt('UPDATE run_waves SET funded_at = ?, funding_tx_id = ? WHERE run_id = ? AND wave = ?')
          .run(now, txId, runId, wave)
        appendAuditRow(db(), now, {
          operator,
          action: 'run.wave_funded',
          subject: runSubject(runId),
          details: { wave, txId },
        })
        return toWave(db().stmt('SELECT * FROM run_waves WHERE run_id = ? AND wave = ?').get(runId, wave)!)
      }),
  }
}
