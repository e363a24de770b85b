/**
 * The columns of the CSV (all of them) and of the HTML report (a readable subset). Ids are the English headers
 * and stable names for scripts; pt-BR headers are labels in words (docs/GLOSSARY.md). Code columns (status,
 * refund reason, error kind) hold the code, and say so in their header: scripts and the verifier group by them.
 * The CSV puts what a person reads first (issue #26) and the codes after; exports made before keep verifying in
 * their own order (LEGACY_CSV_COLUMNS). docs/RECORDS.md lists them; a test holds the two together. Fields of the
 * raw status body (`lastRemote`) are read defensively: the API contract shows their names but the service may send
 * anything, so a non-string value is written as its JSON text, never dropped.
 */
import { checkPayeeName } from '../../shared/name-check'
import { payeeNameOf } from '../../shared/payee-name'
import { statusInWords } from '../../shared/status-words'
import { runLinkText, type RunLink } from '../../shared/run-link'
import { maskTaxId } from '../../shared/tax-id'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { ExportLocale } from './format'
import { displayStatus } from './totals'

export type ColumnKind = 'text' | 'date' | 'amount' | 'bool'

/**
 * What a row shows beyond its record, read beside it by the export's view and never part of it (records.json and
 * its state hashes stay the record's own): the payment run the withdrawal came from (issue #26's "Lote").
 */
export interface RowExtras {
  run: RunLink | null
}
export const NO_EXTRAS: RowExtras = Object.freeze({ run: null })

/** One column of a record kind (withdrawals here; deposits in deposit-columns.ts). */
export interface Column<R = WithdrawalRecord> {
  id: string
  pt: string
  kind: ColumnKind
  /** The cell's value; `locale` for the few text cells written in words (the status), `x` for the run. */
  get: (r: R, locale: ExportLocale, x: RowExtras) => string | number | boolean | null
}

export function text(v: unknown): string | null {
  if (v === null || v === undefined) return null
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return JSON.stringify(v)
}

/** A field of the raw status body, as text (see the header). */
export const remote = (r: Pick<WithdrawalRecord, 'lastRemote'>, key: string): string | null =>
  text(r.lastRemote?.[key])
const taxId = (v: string | null): string | null => (v === null ? null : maskTaxId(v))

/** The service's error, the request id and the alerts: the same five columns, in this order, in every kind. */
export function errorColumns<
  R extends Pick<WithdrawalRecord, 'error' | 'requestId' | 'flags'>,
>(): Column<R>[] {
  return [
    { id: 'error_kind', pt: 'Tipo de erro (código)', kind: 'text', get: (r) => r.error?.kind ?? null },
    {
      id: 'message_code',
      pt: 'Código da mensagem do serviço',
      kind: 'text',
      get: (r) => r.error?.messageCode ?? null,
    },
    { id: 'denial_code', pt: 'Código da recusa', kind: 'text', get: (r) => r.error?.denialCode ?? null },
    { id: 'request_id', pt: 'ID da requisição', kind: 'text', get: (r) => r.requestId },
    { id: 'flags', pt: 'Alertas', kind: 'text', get: (r) => r.flags.join(' | ') },
  ]
}

/**
 * The columns in the order of exports made before issue #26 (ids first, codes early). Today's exports use
 * CSV_COLUMNS (the same columns and two more, people's first); the verifier reads an older file in this order.
 */
export const LEGACY_CSV_COLUMNS: readonly Column[] = [
  { id: 'local_id', pt: 'ID local', kind: 'text', get: (r) => r.localId },
  { id: 'remote_id', pt: 'ID do pagamento no serviço', kind: 'text', get: (r) => r.remoteId },
  { id: 'profile', pt: 'Perfil', kind: 'text', get: (r) => r.profile },
  { id: 'operator', pt: 'Operador', kind: 'text', get: (r) => r.operator },
  { id: 'created_at', pt: 'Criado em', kind: 'date', get: (r) => r.createdAt },
  { id: 'updated_at', pt: 'Atualizado em', kind: 'date', get: (r) => r.updatedAt },
  { id: 'local_state', pt: 'Estado do pedido (código)', kind: 'text', get: (r) => r.localState },
  { id: 'remote_status', pt: 'Situação no serviço (como enviada)', kind: 'text', get: (r) => r.remoteStatus },
  { id: 'status', pt: 'Situação (código)', kind: 'text', get: (r) => displayStatus(r) },
  { id: 'refunded', pt: 'Com devolução', kind: 'bool', get: (r) => r.refund !== null },
  { id: 'pix_key', pt: 'Chave Pix', kind: 'text', get: (r) => r.pixKey },
  { id: 'receiver_name', pt: 'Favorecido', kind: 'text', get: (r) => r.receiverName },
  {
    id: 'receiver_tax_number',
    pt: 'CPF/CNPJ do favorecido',
    kind: 'text',
    get: (r) => taxId(remote(r, 'receiverTaxNumber')),
  },
  { id: 'tax_number', pt: 'CPF/CNPJ informado', kind: 'text', get: (r) => taxId(text(r.request.taxNumber)) },
  { id: 'euid', pt: 'EUID', kind: 'text', get: (r) => text(r.request.euid) },
  { id: 'amount_kind', pt: 'Tipo de valor', kind: 'text', get: (r) => r.amountKind },
  { id: 'requested_amount', pt: 'Valor solicitado', kind: 'amount', get: (r) => r.amountCents },
  { id: 'deposit_amount', pt: 'Valor do depósito (DePix)', kind: 'amount', get: (r) => r.depositAmountCents },
  { id: 'payout_amount', pt: 'Valor do Pix (R$)', kind: 'amount', get: (r) => r.payoutAmountCents },
  { id: 'deposit_address', pt: 'Endereço de depósito', kind: 'text', get: (r) => r.depositAddress },
  {
    id: 'refund_address',
    pt: 'Endereço de devolução',
    kind: 'text',
    get: (r) => text(r.request.refundAddress),
  },
  { id: 'expiration', pt: 'Prazo para depositar', kind: 'date', get: (r) => r.expiration },
  { id: 'funded_at', pt: 'Depósito enviado em', kind: 'date', get: (r) => r.fundedAt },
  {
    id: 'funding_tx_id',
    pt: 'Transação Liquid do depósito (informada)',
    kind: 'text',
    get: (r) => r.fundingTxId,
  },
  {
    id: 'blockchain_tx_id',
    pt: 'Transação Liquid recebida pelo serviço',
    kind: 'text',
    get: (r) => remote(r, 'blockchainTxID'),
  },
  { id: 'transfer_date', pt: 'Data do Pix', kind: 'date', get: (r) => remote(r, 'transferDate') },
  {
    id: 'central_bank_id',
    pt: 'ID do Pix no Banco Central',
    kind: 'text',
    get: (r) => remote(r, 'centralBankId'),
  },
  { id: 'receipt_url', pt: 'Comprovante', kind: 'text', get: (r) => remote(r, 'receiptUrl') },
  { id: 'refund_tx_id', pt: 'Transação Liquid da devolução', kind: 'text', get: (r) => text(r.refund?.txId) },
  {
    id: 'refund_reason',
    pt: 'Motivo da devolução (código)',
    kind: 'text',
    get: (r) => text(r.refund?.reason),
  },
  ...errorColumns<WithdrawalRecord>(),
  // Issue #14 (migration 6), appended so every earlier column keeps its place (see HEADER_BEFORE_REFERENCES).
  { id: 'invoice', pt: 'Nota fiscal (NF)', kind: 'text', get: (r) => r.references?.invoice ?? null },
  { id: 'cost_centre', pt: 'Centro de custo', kind: 'text', get: (r) => r.references?.costCentre ?? null },
  { id: 'category', pt: 'Categoria', kind: 'text', get: (r) => r.references?.category ?? null },
  { id: 'note', pt: 'Observação', kind: 'text', get: (r) => r.references?.note ?? null },
  {
    id: 'payee_id',
    pt: 'ID do favorecido no cadastro',
    kind: 'text',
    get: (r) => r.expectedPayee?.id ?? null,
  },
  {
    id: 'payee_name',
    pt: 'Favorecido do cadastro',
    kind: 'text',
    get: (r) => r.expectedPayee?.name ?? null,
  },
  {
    id: 'payee_tax_number',
    pt: 'CPF/CNPJ do favorecido do cadastro',
    kind: 'text',
    get: (r) => taxId(r.expectedPayee?.taxNumber ?? null),
  },
  {
    id: 'payee_check',
    pt: 'Conferência do favorecido (código)',
    kind: 'text',
    // match / mismatch / unknown (nothing reported yet); empty without a payee from the book.
    get: (r) => (r.expectedPayee ? checkPayeeName(r.expectedPayee, r.lastRemote ?? {}).verdict : null),
  },
]

const LINE_WORD: Readonly<Record<ExportLocale, string>> = { 'pt-BR': 'linha', en: 'line' }

/**
 * Columns only the people's order has: the name an analyst reads, the status in words, and the payment run
 * ("Lote": its name and the spreadsheet line) with the run's id for scripts.
 */
const PEOPLE_ONLY: readonly Column[] = [
  {
    id: 'payee',
    pt: 'Nome do favorecido',
    kind: 'text',
    get: (r, _l, x) => payeeNameOf(r, x.run?.payee ?? null),
  },
  {
    id: 'status_text',
    pt: 'Situação',
    kind: 'text',
    get: (r, locale) => statusInWords(displayStatus(r), r.refund !== null, locale),
  },
  {
    id: 'run',
    pt: 'Lote',
    kind: 'text',
    get: (_r, locale, x) => (x.run ? runLinkText(x.run, LINE_WORD[locale]) : null),
  },
]

/** The run's id, last: a code for scripts, after every earlier column. */
const RUN_ID: Column = {
  id: 'run_id',
  pt: 'ID do lote',
  kind: 'text',
  get: (_r, _l, x) => x.run?.runId ?? null,
}

/** What a person reads, in the order they read it (issue #26): date, payee, CPF/CNPJ, R$, status in words, refs. */
const PEOPLE_ORDER_V1 = [
  'transfer_date',
  'created_at',
  'payee',
  'tax_number',
  'payout_amount',
  'status_text',
  'invoice',
  'cost_centre',
  'category',
  'note',
  'pix_key',
  'deposit_amount',
] as const
/** Today's: the run ("Lote") beside the other references, after the cost centre. */
const PEOPLE_ORDER = [...PEOPLE_ORDER_V1.slice(0, 8), 'run', ...PEOPLE_ORDER_V1.slice(8)] as const

/**
 * A kind's CSV for people (issue #26): the columns of `order` first (from the earlier columns or the people-only
 * ones), then every other earlier column in its earlier order for scripts — ids, raw statuses and codes at the end.
 * Each kind keeps its earlier order as its legacy columns so its older exports still verify (RecordsKind.csvEarlier).
 */
export function peopleFirst<R>(
  earlier: readonly Column<R>[],
  peopleOnly: readonly Column<R>[],
  order: readonly string[],
): Column<R>[] {
  return [...pickColumns([...earlier, ...peopleOnly], order), ...earlier.filter((c) => !order.includes(c.id))]
}

/** The columns named by `ids`, in that order (a report's columns are some of its CSV's). */
export function pickColumns<R>(columns: readonly Column<R>[], ids: readonly string[]): Column<R>[] {
  return ids.map((id) => {
    const c = columns.find((x) => x.id === id)
    if (!c) throw new Error(`no CSV column ${id}`)
    return c
  })
}

/** Today's withdrawal CSV: PEOPLE_ORDER, then the rest in LEGACY_CSV_COLUMNS' order, then the run's id. */
export const CSV_COLUMNS: readonly Column[] = [
  ...peopleFirst(LEGACY_CSV_COLUMNS, PEOPLE_ONLY, PEOPLE_ORDER),
  RUN_ID,
]

/** The people's CSV before the run columns (issue #26, first round): its exports still verify. */
export const PEOPLE_V1_CSV_COLUMNS: readonly Column[] = peopleFirst(
  LEGACY_CSV_COLUMNS,
  PEOPLE_ONLY,
  PEOPLE_ORDER_V1,
)

/**
 * Where the verifier reads a CSV row's totals: status code, refunded/reversed (yes/no), the amount summed as
 * deposit, the amount summed as payout (-1: the kind has none, read as empty, i.e. 0).
 */
export interface CsvAt {
  status: number
  refunded: number
  deposit: number
  payout: number
}

/** A kind's CsvAt, by column id (`payout` null: the kind has none). */
export function csvAtOf<R>(
  columns: readonly Column<R>[],
  ids: { status: string; refunded: string; deposit: string; payout: string | null },
): CsvAt {
  const at = (id: string): number => {
    const i = columns.findIndex((c) => c.id === id)
    if (i < 0) throw new Error(`no CSV column ${id}`)
    return i
  }
  return {
    status: at(ids.status),
    refunded: at(ids.refunded),
    deposit: at(ids.deposit),
    payout: ids.payout === null ? -1 : at(ids.payout),
  }
}

const WITHDRAWAL_AT_IDS = {
  status: 'status',
  refunded: 'refunded',
  deposit: 'deposit_amount',
  payout: 'payout_amount',
} as const

/**
 * How many columns exports had before issue #14 appended the references and the expected payee: those exports
 * (both languages, and PT_HEADER_V1 below) have exactly the first this-many columns of LEGACY_CSV_COLUMNS, and
 * still verify.
 */
export const COLUMNS_BEFORE_REFERENCES = 35

/**
 * The pt-BR header of exports made before the headers were put in words (API field names such as messageCode and
 * X-Request-ID, "saque", "Status"): the same columns in the same order, so the verifier still accepts those files.
 */
export const PT_HEADER_V1: readonly string[] = [
  'ID local',
  'ID do saque',
  'Perfil',
  'Operador',
  'Criado em',
  'Atualizado em',
  'Estado local',
  'Status remoto',
  'Status',
  'Devolvido',
  'Chave Pix',
  'Recebedor',
  'CPF/CNPJ do recebedor',
  'CPF/CNPJ informado',
  'EUID',
  'Tipo de valor',
  'Valor solicitado',
  'Valor do depósito (DePix)',
  'Valor do pagamento (R$)',
  'Endereço de depósito',
  'Endereço de devolução',
  'Expira em',
  'Enviado em',
  'Tx de envio',
  'Tx Liquid (serviço)',
  'Data do Pix',
  'ID no Banco Central',
  'Comprovante',
  'Tx de devolução',
  'Motivo da devolução',
  'Tipo de erro',
  'messageCode',
  'denialCode',
  'X-Request-ID',
  'Alertas',
]

/** A kind's CSV header (withdrawals by default): the column ids in en, the pt-BR labels in pt-BR. */
export function csvHeader(
  locale: ExportLocale,
  columns: readonly Pick<Column<never>, 'id' | 'pt'>[] = CSV_COLUMNS,
): string[] {
  return columns.map((c) => (locale === 'pt-BR' ? c.pt : c.id))
}

/** Where the verifier reads the status, the refund and the two amounts: today's file and one of LEGACY_CSV_COLUMNS. */
export const CSV_AT = csvAtOf(CSV_COLUMNS, WITHDRAWAL_AT_IDS)
export const LEGACY_CSV_AT = csvAtOf(LEGACY_CSV_COLUMNS, WITHDRAWAL_AT_IDS)
const PEOPLE_V1_CSV_AT = csvAtOf(PEOPLE_V1_CSV_COLUMNS, WITHDRAWAL_AT_IDS)

/**
 * The headers of withdrawal exports made before today's, in a language: the people's order before the run
 * columns (PEOPLE_V1_CSV_COLUMNS), then LEGACY_CSV_COLUMNS in full, before issue #14 appended the references and
 * the expected payee (its first COLUMNS_BEFORE_REFERENCES columns), and for pt-BR before headers were put in
 * words (PT_HEADER_V1). The last three have LEGACY_CSV_AT's positions.
 */
export function earlierCsvHeaders(locale: ExportLocale): { header: string[]; at: typeof LEGACY_CSV_AT }[] {
  const legacy = csvHeader(locale, LEGACY_CSV_COLUMNS)
  const headers = [legacy, legacy.slice(0, COLUMNS_BEFORE_REFERENCES)]
  if (locale === 'pt-BR') headers.push([...PT_HEADER_V1])
  return [
    { header: csvHeader(locale, PEOPLE_V1_CSV_COLUMNS), at: PEOPLE_V1_CSV_AT },
    ...headers.map((header) => ({ header, at: LEGACY_CSV_AT })),
  ]
}

/** The report's table: what a reviewer scans; the CSV and JSON carry the rest. */
export const HTML_COLUMNS: readonly Column[] = pickColumns(CSV_COLUMNS, [
  'created_at',
  'status',
  'pix_key',
  'receiver_name',
  'deposit_amount',
  'payout_amount',
  'invoice',
  'category',
  'run',
  'remote_id',
  'operator',
])
