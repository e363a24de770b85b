/**
 * Tracker leadership that notices death both ways (issue #25 F3/F4, issue #24 attack 7), on a real PostgreSQL
 * server. The leading desk reaches the server through a loopback proxy that can freeze (laptop asleep, network gone
 * without the connection closing); the others connect directly. A sampler reads every desk's leadership and
 * tracker state every few ms: never two leads, never two trackers polling.
 */
import { randomUUID } from 'node:crypto'
import pg from 'pg'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { openTeamSide } from '../../../../src/main/app/team-runtime'
import {
  startLeadership,
  trackWhileLeading,
  type PgLedgerStore,
  type TrackerLeadership,
} from '../../../../src/main/ledger/engines'
import { readLease } from '../../../../src/main/ledger/team/lease'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startFrozenProxy, type FrozenProxy } from '../../../support/frozen-proxy'
import { DATABASE, startTeam, type Team } from '../team'

announceSkip('tracker leadership (postgres)')

async function until(
  what: string,
  cond: () => boolean | Promise<boolean>,
  timeoutMs: number,
): Promise<number> {
  const start = Date.now()
  while (!(await cond())) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
  return Date.now() - start
}

/** Desks with a fake tracker each; `most` is the largest number seen leading, and polling, at one instant. */
function sampler(desks: TrackerLeadership[]) {
  const polling = desks.map(() => false)
  desks.forEach((d, i) =>
    trackWhileLeading(d, {
      start: () => (polling[i] = true),
      resume: () => (polling[i] = true),
      pause: () => (polling[i] = false),
    }),
  )
  const most = { leaders: 0, polling: 0 }
  const timer = setInterval(() => {
    most.leaders = Math.max(most.leaders, desks.filter((d) => d.isLeader).length)
    most.polling = Math.max(most.polling, polling.filter(Boolean).length)
  }, 5)
  return { most, polling, stop: () => clearInterval(timer) }
}

describe.skipIf(PG_SKIP_REASON !== null)('tracker leadership on PostgreSQL', () => {
  let team: Team
  let ana: PgLedgerStore
  let owner: pg.Client
  const started: TrackerLeadership[] = []
  const proxies: FrozenProxy[] = []
  const clients: pg.Client[] = []

  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    await team.addAnalyst('bia')
    await team.addAnalyst('caio')
    owner = await team.owner()
  }, 120_000)
  afterEach(async () => {
    for (const l of started.splice(0)) await l.stop()
    for (const p of proxies.splice(0)) await p.close()
    for (const c of clients.splice(0)) await c.end().catch(() => undefined)
    // Each test starts with nobody leading.
    await owner.query('UPDATE tracker_lease SET expires_at = clock_timestamp()').catch(() => undefined)
  })
  afterAll(async () => team?.stop())

  const lead = (config: pg.ClientConfig): TrackerLeadership => {
    const l = startLeadership({ connection: config, retryMs: 500 })
    started.push(l)
    return l
  }
  /** Desk `name` reaching the server through a proxy the test can freeze. */
  const behindProxy = async (name: string): Promise<{ config: pg.ClientConfig; proxy: FrozenProxy }> => {
    const cfg = team.config(name)
    const proxy = await startFrozenProxy({ host: String(cfg.host), port: Number(cfg.port) })
    proxies.push(proxy)
    return { config: { ...cfg, host: '127.0.0.1', port: proxy.port }, proxy }
  }
  const psqlAs = async (name: string): Promise<pg.Client> => {
    const c = new pg.Client({ ...team.config(name), options: '-c search_path=ledger,pg_temp' })
    c.on('error', () => undefined)
    await c.connect()
    clients.push(c)
    return c
  }

  it('F3: the lead’s network vanishes without closing: another desk leads within 30 s, the old one stopped first', async () => {
    const { config, proxy } = await behindProxy('ana')
    const a = lead(config)
    await a.ready()
    expect(a.isLeader).toBe(true)
    const b = lead(team.config('bia'))
    await b.ready()
    expect(b.isLeader).toBe(false)
    const s = sampler([a, b])
    proxy.freeze()
    const took = await until('bia leads', () => b.isLeader, 30_000)
    expect(took).toBeLessThan(30_000)
    expect(a.isLeader).toBe(false)
    expect(a.fenceToken).toBeNull()
    s.stop()
    expect(s.most).toEqual({ leaders: 1, polling: 1 })
    expect(s.polling).toEqual([false, true])
  }, 60_000)

  it('F4: the server ends the lead’s session and the lead is not told: never two leads polling', async () => {
    const { config, proxy } = await behindProxy('ana')
    const a = lead(config)
    await a.ready()
    expect(a.isLeader).toBe(true)
    const pid = a.backendPid
    const b = lead(team.config('bia'))
    const c = lead(team.config('caio'))
    await Promise.all([b.ready(), c.ready()])
    const s = sampler([a, b, c])
    proxy.freeze()
    await team.cluster.admin('SELECT pg_terminate_backend($1)', [pid])
    // The desk still believes it leads for a moment (nothing told it); nobody else may lead meanwhile.
    expect(a.isLeader).toBe(true)
    const took = await until('another desk leads', () => b.isLeader || c.isLeader, 30_000)
    expect(took).toBeLessThan(30_000)
    // Watch a little longer: the handover settles on one desk.
    await new Promise((r) => setTimeout(r, 1_500))
    s.stop()
    expect(a.isLeader).toBe(false)
    expect(s.most).toEqual({ leaders: 1, polling: 1 })
  }, 60_000)

  it('a lead whose computer slept (the wall clock moved, the monotonic one did not) stops leading at once', async () => {
    const a = lead(team.config('ana'))
    await a.ready()
    expect(a.isLeader).toBe(true)
    // Its renewals still succeed (the network is fine): only the sleep tells it another desk may have taken over.
    const realNow = Date.now.bind(Date)
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 60_000)
    try {
      await until('ana steps down', () => !a.isLeader, 3_000)
      expect(a.fenceToken).toBeNull()
    } finally {
      vi.restoreAllMocks()
    }
  }, 30_000)

  it('#24/7: a psql session holding the old advisory lock does not stop the team from tracking', async () => {
    const hostile = await psqlAs('caio')
    await hostile.query('SELECT pg_advisory_lock(727016, 1)')
    const a = lead(team.config('ana'))
    const b = lead(team.config('bia'))
    await Promise.all([a.ready(), b.ready()])
    await until('one desk leads', () => a.isLeader || b.isLeader, 5_000)
    expect([a, b].filter((d) => d.isLeader)).toHaveLength(1)
  }, 30_000)

  it('a lease held without heartbeats is seen as such (holder, heartbeat age) and taken over', async () => {
    const { config, proxy } = await behindProxy('ana')
    const a = lead(config)
    await a.ready()
    const observer = await psqlAs('caio')
    const before = await readLease(observer)
    expect(before).toMatchObject({ holder: 'ana', lapsed: false })
    expect(before?.heartbeatAgeMs).toBeLessThan(2_000)
    proxy.freeze()
    await until('the lease lapses', async () => (await readLease(observer))?.lapsed === true, 30_000)
    const stale = await readLease(observer)
    expect(stale?.holder).toBe('ana')
    expect(stale?.heartbeatAgeMs).toBeGreaterThanOrEqual(14_000)
    const b = lead(team.config('bia'))
    await until('bia leads', () => b.isLeader, 5_000)
    expect(await b.leaseStatus()).toMatchObject({
      holder: 'bia',
      lapsed: false,
      epoch: (stale?.epoch ?? 0) + 1,
    })
  }, 60_000)

  it('fences the tracker’s writes: a replaced lead’s observation is refused, the current lead’s and a manual one are not', async () => {
    const a = lead(team.config('ana'))
    await a.ready()
    const stale = a.fenceToken
    expect(stale).toEqual(expect.any(String))
    const rec = await ana.insertSubmitting(
      {
        localId: randomUUID(),
        profile: 'main',
        request: { pixKey: 'fence@example.com', payoutAmountInCents: 1_000 },
        pixKey: 'fence@example.com',
        amountKind: 'payout',
        amountCents: 1_000,
      },
      'ana',
    )
    await ana.markCreated(rec.localId, {
      remoteId: `w-${randomUUID()}`,
      createResponse: null,
      requestId: null,
    })
    // The lease passes to bia while ana's desk still has its old token (it did not notice).
    await owner.query('UPDATE tracker_lease SET expires_at = clock_timestamp()')
    const b = lead(team.config('bia'))
    await until('bia leads', () => b.isLeader, 5_000)
    ana.setTrackerFence(() => stale)
    await expect(ana.recordObservation(rec.localId, { status: 'pending', body: {} })).rejects.toMatchObject({
      code: 'not_leading',
    })
    expect(await ana.observations(rec.localId)).toHaveLength(0)
    ana.setTrackerFence(() => b.fenceToken)
    await ana.recordObservation(rec.localId, { status: 'pending', body: {} })
    ana.setTrackerFence(() => null)
    await ana.recordObservation(rec.localId, { status: 'sent', body: {} })
    expect(await ana.observations(rec.localId)).toHaveLength(2)
  }, 30_000)

  it('an analyst at psql can neither read the token nor write the lease directly', async () => {
    const a = lead(team.config('ana'))
    await a.ready()
    const hostile = await psqlAs('caio')
    await expect(hostile.query('SELECT token FROM tracker_lease')).rejects.toMatchObject({ code: '42501' })
    await expect(
      hostile.query("UPDATE tracker_lease SET expires_at = now() + interval '1 day', holder = 'caio'"),
    ).rejects.toMatchObject({ code: '42501' })
    await expect(hostile.query('DELETE FROM tracker_lease')).rejects.toMatchObject({ code: '42501' })
    await expect(hostile.query('SELECT tracker_fence(gen_random_uuid())')).rejects.toMatchObject({
      code: 'DPX40',
    })
    // While the lease is live, taking it gives nothing, and a transaction kept open around the attempt (or around a
    // renewal or a fence with a guessed token) holds nothing the lead waits on: it keeps renewing.
    await hostile.query('BEGIN')
    const r = await hostile.query('SELECT take_tracker_lease(60000) AS l')
    expect(r.rows[0]?.l?.token).toBeNull()
    await hostile.query(
      'SELECT renew_tracker_lease(gen_random_uuid(), 60000), release_tracker_lease(gen_random_uuid())',
    )
    const before = (await owner.query('SELECT renewed_at FROM tracker_lease')).rows[0]?.renewed_at as Date
    await new Promise((x) => setTimeout(x, 1_500))
    const after = (await owner.query('SELECT renewed_at FROM tracker_lease')).rows[0]?.renewed_at as Date
    expect(after.getTime()).toBeGreaterThan(before.getTime())
    await hostile.query('ROLLBACK')
    expect(a.isLeader).toBe(true)
  }, 30_000)

  it('team status: who leads, its heartbeat’s age, and a desk 3 h ahead of the server told so', async () => {
    await team.addAnalyst('dani')
    const realNow = Date.now.bind(Date)
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + 3 * 3_600_000)
    const side = await openTeamSide(
      {
        settings: {
          host: '127.0.0.1',
          port: team.cluster.port,
          database: DATABASE,
          role: 'dani',
          tls: 'disable',
          caPem: null,
        },
        password: 'dani-pw',
      },
      { leaderRetryMs: 500 },
    )
    try {
      const skews: number[] = []
      side.leadership?.on('clock', (ms) => skews.push(ms))
      const s = await side.status()
      expect(s).toMatchObject({ connected: true, leader: true, lead: { holder: 'dani', lapsed: false } })
      expect(s.lead?.heartbeatAgeMs).toBeLessThan(2_000)
      // server − desk: about −3 h.
      expect(Math.abs((s.clockSkewMs ?? 0) + 3 * 3_600_000)).toBeLessThan(2_000)
      vi.restoreAllMocks()
      // The next heartbeat reads a clock in step again: the notice is withdrawn.
      await until('the skew notice withdrawn', () => skews.length >= 1, 5_000)
      expect(Math.abs(skews.at(-1) ?? Infinity)).toBeLessThan(60_000)
      expect(Math.abs(side.snapshot().clockSkewMs ?? Infinity)).toBeLessThan(60_000)
    } finally {
      vi.restoreAllMocks()
      await side.close()
    }
  }, 30_000)
})
