/**
 * Team ledger migration 16 (issue #24) on a database at migration 15 with runs in several states (draft with a
 * dropped row, asked for approval, approved and awaiting its wave's funding, cancelled) and payees (kept, edited,
 * removed), written as the desks wrote them before: every row and audit entry is kept, the desk-computed audit hashes
 * are the database's, the chain verifies, and the desks go on writing those runs and payees through the functions.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { migratePg } from '../../../../../src/main/ledger/engines'
import { pgPayeeStore, pgRowToPayee } from '../../../../../src/main/ledger/pg/payees'
import { pgRunStore, toRow } from '../../../../../src/main/ledger/pg/run-store'
import { PG_MIGRATIONS } from '../../../../../src/main/ledger/pg/schema'
import { payeeStateHash } from '../../../../../src/main/ledger/sqlite/payee-states'
import { stateHash } from '../../../../../src/main/ledger/sqlite/runs'
import { announceSkip, PG_SKIP_REASON } from '../../../../support/postgres'
import { psqlAs, sqlstate } from '../../adversary'
import { startTeam, type Team } from '../../team'
import { HASH, hashes, oldRowWrite, oldRunWrite, payeeHashes, row } from './runs-functions-fixtures'

announceSkip('migration 16 on a team ledger at migration 15 (postgres)')

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
