/**
 * Four-eyes approvals as the renderer sees them (issue #16): who may do what with an approval, the queue's order,
 * the nav badge, which live change deserves a banner, and the words for main's refusals. Pure, so it is unit
 * tested without a browser; main (the database) stays the authority — these only decide what to offer.
 */
import type { ApprovalView, TeamStatus } from '../../../../shared/channels-team'
import { formatBRL, formatDePix } from '../../../../shared/money'
import { teamTestMessages } from '../../../../shared/team-ledger'

/** What this desk may do with one approval. */
export type ApprovalAction = 'decide' | 'wait' | 'send' | 'none'

export function actionFor(a: ApprovalView): ApprovalAction {
  if (a.state === 'pending') return a.mine ? 'wait' : 'decide'
  // Any analyst may send an approved payment (its body comes from the database, not from this desk).
  if (a.state === 'approved') return 'send'
  return 'none'
}

/** Needs this desk now: someone else's request to decide, or an approved payment to send. */
export function needsMyAction(a: ApprovalView): boolean {
  const action = actionFor(a)
  return action === 'decide' || action === 'send'
}

export function badgeCount(list: readonly ApprovalView[]): number {
  return list.filter(needsMyAction).length
}

function time(iso: string): number {
  const t = Date.parse(iso)
  return Number.isNaN(t) ? Number.POSITIVE_INFINITY : t
}

/** Oldest request first (the one waiting longest); ties by id so the order never flickers. */
export function sortQueue(list: readonly ApprovalView[]): ApprovalView[] {
  return [...list].sort((a, b) => time(a.requestedAt) - time(b.requestedAt) || a.id.localeCompare(b.id))
}

/**
 * The queue after a live change (`approval:changed`): the item replaces its older copy; a sent payment leaves
 * the queue (it is a record now). Rejected ones stay so the requester reads the reason.
 */
export function applyChange(list: readonly ApprovalView[], changed: ApprovalView): ApprovalView[] {
  const rest = list.filter((a) => a.id !== changed.id)
  return sortQueue(changed.state === 'sent' ? rest : [...rest, changed])
}

/**
 * The queue after a payment record changed (`withdrawal:changed`, from any desk): an approved item whose payment
 * now exists was sent — on this desk or another, which sends no approval event — so it leaves the queue. A pending
 * item never has a record, so nothing else moves.
 */
export function withoutSent(list: readonly ApprovalView[], recordLocalId: string): ApprovalView[] {
  const next = list.filter((a) => !(a.state === 'approved' && a.localId === recordLocalId))
  return next.length === list.length ? [...list] : next
}

/** Why a live change deserves a banner on this desk, or null when it does not (e.g. the desk's own decision). */
export type ToastKind = 'to_decide' | 'approved' | 'rejected'

export function toastFor(a: ApprovalView, me: string | null): ToastKind | null {
  if (a.state === 'pending') return a.mine ? null : 'to_decide'
  // The decision this desk just took needs no banner on this desk.
  const decidedHere = me !== null && a.decidedBy === me
  if (a.state === 'approved') return decidedHere ? null : 'approved'
  if (a.state === 'rejected') return a.mine && !decidedHere ? 'rejected' : null
  return null
}

/**
 * The banner after a change: a new one when the change needs this desk; otherwise the one on screen stays —
 * unless it asked to decide this very request and the request is no longer pending (decided, rejected or
 * withdrawn on any desk, this one included): a stale "to decide" banner closes (issue #26).
 */
export function nextToast<T extends { kind: ToastKind; approval: ApprovalView }>(
  current: T | null,
  approval: ApprovalView,
  kind: ToastKind | null,
): { kind: ToastKind; approval: ApprovalView } | T | null {
  if (kind) return { kind, approval }
  if (
    current &&
    current.kind === 'to_decide' &&
    current.approval.id === approval.id &&
    approval.state !== 'pending'
  )
    return null
  return current
}

/** After the queue was read again: a "to decide" banner whose request is no longer pending there closes. */
export function toastStillPending<T extends { kind: ToastKind; approval: ApprovalView }>(
  current: T | null,
  queue: readonly ApprovalView[],
): T | null {
  if (!current || current.kind !== 'to_decide') return current
  return queue.some((a) => a.id === current.approval.id && a.state === 'pending') ? current : null
}

/** Main's refusals of approval calls that have their own sentence (approvals:codes.*); others fall back. */
export const APPROVAL_CODES = [
  'approval_self',
  'approval_decided',
  'approval_required',
  'permission_denied',
  'unavailable',
  'unsupported',
  'not_found',
  'note_required',
  'approval_not_sendable',
  'schema_too_new',
  'schema_too_old',
] as const
export type ApprovalCode = (typeof APPROVAL_CODES)[number]

export function approvalCode(code: string): ApprovalCode | null {
  return (APPROVAL_CODES as readonly string[]).includes(code) ? (code as ApprovalCode) : null
}

/** The team-status line in the layout: nothing on this computer's ledger. */
export type TeamIndicator = 'none' | 'connected' | 'leader' | 'disconnected'

export function teamIndicator(status: TeamStatus | null): TeamIndicator {
  if (!status || status.engine !== 'postgres') return 'none'
  if (!status.connected) return 'disconnected'
  return status.leader ? 'leader' : 'connected'
}

/** Why this desk is not connected, in the connection test's words; null when connected or main gave no reason. */
export function teamReasonText(status: TeamStatus | null, lang: 'pt-BR' | 'en'): string | null {
  if (!status || status.engine !== 'postgres' || status.connected) return null
  const reason = status.reason
  if (!reason || !Object.hasOwn(teamTestMessages, reason)) return null
  return teamTestMessages[reason][lang]
}

/** The amount as requested: BRL for a payout amount, DePix for a deposit amount (what the request names). */
export function amountText(
  a: Pick<ApprovalView, 'amountKind' | 'amountCents'> & Partial<Pick<ApprovalView, 'kind'>>,
  lang: 'pt-BR' | 'en',
): string {
  // A top-up's amount is the Pix the company pays, in reais.
  return a.amountKind === 'payout' || a.kind === 'deposit'
    ? formatBRL(a.amountCents, lang)
    : formatDePix(a.amountCents, lang)
}
