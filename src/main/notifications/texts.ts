/**
 * Notification texts, pt-BR (default) and English. They name the amount and a masked Pix key only: a
 * notification is visible on a locked screen and kept by the OS, so never a full key, a document or a secret.
 */
import { formatBRL, type MoneyLocale } from '../../shared/money'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { NotificationKind } from './events'

/** The first 3 and last 2 characters at most, the middle as asterisks; short keys are fully masked. */
export function maskPixKey(key: string): string {
  const k = key.trim()
  if (k.length <= 8) return '*'.repeat(Math.max(k.length, 3))
  return `${k.slice(0, 3)}${'*'.repeat(Math.min(k.length - 5, 12))}${k.slice(-2)}`
}

const TITLES: Record<NotificationKind, Record<MoneyLocale, string>> = {
  paid: { 'pt-BR': 'Pagamento efetuado', en: 'Withdrawal paid' },
  returned: { 'pt-BR': 'Pagamento devolvido', en: 'Withdrawal refunded' },
  deadline: { 'pt-BR': 'Prazo do depósito terminando', en: 'Deposit deadline soon' },
  unknown: { 'pt-BR': 'Resultado desconhecido', en: 'Outcome unknown' },
}

const LINES: Record<NotificationKind, Record<MoneyLocale, string>> = {
  paid: { 'pt-BR': 'Pix enviado', en: 'Pix sent' },
  returned: { 'pt-BR': 'DePix devolvido', en: 'DePix refunded' },
  deadline: {
    'pt-BR': 'Faltam menos de 10 minutos para enviar o DePix',
    en: 'Less than 10 minutes to send the DePix',
  },
  unknown: {
    'pt-BR': 'Confira o pagamento antes de tentar de novo',
    en: 'Check the withdrawal before trying again',
  },
}

export function notificationText(
  kind: NotificationKind,
  r: WithdrawalRecord,
  locale: MoneyLocale,
): { title: string; body: string } {
  const cents = r.payoutAmountCents ?? r.amountCents
  const amount = Number.isSafeInteger(cents) ? formatBRL(cents, locale) : ''
  const to = locale === 'pt-BR' ? 'para' : 'to'
  return {
    title: TITLES[kind][locale],
    body: `${LINES[kind][locale]}: ${amount} ${to} ${maskPixKey(r.pixKey)}`,
  }
}
