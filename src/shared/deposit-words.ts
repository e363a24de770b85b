/**
 * Deposit ("compra de DePix") statuses in words, pt-BR and en (docs/GLOSSARY.md), for the screens and the HTML
 * report alike. A code we do not know is never guessed: "Situação não reconhecida (code)". Local states before a
 * status are the withdrawals' words (status-words.ts), feminine where the noun is ("compra").
 */
import type { MoneyLocale } from './money'
import { STATUS_PHRASES } from './status-words'

type Words = Readonly<Record<MoneyLocale, Readonly<Record<string, string>>>>

export const DEPOSIT_STATUS_WORDS = {
  'pt-BR': {
    pending: 'Aguardando o Pix',
    delayed: 'Pix recebido, DePix retido até a data combinada',
    approved: 'Pix recebido, DePix a caminho',
    depix_sent: 'DePix recebido',
    expired: 'QR expirado sem pagamento',
    refunded: 'Devolvido ao pagador (MED)',
  },
  en: {
    pending: 'Awaiting the Pix',
    delayed: 'Pix received, DePix held until the agreed date',
    approved: 'Pix received, DePix on its way',
    depix_sent: 'DePix received',
    expired: 'QR expired unpaid',
    refunded: 'Returned to the payer (MED)',
  },
} as const satisfies Words

export const DEPOSIT_LOCAL_STATE_WORDS = {
  'pt-BR': {
    submitting: 'Enviando pedido',
    created: 'Criada, situação ainda não consultada',
    rejected: 'Recusada',
    outcome_unknown: 'Resultado desconhecido',
    not_created: 'Não criada',
  },
  en: {
    submitting: 'Submitting',
    created: 'Created, status not checked yet',
    rejected: 'Rejected',
    outcome_unknown: 'Outcome unknown',
    not_created: 'Not created',
  },
} as const satisfies Words

/** Why the service held or refused a deposit (docs/API-CONTRACT.md#s2-2 `rejectionReasons`). */
export const REJECTION_REASON_WORDS = {
  'pt-BR': {
    PAST_DAILY_LIMIT: 'limite diário do pagador ultrapassado',
    BLOCKED_USER: 'pagador bloqueado',
    HIGH_VELOCITY: 'muitas operações em pouco tempo',
    PAYER_MISMATCH: 'o Pix veio de outra pessoa que não o pagador informado',
  },
  en: {
    PAST_DAILY_LIMIT: "payer's daily limit exceeded",
    BLOCKED_USER: 'payer blocked',
    HIGH_VELOCITY: 'too many operations in a short time',
    PAYER_MISMATCH: 'the Pix came from someone other than the payer named',
  },
} as const satisfies Words

const lookup = (table: Readonly<Record<string, string>>, code: string): string | undefined =>
  Object.hasOwn(table, code) ? table[code] : undefined

/** A deposit's display status (normalised remote status of a created record, else the local state) in words. */
export function depositStatusInWords(status: string, locale: MoneyLocale): string {
  return (
    lookup(DEPOSIT_STATUS_WORDS[locale], status) ??
    lookup(DEPOSIT_LOCAL_STATE_WORDS[locale], status) ??
    STATUS_PHRASES[locale].status.replace('{{code}}', status)
  )
}

export function rejectionReasonInWords(code: string, locale: MoneyLocale): string {
  return (
    lookup(REJECTION_REASON_WORDS[locale], code) ?? STATUS_PHRASES[locale].reason.replace('{{code}}', code)
  )
}
