/**
 * Payment runs in the Aprovações queue (issue #16): their order, what they add to the count and the badge, and the
 * amount line. Pure, so it is unit tested without a browser. A run is approved on its own screen (Lotes), where
 * its rows are; the queue only says that it waits and opens it.
 */
import type { ApprovalView } from '../../../../shared/channels-team'
import { formatBRL } from '../../../../shared/money'
import type { RunApprovalItem } from '../../../../shared/run-approval'
import { badgeCount } from './approval-model'

/** What this desk may do with a waiting run: approve it (on its screen), or only wait. */
export type RunQueueAction = 'approve' | 'wait_mine' | 'wait_imported'

export function runActionFor(r: RunApprovalItem): RunQueueAction {
  if (r.mayApprove) return 'approve'
  return r.mine ? 'wait_mine' : 'wait_imported'
}

function time(iso: string): number {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t
}

/** Oldest request first; ties by run id so the order never flickers. */
export function sortRunQueue(list: readonly RunApprovalItem[]): RunApprovalItem[] {
  return [...list].sort((a, b) => time(a.requestedAt) - time(b.requestedAt) || a.runId.localeCompare(b.runId))
}

/** The count on the page and the nav badge: payments and runs that need this desk now. */
export function queueCount(approvals: readonly ApprovalView[], runs: readonly RunApprovalItem[]): number {
  return badgeCount(approvals) + runs.filter((r) => runActionFor(r) === 'approve').length
}

/** The run's total as R$ that arrive by Pix (what the rows name); empty when main sent a figure that is no money. */
export function runTotalText(r: Pick<RunApprovalItem, 'payoutCents'>, lang: 'pt-BR' | 'en'): string {
  return Number.isSafeInteger(r.payoutCents) ? formatBRL(r.payoutCents, lang) : ''
}
