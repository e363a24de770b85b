/**
 * Where each run stands in four-eyes, read for the approvals queue and its notifications (issue #16). Read-only:
 * asking, granting and rejecting stay in the run service (pg/run-store.ts, runs/service.ts) and the database's
 * triggers (migration-runs.ts). Rows read back are checked (zod) before anything is shown or notified.
 */
import type pg from 'pg'
import { z } from 'zod'
import { LedgerError } from '../model/errors'
import { read } from './tx'

const text = z.string()
const maybe = z.string().nullable()

const stateRow = z.object({
  run_id: text,
  name: text,
  state: text,
  db_user: text,
  approval_requested_by: maybe,
  approval_requested_at: maybe,
  approved_by: maybe,
  rejected_by: maybe,
})

/** One run's four-eyes standing: asked (by whom, when), granted (by whom) or rejected (by whom). */
export interface RunApprovalState {
  runId: string
  name: string
  state: string
  importedBy: string
  requestedBy: string | null
  requestedAt: string | null
  approvedBy: string | null
  /** The role whose cancel of the waiting run was its rejection (audited `run.approval_rejected`). */
  rejectedBy: string | null
}

function toState(row: unknown): RunApprovalState {
  const r = stateRow.safeParse(row)
  if (!r.success) throw new LedgerError('invalid_input', `run approval read back: ${r.error.message}`)
  const v = r.data
  return {
    runId: v.run_id,
    name: v.name,
    state: v.state,
    importedBy: v.db_user,
    requestedBy: v.approval_requested_by,
    requestedAt: v.approval_requested_at,
    approvedBy: v.approved_by,
    rejectedBy: v.rejected_by,
  }
}

// The rejecting role is the audit entry's operator: append_audit sets it to session_user, never the desk. A run's
// own entries have its id as subject (ledger/sqlite/runs.ts runSubject).
const SELECT = `
  SELECT r.run_id, r.name, r.state, r.db_user, r.approval_requested_by, r.approval_requested_at, r.approved_by,
    (SELECT a.operator FROM audit_log a WHERE a.subject = r.run_id AND a.action = 'run.approval_rejected'
      ORDER BY a.seq DESC LIMIT 1) AS rejected_by
  FROM runs r`

/** Runs asked for approval and neither granted nor rejected nor voided yet, oldest request first. */
export function runsWaitingForApproval(pool: pg.Pool): Promise<RunApprovalState[]> {
  return read(pool, async (c) =>
    (
      await c.query(
        `${SELECT} WHERE r.state = 'draft' AND r.approval_requested_hash IS NOT NULL AND r.approved_hash IS NULL
         ORDER BY r.approval_requested_at, r.run_id`,
      )
    ).rows.map(toState),
  )
}

export function runApprovalState(pool: pg.Pool, runId: string): Promise<RunApprovalState | undefined> {
  return read(pool, async (c) => {
    const r = await c.query(`${SELECT} WHERE r.run_id = $1`, [runId])
    return r.rows[0] ? toState(r.rows[0]) : undefined
  })
}
