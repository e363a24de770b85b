/**
 * Payment runs on the team ledger (PostgreSQL, runs migration): the `RunStore` semantics of the SQLite runs
 * (ledger/sqlite/runs.ts) — one transaction per change with its audit entry (through `append_audit`), the same state hash
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
import { LedgerError } from '../model/errors'
import { runFields, runRowFields, runWaveFields } from '../sqlite/runs'
import type { RunFourEyes, RunLeases, RunLeaseState, RunStore } from '../run-store'
import { auditDetails } from './audit'
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

/** An audit entry's details as the desk names them (the database adds what it knows: `from`, a row's state). */
const details = (t: Tx, operator: string, d: Record<string, unknown> = {}): string =>
  auditDetails(t.identity, { operator, details: d })

const one = <T>(rows: Row[], to: (r: Row) => T): T => to(rows[0] as Row)

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
        const refunds = await c.query(
          `SELECT DISTINCT rr.draft ->> 'refundAddress' AS address FROM run_rows rr
            WHERE rr.run_id = $1 AND rr.state <> 'dropped' AND rr.decision IS DISTINCT FROM 'drop'
              AND rr.draft ->> 'refundAddress' IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM treasury_addresses t WHERE t.address = rr.draft ->> 'refundAddress')
            ORDER BY 1`,
          [runId],
        )
        return {
          needed: row.needed === true,
          requestedBy: text(row.approval_requested_by),
          requestedAt: text(row.approval_requested_at),
          requestedHash: text(row.approval_requested_hash),
          rejectedBy: text(row.rejected_by),
          rejectedReason: rejectionReason(row.rejected_details),
          unregisteredRefunds: refunds.rows.flatMap((x) =>
            typeof x.address === 'string' ? [x.address] : [],
          ),
        }
      }),
    requestApproval: async (runId, hash, operator, detailsIn) => {
      needOperator(operator)
      if (!/^[0-9a-f]{64}$/.test(hash))
        throw new LedgerError('invalid_input', 'rows hash must be SHA-256 hex')
      return tx(async (t) =>
        one(
          (
            await t.c.query('SELECT * FROM run_request_approval($1, $2, $3)', [
              runId,
              hash,
              details(t, operator, detailsIn),
            ])
          ).rows,
          toRun,
        ),
      )
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
        const r = await t.c.query('SELECT * FROM run_insert($1, $2, $3)', [
          JSON.stringify({
            runId,
            profile: input.profile,
            operator,
            name: input.name,
            rowCount: input.rows.length,
          }),
          'run.imported',
          details(t, operator, { profile: input.profile, name: input.name, rows: input.rows.length }),
        ])
        const run = toRun(r.rows[0] as Row)
        for (const [idx, row] of input.rows.entries()) {
          await t.c.query('SELECT 1 FROM run_row_insert($1, $2, $3)', [
            JSON.stringify({
              runId,
              idx,
              line: row.line,
              draft: row.draft,
              payee: row.payee,
              duplicate: row.duplicate ?? null,
            }),
            'run.row_imported',
            details(t, operator, { line: row.line }),
          ])
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
    setState: async (runId, from, to, operator, action, d = {}, approval) => {
      needOperator(operator)
      return tx(async (t) => {
        const r = await t.c.query('SELECT * FROM run_set_state($1, $2, $3, $4, $5, $6)', [
          runId,
          [...from],
          to,
          approval?.hash ?? null,
          action,
          details(t, operator, d),
        ])
        return toRun(r.rows[0] as Row)
      })
    },
    changeRow: async (runId, idx, from, change, operator, action, d = {}) => {
      needOperator(operator)
      return tx(async (t) => {
        // The database voids the run's approval (or request) first when the decision changes: the approval named
        // the rows as they were.
        const r = await t.c.query('SELECT * FROM run_change_row($1, $2, $3, $4, $5, $6, $7)', [
          runId,
          idx,
          [...from],
          JSON.stringify(change),
          action,
          details(t, operator, d),
          details(t, operator, { row: idx }),
        ])
        return toRow(r.rows[0] as Row)
      })
    },
    startWave: async (runId, wave, idxs, operator) => {
      needOperator(operator)
      return tx(async (t) => {
        // The run is creating before its rows are queued: the database lets rows leave only a run that may send.
        const r = await t.c.query('SELECT * FROM run_start_wave($1, $2, $3, $4, $5)', [
          runId,
          wave,
          [...idxs],
          details(t, operator, { wave, rows: [...idxs] }),
          details(t, operator, { wave }),
        ])
        return toRun(r.rows[0] as Row)
      })
    },
    markWaveFunded: async (runId, wave, txId, operator) => {
      needOperator(operator)
      return tx(async (t) => {
        const r = await t.c.query('SELECT * FROM run_wave_funded($1, $2, $3, $4)', [
          runId,
          wave,
          txId,
          details(t, operator, { wave, txId }),
        ])
        return toWave(r.rows[0] as Row)
      })
    },
  }
}
