/**
 * Mapping between `WithdrawalRecord` and the `withdrawals` row, including the derived columns that exist only to
 * make listing fast (display status, open flag, search text). Derived columns are recomputed from the record on
 * every write, so they cannot drift from it.
 */
import type { SQLInputValue, SQLOutputValue } from 'node:sqlite'
import { REFERENCE_FIELDS } from '../../../shared/payment-references'
import type { WithdrawalErrorInfo, WithdrawalRecord } from '../../../shared/withdrawal-record'
import { isSettledStatus, normalizeStatus } from '../../../shared/withdrawal-status'
import { canonicalJson } from '../model/canonical-json'
import { digitsVariant, foldText } from '../model/search-text'
import { fromJson, toRecordJson, type Db } from './db'

type Row = Record<string, SQLOutputValue>

export { digitsVariant, foldText }

export interface DerivedColumns {
  remote_status_norm: string | null
  display_status: string
  has_refund: number
  is_open: number
  search_text: string
}

export function searchTextOf(
  r: Pick<
    WithdrawalRecord,
    'localId' | 'remoteId' | 'pixKey' | 'receiverName' | 'references' | 'expectedPayee'
  >,
): string {
  const parts = [r.localId, r.remoteId, r.pixKey, digitsVariant(r.pixKey), r.receiverName]
  // Migration 6: the payee chosen from the book and what the payment is for are found by the same search.
  if (r.expectedPayee) parts.push(r.expectedPayee.name, r.expectedPayee.taxNumber)
  for (const f of REFERENCE_FIELDS) parts.push(r.references?.[f] ?? null)
  // Newline separated: a query never contains one (queries are single-line), so no match spans two fields.
  return parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map(foldText)
    .join('\n')
}

export function derive(r: WithdrawalRecord): DerivedColumns {
  const norm = r.remoteStatus === null ? null : normalizeStatus(r.remoteStatus)
  const hasRefund = r.refund !== null
  // Open = the status tracker still has something to learn (a lingering `expired` may yet be refunded).
  const open = r.localState === 'created' && !isSettledStatus(r.remoteStatus ?? '', hasRefund)
  return {
    remote_status_norm: norm,
    display_status: r.localState === 'created' && norm !== null ? norm : r.localState,
    has_refund: hasRefund ? 1 : 0,
    is_open: open ? 1 : 0,
    search_text: searchTextOf(r),
  }
}

const BASE_COLUMNS = [
  'local_id',
  'profile',
  'operator',
  'created_at',
  'updated_at',
  'local_state',
  'request',
  'pix_key',
  'amount_kind',
  'amount_cents',
  'create_response',
  'remote_id',
  'remote_status',
  'remote_status_at',
  'remote_checked_at',
  'last_remote',
  'deposit_address',
  'deposit_amount_cents',
  'payout_amount_cents',
  'expiration',
  'funded_at',
  'funding_tx_id',
  'refund',
  'receiver_name',
  'error',
  'request_id',
  'flags',
] as const
/** Added by migration 6 (migration-v6.ts): what the payment is for, and the payee it was made to. */
const V6_COLUMNS = [
  'reference_invoice',
  'reference_cost_centre',
  'reference_category',
  'reference_note',
  'payee_id',
  'payee_name',
  'payee_tax_number',
] as const
const RECORD_COLUMNS = [...BASE_COLUMNS, ...V6_COLUMNS] as const
const DERIVED_COLUMNS = [
  'remote_status_norm',
  'display_status',
  'has_refund',
  'is_open',
  'search_text',
] as const
const ALL_COLUMNS = [...RECORD_COLUMNS, ...DERIVED_COLUMNS]

/** Columns a reader needs to rebuild a record (derived ones stay in the database). */
export const RECORD_SELECT = RECORD_COLUMNS.map((c) => `w.${c}`).join(', ')
/**
 * The columns of a file before migration 6: what migrations 2–5 read (they run on files that do not have the
 * later columns yet). A row read with it decodes to a record without references or expected payee.
 */
export const RECORD_SELECT_V5 = BASE_COLUMNS.map((c) => `w.${c}`).join(', ')

const INSERT_SQL = `INSERT INTO withdrawals (${ALL_COLUMNS.join(', ')}) VALUES (${ALL_COLUMNS.map((c) => `:${c}`).join(', ')})`
const UPDATE_SQL = `UPDATE withdrawals SET ${ALL_COLUMNS.filter((c) => c !== 'local_id' && c !== 'created_at')
  .map((c) => `${c} = :${c}`)
  .join(', ')} WHERE local_id = :local_id`

export function recordParams(r: WithdrawalRecord): Record<string, SQLInputValue> {
  return {
    local_id: r.localId,
    profile: r.profile,
    operator: r.operator,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    local_state: r.localState,
    // As sent, member order included (what support is shown); the columns below are canonical (toRecordJson).
    request: JSON.stringify(r.request),
    pix_key: r.pixKey,
    amount_kind: r.amountKind,
    amount_cents: r.amountCents,
    create_response: toRecordJson(r.createResponse),
    remote_id: r.remoteId,
    remote_status: r.remoteStatus,
    remote_status_at: r.remoteStatusAt,
    remote_checked_at: r.remoteCheckedAt,
    last_remote: toRecordJson(r.lastRemote),
    deposit_address: r.depositAddress,
    deposit_amount_cents: r.depositAmountCents,
    payout_amount_cents: r.payoutAmountCents,
    expiration: r.expiration,
    funded_at: r.fundedAt,
    funding_tx_id: r.fundingTxId,
    refund: toRecordJson(r.refund),
    receiver_name: r.receiverName,
    error: toRecordJson(r.error),
    request_id: r.requestId,
    flags: canonicalJson(r.flags),
    reference_invoice: r.references?.invoice ?? null,
    reference_cost_centre: r.references?.costCentre ?? null,
    reference_category: r.references?.category ?? null,
    reference_note: r.references?.note ?? null,
    payee_id: r.expectedPayee?.id ?? null,
    payee_name: r.expectedPayee?.name ?? null,
    payee_tax_number: r.expectedPayee?.taxNumber ?? null,
    ...derive(r),
  }
}

export function insertRecordRow(db: Pick<Db, 'stmt'>, r: WithdrawalRecord): void {
  db.stmt(INSERT_SQL).run(recordParams(r))
}

export function updateRecordRow(db: Pick<Db, 'stmt'>, r: WithdrawalRecord): void {
  const params = recordParams(r)
  delete params.created_at
  const res = db.stmt(UPDATE_SQL).run(params)
  if (res.changes !== 1) throw new Error(`ledger: update of ${r.localId} touched ${res.changes} rows`)
}

const str = (v: SQLOutputValue | undefined): string => (typeof v === 'string' ? v : String(v ?? ''))
const strOrNull = (v: SQLOutputValue | undefined): string | null => (typeof v === 'string' ? v : null)
const intOrNull = (v: SQLOutputValue | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null

/** Position of each column in a `RECORD_SELECT` row read as an array (`StatementSync#setReturnArrays`). */
const C = Object.fromEntries(RECORD_COLUMNS.map((c, i) => [c, i])) as Readonly<
  Record<(typeof RECORD_COLUMNS)[number], number>
>

/**
 * The optional members of migration 6, left out (not set to undefined) when their columns are empty: a record
 * written before it hashes (state-hash.ts) exactly as it did, so its audit entries still match.
 */
function v6Members(a: readonly SQLOutputValue[]): Pick<WithdrawalRecord, 'references' | 'expectedPayee'> {
  const references: NonNullable<WithdrawalRecord['references']> = {}
  const refs = [
    ['invoice', a[C.reference_invoice]],
    ['costCentre', a[C.reference_cost_centre]],
    ['category', a[C.reference_category]],
    ['note', a[C.reference_note]],
  ] as const
  for (const [k, v] of refs) if (typeof v === 'string') references[k] = v
  const id = strOrNull(a[C.payee_id])
  const name = strOrNull(a[C.payee_name])
  const taxNumber = strOrNull(a[C.payee_tax_number])
  return {
    ...(Object.keys(references).length > 0 ? { references } : {}),
    ...(id !== null && name !== null && taxNumber !== null ? { expectedPayee: { id, name, taxNumber } } : {}),
  }
}

/**
 * A `RECORD_SELECT` row read as an array: the bulk path (exports read 100k rows; node:sqlite builds an array
 * row much faster than an object with 27 named members).
 */
export function arrayRowToRecord(a: readonly SQLOutputValue[]): WithdrawalRecord {
  return {
    localId: str(a[C.local_id]),
    profile: str(a[C.profile]),
    operator: str(a[C.operator]),
    createdAt: str(a[C.created_at]),
    updatedAt: str(a[C.updated_at]),
    localState: str(a[C.local_state]) as WithdrawalRecord['localState'],
    request: fromJson<Record<string, unknown>>(a[C.request]) ?? {},
    pixKey: str(a[C.pix_key]),
    amountKind: str(a[C.amount_kind]) as WithdrawalRecord['amountKind'],
    amountCents: intOrNull(a[C.amount_cents]) ?? 0,
    createResponse: fromJson<Record<string, unknown>>(a[C.create_response]),
    remoteId: strOrNull(a[C.remote_id]),
    remoteStatus: strOrNull(a[C.remote_status]),
    remoteStatusAt: strOrNull(a[C.remote_status_at]),
    remoteCheckedAt: strOrNull(a[C.remote_checked_at]),
    lastRemote: fromJson<Record<string, unknown>>(a[C.last_remote]),
    depositAddress: strOrNull(a[C.deposit_address]),
    depositAmountCents: intOrNull(a[C.deposit_amount_cents]),
    payoutAmountCents: intOrNull(a[C.payout_amount_cents]),
    expiration: strOrNull(a[C.expiration]),
    fundedAt: strOrNull(a[C.funded_at]),
    fundingTxId: strOrNull(a[C.funding_tx_id]),
    refund: fromJson<Record<string, unknown>>(a[C.refund]),
    receiverName: strOrNull(a[C.receiver_name]),
    error: fromJson<WithdrawalErrorInfo>(a[C.error]),
    requestId: strOrNull(a[C.request_id]),
    flags: fromJson<string[]>(a[C.flags]) ?? [],
    ...v6Members(a),
  }
}

/**
 * A `RECORD_SELECT` (or `RECORD_SELECT_V5`) row read as an object (single records and pages): the same decoding
 * as the array path.
 */
export function rowToRecord(row: Row): WithdrawalRecord {
  return arrayRowToRecord(RECORD_COLUMNS.map((c) => row[c] as SQLOutputValue))
}
