/**
 * Three desks (three app contexts, three analyst roles) on one team ledger (a real PostgreSQL cluster) and one
 * real sandbox account, everything through the IPC router as the renderer drives it: the duplicate guard across
 * desks, every payment on every desk within a second, one tracker leader, four-eyes approvals end to end, a team
 * server out of reach, and features that stay on this computer's ledger refusing. Every POST /withdraw that
 * leaves this process is counted on the wire (undici's diagnostics channel).
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { ChannelName } from '../../../src/shared/contract'
import type { TeamLedgerSettings } from '../../../src/shared/team-ledger'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { DATABASE, startTeam, type Team } from '../ledger-store/team'

announceSkip('team desks (postgres + sandbox + app contexts)')

let posts = 0
diagnosticsChannel.channel('undici:request:create').subscribe((msg) => {
  const { request } = msg as { request: { method: string; path: string } }
  if (request.method === 'POST' && /\/withdraw$/.test(request.path.split('?')[0] ?? '')) posts += 1
})

interface Desk {
  role: string
  ctx: AppContext
  dir: string
  profileId: string
  events: Array<{ event: string; payload: unknown }>
  payloads: string[]
  call(channel: ChannelName, input?: unknown): Promise<{ ok: boolean; data?: unknown; error?: unknown }>
}

const refund = generateLiquidAddress('liquid').address
const draft = (pixKey: string, cents: number): WithdrawalDraft => ({
  pixKey,
  taxNumber: '52998224725',
  amount: { kind: 'payout', cents },
  refundAddress: refund,
})

async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 5_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('desks on one team ledger, through the app', () => {
  let team: Team
  let sb: Sandbox
  const desks: Desk[] = []
  const passwords: string[] = []

  async function openDesk(
    role: string,
    settings: TeamLedgerSettings | null,
    password: string,
  ): Promise<Desk> {
    const dir = mkdtempSync(join(tmpdir(), `team-desk-${role}-`))
    const connections = new Map<string, { settings: TeamLedgerSettings; password: string }>()
    const ctx = await createAppContext({
      dataDir: dir,
      vault: createMemoryVault(),
      store: createJsonFileStore(join(dir, 'settings.json')),
      app: { name: 'Tesouraria DePix', version: '0.0.0-test', platform: 'linux' },
      operator: role,
      runningSandbox: sb,
      teamLedgerFor: (id) => connections.get(id) ?? null,
      teamLeaderRetryMs: 300,
      ports: { chooseDirectory: () => Promise.resolve(null), openExternal: () => Promise.resolve() },
    })
    const desk: Desk = {
      role,
      ctx,
      dir,
      profileId: '',
      events: [],
      payloads: [],
      call: async (channel, input) => {
        const r = await ctx.router.handle(channel, input)
        desk.payloads.push(JSON.stringify(r))
        return r as { ok: boolean; data?: unknown; error?: unknown }
      },
    }
    ctx.onEvent((event, payload) => {
      desk.events.push({ event, payload })
      desk.payloads.push(JSON.stringify(payload))
    })
    const added = await desk.call('profiles:addLive', {
      name: `Equipe (${role})`,
      baseUrl: sb.baseUrl,
      network: 'liquid',
      auth: {
        kind: 'client_credentials',
        clientId: sb.credentials.clientId,
        clientSecret: sb.credentials.clientSecret,
      },
    })
    expect(added.ok).toBe(true)
    desk.profileId = (added.data as { id: string }).id
    if (settings) connections.set(desk.profileId, { settings, password })
    expect((await desk.call('profiles:select', { id: desk.profileId })).ok).toBe(true)
    expect((await desk.call('session:signIn')).ok).toBe(true)
    return desk
  }

  const settingsFor = (role: string, port = team.cluster.port): TeamLedgerSettings => ({
    host: '127.0.0.1',
    port,
    database: DATABASE,
    role,
    tls: 'disable',
    caPem: null,
  })

  const statusOf = async (d: Desk) =>
    (await d.call('team:status')).data as {
      engine: string
      identity: string | null
      connected: boolean
      leader: boolean
      approvalAboveCents: number | null
      reason?: string | null
    }

  beforeAll(async () => {
    team = await startTeam()
    // Every desk and every re-selected profile signs in with the same client id.
    sb = await startSandbox({ port: 0, httpControl: false, loginRateLimitPerMinute: 100 })
    for (const role of ['alice', 'bob', 'carol']) {
      await team.addAnalyst(role)
      passwords.push(`${role}-pw`)
      desks.push(await openDesk(role, settingsFor(role), `${role}-pw`))
    }
  }, 120_000)

  afterAll(async () => {
    for (const d of desks) {
      await d.ctx.close().catch(() => undefined)
      rmSync(d.dir, { recursive: true, force: true })
    }
    await sb?.close()
    await team?.stop()
  })

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
      const before = posts
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
      expect(posts - before).toBe(1)
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
    const checked = await until('the leader polled it', async () => {
      const got = await follower.call('withdrawals:get', { localId: rec.localId })
      const r = (got.data as { record: { remoteCheckedAt: string } }).record
      return r.remoteCheckedAt > rec.remoteCheckedAt ? r : undefined
    })
    expect(checked.remoteCheckedAt > rec.remoteCheckedAt).toBe(true)
    expect(leader.ctx.runtime().withdrawals.tracker.stats().polls).toBeGreaterThan(leaderPolls)
    for (const d2 of desks)
      if (d2 !== leader) expect(d2.ctx.runtime().withdrawals.tracker.stats().polls).toBe(0)
  })

  it('above the threshold: asked on one desk, refused to its requester, approved on another, sent once', async () => {
    const [alice, bob, carol] = desks as [Desk, Desk, Desk]
    const owner = await team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
    expect((await statusOf(alice)).approvalAboveCents).toBe(10_000)

    const d = draft('four-eyes@example.com', 25_000)
    const before = posts
    const q = await alice.call('withdrawals:quote', { draft: d })
    expect(q).toMatchObject({ ok: true, data: { needsApproval: true } })
    const intentId = (q.data as { intent: { id: string } }).intent.id
    const direct = await alice.call('withdrawals:create', { draft: d, intentId })
    expect(direct).toMatchObject({ ok: false, error: { code: 'approval_required' } })
    expect((direct.error as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toMatch(/aprovação/)

    // The request checks the review's intent like a create: a wrong one is refused, the right one is used once.
    expect(await alice.call('approvals:request', { draft: d, intentId: 'not-an-intent' })).toMatchObject({
      ok: false,
      error: { code: 'intent_invalid' },
    })
    const asked = await alice.call('approvals:request', { draft: d, intentId, note: 'fornecedor novo' })
    expect(asked).toMatchObject({ ok: true, data: { state: 'pending', mine: true, requestedBy: 'alice' } })
    const approval = asked.data as { id: string; localId: string; amountCents: number }
    expect(approval.amountCents).toBe(25_000)
    expect(await alice.call('approvals:request', { draft: d, intentId })).toMatchObject({
      ok: false,
      error: { code: 'intent_invalid' },
    })

    // Not yet approved: nobody can send it.
    expect(await carol.call('approvals:send', { id: approval.id })).toMatchObject({
      ok: false,
      error: { code: 'approval_not_sendable' },
    })
    // The requester cannot decide it.
    const self = await alice.call('approvals:approve', { id: approval.id })
    expect(self).toMatchObject({ ok: false, error: { code: 'approval_self' } })
    expect((self.error as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toMatch(
      /outro analista/,
    )

    // Bob sees it in his queue (not his own), and approves it; Alice hears of it.
    const queue = await bob.call('approvals:list')
    const seen = (queue.data as Array<{ id: string; mine: boolean; state: string }>).find(
      (a) => a.id === approval.id,
    )
    expect(seen).toMatchObject({ mine: false, state: 'pending' })
    expect(await bob.call('approvals:approve', { id: approval.id, note: 'ok' })).toMatchObject({
      ok: true,
      data: { state: 'approved', decidedBy: 'bob' },
    })
    await until('approval event on alice', async () =>
      alice.events.some(
        (e) =>
          e.event === 'approval:changed' &&
          (e.payload as { id: string; state: string }).id === approval.id &&
          (e.payload as { state: string }).state === 'approved',
      )
        ? true
        : undefined,
    )
    expect(posts - before).toBe(0)

    // Carol sends it: one POST, with the approval's body; the record has the approval's local id.
    const sent = await carol.call('approvals:send', { id: approval.id })
    expect(sent).toMatchObject({ ok: true, data: { localId: approval.localId, localState: 'created' } })
    expect((sent.data as { request: Record<string, unknown> }).request).toMatchObject({
      pixKey: 'four-eyes@example.com',
      payoutAmountInCents: 25_000,
    })
    expect(posts - before).toBe(1)
    // Sent twice (another desk, and at once on one desk): refused, no second POST.
    const [again1, again2] = await Promise.all([
      alice.call('approvals:send', { id: approval.id }),
      carol.call('approvals:send', { id: approval.id }),
    ])
    expect(again1).toMatchObject({ ok: false, error: { code: 'approval_not_sendable' } })
    expect(again2).toMatchObject({ ok: false, error: { code: 'approval_not_sendable' } })
    expect(posts - before).toBe(1)
    const after = (await bob.call('approvals:list')).data as Array<{ id: string }>
    expect(after.some((a) => a.id === approval.id)).toBe(false)

    // A rejection needs a note and ends the approval: it can never be sent.
    const q2 = await bob.call('withdrawals:quote', { draft: draft('rejected@example.com', 30_000) })
    const asked2 = await bob.call('approvals:request', {
      draft: draft('rejected@example.com', 30_000),
      intentId: (q2.data as { intent: { id: string } }).intent.id,
    })
    const id2 = (asked2.data as { id: string }).id
    expect(await carol.call('approvals:reject', { id: id2, note: '' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect(await carol.call('approvals:reject', { id: id2, note: 'valor errado' })).toMatchObject({
      ok: true,
      data: { state: 'rejected', decidedBy: 'carol' },
    })
    expect(await bob.call('approvals:send', { id: id2 })).toMatchObject({
      ok: false,
      error: { code: 'approval_not_sendable' },
    })
    expect(posts - before).toBe(1)
    await owner.query('UPDATE team_settings SET approval_above_cents = NULL WHERE id = 1')
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
      const before = posts
      const total = (await carol.call('withdrawals:list', {})).data as { total: number }
      const r = await carol.call('withdrawals:create', {
        draft: d,
        intentId: (q.data as { intent: { id: string } }).intent.id,
      })
      expect(r).toMatchObject({ ok: false, error: { code: 'rate_limited' } })
      expect((r.error as { retryAfterSeconds: number }).retryAfterSeconds).toBeGreaterThan(0)
      expect(posts).toBe(before)
      expect(((await carol.call('withdrawals:list', {})).data as { total: number }).total).toBe(total.total)
    } finally {
      await owner.query(
        `UPDATE rate_buckets SET per_minute = $1, tokens = $2, at = clock_timestamp() WHERE endpoint = 'withdraw'`,
        [saved.per_minute, saved.tokens],
      )
    }
  })

  it('features kept on this computer refuse on a team profile, in pt-BR and English', async () => {
    const [alice] = desks as [Desk]
    for (const channel of ['deposits:defaults', 'runs:list', 'receipts:get'] as const) {
      const r = await alice.call(channel, channel === 'receipts:get' ? { localId: 'x' } : undefined)
      expect(r).toMatchObject({ ok: false, error: { code: 'unsupported' } })
      const msg = (r.error as { userMessage: { 'pt-BR': string; en: string } }).userMessage
      expect(msg['pt-BR']).toMatch(/livro-caixa da equipe/)
      expect(msg.en).toMatch(/team ledger/)
    }
    expect(
      await alice.call('payees:create', {
        name: 'X',
        taxNumber: '52998224725',
        pixKeys: [{ key: 'x@example.com' }],
      }),
    ).toMatchObject({ ok: false, error: { code: 'unsupported' } })
    // Reading the payee book is fine.
    expect(await alice.call('payees:list', {})).toMatchObject({ ok: true })
  })

  it('a team server out of reach: connected false with the reason, and the app still serves its other profiles', async () => {
    passwords.push('dave-pw')
    const dead = await openDesk('dave', settingsFor('dave', 1), 'dave-pw')
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
    passwords.push('not-bobs-password')
    const wrong = await openDesk('bob', settingsFor('bob'), 'not-bobs-password')
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

  it('no role password reaches a result or an event', () => {
    const leaks = desks.flatMap((d) => d.payloads.filter((p) => passwords.some((pw) => p.includes(pw))))
    expect(desks.flatMap((d) => d.payloads).length).toBeGreaterThan(50)
    expect(leaks).toEqual([])
  })
})
