/**
 * Desktop notifications: fed every record change (the tracker's onChange) plus a periodic pass over open records
 * for deadlines. Off when the Settings switch is off. A key is claimed in the ledger before the notification is
 * shown, so at most one notification per event, even after a restart or a crash right after showing it (missing
 * one is better than repeating one; the record itself always shows the state).
 */
import type { ApprovalView } from '../../shared/channels-team'
import type { MoneyLocale } from '../../shared/money'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { Ledger } from '../ledger/sqlite'
import { approvalNotificationKey, approvalNotificationKind, approvalNotificationText } from './approvals'
import { eventsFor } from './events'
import {
  runApprovalNotificationKey,
  runApprovalNotificationKind,
  runApprovalNotificationText,
  type RunApprovalNotice,
} from './run-approvals'
import type { NotifierPort, ShownNotification } from './port'
import { notificationText } from './texts'

const DEADLINE_PASS_MS = 30_000

const isShown = (v: unknown): v is ShownNotification =>
  typeof v === 'object' && v !== null && typeof (v as { close?: unknown }).close === 'function'

export interface NotificationServiceOptions {
  ledger: Ledger
  port: NotifierPort
  enabled: () => boolean
  locale: () => MoneyLocale
  /** Clicking opens the record: an event to the renderer. */
  open: (localId: string) => void
  /** Clicking an approval's notification opens the Aprovações page: an event to the renderer. */
  openApprovals?: (approvalId: string) => void
  /** Clicking a run's approval notification opens that run: an event to the renderer. */
  openRun?: (runId: string) => void
  now?: () => number
  log?: (line: string) => void
}

export interface NotificationService {
  onRecord(r: WithdrawalRecord): void
  /** A team ledger's `approval:changed` as this desk sees it (approvals.ts decides whether it needs this desk). */
  onApproval(a: ApprovalView): void
  /** A run's four-eyes standing after a change on any desk (run-approvals.ts decides whether it needs this desk). */
  onRunApproval(n: RunApprovalNotice): void
  /** Deadline pass over the open records; returns how many notifications were shown. */
  checkDeadlines(): number
  start(): void
  stop(): void
}

export function createNotificationService(o: NotificationServiceOptions): NotificationService {
  const now = o.now ?? Date.now
  let timer: NodeJS.Timeout | null = null

  const consider = (r: WithdrawalRecord): number => {
    if (!o.enabled() || !o.port.supported()) return 0
    let shown = 0
    for (const e of eventsFor(r, now())) {
      try {
        if (!o.ledger.receipts.claimNotification(e.key, new Date(now()).toISOString())) continue
        o.port.show(notificationText(e.kind, r, o.locale()), () => o.open(r.localId))
        shown++
      } catch (err) {
        // A notification is a courtesy: it never breaks the tracker that reported the change.
        o.log?.(
          `notification ${e.kind} for ${r.localId} failed (${err instanceof Error ? err.name : 'error'})`,
        )
      }
    }
    return shown
  }

  // "To decide" notifications still on screen, by the request they ask about: closed once it is decided.
  const asking = new Map<string, ShownNotification>()
  const closeAsking = (key: string): void => {
    const shownNote = asking.get(key)
    if (!shownNote) return
    asking.delete(key)
    try {
      shownNote.close()
    } catch {
      o.log?.('notification close failed')
    }
  }
  const keepAsking = (key: string, shownNote: unknown): void => {
    if (isShown(shownNote)) asking.set(key, shownNote)
  }

  const considerApproval = (a: ApprovalView): void => {
    // Decided, rejected or withdrawn on any desk: the pop-up that asked for a decision goes away.
    if (a.state !== 'pending') closeAsking(`approval:${a.id}`)
    const kind = approvalNotificationKind(a)
    if (!kind || !o.enabled() || !o.port.supported()) return
    try {
      if (
        !o.ledger.receipts.claimNotification(approvalNotificationKey(kind, a), new Date(now()).toISOString())
      )
        return
      const note = o.port.show(approvalNotificationText(kind, a, o.locale()), () => o.openApprovals?.(a.id))
      if (kind === 'to_decide') keepAsking(`approval:${a.id}`, note)
    } catch (err) {
      o.log?.(`notification approval ${kind} failed (${err instanceof Error ? err.name : 'error'})`)
    }
  }

  const considerRun = (n: RunApprovalNotice): void => {
    // Approved, rejected, voided or cancelled: nobody is asked to decide this run any more.
    if (!(n.state === 'draft' && n.approvedBy === null && n.requestedBy !== null))
      closeAsking(`run:${n.runId}`)
    const kind = runApprovalNotificationKind(n)
    if (!kind || !o.enabled() || !o.port.supported()) return
    try {
      if (
        !o.ledger.receipts.claimNotification(
          runApprovalNotificationKey(kind, n),
          new Date(now()).toISOString(),
        )
      )
        return
      const note = o.port.show(runApprovalNotificationText(kind, n, o.locale()), () => o.openRun?.(n.runId))
      if (kind === 'run_to_decide') keepAsking(`run:${n.runId}`, note)
    } catch (err) {
      o.log?.(`notification ${kind} failed (${err instanceof Error ? err.name : 'error'})`)
    }
  }

  const service: NotificationService = {
    onRecord: (r) => void consider(r),
    onApproval: considerApproval,
    onRunApproval: considerRun,
    checkDeadlines: () => {
      if (!o.enabled()) return 0
      let shown = 0
      try {
        for (const r of o.ledger.listOpen()) shown += consider(r)
      } catch {
        o.log?.('notification deadline pass failed')
      }
      return shown
    },
    start: () => {
      if (timer) return
      timer = setInterval(() => service.checkDeadlines(), DEADLINE_PASS_MS)
      timer.unref()
    },
    stop: () => {
      if (timer) clearInterval(timer)
      timer = null
    },
  }
  return service
}
