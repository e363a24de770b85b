/**
 * Desks on one team ledger, through the app: a real PostgreSQL cluster set up like a customer's (../ledger-store/
 * team.ts), one real sandbox account, and one app context (createAppContext) per analyst role, each with a live
 * profile on the sandbox whose team connection `teamLedgerFor` returns. Every POST /withdraw that leaves this
 * process is counted on the wire (undici's diagnostics channel); every result and event is kept for the secrets scan.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect } from 'vitest'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { createJsonFileStore } from '../../../src/main/profiles'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import type { NotifierPort } from '../../../src/main/notifications'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { ChannelName } from '../../../src/shared/contract'
import type { TeamLedgerSettings } from '../../../src/shared/team-ledger'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'
import { DATABASE, startTeam, type Team } from '../ledger/team'

let posts = 0
diagnosticsChannel.channel('undici:request:create').subscribe((msg) => {
  const { request } = msg as { request: { method: string; path: string } }
  if (request.method === 'POST' && /\/withdraw$/.test(request.path.split('?')[0] ?? '')) posts += 1
})
/** POST /withdraw requests sent by this process so far. */
export const postsSent = (): number => posts

let tooMany = 0
diagnosticsChannel.channel('undici:request:headers').subscribe((msg) => {
  if ((msg as { response: { statusCode: number } }).response.statusCode === 429) tooMany += 1
})
/** Responses with status 429 this process received so far (any endpoint). */
export const tooManySeen = (): number => tooMany

export interface Desk {
  role: string
  ctx: AppContext
  dir: string
  profileId: string
  events: Array<{ event: string; payload: unknown }>
  /** When each of `events` arrived (Date.now()), index for index. */
  eventAt: number[]
  payloads: string[]
  call(channel: ChannelName, input?: unknown): Promise<{ ok: boolean; data?: unknown; error?: unknown }>
}

const refund = generateLiquidAddress('liquid').address
export const draft = (pixKey: string, cents: number): WithdrawalDraft => ({
  pixKey,
  taxNumber: '52998224725',
  amount: { kind: 'payout', cents },
  refundAddress: refund,
})

export async function until<T>(what: string, f: () => Promise<T | undefined>, ms = 5_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = await f()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

export interface TeamStatusView {
  engine: string
  identity: string | null
  connected: boolean
  leader: boolean
  approvalAboveCents: number | null
  reason?: string | null
}

export const statusOf = async (d: Desk): Promise<TeamStatusView> =>
  (await d.call('team:status')).data as TeamStatusView

export interface DeskRig {
  team: Team
  sb: Sandbox
  desks: Desk[]
  /** Every password a desk was given (searched for in every payload). */
  passwords: string[]
  openDesk(role: string, settings: TeamLedgerSettings | null, password: string): Promise<Desk>
  settingsFor(role: string, port?: number): TeamLedgerSettings
  stop(): Promise<void>
}

/**
 * The team, the sandbox and one desk per role (each role an analyst, its password `<role>-pw`). `notifierFor`
 * gives a desk its desktop-notification port (none by default).
 */
export async function startDesks(
  roles: readonly string[],
  o: {
    notifierFor?: (role: string) => NotifierPort
    /**
     * The account's POST /withdraw allowance per minute: the sandbox enforces it (per account, whichever desk
     * sends) and the team's shared budget is set to it, as the owner does for the contract's number.
     */
    withdrawPerMinute?: number
    /** What the folder dialog answers on a desk (default: cancelled). */
    chooseDirectory?: (role: string, purpose: string) => Promise<string | null>
  } = {},
): Promise<DeskRig> {
  const team = await startTeam()
  // Every desk and every re-selected profile signs in with the same client id.
  const sb = await startSandbox({
    port: 0,
    httpControl: false,
    loginRateLimitPerMinute: 100,
    ...(o.withdrawPerMinute !== undefined ? { rateLimits: { withdraw: o.withdrawPerMinute } } : {}),
  })
  if (o.withdrawPerMinute !== undefined) {
    const owner = await team.owner()
    await owner.query(
      `UPDATE rate_buckets SET per_minute = $1, tokens = $1, at = clock_timestamp() WHERE endpoint = 'withdraw'`,
      [o.withdrawPerMinute],
    )
  }
  const desks: Desk[] = []
  const passwords: string[] = []

  const openDesk = async (
    role: string,
    settings: TeamLedgerSettings | null,
    password: string,
  ): Promise<Desk> => {
    passwords.push(password)
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
      ports: {
        chooseDirectory: (purpose) => o.chooseDirectory?.(role, purpose) ?? Promise.resolve(null),
        openExternal: () => Promise.resolve(),
        ...(o.notifierFor ? { notifier: o.notifierFor(role) } : {}),
      },
    })
    const desk: Desk = {
      role,
      ctx,
      dir,
      profileId: '',
      events: [],
      eventAt: [],
      payloads: [],
      call: async (channel, input) => {
        const r = await ctx.router.handle(channel, input)
        desk.payloads.push(JSON.stringify(r))
        return r as { ok: boolean; data?: unknown; error?: unknown }
      },
    }
    ctx.onEvent((event, payload) => {
      desk.events.push({ event, payload })
      desk.eventAt.push(Date.now())
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

  for (const role of roles) {
    await team.addAnalyst(role)
    desks.push(await openDesk(role, settingsFor(role), `${role}-pw`))
  }
  return {
    team,
    sb,
    desks,
    passwords,
    openDesk,
    settingsFor,
    stop: async () => {
      for (const d of desks) {
        await d.ctx.close().catch(() => undefined)
        rmSync(d.dir, { recursive: true, force: true })
      }
      await sb.close()
      await team.stop()
    },
  }
}

export type Result = { ok: boolean; data?: unknown; error?: unknown }

/**
 * `send` until it is not refused for the rate (`rate_limited`: nothing journaled, nothing sent), waiting the
 * `retryAfterSeconds` the refusal gives, as the analyst does. `refusals` counts the refusals met.
 */
export async function admitted(
  send: () => Promise<Result>,
  refusals: { n: number } = { n: 0 },
): Promise<Result> {
  for (;;) {
    const r = await send()
    const e = r.error as { code?: string; retryAfterSeconds?: number } | undefined
    if (r.ok || e?.code !== 'rate_limited') return r
    refusals.n += 1
    expect(e.retryAfterSeconds).toBeGreaterThan(0)
    await new Promise((res) => setTimeout(res, e.retryAfterSeconds! * 1000))
  }
}

/** Quotes `d` on desk `k` and creates it with the review's intent (the renderer's two steps), `admitted`. */
export async function pay(k: Desk, d: WithdrawalDraft, refusals?: { n: number }): Promise<Result> {
  const q = await k.call('withdrawals:quote', { draft: d })
  expect(q.ok).toBe(true)
  const intentId = (q.data as { intent: { id: string } }).intent.id
  return admitted(() => k.call('withdrawals:create', { draft: d, intentId }), refusals)
}

/** The record as desk `k` reads it now. */
export async function recordOn(
  k: Desk,
  localId: string,
): Promise<{ localId: string; localState: string; remoteCheckedAt: string | null }> {
  const got = await k.call('withdrawals:get', { localId })
  expect(got.ok).toBe(true)
  return (got.data as { record: { localId: string; localState: string; remoteCheckedAt: string | null } })
    .record
}

/** The desks whose tracker leadership says it leads, read in one synchronous pass (no await between desks). */
export const leadingNow = (desks: readonly Desk[]): Desk[] =>
  desks.filter((d) => d.ctx.runtime().team?.leadership?.isLeader === true)

/** The leadership connection's backend pid of desk `k` (null while it is reconnecting). */
export const leaderPidOf = (k: Desk): number | null => k.ctx.runtime().team?.leadership?.backendPid ?? null

/** No password given to a desk appears in any result or event it saw. */
export function expectNoPasswords(rig: DeskRig): void {
  const all = rig.desks.flatMap((d) => d.payloads)
  expect(all.length).toBeGreaterThan(20)
  expect(all.filter((p) => rig.passwords.some((pw) => p.includes(pw)))).toEqual([])
}
