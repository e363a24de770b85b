/**
 * A hostile analyst at a psql prompt against the team ledger's four-eyes rule (issue #16: "the database enforces
 * approver ≠ creator"), for single payments and for payment runs: approving one's own request directly, through a
 * second row, by changing who asked, by asking again after the approval, by editing or adding rows after it, by
 * importing a run as approved; paying above the threshold without an approval or twice with one. Each attempt is
 * refused with its SQLSTATE. One throwaway cluster; eve and bia are two roles on two connections.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { handRun, decide, insertWithdrawal, psqlAs, requestApproval, sqlstate } from './adversary'
import { startTeam, type Team } from './team'

announceSkip('adversarial: four-eyes (postgres)')

const THRESHOLD = 10_000

describe.skipIf(PG_SKIP_REASON !== null)('adversarial: four-eyes', () => {
  let team: Team
  let eve: pg.Client
  let bia: pg.Client
  let mal: pg.Client
  let owner: pg.Client
  beforeAll(async () => {
    team = await startTeam()
    eve = await psqlAs(team, 'eve')
    bia = await psqlAs(team, 'bia')
    mal = await psqlAs(team, 'mal')
    owner = await team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = $1 WHERE id = 1', [THRESHOLD])
  }, 120_000)
  afterAll(async () => {
    for (const c of [eve, bia, mal]) await c?.end().catch(() => undefined)
    await team?.stop()
  })

  const approved = async (cents: number): Promise<{ localId: string; approvalId: string }> => {
    const localId = randomUUID()
    const approvalId = await requestApproval(eve, localId, cents)
    await decide(bia, approvalId, 'approved')
    return { localId, approvalId }
  }

  describe('single payments', () => {
    it('above the threshold: refused without an approval, or with a pending, rejected or mismatched one', async () => {
      expect(await sqlstate(insertWithdrawal(eve, { cents: THRESHOLD + 1 }))).toBe('DPX01')
      // At the threshold no approval is needed (the rule is "above").
      expect(await sqlstate(insertWithdrawal(eve, { cents: THRESHOLD }))).toBe('ok')
      const pending = randomUUID()
      const pid = await requestApproval(eve, pending, 50_000)
      expect(
        await sqlstate(insertWithdrawal(eve, { localId: pending, cents: 50_000, approvalId: pid })),
      ).toBe('DPX02')
      const rejected = randomUUID()
      const rid = await requestApproval(eve, rejected, 50_000)
      await decide(bia, rid, 'rejected')
      expect(
        await sqlstate(insertWithdrawal(eve, { localId: rejected, cents: 50_000, approvalId: rid })),
      ).toBe('DPX02')
      const a = await approved(50_000)
      // Another amount, another key, another local id: each is not what was approved.
      for (const o of [{ cents: 60_000 }, { pixKey: 'mallory@example.com' }, { localId: randomUUID() }]) {
        expect(
          await sqlstate(
            insertWithdrawal(eve, { localId: a.localId, cents: 50_000, approvalId: a.approvalId, ...o }),
          ),
        ).toBe('DPX02')
      }
    })

    it('the requester cannot decide, nor become someone else, nor decide twice', async () => {
      const localId = randomUUID()
      const id = await requestApproval(eve, localId, 50_000)
      expect(await sqlstate(eve.query(`UPDATE approvals SET state = 'approved' WHERE id = $1`, [id]))).toBe(
        '42501',
      )
      expect(await sqlstate(decide(eve, id, 'approved'))).toBe('DPX03')
      expect(await sqlstate(eve.query(`UPDATE approvals SET requested_by = 'bia' WHERE id = $1`, [id]))).toBe(
        '42501',
      )
      // A second request for the same payment (so that "another" row could be approved): one per local id.
      expect(await sqlstate(requestApproval(eve, localId, 50_000))).toBe('23505')
      // A request typed as already approved comes in pending anyway.
      const r = await eve.query(`SELECT state, requested_by, decided_by FROM approvals WHERE id = $1`, [id])
      expect(r.rows[0]).toEqual({ state: 'pending', requested_by: 'eve', decided_by: null })
      await decide(bia, id, 'approved')
      expect(await sqlstate(decide(bia, id, 'rejected'))).toBe('DPX04')
      expect(await sqlstate(decide(eve, id, 'approved', 'x'))).toBe('DPX04')
      const after = await owner.query(`SELECT state, decided_by FROM approvals WHERE id = $1`, [id])
      expect(after.rows[0]).toEqual({ state: 'approved', decided_by: 'bia' })
    })

    it('one approval pays once: no second row, no rename of the first, not even with the rename let through', async () => {
      const a = await approved(50_000)
      const first = await insertWithdrawal(eve, {
        localId: a.localId,
        cents: 50_000,
        approvalId: a.approvalId,
      })
      expect(first.rows[0]).toMatchObject({ db_user: 'eve', approval_id: a.approvalId })
      expect(
        await sqlstate(
          insertWithdrawal(eve, { localId: a.localId, cents: 50_000, approvalId: a.approvalId }),
        ),
      ).toBe('23505')
      // Renaming the paid record would free its local id for a second insert under the same approval.
      expect(
        await sqlstate(
          eve.query(`UPDATE withdrawals SET local_id = 'moved' WHERE local_id = $1`, [a.localId]),
        ),
      ).toBe('42501')
      // An approval cannot be moved onto another record either: no UPDATE since migration 11, and the function
      // takes an approval only for a new row.
      const small = await insertWithdrawal(eve, { cents: 500 })
      expect(
        await sqlstate(
          eve.query(`UPDATE withdrawals SET approval_id = $2 WHERE local_id = $1`, [
            small.rows[0].local_id,
            a.approvalId,
          ]),
        ),
      ).toBe('42501')
      // Second layer: with the rename let through (the owner, trigger off), the unique index still refuses the reuse.
      await owner.query('ALTER TABLE withdrawals DISABLE TRIGGER withdrawals_harden')
      try {
        await owner.query(`UPDATE withdrawals SET local_id = $2 WHERE local_id = $1`, [
          a.localId,
          `${a.localId}-old`,
        ])
      } finally {
        await owner.query('ALTER TABLE withdrawals ENABLE TRIGGER withdrawals_harden')
      }
      expect(
        await sqlstate(
          insertWithdrawal(eve, { localId: a.localId, cents: 50_000, approvalId: a.approvalId }),
        ),
      ).toBe('23505')
    })

    it('two roles racing to pay with one approval: exactly one wins', async () => {
      const a = await approved(50_000)
      const results = await Promise.all(
        [eve, mal].map((c) =>
          sqlstate(
            insertWithdrawal(c, {
              localId: a.localId,
              cents: 50_000,
              approvalId: a.approvalId,
            }),
          ),
        ),
      )
      expect(results.sort()).toEqual(['23505', 'ok'])
      const n = await owner.query('SELECT count(*) AS n FROM withdrawals WHERE approval_id = $1', [
        a.approvalId,
      ])
      expect(n.rows[0].n).toBe('1')
    })

    it('an "imported" record needs no approval, but never arrives as being submitted', async () => {
      expect(
        await sqlstate(
          insertWithdrawal(eve, { cents: 50_000, importedFrom: 'desk.sqlite', state: 'submitting' }),
        ),
      ).toBe('22023')
    })
  })

  describe('payment runs', () => {
    const draft = (cents: number): string =>
      JSON.stringify({ pixKey: 'alvo@example.com', amount: { kind: 'payout', cents }, refundAddress: 'x' })
    // Since migration 16 an analyst's prompt writes runs only through the run functions (handRun).
    const newRun = async (c: pg.Client, cents: number[]): Promise<string> => {
      const runId = randomUUID()
      await handRun.insert(c, runId, cents.length)
      for (const [i, v] of cents.entries()) await handRun.insertRow(c, runId, i, draft(v))
      return runId
    }
    const HASH = 'ab'.repeat(32)
    const ask = (c: pg.Client, runId: string): Promise<unknown> => handRun.requestApproval(c, runId, HASH)
    const approve = (c: pg.Client, runId: string): Promise<unknown> =>
      handRun.setState(c, runId, 'approved', HASH)

    it('the analyst who imported or asked cannot approve; approving without asking is refused', async () => {
      const runId = await newRun(eve, [30_000, 20_000])
      expect(await sqlstate(approve(eve, runId))).toBe('DPX01')
      await ask(eve, runId)
      expect(await sqlstate(approve(eve, runId))).toBe('DPX03')
      expect(
        await sqlstate(eve.query(`UPDATE runs SET approval_requested_by = 'bia' WHERE run_id = $1`, [runId])),
      ).toBe('42501')
      // Asked by someone else, approved by the importer: still refused (db_user is eve).
      const other = await newRun(eve, [30_000])
      await ask(bia, other)
      expect(await sqlstate(approve(eve, other))).toBe('DPX03')
      // A hash other than the one asked for.
      expect(await sqlstate(handRun.setState(bia, runId, 'approved', 'cd'.repeat(32)))).toBe('DPX02')
    })

    it('after the approval: no row edited, added, or asked again; one row pays once', async () => {
      const runId = await newRun(eve, [30_000, 20_000])
      await ask(eve, runId)
      await approve(bia, runId)
      expect(
        await sqlstate(handRun.changeRow(eve, runId, 0, { draft: JSON.parse(draft(90_000)) as unknown })),
      ).toBe('DPX02')
      expect(
        await sqlstate(
          eve.query(`UPDATE run_rows SET decision = 'drop' WHERE run_id = $1 AND idx = 1`, [runId]),
        ),
      ).toBe('42501')
      // Migration 8: a row added after the approval would be sent under it.
      expect(await sqlstate(handRun.insertRow(eve, runId, 2, draft(500_000)))).toBe('DPX02')
      // Asking again (for other rows) after the approval.
      expect(await sqlstate(handRun.requestApproval(eve, runId, 'cd'.repeat(32)))).toBe('DPX17')
      expect(
        await sqlstate(eve.query(`UPDATE runs SET approved_by = 'eve' WHERE run_id = $1`, [runId])),
      ).toBe('42501')

      await handRun.setState(eve, runId, 'creating')
      const r1 = randomUUID()
      await handRun.changeRow(eve, runId, 0, { state: 'queued', wave: 1 })
      // Migration 13: a row goes into flight only under the run's lease, held by this role.
      expect(await sqlstate(handRun.changeRow(eve, runId, 0, { state: 'in_flight', localId: r1 }))).toBe(
        'DPX25',
      )
      await eve.query('SELECT * FROM run_lease_claim($1, 60000)', [runId])
      await handRun.changeRow(eve, runId, 0, { state: 'in_flight', localId: r1 })
      // The row's amount only.
      expect(await sqlstate(insertWithdrawal(eve, { localId: r1, cents: 30_001 }))).toBe('DPX02')
      expect(await sqlstate(insertWithdrawal(eve, { localId: r1, cents: 30_000 }))).toBe('ok')
      // Migration 8: a second local id on the same in-flight row would be a second payment.
      const r2 = randomUUID()
      expect(await sqlstate(handRun.changeRow(eve, runId, 0, { localId: r2 }))).toBe('DPX02')
      // Nor back to the queue without it (its payment exists), to fly again under a new one.
      expect(await sqlstate(handRun.changeRow(eve, runId, 0, { state: 'queued', localId: null }))).toBe(
        'DPX02',
      )
      // A retry (back to pending, local id released) is a move of a submitted row only (migration 11's table), and
      // only once its payment is known not created (migration 13): an in-flight row is refused by the first.
      expect(
        await sqlstate(handRun.changeRow(eve, runId, 0, { state: 'pending', localId: null, wave: null })),
      ).toBe('DPX11')
      expect(await sqlstate(insertWithdrawal(eve, { localId: r2, cents: 30_000 }))).toBe('DPX01')
      // A row whose create never reached the database goes back to the queue as the app does it (recovery).
      const r3 = randomUUID()
      await handRun.changeRow(eve, runId, 1, { state: 'queued', wave: 1 })
      await handRun.changeRow(eve, runId, 1, { state: 'in_flight', localId: r3 })
      await handRun.changeRow(eve, runId, 1, { state: 'queued', localId: null })
    })

    it('a run cannot be imported approved or sending, nor its rows in flight', async () => {
      const ins = (state: string): Promise<unknown> =>
        handRun.insert(eve, randomUUID(), 1, { importedFrom: 'desk.sqlite', state })
      for (const s of ['approved', 'creating', 'awaiting_funding', 'paused'])
        expect(await sqlstate(ins(s))).toBe('22023')
      expect(
        await sqlstate(
          eve.query(
            `INSERT INTO runs (run_id, profile, operator, name, row_count, imported_from, state, approved_hash)
             VALUES ($1, 'main', 'Eve', 'lote', 1, 'desk.sqlite', 'draft', $2)`,
            [randomUUID(), HASH],
          ),
        ),
      ).toBe('42501')
      const runId = randomUUID()
      await handRun.insert(eve, runId, 1, { importedFrom: 'desk.sqlite', state: 'draft' })
      expect(
        await sqlstate(
          handRun.insertRow(eve, runId, 0, draft(50_000), { state: 'in_flight', localId: randomUUID() }),
        ),
      ).toBe('22023')
      // The imported draft follows the team's four-eyes like any other.
      await handRun.insertRow(eve, runId, 0, draft(50_000), { state: 'pending' })
      await ask(eve, runId)
      expect(await sqlstate(approve(eve, runId))).toBe('DPX03')
      await approve(bia, runId)
      // ...and takes no row after its approval either (migration 9), imported or not.
      expect(await sqlstate(handRun.insertRow(eve, runId, 1, draft(500_000), { state: 'pending' }))).toBe(
        'DPX02',
      )
    })

    it('two roles racing: one approves while the other edits a row, never both', async () => {
      const runId = await newRun(eve, [30_000, 20_000])
      await ask(eve, runId)
      // The request froze the rows already; voiding it (eve) races bia's approval.
      const [voided, granted] = await Promise.all([
        sqlstate(handRun.requestApproval(eve, runId, null)),
        sqlstate(approve(bia, runId)),
      ])
      expect([voided, granted]).toContain('ok')
      const r = await owner.query('SELECT approved_by FROM runs WHERE run_id = $1', [runId])
      if (granted !== 'ok') expect([granted, r.rows[0].approved_by]).toEqual(['DPX01', null])
      // Whatever the order, a run whose request was voided cannot send, and one that can send is the one asked for.
      await handRun.setState(eve, runId, 'creating').catch(() => undefined)
      const queued = await sqlstate(handRun.changeRow(eve, runId, 0, { state: 'queued', wave: 1 }))
      expect(queued).toBe(voided === 'ok' ? 'DPX02' : 'ok')
    })
  })
})
