/**
 * Coordination between desks on a real PostgreSQL server: one tracker leader per team (advisory lock on a
 * dedicated connection) with failover when the leader's backend is killed, live record changes through
 * LISTEN/NOTIFY, the account's shared rate budget, and the faults: a server restart mid-create and a
 * connection lost while tracking.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { ApiError } from '../../../../src/main/api/errors'
import { RateLimiter } from '../../../../src/main/api/rate-limiter'
import type { NewWithdrawal } from '../../../../src/main/ledger/sqlite'
import {
  startLeadership,
  trackWhileLeading,
  type ApprovalEvent,
  type PgLedgerStore,
  type RecordChange,
  type TrackerLeadership,
} from '../../../../src/main/ledger/engines'
import { sharedLimiter, sharedRateBudget } from '../../../../src/main/api/team-rate-budget'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

announceSkip('team coordination (postgres)')

function input(amountCents = 10_000): NewWithdrawal {
  const pixKey = `${randomUUID()}@example.com`
  return {
    localId: randomUUID(),
    profile: 'main',
    request: { pixKey, payoutAmountInCents: amountCents },
    pixKey,
    amountKind: 'payout',
    amountCents,
  }
}

async function until(
  what: string,
  cond: () => boolean,
  timeoutMs: number,
  onTick?: () => void,
): Promise<number> {
  const start = Date.now()
  while (!cond()) {
    onTick?.()
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
  return Date.now() - start
}

describe.skipIf(PG_SKIP_REASON !== null)('team coordination on PostgreSQL', () => {
  let team: Team
  let ana: PgLedgerStore
  let bia: PgLedgerStore
  const leaderships: TrackerLeadership[] = []
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    bia = await team.desk('bia')
    await team.addAnalyst('caio')
  }, 120_000)
  afterEach(async () => {
    for (const l of leaderships.splice(0)) await l.stop()
  })
  afterAll(async () => team?.stop())

  const lead = (name: string): TrackerLeadership => {
    const l = startLeadership({ connection: team.config(name), retryMs: 200 })
    leaderships.push(l)
    return l
  }

  describe('tracker leader', () => {
    it('elects exactly one leader and fails over when its backend is killed', async () => {
      const desks = [lead('ana'), lead('bia'), lead('caio')]
      await Promise.all(desks.map((d) => d.ready()))
      let maxLeaders = 0
      const sample = (): void => {
        maxLeaders = Math.max(maxLeaders, desks.filter((d) => d.isLeader).length)
      }
      await until('a leader', () => desks.some((d) => d.isLeader), 5000, sample)
      const first = desks.find((d) => d.isLeader)
      const pid = first?.backendPid
      expect(pid).toBeGreaterThan(0)
      await team.cluster.admin('SELECT pg_terminate_backend($1)', [pid])
      const took = await until(
        'a new leader',
        () => desks.some((d) => d !== first && d.isLeader),
        30_000,
        sample,
      )
      expect(took).toBeLessThan(30_000)
      // Watch for a while: the old leader rejoins as a follower, never a second leader.
      const end = Date.now() + 1500
      while (Date.now() < end) {
        sample()
        await new Promise((r) => setTimeout(r, 20))
      }
      expect(maxLeaders).toBe(1)
      expect(desks.filter((d) => d.isLeader)).toHaveLength(1)
      expect(first?.isLeader).toBe(false)
    })

    it('runs the status tracker only on the leading desk, handing it over on failover', async () => {
      const calls: Record<string, string[]> = { ana: [], bia: [] }
      const fake = (name: string) => ({
        start: () => calls[name]?.push('start'),
        pause: () => calls[name]?.push('pause'),
        resume: () => calls[name]?.push('resume'),
      })
      const a = lead('ana')
      await a.ready()
      trackWhileLeading(a, fake('ana'))
      const b = lead('bia')
      await b.ready()
      trackWhileLeading(b, fake('bia'))
      expect(calls).toEqual({ ana: ['start'], bia: [] })
      await team.cluster.admin('SELECT pg_terminate_backend($1)', [a.backendPid])
      await until('bia leads', () => b.isLeader, 20_000)
      await until('ana paused', () => calls.ana?.includes('pause') === true, 5000)
      expect(calls.bia).toEqual(['start'])
      expect(calls.ana?.slice(0, 2)).toEqual(['start', 'pause'])
      expect([a, b].filter((d) => d.isLeader)).toHaveLength(1)
    })

    it('hands over at once when the leader stops', async () => {
      const a = lead('ana')
      await a.ready()
      expect(a.isLeader).toBe(true)
      const b = lead('bia')
      await b.ready()
      expect(b.isLeader).toBe(false)
      await a.stop()
      await until('bia leads', () => b.isLeader, 5000)
    })

    it('resumes after the server restarts under it (connection lost while tracking)', async () => {
      const a = lead('ana')
      const b = lead('bia')
      await Promise.all([a.ready(), b.ready()])
      await until('a leader', () => a.isLeader || b.isLeader, 5000)
      await team.cluster.restart()
      await until('a leader after the restart', () => [a, b].filter((d) => d.isLeader).length === 1, 30_000)
      // The pool of a store also recovers: the next write simply works.
      const rec = await ana.insertSubmitting(input(), 'ana')
      expect((await bia.get(rec.localId))?.localState).toBe('submitting')
    })
  })

  describe('live changes', () => {
    it('tells every desk about a record another desk changed', async () => {
      const watcher = lead('bia')
      await watcher.ready()
      const seen: RecordChange[] = []
      watcher.on('change', (c) => seen.push(c))
      const rec = await ana.insertSubmitting(input(), 'ana')
      await ana.markCreated(rec.localId, {
        remoteId: `w-${randomUUID()}`,
        createResponse: null,
        requestId: null,
      })
      await ana.recordObservation(rec.localId, { status: 'sent', body: { status: 'sent' } })
      await until('three changes', () => seen.filter((c) => c.localId === rec.localId).length >= 3, 5000)
      expect(seen.filter((c) => c.localId === rec.localId).map((c) => c.displayStatus)).toEqual([
        'submitting',
        'created',
        'sent',
      ])
    })
  })

  describe('approval notifications', () => {
    it('tells every desk about a request and its decision', async () => {
      const watcher = lead('caio')
      await watcher.ready()
      const seen: ApprovalEvent[] = []
      watcher.on('approval', (a) => seen.push(a))
      const req = await ana.requestApproval(input(250_000))
      await bia.reject(req.id, 'sem nota fiscal')
      await until('two approval events', () => seen.filter((a) => a.id === req.id).length >= 2, 5000)
      expect(seen.filter((a) => a.id === req.id)).toEqual([
        { id: req.id, localId: req.localId, state: 'pending', requestedBy: 'ana', decidedBy: null },
        { id: req.id, localId: req.localId, state: 'rejected', requestedBy: 'ana', decidedBy: 'bia' },
      ])
    })
  })

  describe('shared rate budget', () => {
    it('grants the account’s tokens once, across every desk', async () => {
      await (
        await team.owner()
      ).query(
        `UPDATE rate_buckets SET per_minute = 5, tokens = 5, at = clock_timestamp() WHERE endpoint = 'withdraw'`,
      )
      const budgets = [sharedRateBudget(ana.pool), sharedRateBudget(bia.pool)]
      const waits = await Promise.all(
        Array.from({ length: 12 }, (_, i) => budgets[i % 2]?.tryTake('withdraw') ?? Promise.resolve(-1)),
      )
      // A minute's worth less the headroom (5%, at least one token) kept for arrival jitter at the service.
      expect(waits.filter((w) => w === 0)).toHaveLength(4)
      // One token every 12 s at 5 a minute.
      for (const w of waits.filter((x) => x !== 0)) {
        expect(w).toBeGreaterThan(0)
        expect(w).toBeLessThanOrEqual(12_000)
      }
      expect((await budgets[0]?.limits())?.withdraw).toBe(5)
    })

    it('holds every desk back after a 429 on any of them', async () => {
      const budget = sharedRateBudget(ana.pool)
      expect(await budget.tryTake('deposit')).toBe(0)
      await budget.penalize('deposit', 60_000)
      expect(await sharedRateBudget(bia.pool).tryTake('deposit')).toBeGreaterThan(50_000)
    })

    it('puts the team bucket behind each desk’s own limiter, failing with nothing sent', async () => {
      await (
        await team.owner()
      ).query(
        `UPDATE rate_buckets SET per_minute = 4, tokens = 4, at = clock_timestamp() WHERE endpoint = 'user-info'`,
      )
      const limiters = [ana, bia].map((s) =>
        sharedLimiter(
          new RateLimiter({ limits: { 'user-info': 15 } }),
          sharedRateBudget(s.pool, { maxWaitMs: 100 }),
        ),
      )
      const results = await Promise.allSettled(
        Array.from({ length: 6 }, (_, i) => limiters[i % 2]?.acquire('user-info')),
      )
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3)
      for (const r of results.filter((x) => x.status === 'rejected')) {
        expect(r.reason).toBeInstanceOf(ApiError)
        expect(r.reason).toMatchObject({ kind: 'rate_limited', code: 'local_rate_limit_wait' })
      }
      for (const l of limiters) l.close()
    })
  })

  describe('faults', () => {
    it('records a create whose answer came while the server was down as unknown, never resending', async () => {
      const rec = await ana.insertSubmitting(input(), 'ana')
      // The POST went out; its answer arrives while the ledger server is down.
      team.cluster.stopServer()
      try {
        await expect(
          ana.markCreated(rec.localId, {
            remoteId: `w-${randomUUID()}`,
            createResponse: null,
            requestId: null,
          }),
        ).rejects.toMatchObject({ code: 'unavailable' })
      } finally {
        team.cluster.startServer()
      }
      // The desk restarts its recovery: its own interrupted create is an unknown outcome, another desk's is left
      // alone (it may still be waiting for its answer), and nothing was inserted twice.
      const other = await bia.insertSubmitting(input(), 'bia')
      expect(await ana.recoverInterrupted()).toBeGreaterThanOrEqual(1)
      expect((await ana.get(rec.localId))?.localState).toBe('outcome_unknown')
      expect((await ana.get(other.localId))?.localState).toBe('submitting')
      const copies = await (
        await team.owner()
      ).query('SELECT count(*)::int AS n FROM withdrawals WHERE pix_key = $1', [rec.pixKey])
      expect(copies.rows[0]?.n).toBe(1)
      // The answer the desk kept (the side journal's role) is applied once the server is back: outcome recorded,
      // no second POST needed.
      const replay = await ana.applyJournaledCreate(rec.localId, {
        remoteId: `w-late-${rec.localId}`,
        createResponse: { withdrawalId: `w-late-${rec.localId}` },
        requestId: 'req-late',
      })
      expect(replay.applied).toBe(true)
      expect(replay.record).toMatchObject({ localState: 'created', remoteId: `w-late-${rec.localId}` })
      expect(await bia.verifyAuditChain()).toMatchObject({ ok: true })
    })
  })
})
