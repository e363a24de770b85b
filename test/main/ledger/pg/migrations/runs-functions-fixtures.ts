/** Rows, runs and hashes shared by the migration 16 suites (migration-runs-functions*.test.ts). */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { pgRowToPayee } from '../../../../../src/main/ledger/pg/payees'
import { toRow, toRun } from '../../../../../src/main/ledger/pg/run-store'
import { payeeStateHash } from '../../../../../src/main/ledger/sqlite/payee-states'
import { stateHash } from '../../../../../src/main/ledger/sqlite/runs'
import { generateLiquidAddress } from '../../../../../src/main/liquid'
import type { ImportedRow } from '../../../../../src/shared/run'

const refund = generateLiquidAddress('liquid').address
export const NAMES = ['Fornecedor Ção', '😀 lote', '\u2028x', '"aspas" \\ barra', '日本語', 'R$ 1.234,56']
export const row = (i: number, cents = 1_000 + i): ImportedRow => ({
  line: i + 2,
  draft: {
    pixKey: `row-${i}@example.com`,
    taxNumber: '52998224725',
    amount: { kind: i % 3 === 0 ? 'deposit' : 'payout', cents },
    refundAddress: refund,
  },
  payee:
    i % 2 === 0
      ? { kind: 'name', payeeId: randomUUID(), name: NAMES[i % NAMES.length]! }
      : { kind: 'blank', payeeId: null, name: null },
  refundFromProfile: false,
  duplicate: i % 4 === 1 ? { lines: [i + 3, 1e6], ledger: [randomUUID(), 'ção'] } : null,
  warnings: [],
})
export const rows = (n: number, cents?: number): ImportedRow[] =>
  Array.from({ length: n }, (_, i) => row(i, cents))
export const HASH = 'ab'.repeat(32)
export const RUN_STATES = ['draft', 'approved', 'creating', 'awaiting_funding', 'paused', 'partially_paid']

/** Every run and row: the database's hash, the TypeScript one, and the one its latest audit entry carries. */
export async function hashes(
  owner: pg.Client,
): Promise<{ db: string; ts: string; audited: string | null; runId?: string }[]> {
  const latest = `(SELECT state_hash FROM audit_log a WHERE a.subject = %s AND a.state_hash IS NOT NULL
    ORDER BY seq DESC LIMIT 1)`
  const runs = await owner.query(
    `SELECT r.*, state_hash(run_state(r)) AS db_hash, ${latest.replace('%s', 'r.run_id')} AS audited FROM runs r`,
  )
  const rr = await owner.query(
    `SELECT r.*, state_hash(run_row_state(r)) AS db_hash,
       ${latest.replace('%s', `r.run_id || '#' || r.idx`)} AS audited FROM run_rows r`,
  )
  return [
    ...runs.rows.map((r) => ({
      db: String(r.db_hash),
      ts: stateHash(toRun(r)),
      audited: r.audited as string,
      runId: String(r.run_id),
    })),
    ...rr.rows.map((r) => ({ db: String(r.db_hash), ts: stateHash(toRow(r)), audited: r.audited as string })),
  ]
}

/** Every payee: the database's hash, the TypeScript one, and its latest audit entry's. */
export async function payeeHashes(
  owner: pg.Client,
): Promise<{ db: string; ts: string; audited: string | null }[]> {
  const r = await owner.query(
    `SELECT p.*, state_hash(payee_state(p)) AS db_hash, (SELECT state_hash FROM audit_log a
       WHERE a.subject = 'payee:' || p.id AND a.state_hash IS NOT NULL ORDER BY seq DESC LIMIT 1) AS audited
     FROM payees p`,
  )
  return r.rows.map((row) => ({
    db: String(row.db_hash),
    ts: payeeStateHash(row.removed_at === null ? pgRowToPayee(row) : null),
    audited: row.audited as string | null,
  }))
}

export const PAYEE_INPUTS = [
  { name: 'Fornecedor Ção Ltda', taxNumber: '11.444.777/0001-61', pixKeys: [{ key: 'forn@example.com' }] },
  {
    name: 'Ção "aspas" \\ 日本語',
    taxNumber: '529.982.247-25',
    pixKeys: [{ key: '+5511987654321' }, { key: 'outra@example.com' }],
    notes: 'nota com ção',
  },
  { name: 'Rafael', taxNumber: '111.444.777-35', pixKeys: [{ key: 'rafael@example.com' }], euid: 'E-1' },
]

/** The writes pg/run-store.ts made before migration 16: straight SQL and an audit entry with the desk's hash. */
export async function oldRunWrite(
  c: pg.Client,
  runId: string,
  sql: string,
  params: unknown[],
  action: string,
): Promise<void> {
  await c.query(sql, params)
  const r = await c.query('SELECT * FROM runs WHERE run_id = $1', [runId])
  await c.query('SELECT append_audit($1, $2, $3, $4)', [action, runId, '{}', stateHash(toRun(r.rows[0]))])
}
export async function oldRowWrite(
  c: pg.Client,
  runId: string,
  idx: number,
  sql: string,
  action: string,
): Promise<void> {
  await c.query(sql, [runId, idx])
  const r = await c.query('SELECT * FROM run_rows WHERE run_id = $1 AND idx = $2', [runId, idx])
  await c.query('SELECT append_audit($1, $2, $3, $4)', [
    action,
    `${runId}#${idx}`,
    '{}',
    stateHash(toRow(r.rows[0])),
  ])
}
