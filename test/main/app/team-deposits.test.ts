/**
 * Top-ups ("Comprar DePix") on a team profile, through the app as the renderer drives it (team-rig.ts): two desks,
 * two analyst roles, one team ledger, one sandbox account. A top-up made on one desk is on the other within a
 * second; only the leading desk polls its status, and the other learns the new status from the ledger.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { teamSideJournal } from '../../../src/main/app/runtime'
import { readSideJournal } from '../../../src/main/journal/side-journal'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import type { DepositDraft } from '../../../src/shared/deposit-draft'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { expectNoPasswords, leadingNow, startDesks, until, type Desk, type DeskRig } from './team-rig'

announceSkip('team top-ups (postgres + sandbox + app contexts)')

const topUp = (amountCents: number): DepositDraft => ({
  amountCents,
  depixAddress: generateLiquidAddress('liquid', { confidential: true }).address,
  endUserTaxNumber: '52998224725',
})

async function create(k: Desk, d: DepositDraft): Promise<DepositRecord> {
  const q = await k.call('deposits:quote', { draft: d })
  expect(q.ok).toBe(true)
  const intentId = (q.data as { intent: { id: string } }).intent.id
  const made = await k.call('deposits:create', { draft: d, intentId })
  expect(made).toMatchObject({ ok: true })
  return made.data as DepositRecord
}

/** When desk `k` was told of `localId` in state `pred`, or undefined. */
function heard(k: Desk, localId: string, pred: (r: DepositRecord) => boolean): number | undefined {
  const i = k.events.findIndex(
    (e) =>
      e.event === 'deposit:changed' &&
      (e.payload as DepositRecord).localId === localId &&
      pred(e.payload as DepositRecord),
  )
  return i >= 0 ? k.eventAt[i] : undefined
}

describe.skipIf(PG_SKIP_REASON !== null)('top-ups on one team ledger, through the app', () => {
  let rig: DeskRig
  let desks: Desk[]
  beforeAll(async () => {
    rig = await startDesks(['dana', 'eli'])
    ;({ desks } = rig)
    await until('one leader', async () => (leadingNow(desks).length === 1 ? true : undefined))
  }, 120_000)
  afterAll(async () => rig?.stop())

  it('only the leading desk reconciles on a schedule (GET /deposits), as only it tracks', async () => {
    const leaders = leadingNow(desks)
    expect(leaders).toHaveLength(1)
    for (const d of desks) {
      const deposits = d.ctx.runtime().deposits
      expect(deposits.reconcilingOnSchedule(), d.role).toBe(leaders.includes(d))
    }
  })

  it('a top-up made on one desk is on the other within a second, in its list and its detail', async () => {
    const [dana, eli] = desks as [Desk, Desk]
    expect((await eli.call('deposits:defaults')).ok).toBe(true)
    const rec = await create(dana, topUp(31_400))
    const madeAt = Date.now()
    expect(rec).toMatchObject({ localState: 'created', amountCents: 31_400, profile: dana.profileId })
    const at = await until(
      'the other desk told',
      async () => heard(eli, rec.localId, (r) => r.localState === 'created'),
      3_000,
    )
    expect(at - madeAt).toBeLessThanOrEqual(1_000)
    // Every desk's top-ups are in the team's list, whatever the profile that made them.
    const list = await eli.call('deposits:list', {})
    expect(list.ok).toBe(true)
    const page = list.data as { rows: DepositRecord[]; totals: Array<{ depositCents: number }> }
    expect(page.rows.map((r) => r.localId)).toContain(rec.localId)
    const detail = await eli.call('deposits:get', { localId: rec.localId })
    expect(detail).toMatchObject({
      ok: true,
      data: { record: { localId: rec.localId, remoteId: rec.remoteId } },
    })
    // Who made it is the database's word: the maker's role.
    const audit = await rig.team
      .owner()
      .then((o) =>
        o.query(
          `SELECT operator, action FROM audit_log WHERE subject = $1 AND action LIKE 'deposit.%' ORDER BY seq`,
          [rec.localId],
        ),
      )
    expect(audit.rows.slice(0, 2)).toEqual([
      { operator: 'dana', action: 'deposit.submitting' },
      { operator: 'dana', action: 'deposit.created' },
    ])
  })

  it('only the leading desk polls a top-up; the other sees the payment arrive from the ledger', async () => {
    const leaders = leadingNow(desks)
    expect(leaders).toHaveLength(1)
    const leader = leaders[0]!
    const follower = desks.find((d) => d !== leader)!
    const states = desks.map((d) => d.ctx.runtime().deposits.tracker.stats().state)
    expect(states.filter((s) => s === 'running')).toHaveLength(1)
    expect(leader.ctx.runtime().deposits.tracker.stats().state).toBe('running')

    // Made on the follower: the leader hears of it and polls it at once (a QR waiting to be paid is "hot").
    const rec = await create(follower, topUp(27_500))
    expect(rec.remoteStatus).toBeNull()
    await until(
      'the follower sees the first status',
      async () => heard(follower, rec.localId, (r) => r.remoteStatus === 'pending'),
      5_000,
    )
    // Paid: the leader's next poll (every 10 s while hot) finds it, the follower reads it from the ledger.
    rig.sb.control.payDeposit(rec.remoteId!)
    await until(
      'the follower sees the payment',
      async () =>
        heard(follower, rec.localId, (r) => r.remoteStatus !== null && r.remoteStatus !== 'pending'),
      25_000,
    )
    expect(leader.ctx.runtime().deposits.tracker.stats().polls).toBeGreaterThanOrEqual(2)
    expect(follower.ctx.runtime().deposits.tracker.stats().polls).toBe(0)
    const got = await follower.call('deposits:get', { localId: rec.localId })
    const data = got.data as { record: DepositRecord; observations: Array<{ remoteStatus: string }> }
    expect(data.record.remoteStatus).not.toBe('pending')
    expect(data.observations.map((o) => o.remoteStatus)[0]).toBe('pending')
    expect(data.observations.length).toBeGreaterThanOrEqual(2)
    // The observations were written under the leader's role.
    const o = await rig.team.owner()
    const who = await o.query('SELECT DISTINCT db_user FROM deposit_observations WHERE local_id = $1', [
      rec.localId,
    ])
    expect(who.rows.map((x) => x.db_user)).toEqual([leader.role])
  }, 45_000)

  it("the team's POST /deposit budget empty: a top-up is refused before anything is journaled or sent", async () => {
    const [, eli] = desks as [Desk, Desk]
    const owner = await rig.team.owner()
    const saved = (
      await owner.query(`SELECT per_minute, tokens FROM rate_buckets WHERE endpoint = 'deposit'`)
    ).rows[0] as { per_minute: number; tokens: number }
    // Another desk spent the account's allowance: eli's own client still has tokens, the team has none.
    await owner.query(`UPDATE rate_buckets SET tokens = 0, at = clock_timestamp() WHERE endpoint = 'deposit'`)
    try {
      const d = topUp(11_100)
      const q = await eli.call('deposits:quote', { draft: d })
      const posts = rig.sb.control.requestCounts()['POST /api/deposit'] ?? 0
      const total = ((await eli.call('deposits:list', {})).data as { total: number }).total
      const r = await eli.call('deposits:create', {
        draft: d,
        intentId: (q.data as { intent: { id: string } }).intent.id,
      })
      expect(r).toMatchObject({ ok: false, error: { code: 'rate_limited' } })
      expect((r.error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0)
      expect(rig.sb.control.requestCounts()['POST /api/deposit'] ?? 0).toBe(posts)
      expect(((await eli.call('deposits:list', {})).data as { total: number }).total).toBe(total)
    } finally {
      await owner.query(
        `UPDATE rate_buckets SET per_minute = $1, tokens = $2, at = clock_timestamp() WHERE endpoint = 'deposit'`,
        [saved.per_minute, saved.tokens],
      )
    }
  })

  it('sandbox tools stay refused on a live team profile, and no password reached a renderer', async () => {
    const [dana] = desks as [Desk]
    const list = (await dana.call('deposits:list', {})).data as { rows: DepositRecord[] }
    const r = await dana.call('sandbox:payDeposit', { localId: list.rows[0]!.localId })
    expect(r).toMatchObject({ ok: false, error: { code: 'not_sandbox' } })
    expectNoPasswords(rig)
  })

  // Last: the team server goes away for a moment (every desk loses its connections).
  it('the team server gone while the POST is out: id told at once, side journal, stored at the next open', async () => {
    const [dana] = desks as [Desk]
    const posts = (): number => rig.sb.control.requestCounts()['POST /api/deposit'] ?? 0
    const d = topUp(22_200)
    const q = await dana.call('deposits:quote', { draft: d })
    // The service answers only after a moment: long enough to lose the team server in between.
    rig.sb.control.injectFault({ kind: 'slow', endpoint: 'deposit', delayMs: 1_500 })
    const before = posts()
    const seen = dana.events.length
    const pending = dana.call('deposits:create', {
      draft: d,
      intentId: (q.data as { intent: { id: string } }).intent.id,
    })
    const submitting = await until('the journal, then the POST', async () => {
      const e = dana.events
        .slice(seen)
        .find(
          (x) => x.event === 'deposit:changed' && (x.payload as DepositRecord).localState === 'submitting',
        )
      return e && posts() > before ? (e.payload as DepositRecord) : undefined
    })
    rig.team.cluster.stopServer()
    let r: Awaited<typeof pending>
    try {
      r = await pending
    } finally {
      rig.team.cluster.startServer()
    }
    expect(r).toMatchObject({ ok: false, error: { code: 'ledger_write_failed', reason: 'side_journal' } })
    // The id crosses IPC in the messages (the contract names no id field): the operator reads it at once.
    const journal = teamSideJournal(dana.dir, dana.profileId)
    const entries = readSideJournal(journal).entries
    expect(entries.map((x) => [x.record, x.localId])).toEqual([['deposit', submitting.localId]])
    const depositId = entries[0]!.outcome.remoteId
    const told = (r.error as { userMessage: { 'pt-BR': string; en: string } }).userMessage
    expect(told['pt-BR']).toContain(depositId)
    expect(told.en).toContain(depositId)

    // The next open of the team profile replays it into the team ledger; nothing is sent again.
    expect((await dana.call('profiles:select', { id: SANDBOX_PROFILE_ID })).ok).toBe(true)
    expect((await dana.call('profiles:select', { id: dana.profileId })).ok).toBe(true)
    const stored = await until(
      'stored as created',
      async () => {
        const got = await dana.call('deposits:get', { localId: submitting.localId })
        const rec = got.ok ? (got.data as { record: DepositRecord }).record : undefined
        return rec?.localState === 'created' ? rec : undefined
      },
      15_000,
    )
    expect(stored).toMatchObject({ remoteId: depositId, amountCents: 22_200 })
    expect(readSideJournal(journal).entries).toEqual([])
    expect(posts() - before).toBe(1)
  }, 60_000)
})
