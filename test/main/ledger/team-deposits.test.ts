/**
 * What the database itself guarantees for the team ledger's deposits (migration-deposits.ts), whatever a desk
 * sends: identity from `session_user`, no deletion, an append-only history, a row edited outside the app caught
 * by the integrity check and refused by the next write, a role outside depix_analysts told what to ask for, two
 * desks on one deposit taking turns, recovery touching only the role's own records, NOTIFY on its own channel.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewDeposit } from '../../../src/main/ledger/sqlite'
import { openPgStore, pgPool, TeamLedgerError, type PgLedgerStore } from '../../../src/main/ledger/engines'
import { pgDepositStore } from '../../../src/main/ledger/pg/deposit-store'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

announceSkip('team ledger deposits (postgres)')

const newDeposit = (cents = 5_000): NewDeposit => ({
  profile: 'desk-profile',
  request: { amountInCents: cents, depixAddress: `lq1qq${randomUUID()}` },
})
const outcome = (remoteId = `q-${randomUUID()}`) => ({
  remoteId,
  createResponse: { id: remoteId },
  requestId: `req-${remoteId}`,
  status: 'pending',
})

describe.skipIf(PG_SKIP_REASON !== null)('deposits on the team ledger (PostgreSQL)', () => {
  let team: Team
  let ana: PgLedgerStore
  let bia: PgLedgerStore
  let owner: pg.Client
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    bia = await team.desk('bia')
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => team?.stop())

  it('records who wrote a deposit from the database, whatever the desk names', async () => {
    const rec = await ana.deposits.insertSubmitting(newDeposit(), 'Ana Paula')
    const row = await owner.query('SELECT db_user, operator FROM deposits WHERE local_id = $1', [rec.localId])
    expect(row.rows[0]).toEqual({ db_user: 'ana', operator: 'Ana Paula' })
    const audit = (await ana.audit({ subject: rec.localId })).rows[0]
    expect(audit).toMatchObject({ operator: 'ana', action: 'deposit.submitting' })
    expect(audit?.details.appOperator).toBe('Ana Paula')
    await ana.deposits.markRejected(rec.localId, {
      kind: 'business',
      status: 520,
      messageCode: null,
      denialCode: null,
      requestId: null,
    })
    expect(await bia.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('tells a role outside depix_analysts what to ask for, and writes nothing', async () => {
    // Outside the group, the team profile does not even open (checked before any deposit is shown).
    await team.addAnalyst('intruder', false)
    const refused = await openPgStore({ connection: team.config('intruder') }).then(
      () => null,
      (x: unknown) => x,
    )
    expect(refused).toMatchObject({ code: 'permission_denied' })
    // A role that sees the schema (a reporting role, say) but is not an analyst: deposits are the group's only.
    await team.addAnalyst('reporter', false)
    await team.cluster.admin('GRANT USAGE ON SCHEMA ledger TO reporter', [], 'depix_team')
    const pool = pgPool({ connection: team.config('reporter') })
    try {
      const e = await pgDepositStore(pool)
        .insertSubmitting(newDeposit(), 'intruder')
        .then(
          () => null,
          (x: unknown) => x,
        )
      expect(e).toBeInstanceOf(TeamLedgerError)
      expect(e).toMatchObject({ code: 'permission_denied' })
      expect((e as TeamLedgerError).userMessage['pt-BR']).toContain('depix_analysts')
      expect((e as TeamLedgerError).userMessage.en).toContain('depix_analysts')
      await expect(pgDepositStore(pool).query({})).rejects.toMatchObject({ code: 'permission_denied' })
    } finally {
      await pool.end()
    }
  })

  it('two desks answering for one deposit at once take turns: one create wins, every observation is kept', async () => {
    for (let round = 0; round < 5; round++) {
      const rec = await ana.deposits.insertSubmitting(newDeposit(), 'ana')
      const results = await Promise.allSettled([
        ana.deposits.markCreated(rec.localId, outcome()),
        bia.deposits.markCreated(rec.localId, outcome()),
      ])
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
      const lost = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
      // Ana's lock first: bia finds it created (illegal_transition). Bia's first: only the role that sent the
      // POST settles a submission (migration 11, transition_refused).
      expect(['illegal_transition', 'transition_refused']).toContain((lost.reason as { code: string }).code)
      await Promise.all([
        ana.deposits.recordObservation(rec.localId, { status: 'approved', body: { n: 1 } }),
        bia.deposits.recordObservation(rec.localId, { status: 'depix_sent', body: { n: 2 } }),
      ])
      const obs = await ana.deposits.observations(rec.localId)
      expect(obs.map((o) => o.remoteStatus).sort()).toEqual(['approved', 'depix_sent', 'pending'])
      // Whatever the order, the newer status wins (status rank), never the later writer.
      expect((await bia.deposits.get(rec.localId))?.remoteStatus).toBe('depix_sent')
    }
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('of two desks topping up the same amount to the same address at once, one inserts', async () => {
    const since = '2000-01-01T00:00:00.000Z'
    for (let round = 0; round < 10; round++) {
      const d = newDeposit(7_700)
      const results = await Promise.all([
        ana.deposits.createGuarded(d, 'ana', { sinceIso: since, allow: [] }),
        bia.deposits.createGuarded({ ...d, profile: 'another-desk-profile' }, 'bia', {
          sinceIso: since,
          allow: [],
        }),
      ])
      expect(results.map((r) => r.kind).sort()).toEqual(['duplicate', 'inserted'])
      const similar = await ana.deposits.findRecentSimilar({
        profile: 'x',
        amountCents: 7_700,
        depixAddress: d.request.depixAddress as string,
        sinceIso: since,
      })
      expect(similar).toHaveLength(1)
    }
  })

  it("recovers only the desk's own interrupted deposits: another desk's may be mid-POST", async () => {
    const mine = await ana.deposits.insertSubmitting(newDeposit(), 'ana')
    const theirs = await bia.deposits.insertSubmitting(newDeposit(), 'bia')
    expect(await ana.deposits.recoverInterrupted()).toBeGreaterThanOrEqual(1)
    expect((await ana.deposits.get(mine.localId))?.localState).toBe('outcome_unknown')
    expect((await ana.deposits.get(theirs.localId))?.localState).toBe('submitting')
    await bia.deposits.markCreated(theirs.localId, outcome())
  })

  it('notifies every desk on depix_deposits, not on the withdrawals channel', async () => {
    const c = new pg.Client(team.config('bia'))
    await c.connect()
    const got: Array<{ channel: string; payload: string | undefined }> = []
    c.on('notification', (n) => got.push({ channel: n.channel, payload: n.payload }))
    try {
      await c.query('LISTEN depix_deposits; LISTEN depix_records')
      const rec = await ana.deposits.insertSubmitting(newDeposit(), 'ana')
      await ana.deposits.markCreated(rec.localId, outcome())
      for (let i = 0; i < 40 && got.length < 2; i++) await new Promise((r) => setTimeout(r, 25))
      expect(got.map((g) => g.channel)).toEqual(['depix_deposits', 'depix_deposits'])
      expect(got.map((g) => JSON.parse(g.payload ?? '{}') as Record<string, unknown>)).toMatchObject([
        { localId: rec.localId, displayStatus: 'submitting' },
        { localId: rec.localId, displayStatus: 'pending' },
      ])
    } finally {
      await c.end()
    }
  })
  it('catches a deposit row edited outside the app and refuses to build on it', async () => {
    const rec = await ana.deposits.insertSubmitting(newDeposit(), 'ana')
    await ana.deposits.markCreated(rec.localId, outcome())
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    // Someone with the owner's password raises the amount.
    await owner.query('UPDATE deposits SET amount_cents = amount_cents * 10 WHERE local_id = $1', [
      rec.localId,
    ])
    expect(await bia.verifyAuditChain()).toMatchObject({
      ok: false,
      reason: expect.stringContaining(rec.localId) as unknown,
    })
    await expect(
      bia.deposits.recordObservation(rec.localId, { status: 'depix_sent', body: { status: 'depix_sent' } }),
    ).rejects.toMatchObject({
      code: 'record_tampered',
      userMessage: { 'pt-BR': expect.stringContaining('fora do aplicativo') },
    })
    expect((await bia.deposits.observations(rec.localId)).map((o) => o.remoteStatus)).toEqual(['pending'])
    // Put back exactly: the chain is whole again (nothing else was written meanwhile).
    await owner.query('UPDATE deposits SET amount_cents = amount_cents / 10 WHERE local_id = $1', [
      rec.localId,
    ])
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('refuses a row that is no longer a deposit at all, on read and in the check', async () => {
    const rec = await ana.deposits.insertSubmitting(newDeposit(), 'ana')
    await owner.query(`UPDATE deposits SET flags = '"not-a-list"' WHERE local_id = $1`, [rec.localId])
    await expect(ana.deposits.get(rec.localId)).rejects.toMatchObject({ code: 'record_tampered' })
    // Start-up recovery leaves it as it is and still finishes (as on the SQLite ledger).
    await expect(ana.deposits.recoverInterrupted()).resolves.toBe(0)
    const v = await ana.verifyAuditChain()
    expect(v.ok).toBe(false)
  })

  // Last: the rows forged here stay (nothing is ever deleted) and break the integrity check for good.
  it('takes identity from the session even in straight SQL, and lets nobody delete or rewrite', async () => {
    const c = new pg.Client({ ...team.config('bia'), options: '-c search_path=ledger,pg_temp' })
    await c.connect()
    try {
      // Straight SQL may write no row since migration 11; the database's own functions set the identity.
      await expect(
        c.query(
          `INSERT INTO deposits (local_id, profile, operator, db_user, created_at, updated_at, local_state, origin,
             request, amount_cents, display_status, is_open, search_text)
           VALUES ('dep-forged', 'p', 'x', 'ana', 'a', 'a', 'submitting', 'app', '{}', 1, 'submitting', false, '')`,
        ),
      ).rejects.toMatchObject({ code: '42501' })
      await c.query(`SELECT write_deposit($1::json, true, NULL, 'deposit.submitting', '{}')`, [
        JSON.stringify({
          local_id: 'dep-forged',
          profile: 'p',
          operator: 'x',
          db_user: 'ana',
          created_at: 'a',
          updated_at: 'a',
          local_state: 'submitting',
          origin: 'app',
          // The body's amount is the row's (migration 15): what the approval rule reads is what is POSTed.
          request: { amountInCents: 1 },
          amount_cents: 1,
          flags: [],
          display_status: 'submitting',
          is_open: false,
          search_text: '',
        }),
      ])
      await expect(
        c.query(
          `INSERT INTO deposit_observations (local_id, observed_at, remote_status, applied, db_user)
           VALUES ('dep-forged', 'a', 'pending', false, 'ana')`,
        ),
      ).rejects.toMatchObject({ code: '42501' })
      await c.query(
        `SELECT add_observation('deposit', 'dep-forged', 'a', 'pending', NULL, NULL, NULL, false)`,
      )
      const who = await owner.query(
        `SELECT (SELECT db_user FROM deposits WHERE local_id = 'dep-forged') AS d,
                (SELECT db_user FROM deposit_observations WHERE local_id = 'dep-forged') AS o`,
      )
      expect(who.rows[0]).toEqual({ d: 'bia', o: 'bia' })
      // Never deleted, history never rewritten: not by an analyst, not by the owner.
      await expect(c.query(`DELETE FROM deposits WHERE local_id = 'dep-forged'`)).rejects.toMatchObject({
        code: '42501',
      })
      await expect(c.query(`UPDATE deposit_observations SET remote_status = 'x'`)).rejects.toMatchObject({
        code: '42501',
      })
      await expect(owner.query(`DELETE FROM deposits WHERE local_id = 'dep-forged'`)).rejects.toMatchObject({
        code: '42501',
      })
    } finally {
      await c.end()
    }
  })
})
