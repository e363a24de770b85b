/**
 * Mapping between `DepositRecord` and the `deposits` row (migration 8), with the derived listing columns
 * (display status, open flag, search text) recomputed from the record on every write, as for withdrawals.
 */
import type { SQLInputValue, SQLOutputValue } from 'node:sqlite'
import type { DepositRecord } from '../../../shared/deposit-record'
import { depositDisplayStatus } from '../../../shared/deposit-record'
import { isSettledDepositStatus, normalizeDepositStatus } from '../../../shared/deposit-status'
import type { WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import { canonicalJson } from '../model/canonical-json'
import { fromJson, toRecordJson, type Db } from './db'
import type { RecordTable } from './record-write'
import { foldText } from './rows'

type Row = Record<string, SQLOutputValue>

/** A deposit's own columns, in this order on both engines (ledger/pg/deposit-rows.ts). */
export const BASE_COLUMNS = [
  'local_id',
  'profile',
  'operator',
  'created_at',
  'updated_at',
  'local_state',
  'origin',
  'request',
  'amount_cents',
  'depix_address',
  'create_response',
  'remote_id',
  'remote_status',
  'remote_status_at',
  'remote_checked_at',
  'last_remote',
  'qr_copy_paste',
  'expiration',
  'value_cents',
  'bank_tx_id',
  'blockchain_tx_id',
  'payer_name',
  'reversed_at',
  'error',
  'request_id',
  'flags',
] as const
export const DERIVED_COLUMNS = ['display_status', 'is_open', 'search_text'] as const
const ALL_COLUMNS = [...BASE_COLUMNS, ...DERIVED_COLUMNS]

/** Columns a reader needs to rebuild a deposit (derived ones stay in the database). */
export const DEPOSIT_SELECT = BASE_COLUMNS.map((c) => `d.${c}`).join(', ')

export function depositDisplay(r: DepositRecord): string {
  return depositDisplayStatus(r, normalizeDepositStatus)
}

/** Open = the tracker still has something to learn: created, and neither expired nor reversed. */
export function isOpenDeposit(r: DepositRecord): boolean {
  return r.localState === 'created' && !isSettledDepositStatus(r.remoteStatus ?? '')
}

export function depositSearchText(r: DepositRecord): string {
  const parts = [r.localId, r.remoteId, r.bankTxId, r.blockchainTxId, r.payerName, r.depixAddress]
  return parts
    .filter((p): p is string => typeof p === 'string' && p !== '')
    .map(foldText)
    .join('\n')
}

function params(r: DepositRecord): Record<string, SQLInputValue> {
  return {
    local_id: r.localId,
    profile: r.profile,
    operator: r.operator,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    local_state: r.localState,
    origin: r.origin,
    // As sent, member order included (what support is shown); the columns below are canonical (toRecordJson).
    request: JSON.stringify(r.request),
    amount_cents: r.amountCents,
    depix_address: r.depixAddress,
    create_response: toRecordJson(r.createResponse),
    remote_id: r.remoteId,
    remote_status: r.remoteStatus,
    remote_status_at: r.remoteStatusAt,
    remote_checked_at: r.remoteCheckedAt,
    last_remote: toRecordJson(r.lastRemote),
    qr_copy_paste: r.qrCopyPaste,
    expiration: r.expiration,
    value_cents: r.valueCents,
    bank_tx_id: r.bankTxId,
    blockchain_tx_id: r.blockchainTxId,
    payer_name: r.payerName,
    reversed_at: r.reversedAt,
    error: toRecordJson(r.error),
    request_id: r.requestId,
    flags: canonicalJson(r.flags),
    display_status: depositDisplay(r),
    is_open: isOpenDeposit(r) ? 1 : 0,
    search_text: depositSearchText(r),
  }
}

const INSERT_SQL = `INSERT INTO deposits (${ALL_COLUMNS.join(', ')}) VALUES (${ALL_COLUMNS.map((c) => `:${c}`).join(', ')})`
const UPDATE_SQL = `UPDATE deposits SET ${ALL_COLUMNS.filter((c) => c !== 'local_id' && c !== 'created_at')
  .map((c) => `${c} = :${c}`)
  .join(', ')} WHERE local_id = :local_id`

/** The deposits table for the one write path (record-write.ts). */
export const DEPOSIT_TABLE: RecordTable<DepositRecord> = {
  insertRow(db: Pick<Db, 'stmt'>, r: DepositRecord): void {
    db.stmt(INSERT_SQL).run(params(r))
  },
  updateRow(db: Pick<Db, 'stmt'>, r: DepositRecord): void {
    const p = params(r)
    delete p.created_at
    const res = db.stmt(UPDATE_SQL).run(p)
    if (res.changes !== 1) throw new Error(`ledger: update of ${r.localId} touched ${res.changes} rows`)
  },
}

const str = (v: SQLOutputValue | undefined): string => (typeof v === 'string' ? v : String(v ?? ''))
const strOrNull = (v: SQLOutputValue | undefined): string | null => (typeof v === 'string' ? v : null)
const intOrNull = (v: SQLOutputValue | undefined): number | null =>
  typeof v === 'number' ? v : typeof v === 'bigint' ? Number(v) : null

/** A `DEPOSIT_SELECT` row. Member order is the schema's, so a record read back hashes like the one written. */
export function rowToDeposit(row: Row): DepositRecord {
  return {
    localId: str(row.local_id),
    profile: str(row.profile),
    operator: str(row.operator),
    createdAt: str(row.created_at),
    updatedAt: str(row.updated_at),
    localState: str(row.local_state) as DepositRecord['localState'],
    origin: str(row.origin) as DepositRecord['origin'],
    request: fromJson<Record<string, unknown>>(row.request) ?? {},
    amountCents: intOrNull(row.amount_cents) ?? 0,
    depixAddress: strOrNull(row.depix_address),
    createResponse: fromJson<Record<string, unknown>>(row.create_response),
    remoteId: strOrNull(row.remote_id),
    remoteStatus: strOrNull(row.remote_status),
    remoteStatusAt: strOrNull(row.remote_status_at),
    remoteCheckedAt: strOrNull(row.remote_checked_at),
    lastRemote: fromJson<Record<string, unknown>>(row.last_remote),
    qrCopyPaste: strOrNull(row.qr_copy_paste),
    expiration: strOrNull(row.expiration),
    valueCents: intOrNull(row.value_cents),
    bankTxId: strOrNull(row.bank_tx_id),
    blockchainTxId: strOrNull(row.blockchain_tx_id),
    payerName: strOrNull(row.payer_name),
    reversedAt: strOrNull(row.reversed_at),
    error: fromJson<WithdrawalErrorInfo>(row.error),
    requestId: strOrNull(row.request_id),
    flags: fromJson<string[]>(row.flags) ?? [],
  }
}
