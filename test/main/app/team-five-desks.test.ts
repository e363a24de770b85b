/**
 * Issue #16's multi-desk acceptance at app level: five app contexts (five analyst roles) on one team ledger and one
 * sandbox account whose POST /withdraw limit is the account's (team-rig.ts), driven through the IPC router. The
 * desks together send more than the account allows in a minute's burst, so only the team's shared budget keeps them
 * at 0 × 429. A sampler reads every desk's leadership all along: never two leaders, through a killed leader
 * connection and a desk whose every backend is terminated.
 */
import { rmSync } from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import type { Team } from '../ledger/team'
import {
  admitted,
  draft,
  expectNoPasswords,
  leaderPidOf,
  leadingNow,
  pay,
  postsSent,
  recordOn,
  startDesks,
  statusOf,
  tooManySeen,
  until,
  type Desk,
  type DeskRig,
  type Result,
} from './team-rig'

announceSkip('five desks (postgres + sandbox + app contexts)')

/** The account's allowance: 20 a minute (bucket of 20). The desks below send 21 at once. */
const WITHDRAW_PER_MINUTE = 20
const DISTINCT_PER_DESK = 4

const localIdOf = (r: Result): string => (r.data as { localId: string }).localId

describe.skipIf(PG_SKIP_REASON !== null)('five desks on one team ledger, through the app', () => {
  let rig: DeskRig
  let team: Team
  let desks: Desk[]
  /** Most leaders seen at once: by a synchronous pass over the desks, and by team:status of all five. */
  const most = { sync: 0, status: 0 }
  let sampling = true
  let sampler: Promise<void> = Promise.resolve()
  let statusSamples = 0

  const leaderOf = async (among: readonly Desk[] = desks, ms = 5_000): Promise<Desk> =>
    until(
      'exactly one leader',
      async () => {
        const all = await Promise.all(among.map(statusOf))
        return all.filter((s) => s.leader).length === 1 ? among[all.findIndex((s) => s.leader)] : undefined
      },
      ms,
    )

  /** Terminates backends as the owner (granted pg_signal_backend, as a DBA does to manage analysts' sessions). */
  const terminate = async (where: string, params: unknown[]): Promise<number> => {
    const owner = await team.owner()
    const r = await owner.query(
      `SELECT pg_terminate_backend(pid) AS done FROM pg_stat_activity WHERE ${where}`,
      params,
    )
    return r.rows.filter((x: { done: boolean }) => x.done).length
  }

  beforeAll(async () => {
    rig = await startDesks(['desk1', 'desk2', 'desk3', 'desk4', 'desk5'], {
      withdrawPerMinute: WITHDRAW_PER_MINUTE,
    })
    ;({ team, desks } = rig)
    await team.cluster.admin('GRANT pg_signal_backend TO depix_owner')
    const tickSync = setInterval(() => {
      most.sync = Math.max(most.sync, leadingNow(desks).length)
    }, 5)
    sampler = (async () => {
      while (sampling) {
        const all = await Promise.all(desks.map(statusOf))
        most.status = Math.max(most.status, all.filter((s) => s.leader).length)
        statusSamples += 1
        await new Promise((r) => setTimeout(r, 50))
      }
      clearInterval(tickSync)
    })()
  }, 120_000)
  afterAll(async () => {
    sampling = false
    await sampler
    await rig?.stop()
  })

  it('all five pay at once: one POST per record, one of a racing pair warned, 0 × 429, every record pushed to every desk', async () => {
    const leader = await leaderOf()
    expect(leader.ctx.runtime().withdrawals.tracker.stats().state).toBe('running')
    const [d1, , , d4] = desks as [Desk, Desk, Desk, Desk]
    const posts0 = postsSent()
    const tooMany0 = tooManySeen()
    const racing = draft('disputado@example.com', 7_777)
    // Both racing desks review first (neither sees the other's yet), then create at the same moment.
    const [qa, qb] = await Promise.all([
      d1.call('withdrawals:quote', { draft: racing }),
      d4.call('withdrawals:quote', { draft: racing }),
    ])
    const intent = (q: Result): string => (q.data as { intent: { id: string } }).intent.id
    // A create the team's budget cannot serve now is refused before anything is journaled; it is tried again
    // after the wait the refusal names (admitted).
    const refusals = { n: 0 }
    const jobs: Array<Promise<Result>> = [
      admitted(() => d1.call('withdrawals:create', { draft: racing, intentId: intent(qa) }), refusals),
      admitted(() => d4.call('withdrawals:create', { draft: racing, intentId: intent(qb) }), refusals),
    ]
    for (const k of desks)
      for (let i = 0; i < DISTINCT_PER_DESK; i++)
        jobs.push(pay(k, draft(`f${i}-${k.role}@example.com`, 1_000 + i), refusals))
    const results = await Promise.all(jobs)
    const [ra, rb] = results as [Result, Result]
    expect([ra.ok, rb.ok].filter(Boolean)).toHaveLength(1)
    const warned = (ra.ok ? rb : ra).error as { code: string; localIds: string[] }
    expect(warned.code).toBe('duplicate_since_review')
    expect(warned.localIds).toEqual([localIdOf(ra.ok ? ra : rb)])
    expect(results.slice(2).every((r) => r.ok)).toBe(true)
    const created = results.filter((r) => r.ok).map(localIdOf)
    expect(created).toHaveLength(5 * DISTINCT_PER_DESK + 1)
    // More than the account's bucket was asked for at once; the team's budget held some back (refused, nothing
    // sent) and none of what left came back 429.
    expect(created.length).toBeGreaterThan(WITHDRAW_PER_MINUTE)
    expect(refusals.n).toBeGreaterThan(0)
    expect(postsSent() - posts0).toBe(created.length)
    expect(tooManySeen() - tooMany0).toBe(0)

    // Every desk heard every record in its created state, pushed (LISTEN/NOTIFY: no desk polls the ledger for
    // them, so without the push `until` gives up). How fast is a benchmark's question, not this test's: a
    // wall-clock bound here failed under a loaded CI.
    for (const k of desks) {
      const heard = await until(`${k.role} heard every record`, async () => {
        const at = new Map<string, number>()
        for (const [i, e] of k.events.entries()) {
          const p = e.payload as { localId?: string; localState?: string }
          if (e.event === 'withdrawal:changed' && p.localState === 'created' && !at.has(p.localId!))
            at.set(p.localId!, k.eventAt[i]!)
        }
        return created.every((id) => at.has(id)) ? at : undefined
      })
      expect([...heard.keys()].filter((id) => created.includes(id))).toHaveLength(created.length)
      // …and lists them all, each once, with one remote id each.
      const list = (await k.call('withdrawals:list', { limit: 100 })).data as {
        total: number
        rows: Array<{ localId: string; remoteId: string | null }>
      }
      expect(list.total).toBe(created.length)
      expect(new Set(list.rows.map((r) => r.localId))).toEqual(new Set(created))
      expect(new Set(list.rows.map((r) => r.remoteId)).size).toBe(created.length)
    }
    // No POST waited in the team's queue after its record was journaled (each create reserved its own token, even
    // four at once on one desk): from the first sight of a record to its created state is one round trip, never
    // the 3 s the account takes to refill a token (a record that waited for one would take 3 s + a round trip).
    const first = new Map<string, number>()
    const done = new Map<string, number>()
    for (const [i, e] of d1.events.entries()) {
      const p = e.payload as { localId?: string; localState?: string }
      if (e.event !== 'withdrawal:changed' || !p.localId) continue
      if (!first.has(p.localId)) first.set(p.localId, d1.eventAt[i]!)
      if (p.localState === 'created' && !done.has(p.localId)) done.set(p.localId, d1.eventAt[i]!)
    }
    for (const id of created) expect(done.get(id)! - first.get(id)!).toBeLessThan(3_000)
    expect(most.sync).toBe(1)
  }, 90_000)

  it("the leader's connection killed: another desk leads within 30 s and tracks; never two leaders", async () => {
    const old = await leaderOf()
    const pid = leaderPidOf(old)
    expect(pid).not.toBeNull()
    const killedAt = Date.now()
    expect(await terminate('pid = $1', [pid])).toBe(1)
    const others = desks.filter((d) => d !== old)
    const next = await leaderOf(others, 30_000)
    expect(Date.now() - killedAt).toBeLessThan(30_000)
    expect(next.ctx.runtime().withdrawals.tracker.stats().state).toBe('running')
    // Its tracker polls: a payment funded on the killed desk is polled by the new leader at once.
    const polls = next.ctx.runtime().withdrawals.tracker.stats().polls
    const made = await pay(old, draft('apos-queda@example.com', 2_345))
    expect(made.ok).toBe(true)
    const before = (await recordOn(old, localIdOf(made))).remoteCheckedAt ?? ''
    expect((await old.call('withdrawals:markFunded', { localId: localIdOf(made) })).ok).toBe(true)
    await until('the new leader polled it', async () =>
      ((await recordOn(old, localIdOf(made))).remoteCheckedAt ?? '') > before ? true : undefined,
    )
    expect(next.ctx.runtime().withdrawals.tracker.stats().polls).toBeGreaterThan(polls)
    // The killed desk reconnects (after sitting out a few rounds) and follows: still one leader.
    await until('the killed desk reconnected', async () => (leaderPidOf(old) !== null ? true : undefined))
    expect(await statusOf(old)).toMatchObject({ connected: true, leader: false })
    expect(old.ctx.runtime().withdrawals.tracker.stats().state).not.toBe('running')
    expect(leadingNow(desks)).toEqual([next])
    expect(most).toEqual({ sync: 1, status: 1 })
  }, 60_000)

  it('approvals across desks: asked on desk 1, refused to desk 1, approved on desk 3, sent once by desk 5', async () => {
    const [d1, d2, d3, , d5] = desks as [Desk, Desk, Desk, Desk, Desk]
    const owner = await team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
    try {
      const d = draft('quatro-olhos@example.com', 50_000)
      const posts0 = postsSent()
      const q = await d1.call('withdrawals:quote', { draft: d })
      expect(q).toMatchObject({ ok: true, data: { needsApproval: true } })
      const intentId = (q.data as { intent: { id: string } }).intent.id
      expect(await d1.call('withdrawals:create', { draft: d, intentId })).toMatchObject({
        ok: false,
        error: { code: 'approval_required' },
      })
      const asked = await d1.call('approvals:request', { draft: d, intentId })
      expect(asked).toMatchObject({ ok: true, data: { state: 'pending', requestedBy: 'desk1' } })
      const { id, localId } = asked.data as { id: string; localId: string }
      expect(await d5.call('approvals:send', { id })).toMatchObject({
        ok: false,
        error: { code: 'approval_not_sendable' },
      })
      expect(await d1.call('approvals:approve', { id })).toMatchObject({
        ok: false,
        error: { code: 'approval_self' },
      })
      expect(await d3.call('approvals:approve', { id })).toMatchObject({
        ok: true,
        data: { state: 'approved', decidedBy: 'desk3' },
      })
      expect(postsSent()).toBe(posts0)
      const sent = await admitted(() => d5.call('approvals:send', { id }))
      expect(sent).toMatchObject({ ok: true, data: { localId, localState: 'created' } })
      // Sent again from two desks at once: both refused, no second POST.
      const again = await Promise.all([d2.call('approvals:send', { id }), d5.call('approvals:send', { id })])
      for (const r of again) expect(r).toMatchObject({ ok: false, error: { code: 'approval_not_sendable' } })
      expect(postsSent() - posts0).toBe(1)
      // One record, on every desk.
      for (const k of desks) expect((await recordOn(k, localId)).localState).toBe('created')
    } finally {
      await owner.query('UPDATE team_settings SET approval_above_cents = NULL WHERE id = 1')
    }
  }, 30_000)

  it('every backend of the leading desk terminated while a payment is open: tracking resumes, the desk works again', async () => {
    const [, d2] = desks as [Desk, Desk]
    const made = await pay(d2, draft('em-acompanhamento@example.com', 3_456))
    expect(made.ok).toBe(true)
    const localId = localIdOf(made)
    expect((await d2.call('withdrawals:markFunded', { localId })).ok).toBe(true)
    const first = await until('polled once', async () => {
      const r = await recordOn(d2, localId)
      return r.remoteCheckedAt !== null ? r : undefined
    })
    const cut = await leaderOf()
    expect(await terminate('usename = $1', [cut.role])).toBeGreaterThanOrEqual(2)
    // The cut desk's own calls work again once its pool has replaced the dead connections.
    const back = await until(`${cut.role} answers again`, async () => {
      const s = await statusOf(cut)
      return s.connected ? s : undefined
    })
    expect(back.identity).toBe(cut.role)
    await until('a leader again', async () => (leadingNow(desks).length === 1 ? true : undefined), 30_000)
    // Funded again (on the cut desk itself): whoever leads now polls it, the open payment is tracked again.
    expect(await cut.call('withdrawals:markFunded', { localId })).toMatchObject({ ok: true })
    await until(
      'polled after the cut',
      async () => {
        const r = await recordOn(cut, localId)
        return (r.remoteCheckedAt ?? '') > (first.remoteCheckedAt ?? '') ? true : undefined
      },
      30_000,
    ) // a new lead's first round waits for its lease and its schedule: slow under a loaded CI
    await until(
      'the cut desk back on LISTEN',
      async () => (leaderPidOf(cut) !== null ? true : undefined),
      30_000,
    )
    // A lease may be between holders at any instant (a renewal late under load steps its lead down first): what
    // must never happen is two at once (`most`), and a leader must come back.
    await until(
      'a leader at the end',
      async () => (leadingNow(desks).length === 1 ? true : undefined),
      30_000,
    )
    expect(most).toEqual({ sync: 1, status: 1 })
  }, 120_000)

  it('a role outside the analysts group opening the team profile: connected false, permission_denied, in pt-BR', async () => {
    await team.addAnalyst('intruso', false)
    const outsider = await rig.openDesk('intruso', rig.settingsFor('intruso'), 'intruso-pw')
    try {
      expect(await statusOf(outsider)).toMatchObject({
        engine: 'postgres',
        connected: false,
        leader: false,
        reason: 'permission_denied',
      })
      const list = await outsider.call('withdrawals:list', {})
      expect(list).toMatchObject({ ok: false, error: { code: 'unavailable' } })
      const msg = (list.error as { userMessage: { 'pt-BR': string; en: string } }).userMessage
      expect(msg['pt-BR']).toMatch(/grupo dos analistas/)
      expect(msg.en).toMatch(/analysts’ group/)
      expect(outsider.ctx.ledger.query({}).total).toBe(0)
    } finally {
      await outsider.ctx.close()
      rmSync(outsider.dir, { recursive: true, force: true })
    }
  }, 30_000)

  it('the sampler ran all along and saw one leader at most; no role password reached a result or an event', () => {
    expect(statusSamples).toBeGreaterThan(10)
    expect(most).toEqual({ sync: 1, status: 1 })
    expectNoPasswords(rig)
  })
})
