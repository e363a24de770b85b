/**
 * Statuses, refund reasons and totals groups in words, pt-BR and en (docs/GLOSSARY.md). One table for the
 * renderer (its i18n `status` namespace reads these) and for the exports (the HTML report), so a status has the
 * same words on screen and on paper. A code we do not know is never guessed: it reads "Situação não reconhecida"
 * with the raw code beside it.
 */
import type { Meaning } from './money-totals'
import type { MoneyLocale } from './money'

type Words<K extends string> = Readonly<Record<MoneyLocale, Readonly<Record<K, string>>>>

/** Remote statuses (withdrawal-status.ts KNOWN_STATUSES). */
export const REMOTE_STATUS_WORDS = {
  'pt-BR': {
    unsent: 'Aguardando depósito',
    sending: 'Pix em andamento',
    sent: 'Pago',
    error: 'Falha no Pix',
    refunded: 'Devolvido',
    expired: 'Expirado',
    cancelled: 'Cancelado',
  },
  en: {
    unsent: 'Awaiting deposit',
    sending: 'Payout in progress',
    sent: 'Paid',
    error: 'Payout failed',
    refunded: 'Refunded',
    expired: 'Expired',
    cancelled: 'Cancelled',
  },
} as const satisfies Words<string>

/** Local states (withdrawal-record.ts LOCAL_STATES) as a display status, i.e. with no remote status yet. */
export const LOCAL_STATE_WORDS = {
  'pt-BR': {
    submitting: 'Enviando pedido',
    created: 'Criado, situação ainda não consultada',
    rejected: 'Recusado',
    outcome_unknown: 'Resultado desconhecido',
    not_created: 'Não criado',
  },
  en: {
    submitting: 'Submitting',
    created: 'Created, status not checked yet',
    rejected: 'Rejected',
    outcome_unknown: 'Outcome unknown',
    not_created: 'Not created',
  },
} as const satisfies Words<string>

/** Refund reasons (docs/API-CONTRACT.md#s3-2). */
export const REFUND_REASON_WORDS = {
  'pt-BR': {
    invalid_pix_key: 'Chave Pix inválida, inexistente ou de outro CPF/CNPJ (tarifa de 1 DePix retida)',
    payout_failure: 'Falha no Pix (motivo de registros antigos; tarifa de 1 DePix retida)',
  },
  en: {
    invalid_pix_key: 'Pix key invalid, nonexistent or of another CPF/CNPJ (1 DePix fee withheld)',
    payout_failure: 'Payout failure (reason of older records; 1 DePix fee withheld)',
  },
} as const satisfies Words<string>

export const MEANING_WORDS = {
  'pt-BR': {
    paid: 'Pago',
    open: 'Em aberto',
    returned: 'Devolvido',
    ended: 'Expirado, cancelado ou com falha',
    other: 'Situação não reconhecida',
  },
  en: {
    paid: 'Paid',
    open: 'Open',
    returned: 'Returned',
    ended: 'Expired, cancelled or failed',
    other: 'Unrecognised status',
  },
} as const satisfies Words<Meaning>

/** Phrases around a code: i18next placeholders, filled by the functions below (and by i18next in the renderer). */
export const STATUS_PHRASES = {
  'pt-BR': {
    status: 'Situação não reconhecida ({{code}})',
    reason: 'Motivo não reconhecido ({{code}})',
    withRefund: 'com devolução',
  },
  en: {
    status: 'Unrecognised status ({{code}})',
    reason: 'Unrecognised reason ({{code}})',
    withRefund: 'with refund',
  },
} as const satisfies Words<string>

const lookup = (table: Readonly<Record<string, string>>, code: string): string | undefined =>
  Object.hasOwn(table, code) ? table[code] : undefined

/**
 * A display status (the normalised remote status of a created record, else the local state) in words, with
 * ", com devolução" when a refund is recorded on a status that does not already say so.
 */
export function statusInWords(status: string, hasRefund: boolean, locale: MoneyLocale): string {
  const words =
    lookup(REMOTE_STATUS_WORDS[locale], status) ??
    lookup(LOCAL_STATE_WORDS[locale], status) ??
    STATUS_PHRASES[locale].status.replace('{{code}}', status)
  return hasRefund && status !== 'refunded' ? `${words}, ${STATUS_PHRASES[locale].withRefund}` : words
}

export function refundReasonInWords(code: string, locale: MoneyLocale): string {
  return lookup(REFUND_REASON_WORDS[locale], code) ?? STATUS_PHRASES[locale].reason.replace('{{code}}', code)
}
