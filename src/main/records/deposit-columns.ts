/**
 * The columns of a deposit export ("compras de DePix"): every CSV column and the report's readable subset. Ids are
 * the English headers; pt-BR headers are labels in words (docs/GLOSSARY.md). Code columns (status, local state,
 * error kind) hold the code and say so. An imported deposit (made outside the app) says so in its own column and
 * in its status in words, so it is never read as one of ours. Like withdrawals (columns.ts), the CSV puts what a
 * person reads first (issue #26) and the codes after; exports made before keep verifying in their own order
 * (LEGACY_DEPOSIT_CSV_COLUMNS). docs/RECORDS.md lists them; a test holds the two together.
 */
import type { DepositRecord } from '../../shared/deposit-record'
import { depositAmountOf, depositDisplayStatus } from '../../shared/deposit-record'
import { normalizeDepositStatus } from '../../shared/deposit-status'
import { depositStatusInWords } from '../../shared/deposit-words'
import { maskTaxId } from '../../shared/tax-id'
import { csvAtOf, errorColumns, peopleFirst, pickColumns, remote, text, type Column } from './columns'
import type { ExportLocale } from './format'

/** Must equal the ledger's derived `display_status` (ledger/sqlite/deposit-rows.ts): the same shared rule. */
export const displayStatusOf = (r: Pick<DepositRecord, 'localState' | 'remoteStatus'>): string =>
  depositDisplayStatus(r, normalizeDepositStatus)

const OUTSIDE: Readonly<Record<ExportLocale, string>> = {
  'pt-BR': 'feita fora do aplicativo',
  en: 'made outside the app',
}

/** A deposit's status in words (the report's status cell and the CSV's `status_text`). */
export function depositStatusWords(r: DepositRecord, locale: ExportLocale): string {
  const words = depositStatusInWords(displayStatusOf(r), locale)
  return r.origin === 'imported' ? `${words} (${OUTSIDE[locale]})` : words
}

/**
 * The columns in the order of deposit exports made before issue #26 (ids first, codes early). Today's exports
 * use DEPOSIT_CSV_COLUMNS (the same columns and the status in words, people's first); the verifier reads an older
 * file in this order.
 */
export const LEGACY_DEPOSIT_CSV_COLUMNS: readonly Column<DepositRecord>[] = [
  { id: 'local_id', pt: 'ID local', kind: 'text', get: (r) => r.localId },
  { id: 'remote_id', pt: 'ID da compra no serviço', kind: 'text', get: (r) => r.remoteId },
  { id: 'origin', pt: 'Origem (código)', kind: 'text', get: (r) => r.origin },
  { id: 'profile', pt: 'Perfil', kind: 'text', get: (r) => r.profile },
  { id: 'operator', pt: 'Operador', kind: 'text', get: (r) => r.operator },
  { id: 'created_at', pt: 'Criada em', kind: 'date', get: (r) => r.createdAt },
  { id: 'updated_at', pt: 'Atualizada em', kind: 'date', get: (r) => r.updatedAt },
  { id: 'local_state', pt: 'Estado do pedido (código)', kind: 'text', get: (r) => r.localState },
  { id: 'remote_status', pt: 'Situação no serviço (como enviada)', kind: 'text', get: (r) => r.remoteStatus },
  { id: 'status', pt: 'Situação (código)', kind: 'text', get: (r) => displayStatusOf(r) },
  { id: 'requested_amount', pt: 'Valor solicitado (R$)', kind: 'amount', get: (r) => r.amountCents },
  { id: 'amount', pt: 'Valor da compra (R$)', kind: 'amount', get: (r) => depositAmountOf(r) },
  { id: 'depix_address', pt: 'Endereço Liquid de destino', kind: 'text', get: (r) => r.depixAddress },
  {
    id: 'payer_tax_number',
    pt: 'CPF/CNPJ do pagador',
    kind: 'text',
    get: (r) => {
      const v = text(r.request.endUserTaxNumber) ?? remote(r, 'payerTaxNumber')
      return v === null ? null : maskTaxId(v)
    },
  },
  { id: 'euid', pt: 'EUID', kind: 'text', get: (r) => text(r.request.euid) ?? remote(r, 'payerEUID') },
  { id: 'payer_name', pt: 'Pagador', kind: 'text', get: (r) => r.payerName },
  {
    id: 'delay_hours',
    pt: 'Retenção pedida (horas)',
    kind: 'text',
    get: (r) => text(r.request.delayDepixInHours),
  },
  { id: 'delay_until', pt: 'DePix retido até', kind: 'date', get: (r) => remote(r, 'delayUntil') },
  { id: 'expiration', pt: 'QR válido até', kind: 'date', get: (r) => r.expiration },
  { id: 'bank_tx_id', pt: 'ID da transação bancária do Pix', kind: 'text', get: (r) => r.bankTxId },
  { id: 'blockchain_tx_id', pt: 'Transação Liquid do DePix', kind: 'text', get: (r) => r.blockchainTxId },
  { id: 'reversed', pt: 'Devolvida por MED', kind: 'bool', get: (r) => r.reversedAt !== null },
  { id: 'reversed_at', pt: 'MED registrado em', kind: 'date', get: (r) => r.reversedAt },
  {
    id: 'rejection_reasons',
    pt: 'Motivos de retenção ou recusa (códigos)',
    kind: 'text',
    get: (r) => {
      const v = r.lastRemote?.rejectionReasons
      return Array.isArray(v) ? v.map((x) => text(x) ?? '').join(' | ') : text(v)
    },
  },
  ...errorColumns<DepositRecord>(),
]

/** What a person reads, in the order they read it: when, who paid, CPF/CNPJ, R$, status in words, where to. */
const DEPOSIT_PEOPLE_ORDER = [
  'created_at',
  'payer_name',
  'payer_tax_number',
  'amount',
  'status_text',
  'depix_address',
] as const

/** Today's deposit CSV: DEPOSIT_PEOPLE_ORDER, then the rest in LEGACY_DEPOSIT_CSV_COLUMNS' order. */
export const DEPOSIT_CSV_COLUMNS: readonly Column<DepositRecord>[] = peopleFirst(
  LEGACY_DEPOSIT_CSV_COLUMNS,
  [{ id: 'status_text', pt: 'Situação', kind: 'text', get: depositStatusWords }],
  DEPOSIT_PEOPLE_ORDER,
)

// A MED reversal is the deposit's "returned": the `reversed` column, so the verifier can recount it.
const DEPOSIT_AT_IDS = { status: 'status', refunded: 'reversed', deposit: 'amount', payout: null } as const

/** Where the verifier reads the status, the reversal and the amount: today's file and one in the earlier order. */
export const DEPOSIT_CSV_AT = csvAtOf(DEPOSIT_CSV_COLUMNS, DEPOSIT_AT_IDS)
export const LEGACY_DEPOSIT_CSV_AT = csvAtOf(LEGACY_DEPOSIT_CSV_COLUMNS, DEPOSIT_AT_IDS)

export const DEPOSIT_HTML_COLUMNS: readonly Column<DepositRecord>[] = pickColumns(DEPOSIT_CSV_COLUMNS, [
  'created_at',
  'status',
  'amount',
  'payer_name',
  'blockchain_tx_id',
  'remote_id',
  'operator',
])
