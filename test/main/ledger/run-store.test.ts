/**
 * The team ledger's run store (pg/run-store.ts) on a real cluster, below the app: the audit chain it writes verifies,
 * a run edited outside the app is not built upon, two desks moving one run at once cannot both win, a wave is
 * funded once, and a 1000-row import is one transaction of bounded cost.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PgLedgerStore } from '../../../src/main/ledger/engines'
import { pgRunStore } from '../../../src/main/ledger/pg/run-store'
import type { RunStore } from '../../../src/main/ledger/run-store'
import { generateLiquidAddress } from '../../../src/main/liquid'
import type { ImportedRow } from '../../../src/shared/run'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

announceSkip('team run store (postgres)')

const refund = generateLiquidAddress('liquid').address
const row = (i: number): ImportedRow => ({
  line: i + 2,
  draft: {
    pixKey: `row-${i}@example.com`,
    taxNumber: '52998224725',
    amount: { kind: 'payout', cents: 1_000 + i },
    refundAddress: refund,
  },
  payee: { kind: 'blank', payeeId: null, name: null },
  refundFromProfile: false,
  duplicate: null,
  warnings: [],
})
const rows = (n: number): ImportedRow[] => Array.from({ length: n }, (_, i) => row(i))

describe.skipIf(PG_SKIP_REASON !== null)('team run store', () => {
  let team: Team
  let ana: PgLedgerStore, bia: PgLedgerStore
  let a: RunStore, b: RunStore
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    bia = await team.desk('bia')
    a = pgRunStore(ana.pool, ana.identity)
    b = pgRunStore(bia.pool, bia.identity)
  }, 120_000)
  afterAll(async () => team?.stop())

  it('writes an audit chain that verifies, every entry under the role that made it', async () => {
    const run = await a.create({ profile: 'p1', name: 'lote', rows: rows(3) }, 'Ana Souza')
    expect(run).toMatchObject({ state: 'draft', operator: 'Ana Souza', rowCount: 3, approvedBy: null })
    await b.changeRow(run.runId, 1, ['pending'], { decision: 'drop' }, 'Bia', 'run.row_decided')
    const approved = await a.setState(
      run.runId,
      ['draft'],
      'approved',
      'Ana Souza',
      'run.approved',
      {},
      {
        hash: 'ab'.repeat(32),
      },
    )
    // Who approved is the database role, not what the desk says.
    expect(approved.approvedBy).toBe('ana')
    const audit = await ana.audit({ subject: `${run.runId}#1` })
    expect(audit.rows.map((e) => [e.operator, e.action])).toEqual([
      ['bia', 'run.row_decided'],
      ['ana', 'run.row_imported'],
    ])
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    expect((await b.list()).map((r) => r.runId)).toContain(run.runId)
  })

  it('names the refund addresses of the rows to pay that the team has not registered, dropped rows aside', async () => {
    const other = generateLiquidAddress('liquid').address
    const dropped = generateLiquidAddress('liquid').address
    const rs = [row(0), { ...row(1), draft: { ...row(1).draft, refundAddress: other } }, row(2)]
    rs[2] = { ...rs[2]!, draft: { ...rs[2]!.draft, refundAddress: dropped } }
    const run = await a.create({ profile: 'p1', name: 'devoluções', rows: rs }, 'ana')
    await a.changeRow(run.runId, 2, ['pending'], { decision: 'drop' }, 'ana', 'run.row_decided')
    // Nothing registered yet: both addresses of the rows to pay are named, once each, the dropped row's is not.
    expect([...(await b.fourEyes!.approvalOf(run.runId)).unregisteredRefunds].sort()).toEqual(
      [other, refund].sort(),
    )
    // The owner registers the usual one as a treasury address: only the other stays marked.
    const owner = await team.owner()
    await owner.query(`INSERT INTO ledger.treasury_addresses (address, label) VALUES ($1, 'teste')`, [refund])
    expect((await b.fourEyes!.approvalOf(run.runId)).unregisteredRefunds).toEqual([other])
  })

  it('refuses to build on a run or row changed outside the app', async () => {
    const run = await a.create({ profile: 'p1', name: 'lote', rows: rows(2) }, 'ana')
    const owner = await team.owner()
    await owner.query(`UPDATE run_rows SET held_reason = 'edited' WHERE run_id = $1 AND idx = 0`, [run.runId])
    await expect(
      a.changeRow(run.runId, 0, ['pending'], { decision: 'keep' }, 'ana', 'run.row_decided'),
    ).rejects.toMatchObject({ code: 'record_tampered' })
    // The other row is untouched and still writable.
    await a.changeRow(run.runId, 1, ['pending'], { decision: 'keep' }, 'ana', 'run.row_decided')
  })

  it('two desks starting the same wave at once: one wins, the other is refused', async () => {
    const run = await a.create({ profile: 'p1', name: 'lote', rows: rows(4) }, 'ana')
    await a.setState(run.runId, ['draft'], 'approved', 'ana', 'run.approved', {}, { hash: 'cd'.repeat(32) })
    const results = await Promise.allSettled([
      a.startWave(run.runId, 1, [0, 1], 'ana'),
      b.startWave(run.runId, 1, [2, 3], 'bia'),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    expect((results.find((r) => r.status === 'rejected') as PromiseRejectedResult).reason).toMatchObject({
      code: 'illegal_transition',
    })
    const queued = (await a.rows(run.runId)).filter((r) => r.state === 'queued')
    expect(queued).toHaveLength(2)
    expect(await a.waves(run.runId)).toHaveLength(1)
    // Only the desk that started the wave recovers it after a restart.
    const winner = results[0]!.status === 'fulfilled' ? a : b
    const loser = winner === a ? b : a
    expect((await winner.interrupted()).map((r) => r.runId)).toContain(run.runId)
    expect((await loser.interrupted()).map((r) => r.runId)).not.toContain(run.runId)
    await winner.setState(run.runId, ['creating'], 'awaiting_funding', 'x', 'run.wave_created')
    const funded = await Promise.allSettled([
      a.markWaveFunded(run.runId, 1, null, 'ana'),
      b.markWaveFunded(run.runId, 1, 'ef'.repeat(32), 'bia'),
    ])
    expect(funded.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
  })

  it('imports 1000 rows in one transaction of bounded cost', async () => {
    const t0 = performance.now()
    const run = await a.create({ profile: 'p1', name: 'grande', rows: rows(1000) }, 'ana')
    const ms = performance.now() - t0
    expect(await a.rows(run.runId)).toHaveLength(1000)
    console.log(`team run store: 1000-row import in ${Math.round(ms)} ms`)
    expect(ms).toBeLessThan(30_000)
    await expect(a.create({ profile: 'p1', name: 'x', rows: rows(1001) }, 'ana')).rejects.toMatchObject({
      code: 'invalid_input',
    })
  }, 60_000)
})
