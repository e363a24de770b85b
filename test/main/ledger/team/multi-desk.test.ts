/**
 * Five desks (five analyst roles) on one team ledger and one real sandbox account, paying concurrently through the
 * real client: every create goes through the cross-desk duplicate guard, every POST through the desk's limiter
 * with the team's shared budget behind it. The account allows 60 withdrawals a minute and the desks together
 * send 75: without the shared budget each desk's own limiter would let its 15 go at once and 15 would earn a 429.
 */
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ApiError, createDepixClient, type DepixClient } from '../../../../src/main/api'
import type { NewWithdrawal } from '../../../../src/main/ledger/sqlite'
import {
  startLeadership,
  type PgLedgerStore,
  type TrackerLeadership,
} from '../../../../src/main/ledger/engines'
import { sharedLimiter, sharedRateBudget } from '../../../../src/main/api/team-rate-budget'
import { startSandbox, type Sandbox } from '../../../../src/main/sandbox'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

announceSkip('multi-desk (postgres + sandbox)')

const TAX_NUMBER = '52998224725'
const ACCOUNT_WITHDRAW_PER_MINUTE = 60
const PER_DESK = 15
const since = '2000-01-01T00:00:00.000Z'

interface Desk {
  name: string
  store: PgLedgerStore
  client: DepixClient
}

interface PayResult {
  kind: 'created' | 'duplicate' | 'rate_limited' | 'failed'
  localId?: string
}

async function pay(d: Desk, pixKey: string, amountCents: number, approvalId?: string): Promise<PayResult> {
  const request = { pixKey, taxNumber: TAX_NUMBER, payoutAmountInCents: amountCents }
  const input: NewWithdrawal = { profile: 'team', request, pixKey, amountKind: 'payout', amountCents }
  const g = await d.store.createGuarded(
    input,
    d.name,
    { sinceIso: since },
    approvalId ? { approvalId } : undefined,
  )
  if (g.kind === 'duplicate') return { kind: 'duplicate' }
  const localId = g.record.localId
  try {
    const res = await d.client.withdraw(request)
    await d.store.markCreated(localId, {
      remoteId: res.data.withdrawalId,
      createResponse: (res.raw ?? null) as Record<string, unknown> | null,
      requestId: res.requestId,
      nonce: res.nonce,
      status: res.data.status ?? null,
    })
    return { kind: 'created', localId }
  } catch (e) {
    const err = e instanceof ApiError ? e : null
    await d.store.markOutcomeUnknown(localId, null, err?.code ?? 'error')
    return { kind: err?.kind === 'rate_limited' ? 'rate_limited' : 'failed', localId }
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('five desks, one team ledger, one account', () => {
  let team: Team
  let sb: Sandbox
  const desks: Desk[] = []
  const leaders: TrackerLeadership[] = []
  let posts = 0

  beforeAll(async () => {
    team = await startTeam()
    sb = await startSandbox({ port: 0, rateLimits: { withdraw: ACCOUNT_WITHDRAW_PER_MINUTE } })
    const owner = await team.owner()
    await owner.query(
      `UPDATE rate_buckets SET per_minute = $1, tokens = $1, at = clock_timestamp() WHERE endpoint = 'withdraw'`,
      [ACCOUNT_WITHDRAW_PER_MINUTE],
    )
    for (const name of ['desk1', 'desk2', 'desk3', 'desk4', 'desk5']) {
      const store = await team.desk(name)
      const client = createDepixClient({
        baseUrl: sb.baseUrl,
        auth: {
          kind: 'client_credentials',
          clientId: sb.credentials.clientId,
          clientSecret: sb.credentials.clientSecret,
        },
        // Each desk alone believes the whole contract allowance is its own.
        rateLimits: { withdraw: ACCOUNT_WITHDRAW_PER_MINUTE },
        wrapLimiter: (own) => {
          const shared = sharedLimiter(own, sharedRateBudget(store.pool))
          return {
            ...shared,
            enabled: shared.enabled,
            acquire: (endpoint) => {
              const wait = shared.acquire(endpoint)
              if (endpoint === 'withdraw') return (wait ?? Promise.resolve()).then(() => void (posts += 1))
              return wait
            },
          }
        },
      })
      await client.signIn()
      desks.push({ name, store, client })
    }
  }, 120_000)

  afterAll(async () => {
    for (const l of leaders) await l.stop()
    for (const d of desks) await d.client.close().catch(() => undefined)
    await sb?.close()
    await team?.stop()
  })

  it('pays concurrently: no duplicate POST, no 429, every record on every desk', async () => {
    // A sixth connection (desk5's tracker connection) hears every desk's changes as they commit.
    const watcher = startLeadership({ connection: team.config('desk5'), retryMs: 500 })
    leaders.push(watcher)
    await watcher.ready()
    const heard = new Map<string, number>()
    let maxLagMs = 0
    watcher.on('change', (c) => {
      if (c.displayStatus === 'submitting') return
      heard.set(c.localId, Date.now())
      maxLagMs = Math.max(maxLagMs, Date.now() - Date.parse(c.updatedAt))
    })
    const contested = `contested-${randomUUID()}@example.com`
    const jobs: Promise<PayResult>[] = []
    for (const d of desks) {
      // All five pay the same supplier the same amount at the same moment: one goes, four are warned.
      jobs.push(pay(d, contested, 7_777))
      for (let i = 0; i < PER_DESK - 1; i++)
        jobs.push(pay(d, `s${i}-${d.name}-${randomUUID()}@example.com`, 1_000 + i))
    }
    const results = await Promise.all(jobs)
    expect(results.filter((r) => r.kind === 'rate_limited')).toHaveLength(0)
    expect(results.filter((r) => r.kind === 'failed')).toHaveLength(0)
    expect(results.filter((r) => r.kind === 'duplicate')).toHaveLength(4)
    const created = results.filter((r) => r.kind === 'created')
    expect(created).toHaveLength(5 * PER_DESK - 4)
    // One POST per created record: nothing sent twice, nothing sent for the warned duplicates.
    expect(posts).toBe(created.length)
    const remoteIds = new Set<string>()
    for (const d of desks) {
      const page = await d.store.query({ profile: 'team', limit: 1000 })
      expect(page.total).toBe(created.length)
      for (const r of page.rows) if (r.remoteId) remoteIds.add(r.remoteId)
    }
    expect(remoteIds.size).toBe(created.length)
    const deadline = Date.now() + 5000
    while (created.some((r) => !heard.has(r.localId ?? '')) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 25))
    }
    expect(created.filter((r) => !heard.has(r.localId ?? ''))).toEqual([])
    console.info(`multi-desk: every create heard live by another desk; worst lag ${maxLagMs} ms`)
    expect(await desks[0]?.store.verifyAuditChain()).toMatchObject({ ok: true })
  }, 120_000)

  it('has exactly one tracker leader, and another within 30 s when its connection is killed', async () => {
    for (const l of leaders.splice(0)) await l.stop()
    for (const d of desks) leaders.push(startLeadership({ connection: team.config(d.name), retryMs: 500 }))
    await Promise.all(leaders.map((l) => l.ready()))
    const deadline = Date.now() + 5000
    while (!leaders.some((l) => l.isLeader) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 25))
    expect(leaders.filter((l) => l.isLeader)).toHaveLength(1)
    const old = leaders.find((l) => l.isLeader)
    await team.cluster.admin('SELECT pg_terminate_backend($1)', [old?.backendPid])
    const start = Date.now()
    while (!leaders.some((l) => l !== old && l.isLeader) && Date.now() - start < 30_000) {
      expect(leaders.filter((l) => l.isLeader).length).toBeLessThanOrEqual(1)
      await new Promise((r) => setTimeout(r, 25))
    }
    expect(Date.now() - start).toBeLessThan(30_000)
    expect(leaders.filter((l) => l.isLeader)).toHaveLength(1)
  }, 60_000)

  it('enforces approvals across desks', async () => {
    await (await team.owner()).query('UPDATE team_settings SET approval_above_cents = 50000')
    const [d1, d2] = desks as [Desk, Desk]
    const pixKey = `big-${randomUUID()}@example.com`
    const before = posts
    await expect(pay(d1, pixKey, 60_000)).rejects.toMatchObject({ code: 'approval_required' })
    expect(posts).toBe(before)
    const request = { pixKey, taxNumber: TAX_NUMBER, payoutAmountInCents: 60_000 }
    const approval = await d1.store.requestApproval({
      localId: randomUUID(),
      profile: 'team',
      request,
      pixKey,
      amountKind: 'payout',
      amountCents: 60_000,
    })
    await expect(d1.store.approve(approval.id)).rejects.toMatchObject({ code: 'approval_self' })
    await d2.store.approve(approval.id)
    const input: NewWithdrawal = {
      localId: approval.localId,
      profile: 'team',
      request,
      pixKey,
      amountKind: 'payout',
      amountCents: 60_000,
    }
    const g = await d1.store.createGuarded(input, 'desk1', { sinceIso: since }, { approvalId: approval.id })
    expect(g.kind).toBe('inserted')
    const res = await d1.client.withdraw(request)
    const rec = await d1.store.markCreated(approval.localId, {
      remoteId: res.data.withdrawalId,
      createResponse: null,
      requestId: res.requestId,
    })
    expect(rec.localState).toBe('created')
    expect(
      (await d2.store.audit({ subject: approval.localId })).rows.map((e) => [e.action, e.operator]).reverse(),
    ).toEqual([
      ['approval.requested', 'desk1'],
      ['approval.approved', 'desk2'],
      ['withdrawal.submitting', 'desk1'],
      ['withdrawal.created', 'desk1'],
    ])
  })
})
