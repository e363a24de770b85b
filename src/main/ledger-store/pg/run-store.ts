/**
 * Payment runs on the team ledger (PostgreSQL, runs migration): the `RunStore` semantics of the SQLite runs
 * (ledger/runs.ts) — one transaction per change with its audit entry (through `append_audit`), the same state hash
 * rule, the same LedgerError codes — plus what only a team has: identities and four-eyes decided by the database
 * (migration-runs.ts), and recovery limited to the runs whose wave this role was creating.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import {
  runRecordSchema,
  runRowRecordSchema,
  runWaveSchema,
  type RunRecord,
  type RunRowRecord,
  type RunWave,
} from '../../../shared/run'
import { LedgerError } from '../../ledger'
import { rowSubject, runFields, runRowFields, runSubject, runWaveFields, stateHash } from '../../ledger/runs'
import type { RunFourEyes, RunLeases, RunLeaseState, RunStore } from '../run-store'
import { appendAudit, type Queryable } from './audit'
import { read, withTx, type Tx } from './tx'
import { z } from 'zod'

const rejectionDetails = z.object({ reason: z.string().max(500) })

/** The reason a rejection's audit entry gives; null for an entry written before reasons were asked (or none). */
function rejectionReason(details: unknown): string | null {
  if (typeof details !== 'string') return null
  try {
    const r = rejectionDetails.safeParse(JSON.parse(details))
    return r.success ? r.data.reason : null
  } catch {
    return null
  }
}

type Row = Record<string, unknown>

function parsed<T>(r: { success: true; data: T } | { success: false; error: Error }, what: string): T {
  if (!r.success) throw new LedgerError('invalid_input', `${what} read back: ${r.error.message}`)
  return r.data
}

export const toRun = (row: Row): RunRecord => parsed(runRecordSchema.safeParse(runFields(row)), 'run')

export const toRow = (row: Row): RunRowRecord =>
  parsed(runRowRecordSchema.safeParse(runRowFields(row, (v) => v)), 'run row') as RunRowRecord

const toWave = (row: Row): RunWave => parsed(runWaveSchema.safeParse(runWaveFields(row)), 'run wave')

/** A stored run or row is built upon only when it is what its latest audit entry says (like ledger/runs.ts). */
async function assertUntampered(c: Queryable, subject: string, current: unknown): Promise<void> {
  const r = await c.query(
    `SELECT state_hash FROM audit_log WHERE subject = $1 AND state_hash IS NOT NULL ORDER BY seq DESC LIMIT 1`,
    [subject],
  )
  if (r.rows[0]?.state_hash === stateHash(current)) return
  throw new LedgerError('record_tampered', `run state ${subject} differs from its last audit entry`, {
    'pt-BR': `O lote ${subject} foi alterado fora do aplicativo (não confere com a trilha de auditoria); nada mais é gravado nele.`,
    en: `Run ${subject} was changed outside the app (it does not match the audit trail); nothing more is written to it.`,
  })
}

async function lockRun(t: Tx, runId: string): Promise<RunRecord> {
  const r = await t.c.query('SELECT * FROM runs WHERE run_id = $1 FOR UPDATE', [runId])
  if (!r.rows[0]) throw new LedgerError('not_found', `no run ${runId}`)
  return toRun(r.rows[0])
}

async function lockRow(t: Tx, runId: string, idx: number): Promise<RunRowRecord> {
  const r = await t.c.query('SELECT * FROM run_rows WHERE run_id = $1 AND idx = $2 FOR UPDATE', [runId, idx])
  if (!r.rows[0]) throw new LedgerError('not_found', `no row ${idx} in run ${runId}`)
  return toRow(r.rows[0])
}

interface Audit {
  operator: string
  action: string
  details: Record<string, unknown>
}

async function updateRun(
  t: Tx,
  prev: RunRecord,
  set: string,
  params: unknown[],
  a: Audit,
): Promise<RunRecord> {
  await assertUntampered(t.c, runSubject(prev.runId), prev)
  const r = await t.c.query(`UPDATE runs SET ${set} WHERE run_id = $1 RETURNING *`, [prev.runId, ...params])
  const next = toRun(r.rows[0] as Row)
  await appendAudit(t.c, t.identity, { ...a, subject: runSubject(next.runId), stateHash: stateHash(next) })
  return next
}

async function updateRow(t: Tx, prev: RunRowRecord, next: RunRowRecord, a: Audit): Promise<RunRowRecord> {
  await assertUntampered(t.c, rowSubject(prev.runId, prev.idx), prev)
  const r = await t.c.query(
    `UPDATE run_rows SET draft = $3, decision = $4, state = $5, wave = $6, local_id = $7, held_reason = $8
     WHERE run_id = $1 AND idx = $2 RETURNING *`,
    [
      prev.runId,
      prev.idx,
      JSON.stringify(next.draft),
      next.decision,
      next.state,
      next.wave,
      next.localId,
      next.heldReason,
    ],
  )
  const written = toRow(r.rows[0] as Row)
  await appendAudit(t.c, t.identity, {
    operator: a.operator,
    action: a.action,
    subject: rowSubject(written.runId, written.idx),
    details: { state: written.state, ...a.details },
    stateHash: stateHash(written),
  })
  return written
}

export function pgRunStore(pool: pg.Pool, identity: string): RunStore {
  const tx = <T>(fn: (t: Tx) => Promise<T>): Promise<T> => withTx(pool, fn)
  const needOperator = (operator: string): void => {
    if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  }

  const fourEyes: RunFourEyes = {
    approvalOf: (runId) =>
      read(pool, async (c) => {
        const r = await c.query(
          `SELECT run_needs_approval(r.run_id) AS needed, r.approval_requested_by, r.approval_requested_at,
                  r.approval_requested_hash, j.operator AS rejected_by, j.details AS rejected_details
             FROM runs r
             LEFT JOIN LATERAL (SELECT a.operator, a.details FROM audit_log a
                WHERE a.subject = r.run_id AND a.action = 'run.approval_rejected' ORDER BY a.seq DESC LIMIT 1) j
               ON true
            WHERE r.run_id = $1`,
          [runId],
        )
        const row = r.rows[0]
        if (!row) throw new LedgerError('not_found', `no run ${runId}`)
        const text = (v: unknown): string | null => (typeof v === 'string' ? v : null)
        return {
          needed: row.needed === true,
          requestedBy: text(row.approval_requested_by),
          requestedAt: text(row.approval_requested_at),
          requestedHash: text(row.approval_requested_hash),
          rejectedBy: text(row.rejected_by),
          rejectedReason: rejectionReason(row.rejected_details),
        }
      }),
    requestApproval: async (runId, hash, operator, details) => {
      needOperator(operator)
      if (!/^[0-9a-f]{64}$/.test(hash))
        throw new LedgerError('invalid_input', 'rows hash must be SHA-256 hex')
      return tx(async (t) => {
        const prev = await lockRun(t, runId)
        if (prev.state !== 'draft')
          throw new LedgerError(
            'illegal_transition',
            `run ${runId}: ${prev.state} cannot be asked for approval`,
          )
        return updateRun(t, prev, 'approval_requested_hash = $2', [hash], {
          operator,
          action: 'run.approval_requested',
          details,
        })
      })
    },
  }

  const leaseOf = (row: Row | undefined): RunLeaseState => {
    const holder = typeof row?.holder === 'string' ? row.holder : null
    const live = row?.live === true
    return {
      holder,
      expiresAt: typeof row?.expires_at === 'string' ? row.expires_at : null,
      live,
      mine: live && holder === identity,
    }
  }
  const leases: RunLeases = {
    of: (runId) =>
      read(pool, async (c) => leaseOf((await c.query('SELECT * FROM run_lease_of($1)', [runId])).rows[0])),
    claim: (runId, ms) =>
      tx(async (t) =>
        leaseOf((await t.c.query('SELECT * FROM run_lease_claim($1, $2)', [runId, Math.trunc(ms)])).rows[0]),
      ),
    release: (runId) =>
      tx(async (t) => {
        await t.c.query('SELECT run_lease_release($1)', [runId])
      }),
  }

  return {
    engine: 'postgres',
    identity,
    fourEyes,
    leases,
    create: async (input, operator) => {
      needOperator(operator)
      if (input.rows.length === 0 || input.rows.length > 1000) {
        throw new LedgerError('invalid_input', 'a run has 1 to 1000 rows')
      }
      return tx(async (t) => {
        const runId = `run-${randomUUID()}`
        const r = await t.c.query(
          `INSERT INTO runs (run_id, profile, operator, name, row_count) VALUES ($1, $2, $3, $4, $5) RETURNING *`,
          [runId, input.profile, operator, input.name, input.rows.length],
        )
        const run = toRun(r.rows[0] as Row)
        await appendAudit(t.c, t.identity, {
          operator,
          action: 'run.imported',
          subject: runSubject(runId),
          details: { profile: run.profile, name: run.name, rows: run.rowCount },
          stateHash: stateHash(run),
        })
        for (const [idx, row] of input.rows.entries()) {
          const ins = await t.c.query(
            `INSERT INTO run_rows (run_id, idx, line, draft, payee, duplicate) VALUES ($1, $2, $3, $4, $5, $6)
             RETURNING *`,
            [
              runId,
              idx,
              row.line,
              JSON.stringify(row.draft),
              JSON.stringify(row.payee),
              row.duplicate ? JSON.stringify(row.duplicate) : null,
            ],
          )
          await appendAudit(t.c, t.identity, {
            operator,
            action: 'run.row_imported',
            subject: rowSubject(runId, idx),
            details: { line: row.line, state: 'pending' },
            stateHash: stateHash(toRow(ins.rows[0] as Row)),
          })
        }
        return run
      })
    },
    get: (runId) =>
      read(pool, async (c) => {
        const r = await c.query('SELECT * FROM runs WHERE run_id = $1', [runId])
        return r.rows[0] ? toRun(r.rows[0]) : undefined
      }),
    list: (profile) =>
      read(pool, async (c) => {
        const r =
          profile === undefined
            ? await c.query('SELECT * FROM runs ORDER BY created_at DESC, run_id')
            : await c.query('SELECT * FROM runs WHERE profile = $1 ORDER BY created_at DESC, run_id', [
                profile,
              ])
        return r.rows.map(toRun)
      }),
    rows: (runId) =>
      read(pool, async (c) =>
        (await c.query('SELECT * FROM run_rows WHERE run_id = $1 ORDER BY idx', [runId])).rows.map(toRow),
      ),
    waves: (runId) =>
      read(pool, async (c) =>
        (await c.query('SELECT * FROM run_waves WHERE run_id = $1 ORDER BY wave', [runId])).rows.map(toWave),
      ),
    interrupted: () =>
      read(pool, async (c) =>
        (
          await c.query(
            `SELECT * FROM runs WHERE state = 'creating' AND wave_by = session_user ORDER BY created_at`,
          )
        ).rows.map(toRun),
      ),
    setState: async (runId, from, to, operator, action, details = {}, approval) => {
      needOperator(operator)
      return tx(async (t) => {
        const prev = await lockRun(t, runId)
        if (!from.includes(prev.state)) {
          throw new LedgerError('illegal_transition', `run ${runId}: ${prev.state} → ${to} is not allowed`)
        }
        const a = { operator, action, details: { from: prev.state, to, ...details } }
        return approval
          ? updateRun(t, prev, 'state = $2, approved_hash = $3', [to, approval.hash], a)
          : updateRun(t, prev, 'state = $2', [to], a)
      })
    },
    changeRow: async (runId, idx, from, change, operator, action, details = {}) => {
      needOperator(operator)
      return tx(async (t) => {
        const run = await lockRun(t, runId)
        const prev = await lockRow(t, runId, idx)
        if (!from.includes(prev.state)) {
          throw new LedgerError(
            'illegal_transition',
            `run ${runId} row ${idx}: ${prev.state} is not one of ${from.join(', ')}`,
          )
        }
        if (change.decision !== undefined && change.decision !== prev.decision) {
          // The approval (or the request for one) named the rows as they were: it is voided first, the database
          // refuses a change to rows an approval covers.
          const asked = await t.c.query('SELECT approval_requested_hash FROM runs WHERE run_id = $1', [runId])
          if (run.approvedHash !== null || asked.rows[0]?.approval_requested_hash != null) {
            await updateRun(
              t,
              run,
              `state = 'draft', approved_hash = NULL, approval_requested_hash = NULL`,
              [],
              { operator, action: 'run.approval_voided', details: { row: idx } },
            )
          }
        }
        return updateRow(t, prev, { ...prev, ...change }, { operator, action, details })
      })
    },
    startWave: async (runId, wave, idxs, operator) => {
      needOperator(operator)
      return tx(async (t) => {
        const prev = await lockRun(t, runId)
        if (!['approved', 'awaiting_funding', 'paused'].includes(prev.state) || wave !== prev.wave + 1) {
          throw new LedgerError(
            'illegal_transition',
            `run ${runId}: cannot start wave ${wave} from ${prev.state}`,
          )
        }
        // The run is creating before its rows are queued: the database lets rows leave only a run that may send.
        const next = await updateRun(t, prev, `state = 'creating', wave = $2`, [wave], {
          operator,
          action: 'run.wave_started',
          details: { wave, rows: [...idxs] },
        })
        await t.c.query('INSERT INTO run_waves (run_id, wave, planned) VALUES ($1, $2, $3)', [
          runId,
          wave,
          idxs.length,
        ])
        for (const idx of idxs) {
          const row = await lockRow(t, runId, idx)
          if (row.state !== 'pending')
            throw new LedgerError('illegal_transition', `row ${idx} is ${row.state}`)
          await updateRow(
            t,
            row,
            { ...row, state: 'queued', wave },
            {
              operator,
              action: 'run.row_queued',
              details: { wave },
            },
          )
        }
        return next
      })
    },
    markWaveFunded: async (runId, wave, txId, operator) => {
      needOperator(operator)
      return tx(async (t) => {
        const w = await t.c.query('SELECT * FROM run_waves WHERE run_id = $1 AND wave = $2 FOR UPDATE', [
          runId,
          wave,
        ])
        if (!w.rows[0]) throw new LedgerError('not_found', `no wave ${wave} in run ${runId}`)
        if (w.rows[0].funded_at !== null)
          throw new LedgerError('illegal_transition', `wave ${wave} is already marked funded`)
        const r = await t.c.query(
          'UPDATE run_waves SET funding_tx_id = $3 WHERE run_id = $1 AND wave = $2 RETURNING *',
          [runId, wave, txId],
        )
        await appendAudit(t.c, t.identity, {
          operator,
          action: 'run.wave_funded',
          subject: runSubject(runId),
          details: { wave, txId },
        })
        return toWave(r.rows[0] as Row)
      })
    },
  }
}
