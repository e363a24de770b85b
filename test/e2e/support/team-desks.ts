/**
 * Two desks on one team ledger for E2E specs (issue #16): a throwaway PostgreSQL cluster set up the customer's way
 * (team-server.ts), the fixture's one embedded sandbox, and two real app contexts on them with two analyst roles.
 * Desk A (`DESK_A`) is the app the browser page drives (app-fixture.ts, its Sandbox profile on the team ledger);
 * desk B (`DESK_B`, the `colleague` fixture) is a second app context in the test process, driven through its IPC
 * router as a colleague's window would drive it. Every test gets its own cluster, so no queue leaks between tests.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import type { Sandbox } from '../../../src/main/sandbox'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { ApprovalView, TeamStatus } from '../../../src/shared/channels-team'
import type { ChannelName, IpcResult } from '../../../src/shared/contract'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import type { TeamLedgerSettings } from '../../../src/shared/team-ledger'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'
import { test as base, expect } from './app-fixture'
import { startTeam, TEAM_DATABASE, type Team } from './team-server'

/** The analyst whose desk the page is. */
export const DESK_A = 'bruno'
/** The colleague at the other desk. */
export const DESK_B = 'ana'
/** The team's approval threshold in these specs: R$ 1.000,00. */
export const LIMIT_CENTS = 100_000

export const passwordOf = (role: string): string => `${role}-pw`

export function teamSettings(team: Team, role: string): TeamLedgerSettings {
  return {
    host: '127.0.0.1',
    port: team.cluster.port,
    database: TEAM_DATABASE,
    role,
    tls: 'disable',
    caPem: null,
  }
}

export interface Colleague {
  role: string
  ctx: AppContext
  /** Every event desk B's main pushed (as its renderer would get them). */
  events: Array<{ event: string; payload: unknown }>
  call(channel: ChannelName, input?: unknown): Promise<IpcResult<unknown>>
  /** Reviews `draft` and asks for approval, as desk B's review step does (quote → approvals:request). */
  request(draft: WithdrawalDraft, note?: string): Promise<ApprovalView>
  /** A call that must succeed; its data. */
  ok<T>(channel: ChannelName, input?: unknown): Promise<T>
}

async function openColleague(team: Team, sandbox: Sandbox): Promise<{ desk: Colleague; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), `treasury-e2e-${DESK_B}-`))
  const ctx = await createAppContext({
    dataDir: dir,
    vault: createMemoryVault(),
    store: createJsonFileStore(join(dir, 'settings.json')),
    app: { name: 'Tesouraria DePix', version: '0.0.0-e2e', platform: process.platform },
    operator: DESK_B,
    runningSandbox: sandbox,
    trackerAutoStart: true,
    teamLedgerFor: (id) =>
      id === SANDBOX_PROFILE_ID
        ? { settings: teamSettings(team, DESK_B), password: passwordOf(DESK_B) }
        : null,
    teamLeaderRetryMs: 300,
    ports: { chooseDirectory: () => Promise.resolve(null), openExternal: () => Promise.resolve() },
  })
  const events: Colleague['events'] = []
  ctx.onEvent((event, payload) => events.push({ event, payload }))
  const call = (channel: ChannelName, input?: unknown): Promise<IpcResult<unknown>> =>
    ctx.router.handle(channel, input) as Promise<IpcResult<unknown>>
  const ok = async <T>(channel: ChannelName, input?: unknown): Promise<T> => {
    const r = await call(channel, input)
    if (!r.ok) throw new Error(`${DESK_B} ${channel}: ${r.error.code}`)
    return r.data as T
  }
  await ok('session:signIn')
  const desk: Colleague = {
    role: DESK_B,
    ctx,
    events,
    call,
    ok,
    request: async (draft, note) => {
      const q = await ok<{ intent: { id: string }; needsApproval?: boolean }>('withdrawals:quote', { draft })
      expect(q.needsApproval).toBe(true)
      return ok<ApprovalView>('approvals:request', {
        draft,
        intentId: q.intent.id,
        ...(note ? { note } : {}),
      })
    },
  }
  return { desk, dir }
}

export const test = base.extend<{ team: Team; colleague: Colleague }>({
  team: [
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const team = await startTeam()
      try {
        await team.addAnalyst(DESK_A)
        await team.addAnalyst(DESK_B)
        const owner = await team.owner()
        await owner.query('UPDATE ledger.team_settings SET approval_above_cents = $1', [LIMIT_CENTS])
        await use(team)
      } finally {
        await team.stop()
      }
    },
    { timeout: 60_000 },
  ],
  // Desk A's Sandbox profile works on the team ledger as DESK_A; it opens first, so it leads the tracking.
  teamLedgerFor: async ({ team }, use) => {
    await use((id) =>
      id === SANDBOX_PROFILE_ID
        ? { settings: teamSettings(team, DESK_A), password: passwordOf(DESK_A) }
        : null,
    )
  },
  colleague: async ({ app, team }, use) => {
    const { desk, dir } = await openColleague(team, app.sandbox)
    try {
      await use(desk)
    } finally {
      await desk.ctx.close()
      rmSync(dir, { recursive: true, force: true })
    }
  },
})

/** Desk A's standing as its main reports it. */
export async function statusOf(ctx: AppContext): Promise<TeamStatus> {
  const r = (await ctx.router.handle('team:status', undefined)) as IpcResult<TeamStatus>
  if (!r.ok) throw new Error(r.error.code)
  return r.data
}

/** POST /withdraw requests the sandbox answered so far (every desk's). */
export const postsAt = (app: { sandbox: { control: { requestCounts(): Record<string, number> } } }): number =>
  app.sandbox.control.requestCounts()['POST /api/withdraw'] ?? 0

export { expect }
