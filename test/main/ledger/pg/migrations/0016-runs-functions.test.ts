/**
 * Team ledger migration 16 (issue #24): runs, run rows, waves and the payee book are written only through SECURITY
 * DEFINER functions that check the moves and audit the change with a state hash the database computes.
 * - a hostile analyst at her own psql prompt cannot INSERT/UPDATE/DELETE runs, run_rows, run_waves, payees or
 *   payee_keys (42501), nor call the functions' internal writers, nor forge their audit entries;
 * - the database's `run_state` / `run_row_state` / `payee_state` hash is the TypeScript one of the row read back;
 * - the moves the app makes go through; a refused one gets a named SQLSTATE.
 * The upgrade from migration 15: migration-runs-functions-upgrade.test.ts.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PgLedgerStore } from '../../../../../src/main/ledger/engines'
import { pgPayeeStore } from '../../../../../src/main/ledger/pg/payees'
import { pgRunStore } from '../../../../../src/main/ledger/pg/run-store'
import type { RunStore } from '../../../../../src/main/ledger/run-store'
import { announceSkip, PG_SKIP_REASON } from '../../../../support/postgres'
import { handRun, psqlAs, sqlstate } from '../../adversary'
import { startTeam, type Team } from '../../team'
import { HASH, hashes, NAMES, PAYEE_INPUTS, payeeHashes, rows, RUN_STATES } from './runs-functions-fixtures'

announceSkip('migration 16: runs and payees written only through functions (postgres)')

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

  it('computes the state hash ledger/sqlite/runs.ts computes, on varied runs and rows', async () => {
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
