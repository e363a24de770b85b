/**
 * The team side of a profile's runtime (issue #16): the PostgreSQL store, the desk's tracker leadership (a lease
 * with heartbeats + LISTEN/NOTIFY, ledger/team/leader.ts) and the desk's standing (`team:status`). Opening
 * never throws: a server out of reach leaves a runtime whose store refuses every call with the reason
 * (ledger/team/offline.ts), `connected: false`, so the app keeps serving its other profiles and the analyst can fix
 * the settings (saving them re-opens the runtime).
 */
import type { TeamLead, TeamStatus, TeamTestVerdict } from '../../shared/channels-team'
import type { TeamLedgerSettings } from '../../shared/team-ledger'
import {
  openPgStore,
  startLeadership,
  teamConnection,
  type ApprovalEvent,
  type PgLedgerStore,
  type RecordChange,
  type TrackerLeadership,
} from '../ledger/engines'
import type { TeamLedgerError } from '../ledger/team-errors'
import { notConnected, offlineStore, openFailureVerdict } from '../ledger/team/offline'
import type { LedgerStore } from '../ledger/ports'

export interface TeamConnectionInput {
  settings: TeamLedgerSettings
  password: string
}

export interface TeamSide {
  /** The store the runtime's withdrawals use: the team's, or the offline stand-in. */
  readonly store: LedgerStore
  /** The connected store (approvals, the shared rate budget); null while not connected. */
  readonly pg: PgLedgerStore | null
  /** Why the open failed; null when connected. */
  readonly failure: Exclude<TeamTestVerdict, 'ok'> | null
  readonly leadership: TrackerLeadership | null
  /** The refusal a call gets while not connected (the reason in both languages). */
  refusal(): TeamLedgerError
  /** The standing as last known (no round trip): for events. */
  snapshot(): TeamStatus
  /**
   * The standing. The threshold is pushed (LISTEN, `leadership` 'settings'); read again only while the listening
   * connection is down (a failed read says `connected: false`).
   */
  status(): Promise<TeamStatus>
  onStatus(l: (s: TeamStatus) => void): () => void
  onRecordChange(l: (c: RecordChange) => void): () => void
  /** A deposit changed on some desk (this one's own changes echoed too). */
  onDepositChange(l: (c: RecordChange) => void): () => void
  onApproval(l: (a: ApprovalEvent) => void): () => void
  /** A payment run changed on any desk (its id). */
  onRunChange(l: (runId: string) => void): () => void
  /** A payee-book entry changed on some desk (this one's own change too): its id. */
  onPayeeChange(l: (id: string) => void): () => void
  close(): Promise<void>
}

export interface TeamSideOptions {
  /** How often a follower tries to take the lead (default: the leadership's 10 s). */
  leaderRetryMs?: number
  log?: (line: string) => void
}

export async function openTeamSide(t: TeamConnectionInput, o: TeamSideOptions = {}): Promise<TeamSide> {
  const log = o.log ?? (() => undefined)
  let pg: PgLedgerStore | null = null
  let failure: Exclude<TeamTestVerdict, 'ok'> | null = null
  let connection
  try {
    connection = teamConnection(t.settings, t.password)
    pg = await openPgStore({ connection })
  } catch (e) {
    failure = openFailureVerdict(e)
    log(`team ledger: not connected (${failure})`)
  }
  let threshold: number | null = null
  if (pg) {
    try {
      threshold = await pg.approvalThreshold()
    } catch (e) {
      failure = openFailureVerdict(e)
    }
  }
  const leadership =
    pg && connection
      ? startLeadership({
          connection,
          ...(o.leaderRetryMs !== undefined ? { retryMs: o.leaderRetryMs } : {}),
        })
      : null
  // The tracker's observations are written under the lease this desk holds: refused once another desk leads.
  if (pg && leadership) pg.setTrackerFence(() => leadership.fenceToken)
  if (leadership) await leadership.ready()

  const statusListeners = new Set<(s: TeamStatus) => void>()
  /** The tracker lease as last read (status()): shown in Configurações with its heartbeat's age. */
  let lead: TeamLead | null = null
  const snapshot = (): TeamStatus => {
    const skew = leadership?.clockSkewMs ?? null
    return {
      engine: 'postgres',
      identity: pg?.identity ?? null,
      connected: pg !== null && failure === null,
      leader: leadership?.isLeader ?? false,
      lead,
      clockSkewMs: skew === null ? null : Math.round(skew),
      approvalAboveCents: threshold,
      reason: failure,
    }
  }
  const announce = (): void => {
    const s = snapshot()
    for (const l of statusListeners) l(s)
  }
  leadership?.on('leader', announce)
  leadership?.on('clock', announce)
  // The owner changed the threshold (or the listening connection came back): every desk tells its renderer.
  leadership?.on('settings', (s) => {
    if (s.approvalAboveCents === threshold && failure === null) return
    threshold = s.approvalAboveCents
    failure = null
    announce()
  })

  return {
    store: pg ?? offlineStore(failure ?? 'unavailable'),
    pg,
    failure,
    leadership,
    refusal: () => notConnected(failure ?? 'unavailable'),
    snapshot,
    status: async () => {
      if (leadership?.listening) {
        // A failed read keeps what was known.
        const l = await leadership.leaseStatus()
        if (l !== undefined)
          lead = l && { holder: l.holder, heartbeatAgeMs: l.heartbeatAgeMs, lapsed: l.lapsed }
      }
      if (pg && !leadership?.listening) {
        const before = failure
        try {
          threshold = await pg.approvalThreshold()
          failure = null
        } catch (e) {
          failure = openFailureVerdict(e)
        }
        if (before !== failure) announce()
      }
      return snapshot()
    },
    onStatus: (l) => {
      statusListeners.add(l)
      return () => statusListeners.delete(l)
    },
    onRecordChange: (l) => {
      leadership?.on('change', l)
      return () => leadership?.off('change', l as (v: never) => void)
    },
    onDepositChange: (l) => {
      leadership?.on('deposit', l)
      return () => leadership?.off('deposit', l as (v: never) => void)
    },
    onApproval: (l) => {
      leadership?.on('approval', l)
      return () => leadership?.off('approval', l as (v: never) => void)
    },
    onRunChange: (l) => {
      leadership?.on('run', l)
      return () => leadership?.off('run', l as (v: never) => void)
    },
    onPayeeChange: (l) => {
      leadership?.on('payee', l)
      return () => leadership?.off('payee', l as (v: never) => void)
    },
    close: async () => {
      statusListeners.clear()
      await leadership?.stop()
      await pg?.close().catch(() => undefined)
    },
  }
}

/** `team:status` of a profile on this computer's ledger. */
export const SQLITE_STATUS: TeamStatus = {
  engine: 'sqlite',
  identity: null,
  connected: true,
  leader: false,
  approvalAboveCents: null,
  reason: null,
}
