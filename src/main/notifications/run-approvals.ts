/**
 * Desktop notifications for a payment run's four-eyes approval (issue #16), on the payments' rule
 * (approvals.ts): another analyst asked for a run this desk may approve, or this desk's own request was approved
 * or rejected by someone else. Amount and number of payments only: never the file's name, a payee or a Pix key
 * (a locked screen shows it).
 */
import type { RunApprovalState } from '../ledger/pg/run-approvals'
import { formatBRL, type MoneyLocale } from '../../shared/money'
import type { DesktopNotification } from './port'

export type RunApprovalNotificationKind = 'run_to_decide' | 'run_approved' | 'run_rejected'

/** A run's standing as this desk sees it, with what the notification may say of it. */
export interface RunApprovalNotice extends RunApprovalState {
  /** This desk's role (session_user). */
  me: string
  rows: number
  payoutCents: number
}

export function runApprovalNotificationKind(n: RunApprovalNotice): RunApprovalNotificationKind | null {
  if (n.requestedBy === null) return null
  if (n.state === 'draft' && n.approvedBy === null) {
    // The role that asked and the one that imported may not approve (the database refuses both).
    return n.requestedBy === n.me || n.importedBy === n.me ? null : 'run_to_decide'
  }
  if (n.requestedBy !== n.me) return null
  if (n.approvedBy !== null && n.approvedBy !== n.me) return 'run_approved'
  if (n.state === 'cancelled' && n.rejectedBy !== null && n.rejectedBy !== n.me) return 'run_rejected'
  return null
}

/** Once per request (a run voided and asked again is a new request) and kind, on this desk. */
export const runApprovalNotificationKey = (kind: RunApprovalNotificationKind, n: RunApprovalNotice): string =>
  `${kind}:${n.runId}:${n.requestedAt ?? ''}`

const TITLES: Record<RunApprovalNotificationKind, Record<MoneyLocale, string>> = {
  run_to_decide: { 'pt-BR': 'Lote aguardando aprovação', en: 'Payment run awaiting approval' },
  run_approved: { 'pt-BR': 'Lote aprovado', en: 'Payment run approved' },
  run_rejected: { 'pt-BR': 'Lote recusado', en: 'Payment run rejected' },
}

export function runApprovalNotificationText(
  kind: RunApprovalNotificationKind,
  n: RunApprovalNotice,
  locale: MoneyLocale,
): DesktopNotification {
  const amount = Number.isSafeInteger(n.payoutCents) ? formatBRL(n.payoutCents, locale) : ''
  const count = n.rows
  const by =
    (kind === 'run_to_decide' ? n.requestedBy : kind === 'run_approved' ? n.approvedBy : n.rejectedBy) ?? ''
  const body =
    locale === 'pt-BR'
      ? {
          run_to_decide: `${by} pediu aprovação de um lote de ${count} ${count === 1 ? 'pagamento' : 'pagamentos'} (${amount})`,
          run_approved: `${by} aprovou seu lote de ${count} ${count === 1 ? 'pagamento' : 'pagamentos'} (${amount}): já pode criar as ondas`,
          run_rejected: `${by} recusou seu lote de ${count} ${count === 1 ? 'pagamento' : 'pagamentos'} (${amount})`,
        }[kind]
      : {
          run_to_decide: `${by} requested approval of a payment run of ${count} ${count === 1 ? 'withdrawal' : 'withdrawals'} (${amount})`,
          run_approved: `${by} approved your payment run of ${count} ${count === 1 ? 'withdrawal' : 'withdrawals'} (${amount}): its waves may be created now`,
          run_rejected: `${by} rejected your payment run of ${count} ${count === 1 ? 'withdrawal' : 'withdrawals'} (${amount})`,
        }[kind]
  return { title: TITLES[kind][locale], body }
}
