/**
 * Payment runs in the approvals queue and its desktop notifications (issue #16). The queue lists the runs waiting
 * for another analyst (`approvals:runs`); a run change heard from any desk (LISTEN depix_runs → onRunChange) is
 * read again and handed to the notifications, which decide whether it needs this desk. Approval itself stays on
 * the run's screen (runs:approve): the queue only opens the run.
 */
import type { RunApprovalItem } from '../../shared/run-approval'
import type { PgLedgerStore } from '../ledger/engines'
import { runApprovalState, runsWaitingForApproval } from '../ledger/pg/run-approvals'
import { pgRunStore } from '../ledger/pg/run-store'
import type { NotificationService } from '../notifications'
import { summarize } from '../runs/summary'
import { engineOf } from './engine'
import type { ProfileRuntime } from './runtime'

/**
 * Rows to pay and their totals, on the run's own review rule (rows decided "drop" are outside the totals). A
 * cancelled run (a rejection) had every row dropped by the cancel: its totals are those that were asked for.
 */
async function totalsOf(
  pg: PgLedgerStore,
  runId: string,
  rateBps: number,
  cancelled = false,
): Promise<{ rows: number; payoutCents: number; depositCents: number }> {
  const rows = await pgRunStore(pg.pool, pg.identity).rows(runId)
  const asked = cancelled
    ? rows.map((r) => (r.state === 'dropped' ? { ...r, state: 'pending' as const } : r))
    : rows
  const s = summarize(asked, rateBps)
  return { rows: s.count, payoutCents: s.payoutCents, depositCents: s.depositCents }
}

export async function runApprovalQueue(pg: PgLedgerStore, rateBps: number): Promise<RunApprovalItem[]> {
  const waiting = await runsWaitingForApproval(pg.pool)
  const me = pg.identity
  return Promise.all(
    waiting.map(async (w) => ({
      runId: w.runId,
      name: w.name,
      ...(await totalsOf(pg, w.runId, rateBps)),
      requestedBy: w.requestedBy ?? '',
      requestedAt: w.requestedAt ?? '',
      mine: w.requestedBy === me,
      mayApprove: w.requestedBy !== me && w.importedBy !== me,
    })),
  )
}

/** Subscribes the desktop notifications to the runtime's run changes; returns the unsubscribers. */
export function runApprovalNotices(
  rt: ProfileRuntime,
  notifications: Pick<NotificationService, 'onRunApproval'>,
  log: (line: string) => void,
): Array<() => void> {
  const engine = engineOf(rt)
  if (engine.kind === 'sqlite') return []
  const { team } = engine
  return [
    team.onRunChange((runId) => {
      const pg = team.pg
      if (!pg) return
      void (async () => {
        const s = await runApprovalState(pg.pool, runId)
        // Nobody asked: nothing to tell (most run changes are waves and rows).
        if (!s || s.requestedBy === null) return
        const totals = await totalsOf(pg, runId, rt.profile.partnerRateBps, s.state === 'cancelled')
        notifications.onRunApproval({ ...s, me: pg.identity, ...totals })
      })().catch(() => log('team ledger: a changed run could not be read for its notification'))
    }),
  ]
}
