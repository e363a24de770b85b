/**
 * Three desks (three app contexts, three analyst roles) on one team ledger and one sandbox account, through the IPC
 * router as the renderer drives it (team-rig.ts): the duplicate guard across desks, every payment on every desk
 * within a second, one tracker leader and its hand-off, the team's shared budget, a team server out of reach or a
 * wrong password, and features that stay on this computer's ledger refusing. Approvals: team-approvals.test.ts.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import type { Team } from '../ledger/team'
import {
  draft,
  expectNoPasswords,
  postsSent,
  startDesks,
  statusOf,
  until,
  type Desk,
  type DeskRig,
} from './team-rig'

announceSkip('team desks (postgres + sandbox + app contexts)')

describe.skipIf(PG_SKIP_REASON !== null)('desks on one team ledger, through the app', () => {
  let rig: DeskRig
  let team: Team
  let desks: Desk[]
  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob', 'carol'])
    ;({ team, desks } = rig)
  }, 120_000)
  afterAll(async () => rig?.stop())

  it('each desk is on the team ledger under its own role, and exactly one leads the tracker', async () => {
    const [alice] = desks as [Desk]
    const s = await statusOf(alice)
    expect(s).toMatchObject({ engine: 'postgres', identity: 'alice', connected: true, reason: null })
    const leaders = await until('one leader', async () => {
      const all = await Promise.all(desks.map(statusOf))
      const n = all.filter((x) => x.leader).length
      return n === 1 ? all : undefined
    })
    expect(leaders.map((x) => x.identity)).toEqual(['alice', 'bob', 'carol'])
    expect(leaders.every((x) => x.connected)).toBe(true)
    // The leader's own tracker runs; the followers' stay paused.
    const states = desks.map((d) => d.ctx.runtime().withdrawals.tracker.stats().state)
    expect(states.filter((x) => x === 'running')).toHaveLength(1)
    expect(desks.some((d) => d.events.some((e) => e.event === 'team:status'))).toBe(true)
  })

  // Three rounds: a guard that is not one step with the insert lets at least one of them through twice.
  it.each([1, 2, 3])(
    'the same key and amount paid at once from two desks: one POST, one duplicate refusal (%i)',
    async (round) => {
      const [alice, bob] = desks as [Desk, Desk]
      const d = draft(`dup-race-${round}@example.com`, 4_321)
      const [qa, qb] = await Promise.all([
        alice.call('withdrawals:quote', { draft: d }),
        bob.call('withdrawals:quote', { draft: d }),
      ])
      expect(qa.ok && qb.ok).toBe(true)
      expect((qa.data as { duplicates: unknown[] }).duplicates).toEqual([])
      const before = postsSent()
      const [ra, rb] = await Promise.all([
        alice.call('withdrawals:create', {
          draft: d,
          intentId: (qa.data as { intent: { id: string } }).intent.id,
        }),
        bob.call('withdrawals:create', {
          draft: d,
          intentId: (qb.data as { intent: { id: string } }).intent.id,
        }),
      ])
      expect([ra.ok, rb.ok].filter(Boolean)).toHaveLength(1)
      const refused = (ra.ok ? rb : ra).error as { code: string; localIds?: string[] }
      expect(refused.code).toBe('duplicate_since_review')
      const created = (ra.ok ? ra : rb).data as { localId: string; localState: string }
      expect(created.localState).toBe('created')
      expect(refused.localIds).toContain(created.localId)
      expect(postsSent() - before).toBe(1)
      // A fresh review on the refused desk names the other desk's payment.
      const again = await (ra.ok ? bob : alice).call('withdrawals:quote', { draft: d })
      expect(
        (again.data as { duplicates: Array<{ localId: string }> }).duplicates.map((x) => x.localId),
      ).toEqual([created.localId])
    },
  )

  it('a payment made on one desk is listed on every desk within a second', async () => {
    const [alice, bob, carol] = desks as [Desk, Desk, Desk]
    const d = draft('everywhere@example.com', 1_234)
    const owner = await team.owner()
    const t0 = (await owner.query('SELECT clock_timestamp() AS t')).rows[0].t as Date
    const q = await carol.call('withdrawals:quote', { draft: d })
    const made = await carol.call('withdrawals:create', {
      draft: d,
      intentId: (q.data as { intent: { id: string } }).intent.id,
    })
    expect(made.ok).toBe(true)
    const localId = (made.data as { localId: string }).localId
    // The POST took its token from the team's shared budget too (take_rate_token stamps the bucket).
    const bucket = await owner.query(`SELECT at FROM rate_buckets WHERE endpoint = 'withdraw'`)
    expect((bucket.rows[0].at as Date).getTime()).toBeGreaterThanOrEqual(t0.getTime())
    const started = Date.now()
    for (const other of [alice, bob]) {
      await until(
        `${other.role} lists ${localId}`,
        async () => {
          const list = await other.call('withdrawals:list', {})
          const rows = (list.data as { rows: Array<{ localId: string }> }).rows
          return rows.some((r) => r.localId === localId) ? true : undefined
        },
        1_000,
      )
      const got = await other.call('withdrawals:get', { localId })
      expect(got).toMatchObject({ ok: true, data: { record: { localId, localState: 'created' } } })
    }
    expect(Date.now() - started).toBeLessThan(1_000)
    // Heard too: the other desks' renderers got the change as an event (LISTEN/NOTIFY).
    await until('change events', async () =>
      [alice, bob].every((x) =>
        x.events.some(
          (e) => e.event === 'withdrawal:changed' && (e.payload as { localId: string }).localId === localId,
        ),
      )
        ? true
        : undefined,
    )
  })

  it('the leading desk polls the status of a payment another desk made (no poll from the others)', async () => {
    const statuses = await Promise.all(desks.map(statusOf))
    const follower = desks[statuses.findIndex((x) => !x.leader)]!
    const leader = desks[statuses.findIndex((x) => x.leader)]!
    const d = draft('tracked-by-leader@example.com', 2_222)
    const q = await follower.call('withdrawals:quote', { draft: d })
    const made = await follower.call('withdrawals:create', {
      draft: d,
      intentId: (q.data as { intent: { id: string } }).intent.id,
    })
    const rec = made.data as { localId: string; remoteCheckedAt: string }
    const leaderPolls = leader.ctx.runtime().withdrawals.tracker.stats().polls
    // Funded on the follower: the leader hears of it and polls it at once (a funded payment is "hot").
    expect((await follower.call('withdrawals:markFunded', { localId: rec.localId })).ok).toBe(true)
    // What is asserted is who polls, not how fast (the 1 s visibility is the five-desk test's): a slow CI may
    // take a few seconds from the NOTIFY to the leader's poll.
    const checked = await until(
      'the leader polled it',
      async () => {
        const got = await follower.call('withdrawals:get', { localId: rec.localId })
        const r = (got.data as { record: { remoteCheckedAt: string } }).record
        return r.remoteCheckedAt > rec.remoteCheckedAt ? r : undefined
      },
      15_000,
    )
    expect(checked.remoteCheckedAt > rec.remoteCheckedAt).toBe(true)
    expect(leader.ctx.runtime().withdrawals.tracker.stats().polls).toBeGreaterThan(leaderPolls)
    for (const d2 of desks)
      if (d2 !== leader) expect(d2.ctx.runtime().withdrawals.tracker.stats().polls).toBe(0)
  })

  it("the team's budget empty: a create is refused before anything is journaled or sent", async () => {
    // Carol: her last create used its reserved token (a desk that lost a race a moment ago may still hold one for
    // a few seconds, RESERVED_TOKEN_TTL_MS).
    const carol = desks[2]!
    const owner = await team.owner()
    const saved = (
      await owner.query(`SELECT per_minute, tokens FROM rate_buckets WHERE endpoint = 'withdraw'`)
    ).rows[0] as { per_minute: number; tokens: number }
    await owner.query(
      `UPDATE rate_buckets SET tokens = 0, at = clock_timestamp() WHERE endpoint = 'withdraw'`,
    )
    try {
      const d = draft('team-budget@example.com', 3_333)
      const q = await carol.call('withdrawals:quote', { draft: d })
      const before = postsSent()
      const total = (await carol.call('withdrawals:list', {})).data as { total: number }
      const r = await carol.call('withdrawals:create', {
        draft: d,
        intentId: (q.data as { intent: { id: string } }).intent.id,
      })
      expect(r).toMatchObject({ ok: false, error: { code: 'rate_limited' } })
      expect((r.error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0)
      expect(postsSent()).toBe(before)
      expect(((await carol.call('withdrawals:list', {})).data as { total: number }).total).toBe(total.total)
    } finally {
      await owner.query(
        `UPDATE rate_buckets SET per_minute = $1, tokens = $2, at = clock_timestamp() WHERE endpoint = 'withdraw'`,
        [saved.per_minute, saved.tokens],
      )
    }
  })

  it('every feature works on a team profile: none refuses as kept on this computer', async () => {
    const [alice] = desks as [Desk]
    // Top-ups, payment runs, the payee book, receipts, exports and the review's check all read and write the team
    // ledger since issue #16 (team-deposits, team-runs, team-payees-receipts, team-export tests).
    for (const [channel, input] of [
      ['deposits:defaults', undefined],
      ['deposits:list', {}],
      ['runs:list', undefined],
    ] as const) {
      const r = await alice.call(channel, input)
      expect(r, channel).toMatchObject({ ok: true })
    }
    // The payee book and receipts are the team's since issue #16 (team-payees-receipts.test.ts), and reviewing an
    // export folder does not touch the live ledger: with none open the refusal is the review's own, not the team's.
    expect(await alice.call('payees:list', {})).toMatchObject({ ok: true })
    expect(await alice.call('receipts:get', { localId: 'x' })).toMatchObject({
      ok: true,
      data: { state: 'none' },
    })
    expect(await alice.call('review:list', {})).toMatchObject({ ok: false, error: { code: 'no_review' } })
  })

  it('a team server out of reach: connected false with the reason, and the app still serves its other profiles', async () => {
    const dead = await rig.openDesk('dave', rig.settingsFor('dave', 1), 'dave-pw')
    desks.push(dead)
    expect(await statusOf(dead)).toMatchObject({
      engine: 'postgres',
      connected: false,
      leader: false,
      reason: 'unavailable',
    })
    const list = await dead.call('withdrawals:list', {})
    expect(list).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    expect((list.error as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toMatch(/equipe/)
    expect(await dead.call('approvals:list')).toMatchObject({ ok: false, error: { code: 'unavailable' } })
    // Nothing went into this computer's ledger.
    expect(dead.ctx.ledger.query({}).total).toBe(0)
    // Back to the sandbox profile: it works.
    const profiles = (await dead.call('profiles:list')).data as {
      profiles: Array<{ id: string; kind: string }>
    }
    const sandboxId = profiles.profiles.find((p) => p.kind === 'sandbox')!.id
    expect((await dead.call('profiles:select', { id: sandboxId })).ok).toBe(true)
    expect(await statusOf(dead)).toMatchObject({ engine: 'sqlite', connected: true })
    expect(await dead.call('withdrawals:list', {})).toMatchObject({ ok: true })
  }, 30_000)

  it('a wrong password: connected false, reason auth_failed, nothing written', async () => {
    const wrong = await rig.openDesk('bob', rig.settingsFor('bob'), 'not-bobs-password')
    try {
      expect(await statusOf(wrong)).toMatchObject({ connected: false, reason: 'auth_failed', identity: null })
      const list = await wrong.call('withdrawals:list', {})
      expect(list).toMatchObject({ ok: false, error: { code: 'unavailable' } })
      expect((list.error as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toMatch(/senha/)
      expect(wrong.ctx.ledger.query({}).total).toBe(0)
    } finally {
      await wrong.ctx.close()
      rmSync(wrong.dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('re-selecting the active profile re-opens it with its current connection', async () => {
    const [, , carol] = desks as [Desk, Desk, Desk]
    expect((await carol.call('profiles:select', { id: carol.profileId })).ok).toBe(true)
    expect(await statusOf(carol)).toMatchObject({ engine: 'postgres', identity: 'carol', connected: true })
  })

  it('the leader leaving the team profile hands the lead to another desk, which tells its renderer', async () => {
    const team3 = desks.slice(0, 3)
    const before = await Promise.all(team3.map(statusOf))
    const leader = team3[before.findIndex((x) => x.leader)]!
    const profiles = (await leader.call('profiles:list')).data as {
      profiles: Array<{ id: string; kind: string }>
    }
    const sandboxId = profiles.profiles.find((p) => p.kind === 'sandbox')!.id
    expect((await leader.call('profiles:select', { id: sandboxId })).ok).toBe(true)
    const others = team3.filter((d) => d !== leader)
    const next = await until('a new leader', async () => {
      const all = await Promise.all(others.map(statusOf))
      const i = all.findIndex((x) => x.leader)
      return i >= 0 && all.filter((x) => x.leader).length === 1 ? others[i] : undefined
    })
    await until('its team:status event', async () =>
      next.events.some((e) => e.event === 'team:status' && (e.payload as { leader: boolean }).leader)
        ? true
        : undefined,
    )
    expect(next.ctx.runtime().withdrawals.tracker.stats().state).toBe('running')
    // Back on the team profile it follows: still exactly one leader.
    expect((await leader.call('profiles:select', { id: leader.profileId })).ok).toBe(true)
    const after = await Promise.all(team3.map(statusOf))
    expect(after.filter((x) => x.leader)).toHaveLength(1)
  }, 20_000)

  it('no role password reaches a result or an event', () => expectNoPasswords(rig))
})
