/**
 * What exists for the active profile: its API client, its withdrawal service and status tracker. Switching
 * profile closes one runtime and opens another; this computer's ledger is shared by its profiles (records carry
 * their profile id). A team profile (issue #16) keeps its withdrawals and top-ups on the team's PostgreSQL ledger
 * instead (team-runtime.ts): its client takes every token from the team's shared budget too, and its trackers run
 * only while this desk leads.
 */
import { join } from 'node:path'
import type { SessionView } from '../../shared/contract'
import type { Profile } from '../../shared/profile'
import { createDepixClient, type DepixClient, type SessionInfo } from '../api'
import type { Ledger } from '../ledger/sqlite'
import { sharedLimiter, sharedRateBudget } from '../api/team-rate-budget'
import { trackWhileLeading } from '../ledger/engines'
import { createDepositService, type DepositService } from '../deposits'
import type { PayeeBook } from '../payees'
import { createWithdrawalService, type WithdrawalService } from '../withdrawals'
import { engineOf } from './engine'
import { openTeamBooks, type TeamBooks } from './team-books'
import type { ProfileCredentials } from '../profiles'
import { openTeamSide, type TeamConnectionInput, type TeamSide } from './team-runtime'

export interface ProfileRuntime {
  profile: Profile
  client: DepixClient
  withdrawals: WithdrawalService
  /** Top-ups ("Comprar DePix"): the ledger's second record kind, on the same ledger as the withdrawals. */
  deposits: DepositService
  /** The team ledger side; null for a profile on this computer's ledger. */
  team: TeamSide | null
  /** The team's payee book and receipts; null on this computer's ledger or while the team is not connected. */
  teamBooks: TeamBooks | null
  /** Starts the status trackers: at once on this computer's ledger, while this desk leads on a team. */
  startTracking(): void
  close(): Promise<void>
}

export interface RuntimeOptions {
  profile: Profile
  credentials: ProfileCredentials
  ledger: Ledger
  operator: string
  /** The payee book, for payments made to one of its entries (issue #14). */
  payees?: PayeeBook
  /** The profile's team ledger connection; absent or null: this computer's ledger. */
  team?: TeamConnectionInput | null
  /** Where a team profile's side journal lives (the app's data dir). */
  dataDir?: string
  /** Test seam: how often a follower desk tries to take the lead. */
  leaderRetryMs?: number
  /** A team's receipts: the embedded sandbox's origin when the profile's service is that sandbox. */
  receiptLoopbackOrigin?: string | null
  onReceiptChange?: (localId: string) => void
  log?: (line: string) => void
}

/** The team profile's side journal: a local file named after the profile (the team ledger has no file beside it). */
export function teamSideJournal(dataDir: string, profileId: string): string {
  return join(dataDir, `team-${profileId.replace(/[^A-Za-z0-9_-]/g, '_')}.created.jsonl`)
}

export async function openRuntime(o: RuntimeOptions): Promise<ProfileRuntime> {
  const { profile } = o
  const team = o.team
    ? await openTeamSide(o.team, {
        ...(o.leaderRetryMs !== undefined ? { leaderRetryMs: o.leaderRetryMs } : {}),
        ...(o.log ? { log: o.log } : {}),
      })
    : null
  const pg = team?.pg ?? null
  const teamBooks = team && pg ? openTeamBooks(pg, team.leadership, o) : null
  const client = createDepixClient({
    baseUrl: profile.baseUrl,
    auth:
      o.credentials.kind === 'client_credentials'
        ? {
            kind: 'client_credentials',
            clientId: o.credentials.clientId,
            clientSecret: o.credentials.clientSecret,
          }
        : { kind: 'legacy_token', token: o.credentials.token },
    rateLimits: profile.rateLimits,
    // Every desk of the team spends one account's allowance: a token leaves only when the team has one too.
    ...(pg ? { wrapLimiter: (own) => sharedLimiter(own, sharedRateBudget(pg.pool)) } : {}),
  })
  const engine = engineOf({ team, teamBooks })
  // A team's records are stamped by the server: their ages are read on its clock as this desk estimates it, so a
  // desk hours ahead of the server still polls a fresh payment as fresh (issue #25 F9).
  const leadership = team?.leadership ?? null
  /** Where both record kinds are kept: this computer's ledger, or the team's store with a side journal here. */
  const records =
    engine.kind === 'sqlite'
      ? { ledger: o.ledger }
      : {
          store: engine.team.store,
          sideJournal: o.dataDir ? teamSideJournal(o.dataDir, profile.id) : null,
          ...(engine.pg ? { approvals: engine.pg } : {}),
          ...(leadership ? { tracker: { recordClock: () => leadership.serverNow() ?? Date.now() } } : {}),
        }
  // A team's payments name entries of the team's book, never this computer's (none while it is not connected).
  const payees = engine.kind === 'sqlite' ? o.payees : teamBooks?.payees
  const common = { client, operator: o.operator, network: profile.network, profile: profile.id, ...records }
  const withdrawals = createWithdrawalService({
    ...common,
    partnerRateBps: profile.partnerRateBps,
    ...(profile.assetId ? { assetId: profile.assetId } : {}),
    ...(payees ? { payees } : {}),
  })
  const deposits = createDepositService(common)
  const unsubscribe: Array<() => void> = []
  if (team) {
    // Another desk's change (or this desk's own, echoed): a leader starts tracking a record another desk created.
    unsubscribe.push(team.onRecordChange((c) => withdrawals.tracker.track(c.localId)))
    unsubscribe.push(team.onDepositChange((c) => deposits.tracker.track(c.localId)))
  }
  return {
    profile,
    client,
    withdrawals,
    deposits,
    team,
    teamBooks,
    startTracking: () => {
      if (team) {
        if (team.leadership) {
          unsubscribe.push(trackWhileLeading(team.leadership, withdrawals.tracker))
          unsubscribe.push(trackWhileLeading(team.leadership, deposits.tracker))
        }
        teamBooks?.start()
        // The scheduled reconciliation (GET /deposits) is the leading desk's, like tracking: one sweep per team.
        if (team.leadership)
          unsubscribe.push(
            trackWhileLeading(team.leadership, {
              start: deposits.startReconciling,
              resume: deposits.startReconciling,
              pause: deposits.stopReconciling,
            }),
          )
        return
      }
      withdrawals.tracker.start()
      deposits.tracker.start()
      deposits.startReconciling()
    },
    close: async () => {
      for (const u of unsubscribe.splice(0)) u()
      teamBooks?.stop()
      await withdrawals.tracker.stop()
      await deposits.stop()
      await client.close()
      await team?.close()
    },
  }
}

const SANDBOX_ENV = /sandbox|test|dev|staging|homolog/i

/** What the renderer may know of a session: never a token. Warns when the token's env contradicts the profile. */
export function sessionView(s: SessionInfo | null, profile: Profile): SessionView | null {
  if (!s) return null
  const looksSandbox = s.env !== null && SANDBOX_ENV.test(s.env)
  const envWarning =
    profile.kind === 'live' && looksSandbox
      ? 'sandbox_token_on_live'
      : profile.kind === 'sandbox' && s.env !== null && !looksSandbox
        ? 'live_token_on_sandbox'
        : null
  return {
    kind: s.kind,
    sub: s.sub,
    scopes: s.scopes,
    env: s.env,
    accessExpiresAt: s.accessExpiresAt,
    envWarning,
  }
}
