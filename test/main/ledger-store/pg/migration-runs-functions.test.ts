/**
 * Team ledger migration 16 (issue #24): runs, run rows and waves are written only through SECURITY DEFINER
 * functions that check the moves and audit the change with a state hash the database computes.
 * - a hostile analyst at her own psql prompt cannot INSERT/UPDATE/DELETE runs, run_rows or run_waves (42501), nor
 *   call the functions' internal writers;
 * - the database's `run_state` / `run_row_state` hash is ledger/runs.ts `stateHash` of the row as read back, on
 *   varied runs and rows;
 * - the moves the app makes go through; a refused one gets a named SQLSTATE;
 * - a database at migration 15 with runs in several states keeps every row and its audit chain, and the desks go on
 *   writing those runs (their old, desk-computed audit hashes are the database's).
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratePg, type PgLedgerStore } from '../../../../src/main/ledger-store'
import { pgPayeeStore, pgRowToPayee } from '../../../../src/main/ledger-store/pg/payees'
import { pgRunStore, toRow, toRun } from '../../../../src/main/ledger-store/pg/run-store'
import { PG_MIGRATIONS } from '../../../../src/main/ledger-store/pg/schema'
import type { RunStore } from '../../../../src/main/ledger-store/run-store'
import { payeeStateHash } from '../../../../src/main/ledger/payee-states'
import { stateHash } from '../../../../src/main/ledger/runs'
import { generateLiquidAddress } from '../../../../src/main/liquid'
import type { ImportedRow } from '../../../../src/shared/run'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { handRun, psqlAs, sqlstate } from '../adversary'
import { startTeam, type Team } from '../team'

announceSkip('migration 16: runs written only through functions (postgres)')

const refund = generateLiquidAddress('liquid').address
const NAMES = ['Fornecedor Ção', '😀 lote', '\u2028x', '"aspas" \\ barra', '日本語', 'R$ 1.234,56']
const row = (i: number, cents = 1_000 + i): ImportedRow => ({
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
const rows = (n: number, cents?: number): ImportedRow[] => Array.from({ length: n }, (_, i) => row(i, cents))
const HASH = 'ab'.repeat(32)
const RUN_STATES = ['draft', 'approved', 'creating', 'awaiting_funding', 'paused', 'partially_paid']

/** Every run and row: the database's hash, the TypeScript one, and the one its latest audit entry carries. */
async function hashes(
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
async function payeeHashes(owner: pg.Client): Promise<{ db: string; ts: string; audited: string | null }[]> {
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

const PAYEE_INPUTS = [
  { name: 'Fornecedor Ção Ltda', taxNumber: '11.444.777/0001-61', pixKeys: [{ key: 'forn@example.com' }] },
  {
    name: 'Ção "aspas" \\ 日本語',
    taxNumber: '529.982.247-25',
    pixKeys: [{ key: '+5511987654321' }, { key: 'outra@example.com' }],
    notes: 'nota com ção',
  },
  { name: 'Rafael', taxNumber: '111.444.777-35', pixKeys: [{ key: 'rafael@example.com' }], euid: 'E-1' },
]

describe.skipIf(PG_SKIP_REASON !== null)('migration 16: runs written only through functions', () => {
  let team: Team
  let owner: pg.Client
  let eve: pg.Client
  let ana: PgLedgerStore, bia: PgLedgerStore
  let a: RunStore, b: RunStore
  let tampered = ''
  beforeAll(async () => {
    team = await startTeam()
    owner = await team.owner()
    ana = await team.desk('ana')
    bia = await team.desk('bia')
    a = pgRunStore(ana.pool, ana.identity)
    b = pgRunStore(bia.pool, bia.identity)
    eve = await psqlAs(team, 'eve')
  }, 120_000)
  afterAll(async () => team?.stop())

  it('a hostile analyst cannot write runs, rows or waves at her prompt, nor call the inner writers', async () => {
    const run = await a.create({ profile: 'p1', name: 'lote', rows: rows(2) }, 'Ana')
    await a.setState(run.runId, ['draft'], 'approved', 'Ana', 'run.approved', {}, { hash: HASH })
    await a.startWave(run.runId, 1, [0], 'Ana')
    const id = run.runId
    const denied: [string, unknown[]][] = [
      [
        `INSERT INTO runs (run_id, profile, operator, name, row_count) VALUES ($1, 'p', 'o', 'n', 1)`,
        [randomUUID()],
      ],
      [`UPDATE runs SET state = 'cancelled' WHERE run_id = $1`, [id]],
      [`UPDATE runs SET approved_hash = NULL WHERE run_id = $1`, [id]],
      [`DELETE FROM runs WHERE run_id = $1`, [id]],
      [`INSERT INTO run_rows (run_id, idx, line, draft, payee) VALUES ($1, 9, 2, '{}', '{}')`, [id]],
      [`UPDATE run_rows SET state = 'queued' WHERE run_id = $1 AND idx = 1`, [id]],
      [`UPDATE run_rows SET draft = '{}' WHERE run_id = $1`, [id]],
      [`DELETE FROM run_rows WHERE run_id = $1`, [id]],
      [`INSERT INTO run_waves (run_id, wave, planned) VALUES ($1, 2, 1)`, [id]],
      [`UPDATE run_waves SET funding_tx_id = 'x' WHERE run_id = $1`, [id]],
      [`DELETE FROM run_waves WHERE run_id = $1`, [id]],
      [`SELECT run_write(r, 'cancelled', NULL, NULL, 0, 'run.x', '{}') FROM runs r WHERE run_id = $1`, [id]],
      [
        `SELECT run_row_write(r, '{"state":"queued"}', 'run.x', '{}') FROM run_rows r WHERE run_id = $1`,
        [id],
      ],
      [`SELECT run_assert_audited($1, 'x')`, [id]],
    ]
    for (const [sql, params] of denied)
      expect([sql, await sqlstate(eve.query(sql, params))]).toEqual([sql, '42501'])
    // Nor forge a run's, row's or payee's latest audited state (append_audit, migration 16): DPX14.
    for (const [action, subject, hash] of [
      ['run.approved', id, null],
      ['note', id, HASH],
      ['note', `${id}#0`, HASH],
      ['payee.updated', 'payee:x', null],
      ['note', 'payee:x', HASH],
    ])
      expect(
        await sqlstate(eve.query('SELECT append_audit($1, $2, $3, $4)', [action, subject, '{}', hash])),
      ).toBe('DPX14')
    expect(await sqlstate(eve.query(`SELECT append_audit('note', $1, '{}', NULL)`, [id]))).toBe('ok')
    const before = await owner.query(
      'SELECT to_jsonb(r) AS j FROM run_rows r WHERE run_id = $1 ORDER BY idx',
      [id],
    )
    expect(before.rows.map((r) => (r.j as { state: string }).state)).toEqual(['queued', 'pending'])
  })

  it('the moves the app makes go through the functions; a refused one has a named SQLSTATE', async () => {
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
    try {
      const run = await a.create({ profile: 'p1', name: 'lote grande', rows: rows(4, 20_000) }, 'Ana')
      const id = run.runId
      // Rows: decided, dropped; the approval asked for, refused to its requester, granted by another role.
      await a.changeRow(id, 3, ['pending'], { decision: 'drop' }, 'Ana', 'run.row_decided')
      await a.changeRow(id, 3, ['pending'], { state: 'dropped' }, 'Ana', 'run.row_dropped')
      expect(await sqlstate(handRun.changeRow(eve, id, 3, { state: 'pending' }))).toBe('DPX11')
      await a.fourEyes?.requestApproval(id, HASH, 'Ana', {})
      await expect(
        a.setState(id, ['draft'], 'approved', 'Ana', 'run.approved', {}, { hash: HASH }),
      ).rejects.toMatchObject({ code: 'approval_self' })
      await b.setState(id, ['draft'], 'approved', 'Bia', 'run.approved', {}, { hash: HASH })
      // Not the state the desk expects: DPX17 (illegal_transition); not a move of a run at all: DPX11.
      expect(
        await sqlstate(
          eve.query(`SELECT run_set_state($1, '{draft}', 'cancelled', NULL, 'run.cancelled', '{}')`, [id]),
        ),
      ).toBe('DPX17')
      await expect(a.setState(id, ['draft'], 'cancelled', 'Ana', 'run.cancelled')).rejects.toMatchObject({
        code: 'illegal_transition',
      })
      expect(await sqlstate(handRun.setState(eve, id, 'completed'))).toBe('DPX11')
      // Waves: started from approved (rows queued), paused, resumed, created, funded once.
      await expect(a.startWave(id, 2, [0], 'Ana')).rejects.toMatchObject({ code: 'illegal_transition' })
      await a.startWave(id, 1, [0, 1], 'Ana')
      expect(await sqlstate(eve.query(`SELECT run_start_wave($1, 2, '{2}', '{}', '{}')`, [id]))).toBe('DPX17')
      await a.setState(id, ['creating'], 'paused', 'Ana', 'run.paused')
      await a.setState(id, ['paused'], 'creating', 'Ana', 'run.resumed')
      await a.changeRow(id, 1, ['queued'], { state: 'held', heldReason: 'key_closed' }, 'Ana', 'run.row_held')
      await a.changeRow(id, 1, ['held'], { state: 'dropped' }, 'Ana', 'run.row_dropped')
      await a.changeRow(id, 0, ['queued'], { state: 'pending', wave: null }, 'Ana', 'run.row_deferred')
      await a.setState(id, ['creating'], 'awaiting_funding', 'Ana', 'run.wave_created')
      await a.markWaveFunded(id, 1, 'tx-1', 'Ana')
      await expect(a.markWaveFunded(id, 1, 'tx-2', 'Ana')).rejects.toMatchObject({
        code: 'illegal_transition',
      })
      await expect(a.markWaveFunded(id, 7, 'tx-2', 'Ana')).rejects.toMatchObject({ code: 'not_found' })
      await a.startWave(id, 2, [0, 2], 'Ana')
      await a.setState(id, ['creating'], 'awaiting_funding', 'Ana', 'run.wave_created')
      await a.setState(id, ['awaiting_funding'], 'partially_paid', 'Ana', 'run.partially_paid')
      await a.setState(id, ['partially_paid'], 'cancelled', 'Ana', 'run.cancelled')
      // A cancelled run is final (runs_guard, migration 3).
      expect(await sqlstate(handRun.setState(eve, id, 'draft'))).toBe('22023')
      // No such run or row: DPX18; an audit action that is not a run's: DPX14.
      expect(await sqlstate(handRun.setState(eve, 'no-run', 'cancelled'))).toBe('DPX18')
      expect(await sqlstate(handRun.changeRow(eve, id, 99, { state: 'queued' }))).toBe('DPX18')
      expect(
        await sqlstate(
          eve.query(`SELECT run_set_state($1, $2, 'cancelled', NULL, 'withdrawal.created', '{}')`, [
            id,
            RUN_STATES,
          ]),
        ),
      ).toBe('DPX14')
      expect(
        await sqlstate(
          eve.query(`SELECT run_insert($1, 'audit.anything', '{}')`, [
            JSON.stringify({ runId: randomUUID(), profile: 'p', operator: 'o', name: 'n', rowCount: 1 }),
          ]),
        ),
      ).toBe('DPX14')
      // Who did it is the database role; the entries' hashes are the database's and the chain verifies.
      const audit = await ana.audit({ subject: id })
      expect(audit.rows.map((e) => [e.operator, e.action]).reverse()).toEqual([
        ['ana', 'run.imported'],
        ['ana', 'run.approval_requested'],
        ['bia', 'run.approved'],
        ['ana', 'run.wave_started'],
        ['ana', 'run.paused'],
        ['ana', 'run.resumed'],
        ['ana', 'run.wave_created'],
        ['ana', 'run.wave_funded'],
        ['ana', 'run.wave_started'],
        ['ana', 'run.wave_created'],
        ['ana', 'run.partially_paid'],
        ['ana', 'run.cancelled'],
      ])
      expect(audit.rows.find((e) => e.action === 'run.paused')?.details).toMatchObject({
        from: 'creating',
        to: 'paused',
        appOperator: 'Ana',
      })
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    } finally {
      await owner.query('UPDATE team_settings SET approval_above_cents = NULL WHERE id = 1')
    }
  })

  it('a changed decision voids the approval in the database, audited; a run edited outside is not built upon', async () => {
    const run = await a.create({ profile: 'p1', name: 'lote', rows: rows(2) }, 'Ana')
    await a.setState(run.runId, ['draft'], 'approved', 'Ana', 'run.approved', {}, { hash: HASH })
    await b.changeRow(run.runId, 0, ['pending'], { decision: 'drop' }, 'Bia', 'run.row_decided')
    expect(await a.get(run.runId)).toMatchObject({ state: 'draft', approvedHash: null, approvedBy: null })
    expect((await ana.audit({ subject: run.runId })).rows[0]).toMatchObject({
      operator: 'bia',
      action: 'run.approval_voided',
      details: { row: 0, appOperator: 'Bia' },
    })
    // (runs_guard keeps the name; the owner's edit moves updated_at, which the audited state names.)
    await owner.query(`UPDATE runs SET name = 'editado' WHERE run_id = $1`, [run.runId])
    tampered = run.runId
    await expect(a.setState(run.runId, ['draft'], 'cancelled', 'Ana', 'run.cancelled')).rejects.toMatchObject(
      {
        code: 'record_tampered',
      },
    )
    expect(await sqlstate(handRun.setState(eve, run.runId, 'cancelled'))).toBe('DPX16')
  })

  it('the payee book: no direct writes; created, updated, removed through payee_write with its hash', async () => {
    const book = pgPayeeStore(ana.pool)
    const made = []
    for (const input of PAYEE_INPUTS) made.push(await book.create(input, 'Ana'))
    const id = made[0]!.id
    const denied: [string, unknown[]][] = [
      [`INSERT INTO payees (name, tax_number, pix_keys, search_text) VALUES ('n', '1', '[]', '')`, []],
      [`UPDATE payees SET pix_keys = '[{"key":"eve@example.com","type":"email"}]' WHERE id = $1`, [id]],
      [`UPDATE payees SET removed_at = 'x' WHERE id = $1`, [id]],
      [`DELETE FROM payees WHERE id = $1`, [id]],
      [`INSERT INTO payee_keys (key, payee_id, type) VALUES ('eve@example.com', $1, 'email')`, [id]],
      [`DELETE FROM payee_keys WHERE payee_id = $1`, [id]],
    ]
    for (const [sql, params] of denied)
      expect([sql, await sqlstate(eve.query(sql, params))]).toEqual([sql, '42501'])
    // Through the function, a version other than the one read is refused (DPX19) and an unknown action (DPX14).
    expect(
      await sqlstate(eve.query(`SELECT payee_write($1, '{}', 'old', 'payee.removed', '{}')`, [id])),
    ).toBe('DPX19')
    expect(await sqlstate(eve.query(`SELECT payee_write($1, '{}', NULL, 'payee.x', '{}')`, [id]))).toBe(
      'DPX14',
    )
    const updated = await book.update(
      id,
      { ...PAYEE_INPUTS[0], name: 'Fornecedor Renomeado', notes: 'ção' },
      'Bia',
      { expectedUpdatedAt: made[0]!.updatedAt },
    )
    await expect(
      book.update(id, { ...PAYEE_INPUTS[0], name: 'Outro' }, 'Bia', {
        expectedUpdatedAt: made[0]!.updatedAt,
      }),
    ).rejects.toMatchObject({ code: 'payee_changed' })
    await book.remove(made[2]!.id, 'Ana', { expectedUpdatedAt: made[2]!.updatedAt })
    expect(await book.byId(id)).toEqual(updated)
    expect(await book.byId(made[2]!.id)).toBeUndefined()
    const all = await payeeHashes(owner)
    expect(all).toHaveLength(3)
    for (const h of all) expect([h.db, h.audited]).toEqual([h.ts, h.ts])
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('computes the state hash ledger/runs.ts computes, on varied runs and rows', async () => {
    for (const [i, name] of NAMES.entries()) {
      const run = await a.create({ profile: `p${i}`, name, rows: rows(i + 2, 1_000 + i * 997) }, name)
      await a.changeRow(
        run.runId,
        0,
        ['pending'],
        { decision: i % 2 ? 'keep' : 'drop' },
        'x',
        'run.row_decided',
      )
      if (i % 2) {
        await b.setState(run.runId, ['draft'], 'approved', 'b', 'run.approved', {}, { hash: HASH })
        await a.startWave(run.runId, 1, [0, 1], 'Ana')
        await a.changeRow(
          run.runId,
          1,
          ['queued'],
          { state: 'held', heldReason: `motivo ${name}` },
          'x',
          'run.row_held',
        )
      }
    }
    const all = await hashes(owner)
    expect(all.length).toBeGreaterThan(40)
    expect(all.filter((h) => h.db !== h.ts)).toEqual([])
    // Every entry's hash is the state it produced, but for the run the owner edited behind the chain (above).
    expect(all.filter((h) => h.audited !== h.ts).map((h) => h.runId)).toEqual([tampered])
  })
})

/** The writes pg/run-store.ts made before migration 16: straight SQL and an audit entry with the desk's hash. */
async function oldRunWrite(
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
async function oldRowWrite(
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

describe.skipIf(PG_SKIP_REASON !== null)('migration 16 on a team ledger at migration 15', () => {
  let team: Team
  let owner: pg.Client
  let anaSql: pg.Client, biaSql: pg.Client
  const ids: Record<string, string> = {}
  const snapshot = async (): Promise<Record<string, string[]>> => {
    const out: Record<string, string[]> = {}
    for (const t of ['runs', 'run_rows', 'run_waves', 'payees', 'payee_keys', 'audit_log']) {
      const r = await owner.query(`SELECT to_jsonb(x)::text AS j FROM ${t} x`)
      out[t] = r.rows.map((row) => String(row.j)).sort()
    }
    return out
  }

  beforeAll(async () => {
    team = await startTeam(
      {},
      PG_MIGRATIONS.filter((m) => m.version <= 15),
    )
    owner = await team.owner()
    anaSql = await psqlAs(team, 'ana')
    biaSql = await psqlAs(team, 'bia')
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
    const draft = (i: number, cents: number): string => JSON.stringify(row(i, cents).draft)
    const create = async (key: string, cents: number[]): Promise<string> => {
      const runId = `run-${randomUUID()}`
      ids[key] = runId
      await oldRunWrite(
        anaSql,
        runId,
        `INSERT INTO runs (run_id, profile, operator, name, row_count) VALUES ($1, 'main', 'Ana', $2, $3)`,
        [runId, `lote ${key} ção`, cents.length],
        'run.imported',
      )
      for (const [i, v] of cents.entries()) {
        await anaSql.query(
          `INSERT INTO run_rows (run_id, idx, line, draft, payee, duplicate) VALUES ($1, $2, $3, $4, $5, $6)`,
          [runId, i, i + 2, draft(i, v), JSON.stringify(row(i).payee), JSON.stringify(row(i).duplicate)],
        )
        const r = await anaSql.query('SELECT * FROM run_rows WHERE run_id = $1 AND idx = $2', [runId, i])
        await anaSql.query('SELECT append_audit($1, $2, $3, $4)', [
          'run.row_imported',
          `${runId}#${i}`,
          '{}',
          stateHash(toRow(r.rows[0])),
        ])
      }
      return runId
    }
    // A draft with a row decided "drop"; one asked for approval; one approved, sending its first wave and awaiting
    // funding; one cancelled.
    const draftRun = await create('draft', [50_000, 500])
    await oldRowWrite(
      anaSql,
      draftRun,
      0,
      `UPDATE run_rows SET decision = 'drop' WHERE run_id = $1 AND idx = $2`,
      'run.row_decided',
    )
    const asked = await create('asked', [30_000, 20_000])
    await oldRunWrite(
      anaSql,
      asked,
      `UPDATE runs SET approval_requested_hash = $2 WHERE run_id = $1`,
      [asked, HASH],
      'run.approval_requested',
    )
    const sending = await create('sending', [40_000, 700])
    await oldRunWrite(
      anaSql,
      sending,
      `UPDATE runs SET approval_requested_hash = $2 WHERE run_id = $1`,
      [sending, HASH],
      'run.approval_requested',
    )
    await oldRunWrite(
      biaSql,
      sending,
      `UPDATE runs SET state = 'approved', approved_hash = $2 WHERE run_id = $1`,
      [sending, HASH],
      'run.approved',
    )
    await oldRunWrite(
      anaSql,
      sending,
      `UPDATE runs SET state = 'creating', wave = 1 WHERE run_id = $1`,
      [sending],
      'run.wave_started',
    )
    await anaSql.query('INSERT INTO run_waves (run_id, wave, planned) VALUES ($1, 1, 2)', [sending])
    for (const idx of [0, 1])
      await oldRowWrite(
        anaSql,
        sending,
        idx,
        `UPDATE run_rows SET state = 'queued', wave = 1 WHERE run_id = $1 AND idx = $2`,
        'run.row_queued',
      )
    await oldRunWrite(
      anaSql,
      sending,
      `UPDATE runs SET state = 'awaiting_funding' WHERE run_id = $1`,
      [sending],
      'run.wave_created',
    )
    // Payees written as pg/payees.ts did before: one kept, one edited, one removed.
    const oldPayee = async (
      c: pg.Client,
      action: string,
      sql: string,
      params: unknown[],
    ): Promise<string> => {
      const r = await c.query(`${sql} RETURNING *`, params)
      const row = r.rows[0] as Record<string, unknown>
      await c.query('SELECT append_audit($1, $2, $3, $4)', [
        action,
        `payee:${String(row.id)}`,
        '{}',
        payeeStateHash(row.removed_at === null ? pgRowToPayee(row) : null),
      ])
      return String(row.id)
    }
    const keys = (k: string): string => JSON.stringify([{ key: k, type: 'email' }])
    const ins = `INSERT INTO payees (name, tax_number, pix_keys, search_text, notes) VALUES ($1, $2, $3::jsonb, '', $4)`
    ids.payeeKept = await oldPayee(anaSql, 'payee.created', ins, [
      'Ção',
      '52998224725',
      keys('a@x.com'),
      null,
    ])
    ids.payeeEdited = await oldPayee(anaSql, 'payee.created', ins, ['B', '11144477735', keys('b@x.com'), 'n'])
    await oldPayee(biaSql, 'payee.updated', `UPDATE payees SET name = 'B²' WHERE id = $1`, [ids.payeeEdited])
    ids.payeeRemoved = await oldPayee(anaSql, 'payee.created', ins, [
      'C',
      '11444777000161',
      keys('c@x.com'),
      null,
    ])
    await oldPayee(anaSql, 'payee.removed', `UPDATE payees SET removed_at = 'removed' WHERE id = $1`, [
      ids.payeeRemoved,
    ])
    const cancelled = await create('cancelled', [900])
    await oldRunWrite(
      anaSql,
      cancelled,
      `UPDATE runs SET state = 'cancelled' WHERE run_id = $1`,
      [cancelled],
      'run.cancelled',
    )
  }, 120_000)
  afterAll(async () => team?.stop())

  it('keeps every run, row, wave and audit entry; the chain verifies and the desks go on', async () => {
    const before = await snapshot()
    expect(before.runs).toHaveLength(4)
    expect(before.payees).toHaveLength(3)
    await migratePg(owner, PG_MIGRATIONS)
    expect(await snapshot()).toEqual(before)
    // The desk-computed hashes of before are the database's.
    for (const h of await hashes(owner)) expect([h.db, h.audited]).toEqual([h.ts, h.ts])

    const ana = await team.desk('ana')
    const bia = await team.desk('bia')
    const a = pgRunStore(ana.pool, ana.identity)
    const b = pgRunStore(bia.pool, bia.identity)
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    // The old ways in are closed.
    expect(
      await sqlstate(anaSql.query(`UPDATE run_rows SET state = 'queued' WHERE run_id = $1`, [ids.draft])),
    ).toBe('42501')
    // Each run goes on from where it was.
    await a.changeRow(ids.draft!, 1, ['pending'], { decision: 'keep' }, 'Ana', 'run.row_decided')
    await expect(
      a.setState(ids.asked!, ['draft'], 'approved', 'Ana', 'run.approved', {}, { hash: HASH }),
    ).rejects.toMatchObject({ code: 'approval_self' })
    await b.setState(ids.asked!, ['draft'], 'approved', 'Bia', 'run.approved', {}, { hash: HASH })
    await a.markWaveFunded(ids.sending!, 1, 'tx-1', 'Ana')
    await a.changeRow(ids.sending!, 1, ['queued'], { state: 'held', heldReason: 'x' }, 'Ana', 'run.row_held')
    await expect(
      a.setState(ids.cancelled!, ['draft', 'cancelled'], 'draft', 'Ana', 'run.reopened'),
    ).rejects.toBeTruthy()
    // The payee book too: the old hashes are the database's, and the book goes on.
    for (const h of await payeeHashes(owner)) expect([h.db, h.audited]).toEqual([h.ts, h.ts])
    const book = pgPayeeStore(bia.pool)
    const edited = await book.byId(ids.payeeEdited!)
    await book.update(
      ids.payeeEdited!,
      { name: 'B³', taxNumber: '111.444.777-35', pixKeys: [{ key: 'b@x.com' }] },
      'Bia',
      { expectedUpdatedAt: edited!.updatedAt },
    )
    await book.remove(ids.payeeKept!, 'Bia', {
      expectedUpdatedAt: (await book.byId(ids.payeeKept!))!.updatedAt,
    })
    expect(
      await sqlstate(anaSql.query(`UPDATE payees SET name = 'x' WHERE id = $1`, [ids.payeeEdited])),
    ).toBe('42501')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    for (const h of await hashes(owner)) expect([h.db, h.audited]).toEqual([h.ts, h.ts])
    for (const h of await payeeHashes(owner)) expect([h.db, h.audited]).toEqual([h.ts, h.ts])
  })
})
