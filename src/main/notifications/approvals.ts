/**
 * Desktop notifications for four-eyes approvals (issue #16): which `approval:changed` needs this desk, and its
 * words. The rule is the renderer's banner rule (components/approvals/approval-model.ts `toastFor`): another
 * analyst asked (pending, not mine), or my request was decided (by someone else — the database refuses a
 * self-decision). This desk's own request and its own decisions come back as events too and say nothing.
 * Like the payments' notifications: the amount and the masked Pix key only, never the note (free text typed by
 * an analyst, shown on a locked screen), the document or the full key.
 */
import type { ApprovalView } from '../../shared/channels-team'
import { formatBRL, formatDePix, type MoneyLocale } from '../../shared/money'
import type { DesktopNotification } from './port'
import { maskPixKey } from './texts'

export type ApprovalNotificationKind = 'to_decide' | 'approved' | 'rejected'

export function approvalNotificationKind(a: ApprovalView): ApprovalNotificationKind | null {
  if (a.state === 'pending') return a.mine ? null : 'to_decide'
  if (!a.mine) return null
  if (a.state === 'approved') return 'approved'
  if (a.state === 'rejected') return 'rejected'
  return null
}

/** One notification per approval and state, on this desk (claimed in this computer's ledger). */
export const approvalNotificationKey = (kind: ApprovalNotificationKind, a: ApprovalView): string =>
  `approval-${kind}:${a.id}`

const TITLES: Record<ApprovalNotificationKind, Record<MoneyLocale, string>> = {
  to_decide: { 'pt-BR': 'Pedido de aprovação', en: 'Approval requested' },
  approved: { 'pt-BR': 'Pagamento aprovado', en: 'Withdrawal approved' },
  rejected: { 'pt-BR': 'Pagamento recusado', en: 'Withdrawal rejected' },
}

const TOP_UP_TITLES: Record<ApprovalNotificationKind, Record<MoneyLocale, string>> = {
  to_decide: TITLES.to_decide,
  approved: { 'pt-BR': 'Compra de DePix aprovada', en: 'Top-up approved' },
  rejected: { 'pt-BR': 'Compra de DePix recusada', en: 'Top-up rejected' },
}

function amountOf(a: ApprovalView, locale: MoneyLocale): string {
  if (!Number.isSafeInteger(a.amountCents)) return ''
  // A top-up's amount is the Pix the company pays, in reais.
  return a.amountKind === 'payout' || a.kind === 'deposit'
    ? formatBRL(a.amountCents, locale)
    : formatDePix(a.amountCents, locale)
}

/** A top-up's notification: its amount only (the delivery address is for the card, not the OS). */
function topUpText(kind: ApprovalNotificationKind, by: string, amount: string, locale: MoneyLocale): string {
  return locale === 'pt-BR'
    ? {
        to_decide: `${by} pediu aprovação de uma compra de DePix de ${amount}`,
        approved: `${by} aprovou a compra de DePix de ${amount}: o QR já pode ser gerado`,
        rejected: `${by} recusou a compra de DePix de ${amount}`,
      }[kind]
    : {
        to_decide: `${by} requested approval of a ${amount} DePix top-up`,
        approved: `${by} approved the ${amount} DePix top-up: its QR may be issued now`,
        rejected: `${by} rejected the ${amount} DePix top-up`,
      }[kind]
}

export function approvalNotificationText(
  kind: ApprovalNotificationKind,
  a: ApprovalView,
  locale: MoneyLocale,
): DesktopNotification {
  const amount = amountOf(a, locale)
  const by = (kind === 'to_decide' ? a.requestedBy : a.decidedBy) ?? ''
  if (a.kind === 'deposit')
    return { title: TOP_UP_TITLES[kind][locale], body: topUpText(kind, by, amount, locale) }
  const key = maskPixKey(a.pixKey)
  const body =
    locale === 'pt-BR'
      ? {
          to_decide: `${by} pediu aprovação de ${amount} para ${key}`,
          approved: `${by} aprovou ${amount} para ${key}: já pode ser enviado`,
          rejected: `${by} recusou ${amount} para ${key}`,
        }[kind]
      : {
          to_decide: `${by} requested approval of ${amount} to ${key}`,
          approved: `${by} approved ${amount} to ${key}: it may be sent now`,
          rejected: `${by} rejected ${amount} to ${key}`,
        }[kind]
  return { title: TITLES[kind][locale], body }
}
