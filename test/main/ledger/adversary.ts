/**
 * A hostile analyst's psql prompt, for the adversarial suites: a plain connection as a `depix_analysts` role (no
 * app in between), and the SQL it would type to add rows by hand.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import type { Team } from './team'

/** A raw connection as `name` (created in the analysts' group, or outside it), closed by `close`. */
export async function psqlAs(team: Team, name: string, inGroup = true): Promise<pg.Client> {
  await team.addAnalyst(name, inGroup)
  const c = new pg.Client({ ...team.config(name), options: '-c search_path=ledger,pg_temp' })
  c.on('error', () => undefined)
  await c.connect()
  return c
}

/** The SQLSTATE a statement failed with, or 'ok'. */
export async function sqlstate(p: Promise<unknown>): Promise<string> {
  try {
    await p
    return 'ok'
  } catch (e) {
    const code = (e as { code?: unknown }).code
    return typeof code === 'string' ? code : `not a database error: ${String(e)}`
  }
}

/**
 * A withdrawal row typed by hand, every NOT NULL column given (db_user claimed as someone else). Since migration 11
 * an analyst writes a record only through `write_withdrawal`, so that is where the hand-typed row goes; the row as
 * stored is returned.
 */
export async function insertWithdrawal(
  c: Sql,
  o: {
    localId?: string
    cents?: number
    pixKey?: string
    /** The key in the request body, when it is to differ from the record's `pix_key`. */
    requestPixKey?: string
    approvalId?: string | null
    importedFrom?: string | null
    state?: string
    claimedUser?: string
  } = {},
): Promise<pg.QueryResult> {
  const pixKey = o.pixKey ?? 'alvo@example.com'
  const cents = o.cents ?? 1_000
  const localId = o.localId ?? randomUUID()
  const row = {
    local_id: localId,
    profile: 'main',
    operator: 'Eve',
    db_user: o.claimedUser ?? 'ana',
    created_at: '2026-01-01T00:00:00.000Z',
    updated_at: '2026-01-01T00:00:00.000Z',
    local_state: o.state ?? 'submitting',
    request: { pixKey: o.requestPixKey ?? pixKey, payoutAmountInCents: cents },
    pix_key: pixKey,
    amount_kind: 'payout',
    amount_cents: cents,
    flags: [],
    display_status: 'processing',
    has_refund: false,
    is_open: true,
    search_text: '',
    imported_from: o.importedFrom ?? null,
  }
  await c.query(`SELECT write_withdrawal($1::jsonb, true, $2, 'withdrawal.submitting', '{}')`, [
    JSON.stringify(row),
    o.approvalId ?? null,
  ])
  return c.query('SELECT * FROM withdrawals WHERE local_id = $1', [localId])
}

/** An approval request typed by hand (through request_approval since migration 11), matching insertWithdrawal. */
export async function requestApproval(
  c: Sql,
  localId: string,
  cents: number,
  pixKey = 'alvo@example.com',
): Promise<string> {
  const r = await c.query(
    `SELECT id FROM request_approval($1, 'main', $2, $3, 'payout', $4, NULL, NULL, NULL)`,
    [localId, JSON.stringify({ pixKey, payoutAmountInCents: cents }), pixKey, cents],
  )
  return String((r.rows[0] as { id: string }).id)
}

/** An approval decided by hand (through decide_approval since migration 11). */
export function decide(c: Sql, id: string, state: string, note: string | null = null): Promise<unknown> {
  return c.query('SELECT decide_approval($1, $2, $3)', [id, state, note])
}

const RUN_STATES_ALL = [
  'draft',
  'approved',
  'creating',
  'awaiting_funding',
  'paused',
  'completed',
  'cancelled',
  'partially_paid',
]
const ROW_STATES_ALL = ['pending', 'queued', 'in_flight', 'submitted', 'held', 'dropped']

/**
 * Since migration 16 an analyst writes runs, rows and waves only through the run functions: the writes she would
 * type at her prompt, through them (every from-state allowed, so only the database's own rules decide).
 */
/** A client or a pool. */
interface Sql {
  query(text: string, values?: unknown[]): Promise<pg.QueryResult>
}

export const handRun = {
  insert: (
    c: Sql,
    runId: string,
    rowCount: number,
    o: { importedFrom?: string; state?: string; wave?: number } = {},
  ): Promise<pg.QueryResult> =>
    c.query('SELECT * FROM run_insert($1, $2, $3)', [
      JSON.stringify({ runId, profile: 'main', operator: 'Eve', name: 'lote', rowCount, ...o }),
      o.importedFrom ? 'run.imported_from_desk' : 'run.imported',
      '{}',
    ]),
  insertRow: (
    c: Sql,
    runId: string,
    idx: number,
    draft: string,
    o: { state?: string; localId?: string; decision?: string; wave?: number } = {},
  ): Promise<pg.QueryResult> =>
    c.query('SELECT * FROM run_row_insert($1, $2, $3)', [
      JSON.stringify({ runId, idx, line: idx + 2, draft: JSON.parse(draft) as unknown, payee: {}, ...o }),
      'state' in o ? 'run.row_imported_from_desk' : 'run.row_imported',
      '{}',
    ]),
  requestApproval: (c: Sql, runId: string, hash: string | null): Promise<pg.QueryResult> =>
    c.query('SELECT * FROM run_request_approval($1, $2, $3)', [runId, hash, '{}']),
  setState: (
    c: Sql,
    runId: string,
    to: string,
    approvedHash: string | null = null,
  ): Promise<pg.QueryResult> =>
    c.query('SELECT * FROM run_set_state($1, $2, $3, $4, $5, $6)', [
      runId,
      RUN_STATES_ALL,
      to,
      approvedHash,
      'run.state_changed',
      '{}',
    ]),
  changeRow: (c: Sql, runId: string, idx: number, change: Record<string, unknown>): Promise<pg.QueryResult> =>
    c.query('SELECT * FROM run_change_row($1, $2, $3, $4, $5, $6, $7)', [
      runId,
      idx,
      ROW_STATES_ALL,
      JSON.stringify(change),
      'run.row_changed',
      '{}',
      '{}',
    ]),
}
