/**
 * Payment runs on the team ledger (issue #16), through the IPC router of real app contexts (team-rig.ts): a real
 * PostgreSQL cluster, one sandbox account, one desk per analyst role. POST /withdraw is counted on the wire.
 */
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pgPool } from '../../../src/main/ledger/engines'
import { pgRunStore } from '../../../src/main/ledger/pg/run-store'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { handRun } from '../ledger/adversary'
import { OWNER, type Team } from '../ledger/team'
import { draft, pay, postsSent, startDesks, until, type Desk, type DeskRig, type Result } from './team-rig'

announceSkip('team runs (postgres + sandbox + app contexts)')

/** The sandbox takes Liquid mainnet refund addresses, unconfidential. */
const REFUND = generateLiquidAddress('liquid', { confidential: false }).address
const HEADER = 'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução'

/** A pt-BR CSV: one line per [pix key, payout cents]. */
function csv(rows: ReadonlyArray<readonly [string, number]>): string {
  const lines = rows.map(
    ([key, cents], i) =>
      `Fornecedor ${i};${key};52998224725;${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, '0')};${REFUND}`,
  )
  return Buffer.from([HEADER, ...lines].join('\r\n'), 'utf8').toString('base64')
}

interface Detail {
  run: { runId: string; state: string; approvedBy: string | null; approvedHash: string | null }
  summary: { depositCents: number; payoutCents: number; undecided: number }
  rows: Array<{
    idx: number
    state: string
    localId: string | null
    heldReason: string | null
    outcome: string
    duplicate: { lines: number[]; ledger: string[] } | null
  }>
  approval: { needed: boolean; requestedBy: string | null; mine: boolean } | null
}

const ok = <T>(r: Result): T => {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`)
  return r.data as T
}
const code = (r: Result): string | undefined => (r.error as { code?: string } | undefined)?.code

async function importRun(
  k: Desk,
  rows: ReadonlyArray<readonly [string, number]>,
  name = 'lote',
): Promise<Detail> {
  const imported = ok<{ runId: string | null; issues: unknown[] }>(
    await k.call('runs:import', { name: `${name}.csv`, contentBase64: csv(rows) }),
  )
  expect(imported.issues).toEqual([])
  expect(imported.runId).not.toBeNull()
  return ok<Detail>(await k.call('runs:get', { runId: imported.runId }))
}

const detailOn = async (k: Desk, runId: string): Promise<Detail> =>
  ok<Detail>(await k.call('runs:get', { runId }))

/** The run's wave is over on desk `k` (no row queued or in flight, run not creating). */
const waveDone = (k: Desk, runId: string): Promise<Detail> =>
  until(
    'the wave to end',
    async () => {
      const d = await detailOn(k, runId)
      return d.run.state !== 'creating' ? d : undefined
    },
    30_000,
  )

describe.skipIf(PG_SKIP_REASON !== null)('payment runs on the team ledger', () => {
  let rig: DeskRig
  let team: Team
  let owner: pg.Client
  let alice: Desk, bob: Desk, carol: Desk
  const records = async (key: string): Promise<number> =>
    Number(
      (await owner.query('SELECT count(*) AS n FROM withdrawals WHERE lower(pix_key) = lower($1)', [key]))
        .rows[0].n,
    )

  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob', 'carol'])
    team = rig.team
    ;[alice, bob, carol] = rig.desks as [Desk, Desk, Desk]
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => rig?.stop())

  it('a run imported and sent on one desk is seen on another; planning sees other desks’ payments', async () => {
    // Bob paid this key and amount a moment ago on his desk: Alice's import must see it.
    const paid = ok<{ localId: string }>(await pay(bob, draft('seen-elsewhere@example.com', 1_500)))
    const before = postsSent()
    const d = await importRun(alice, [
      ['run-a0@example.com', 1_000],
      ['run-a1@example.com', 1_100],
      ['seen-elsewhere@example.com', 1_500],
    ])
    const runId = d.run.runId
    expect(d.rows[2]!.duplicate).toEqual({ lines: [], ledger: [paid.localId] })
    expect(d.summary.undecided).toBe(1)
    expect(d.approval).toEqual({
      needed: false,
      requestedBy: null,
      requestedAt: null,
      mine: false,
      rejectedBy: null,
      rejectedReason: null,
      // No treasury address registered on this team: the rows' refund address is named for the approver.
      unregisteredRefunds: [REFUND],
    })
    ok(await alice.call('runs:decide', { runId, idx: 2, decision: 'drop' }))

    // Bob sees Alice's run (the team's runs are the account's, whichever desk imported them).
    const listed = ok<Array<{ runId: string; operator: string }>>(await bob.call('runs:list'))
    expect(listed.map((r) => r.runId)).toContain(runId)

    const total = (await detailOn(alice, runId)).summary.payoutCents
    expect(ok<Detail>(await alice.call('runs:approve', { runId, confirmPayoutCents: total })).run.state).toBe(
      'approved',
    )
    ok(await alice.call('runs:startWave', { runId }))
    const done = await waveDone(alice, runId)
    expect(done.run.state).toBe('awaiting_funding')
    expect(postsSent() - before).toBe(2)

    // Bob's runs screen hears of it (LISTEN depix_runs): he did nothing to this run himself.
    await until('bob to hear of the run', async () =>
      bob.events.some((e) => e.event === 'run:changed' && (e.payload as { runId: string }).runId === runId)
        ? true
        : undefined,
    )
    const seen = await detailOn(bob, runId)
    expect(seen.rows.map((r) => [r.state, r.outcome])).toEqual([
      ['submitted', 'created'],
      ['submitted', 'created'],
      ['dropped', 'dropped'],
    ])
    // Every change was audited through append_audit, under the role that made it.
    const audit = await owner.query(
      `SELECT operator, action FROM audit_log WHERE subject = $1 OR subject LIKE $1 || '#%' ORDER BY seq`,
      [runId],
    )
    const actions = audit.rows.map((r) => `${r.operator}:${r.action}`)
    expect(actions).toContain('alice:run.imported')
    expect(actions).toContain('alice:run.approved')
    expect(actions).toContain('alice:run.wave_created')
    expect(actions.filter((a) => a === 'alice:run.row_submitted')).toHaveLength(2)
    expect(await records('run-a0@example.com')).toBe(1)
  }, 60_000)

  /**
   * The guard's advisory lock for (key, payout, cents), held by the owner in an open transaction: creates of that
   * key and amount wait behind it, each already past its quote (which saw nothing similar). Released by `release`.
   */
  async function holdGuard(
    key: string,
    cents: number,
  ): Promise<{ waiting(): Promise<number>; release(): Promise<void> }> {
    const c = new pg.Client(team.config(OWNER))
    await c.connect()
    await c.query('BEGIN')
    // The guard's lock of the Pix key (pg/store.ts guardLock, ledger/model/similar.ts guardLockName).
    void cents
    await c.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 727016))`, [`key:${key.toLowerCase()}`])
    return {
      waiting: async () =>
        Number(
          (
            await owner.query(
              `SELECT count(*) AS n FROM pg_locks WHERE locktype = 'advisory' AND NOT granted`,
            )
          ).rows[0].n,
        ),
      release: async () => {
        await c.query('COMMIT')
        await c.end()
      },
    }
  }

  it('a run row and a single payment racing at the guard on two desks: the first in wins, one POST', async () => {
    for (const first of ['single', 'row'] as const) {
      const key = `guard-${first}@example.com`
      const cents = 2_500
      const d = await importRun(alice, [[key, cents]], `guard-${first}`)
      const runId = d.run.runId
      ok(await alice.call('runs:approve', { runId, confirmPayoutCents: d.summary.payoutCents }))
      const before = postsSent()
      const guard = await holdGuard(key, cents)
      let single: Promise<Result>
      let wave: Promise<Result>
      if (first === 'single') {
        single = pay(bob, draft(key, cents))
        await until('the single payment to wait at the guard', async () =>
          (await guard.waiting()) === 1 ? true : undefined,
        )
        wave = alice.call('runs:startWave', { runId })
      } else {
        wave = alice.call('runs:startWave', { runId })
        await until('the row to wait at the guard', async () =>
          (await guard.waiting()) === 1 ? true : undefined,
        )
        single = pay(bob, draft(key, cents))
      }
      // Both passed their quote with nothing similar, and both wait to insert.
      await until('both creates to wait at the guard', async () =>
        (await guard.waiting()) === 2 ? true : undefined,
      )
      expect((await detailOn(alice, runId)).rows[0]!.state).toBe('in_flight')
      await guard.release()
      ok(await wave)
      const sent = await single
      const row = (await waveDone(alice, runId)).rows[0]!
      expect(await records(key)).toBe(1)
      expect(postsSent() - before).toBe(1)
      if (first === 'single') {
        expect(sent.ok).toBe(true)
        // Refused at the insert (nothing journaled, nothing sent): held with the run's duplicate warning.
        expect(row).toMatchObject({ state: 'held', heldReason: 'duplicate_since_approval', localId: null })
      } else {
        expect(code(sent)).toBe('duplicate_since_review')
        expect(row).toMatchObject({ state: 'submitted', outcome: 'created' })
      }
    }
  }, 90_000)

  it('a run row and a single payment of the same key and amount on two desks at once: one POST', async () => {
    for (let round = 0; round < 3; round++) {
      const key = `race-${round}@example.com`
      const d = await importRun(alice, [[key, 2_000 + round]], `race-${round}`)
      const runId = d.run.runId
      ok(await alice.call('runs:approve', { runId, confirmPayoutCents: d.summary.payoutCents }))
      const before = postsSent()
      const [, single] = await Promise.all([
        alice.call('runs:startWave', { runId }),
        pay(bob, draft(key, 2_000 + round)),
      ])
      const end = await waveDone(alice, runId)
      const row = end.rows[0]!
      // Exactly one of the two was journaled and sent; the other was refused before anything was sent.
      expect(await records(key)).toBe(1)
      expect(postsSent() - before).toBe(1)
      if (single.ok) {
        expect(row).toMatchObject({ state: 'held', localId: null })
      } else {
        expect(['duplicate', 'duplicate_since_review']).toContain(code(single))
        expect(row).toMatchObject({ state: 'submitted', outcome: 'created' })
      }
    }
  }, 90_000)

  it('rows of two desks’ runs with the same key and amount: one sent, the other held', async () => {
    const key = 'two-runs@example.com'
    const a = await importRun(alice, [[key, 3_300]], 'a')
    const c = await importRun(carol, [[key, 3_300]], 'c')
    ok(await alice.call('runs:approve', { runId: a.run.runId, confirmPayoutCents: a.summary.payoutCents }))
    ok(await carol.call('runs:approve', { runId: c.run.runId, confirmPayoutCents: c.summary.payoutCents }))
    const before = postsSent()
    await Promise.all([
      alice.call('runs:startWave', { runId: a.run.runId }),
      carol.call('runs:startWave', { runId: c.run.runId }),
    ])
    const rows = [
      (await waveDone(alice, a.run.runId)).rows[0]!,
      (await waveDone(carol, c.run.runId)).rows[0]!,
    ]
    expect(rows.map((r) => r.state).sort()).toEqual(['held', 'submitted'])
    expect(rows.find((r) => r.state === 'held')!.heldReason).toBe('duplicate_since_approval')
    expect(await records(key)).toBe(1)
    expect(postsSent() - before).toBe(1)
  }, 60_000)

  it('four-eyes: a run above the threshold waits for another role; the database refuses its requester', async () => {
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
    try {
      // Each row alone: one under, one over the threshold; the total is over it too.
      const d = await importRun(alice, [
        ['four-eyes-run-0@example.com', 6_000],
        ['four-eyes-run-1@example.com', 15_000],
      ])
      const runId = d.run.runId
      const total = d.summary.payoutCents
      const asked = ok<Detail>(await alice.call('runs:approve', { runId, confirmPayoutCents: total }))
      expect(asked.run.state).toBe('draft')
      expect(asked.approval).toMatchObject({ needed: true, requestedBy: 'alice', mine: true })
      expect((await detailOn(bob, runId)).approval).toMatchObject({ requestedBy: 'alice', mine: false })

      // The requester cannot approve it, through the app or straight on the database with her own role.
      const self = await alice.call('runs:approve', { runId, confirmPayoutCents: total })
      expect(code(self)).toBe('approval_self')
      expect(code(await alice.call('runs:startWave', { runId }))).toBe('illegal_state')
      const own = new pg.Client({ ...team.config('alice'), options: '-c search_path=ledger,pg_temp' })
      await own.connect()
      try {
        const hash = (
          await owner.query('SELECT approval_requested_hash AS h FROM runs WHERE run_id = $1', [runId])
        ).rows[0].h as string
        // Her prompt writes a run only through the run functions (migration 16): the same rules refuse her there.
        await expect(
          own.query(`UPDATE runs SET state = 'approved', approved_hash = $2 WHERE run_id = $1`, [
            runId,
            hash,
          ]),
        ).rejects.toMatchObject({ code: '42501' })
        await expect(handRun.setState(own, runId, 'approved', hash)).rejects.toMatchObject({ code: 'DPX03' })
        // Rows of an unapproved run cannot be sent (not even queued), and the rows asked for are frozen. Straight
        // to in flight is not a move of a run row at all (migration 11).
        await expect(handRun.changeRow(own, runId, 0, { state: 'queued' })).rejects.toMatchObject({
          code: 'DPX02',
        })
        await expect(
          handRun.changeRow(own, runId, 0, { state: 'in_flight', localId: 'x' }),
        ).rejects.toMatchObject({ code: 'DPX11' })
        // A row's payment covered by the request is frozen (a changed decision voids the request instead).
        await expect(
          handRun.changeRow(own, runId, 0, { draft: { pixKey: 'eve@example.com' } }),
        ).rejects.toMatchObject({ code: 'DPX02' })
        await expect(own.query(`DELETE FROM runs WHERE run_id = $1`, [runId])).rejects.toMatchObject({
          code: '42501',
        })
      } finally {
        await own.end()
      }

      // A changed row voids the request (audited); the rows must be asked for again.
      const voided = ok<Detail>(await alice.call('runs:decide', { runId, idx: 0, decision: 'keep' }))
      expect(voided.approval).toMatchObject({ needed: true, requestedBy: null, mine: false })
      const again = ok<Detail>(await alice.call('runs:approve', { runId, confirmPayoutCents: total }))
      expect(again.approval).toMatchObject({ requestedBy: 'alice', mine: true })

      // Another analyst approves it (typing the total too); the rows, one of them above the threshold, go once.
      const approved = ok<Detail>(await bob.call('runs:approve', { runId, confirmPayoutCents: total }))
      expect(approved.run).toMatchObject({ state: 'approved', approvedBy: 'bob' })
      const before = postsSent()
      ok(await alice.call('runs:startWave', { runId }))
      const done = await waveDone(alice, runId)
      expect(done.rows.map((r) => r.outcome)).toEqual(['created', 'created'])
      expect(postsSent() - before).toBe(2)
      const audit = await owner.query(
        `SELECT operator, action FROM audit_log WHERE subject = $1 ORDER BY seq`,
        [runId],
      )
      const actions = audit.rows.map((r) => `${r.operator}:${r.action}`)
      expect(actions).toEqual(
        expect.arrayContaining([
          'alice:run.approval_requested',
          'alice:run.approval_voided',
          'bob:run.approved',
          'alice:run.wave_started',
        ]),
      )

      // Another analyst cancelling a run that waits for approval rejects it (audited as a rejection).
      const other = await importRun(alice, [['four-eyes-run-2@example.com', 12_000]])
      const otherTotal = other.summary.payoutCents
      // Bob asks for the approval of Alice's run: she imported it, so she cannot approve it either.
      ok(await bob.call('runs:approve', { runId: other.run.runId, confirmPayoutCents: otherTotal }))
      const importer = await alice.call('runs:approve', {
        runId: other.run.runId,
        confirmPayoutCents: otherTotal,
      })
      expect(code(importer)).toBe('approval_self')
      // A rejection needs a reason (issue #26): without one nothing changes.
      expect(code(await carol.call('runs:cancel', { runId: other.run.runId }))).toBe('reason_required')
      expect(code(await carol.call('runs:cancel', { runId: other.run.runId, reason: '   ' }))).toBe(
        'reason_required',
      )
      expect(ok<Detail>(await carol.call('runs:get', { runId: other.run.runId })).run.state).toBe('draft')
      const cancelled = ok<Detail>(
        await carol.call('runs:cancel', { runId: other.run.runId, reason: 'NF 123 ainda não chegou' }),
      )
      expect(cancelled.run.state).toBe('cancelled')
      const rejected = await owner.query(
        `SELECT operator, details FROM audit_log WHERE subject = $1 AND action = 'run.approval_rejected'`,
        [other.run.runId],
      )
      expect(rejected.rows.map((r) => r.operator)).toEqual(['carol'])
      expect(JSON.parse(rejected.rows[0].details)).toMatchObject({ reason: 'NF 123 ainda não chegou' })
      // Whoever asked reads who rejected it and why.
      expect(ok<Detail>(await bob.call('runs:get', { runId: other.run.runId })).approval).toMatchObject({
        rejectedBy: 'carol',
        rejectedReason: 'NF 123 ainda não chegou',
      })
      expect(await records('four-eyes-run-2@example.com')).toBe(0)
    } finally {
      await owner.query('UPDATE team_settings SET approval_above_cents = NULL WHERE id = 1')
    }
  }, 90_000)

  it('after a restart mid-wave only the desk that was sending recovers the run; resume sends the rest once', async () => {
    const d = await importRun(alice, [
      ['restart-0@example.com', 4_000],
      ['restart-1@example.com', 4_100],
    ])
    const runId = d.run.runId
    ok(await alice.call('runs:approve', { runId, confirmPayoutCents: d.summary.payoutCents }))
    // Alice's desk dies with row 0 committed in flight (no record: never journaled, never sent) — as alice's role.
    const pool = pgPool({ connection: team.config('alice') })
    try {
      const store = pgRunStore(pool, 'alice')
      await store.startWave(runId, 1, [0, 1], 'alice')
      // As the desk's wave does: a row goes into flight only under the run's lease (migration 13).
      expect((await store.leases!.claim(runId, 60_000)).mine).toBe(true)
      await store.changeRow(
        runId,
        0,
        ['queued'],
        { state: 'in_flight', localId: crypto.randomUUID() },
        'alice',
        'run.row_in_flight',
      )
    } finally {
      await pool.end()
    }
    // Bob's desk does not touch it: Alice's desk might be mid-POST.
    await bob.call('runs:list')
    expect((await detailOn(bob, runId)).run.state).toBe('creating')

    await alice.ctx.close()
    const again = await rig.openDesk('alice', rig.settingsFor('alice'), 'alice-pw')
    rig.desks.push(again)
    ok(await again.call('runs:list'))
    const recovered = await detailOn(again, runId)
    expect(recovered.run.state).toBe('paused')
    expect(recovered.rows.map((r) => r.state)).toEqual(['queued', 'queued'])
    const before = postsSent()
    ok(await again.call('runs:resume', { runId }))
    const done = await waveDone(again, runId)
    expect(done.rows.map((r) => r.outcome)).toEqual(['created', 'created'])
    expect(postsSent() - before).toBe(2)
    alice = again
  }, 90_000)

  it('a role outside depix_analysts can neither read nor write runs; an analyst cannot forge who approved', async () => {
    await team.addAnalyst('mallory', false)
    const mallory = new pg.Client(team.config('mallory'))
    await mallory.connect()
    try {
      for (const sql of [
        'SELECT * FROM ledger.runs',
        'SELECT * FROM ledger.run_rows',
        `INSERT INTO ledger.runs (run_id, profile, operator, name, row_count) VALUES ('r', 'p', 'm', 'n', 1)`,
      ])
        await expect(mallory.query(sql)).rejects.toMatchObject({ code: '42501' })
    } finally {
      await mallory.end()
    }
    const own = new pg.Client(team.config('alice'))
    await own.connect()
    try {
      for (const sql of [
        `UPDATE ledger.runs SET approved_by = 'bob'`,
        `UPDATE ledger.runs SET db_user = 'bob'`,
        `UPDATE ledger.run_rows SET updated_by = 'bob'`,
        `DELETE FROM ledger.run_rows`,
        `UPDATE ledger.run_waves SET funded_at = 'x'`,
      ])
        await expect(own.query(sql)).rejects.toMatchObject({ code: '42501' })
    } finally {
      await own.end()
    }
  }, 30_000)
})
