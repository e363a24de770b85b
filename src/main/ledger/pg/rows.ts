/**
 * `WithdrawalRecord` ↔ `withdrawals` row on PostgreSQL. The derived listing columns come from the SQLite ledger's
 * `derive`, so both engines agree on display status, "open" and the folded search text. JSON fields are jsonb;
 * int8 columns arrive as strings from node-postgres and are turned back into safe integers here.
 */
import type { WithdrawalErrorInfo, WithdrawalRecord } from '../../../shared/withdrawal-record'
import { derive } from '../sqlite/rows'

export const COLUMNS = [
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
  'refs',
  'expected_payee',
  'remote_status_norm',
  'display_status',
  'has_refund',
  'is_open',
  'search_text',
] as const

/** The record's own columns (the rest are derived for listing). */
const RECORD_COLUMNS = COLUMNS.slice(0, COLUMNS.indexOf('remote_status_norm'))

export const RECORD_SELECT = RECORD_COLUMNS.map((c) => `w.${c}`).join(', ')

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v))

/** Parameters in COLUMNS order. */
export function recordValues(r: WithdrawalRecord): unknown[] {
  const d = derive(r)
  return [
    r.localId,
    r.profile,
    r.operator,
    r.createdAt,
    r.updatedAt,
    r.localState,
    json(r.request),
    r.pixKey,
    r.amountKind,
    r.amountCents,
    json(r.createResponse),
    r.remoteId,
    r.remoteStatus,
    r.remoteStatusAt,
    r.remoteCheckedAt,
    json(r.lastRemote),
    r.depositAddress,
    r.depositAmountCents,
    r.payoutAmountCents,
    r.expiration,
    r.fundedAt,
    r.fundingTxId,
    json(r.refund),
    r.receiverName,
    json(r.error),
    r.requestId,
    JSON.stringify(r.flags),
    json(r.references),
    json(r.expectedPayee),
    d.remote_status_norm,
    d.display_status,
    d.has_refund === 1,
    d.is_open === 1,
    d.search_text,
  ]
}

const JSON_COLUMNS: ReadonlySet<string> = new Set([
  'request',
  'create_response',
  'last_remote',
  'refund',
  'error',
  'flags',
  'refs',
  'expected_payee',
])

/** The record as one JSON object of its columns (what `write_withdrawal` takes, migration 11). */
export function recordRow(r: WithdrawalRecord, importedFrom: string | null = null): string {
  const values = recordValues(r)
  return JSON.stringify({
    ...Object.fromEntries(
      COLUMNS.map((c, i) => {
        const v = values[i]
        return [c, JSON_COLUMNS.has(c) && typeof v === 'string' ? (JSON.parse(v) as unknown) : v]
      }),
    ),
    imported_from: importedFrom,
  })
}

type Row = Record<string, unknown>

const str = (v: unknown): string => (typeof v === 'string' ? v : String(v ?? ''))
const strOrNull = (v: unknown): string | null => (typeof v === 'string' ? v : null)
function intOrNull(v: unknown): number | null {
  if (v === null || v === undefined) return null
  const n = typeof v === 'number' ? v : Number(v)
  if (!Number.isSafeInteger(n)) throw new Error(`ledger: ${String(v)} is not a safe integer`)
  return n
}
const objOrNull = <T>(v: unknown): T | null => (v === null || v === undefined ? null : (v as T))

export function rowToRecord(row: Row): WithdrawalRecord {
  return {
    localId: str(row.local_id),
    profile: str(row.profile),
    operator: str(row.operator),
    createdAt: str(row.created_at),
    updatedAt: str(row.updated_at),
    localState: str(row.local_state) as WithdrawalRecord['localState'],
    request: objOrNull<Record<string, unknown>>(row.request) ?? {},
    pixKey: str(row.pix_key),
    amountKind: str(row.amount_kind) as WithdrawalRecord['amountKind'],
    amountCents: intOrNull(row.amount_cents) ?? 0,
    createResponse: objOrNull(row.create_response),
    remoteId: strOrNull(row.remote_id),
    remoteStatus: strOrNull(row.remote_status),
    remoteStatusAt: strOrNull(row.remote_status_at),
    remoteCheckedAt: strOrNull(row.remote_checked_at),
    lastRemote: objOrNull(row.last_remote),
    depositAddress: strOrNull(row.deposit_address),
    depositAmountCents: intOrNull(row.deposit_amount_cents),
    payoutAmountCents: intOrNull(row.payout_amount_cents),
    expiration: strOrNull(row.expiration),
    fundedAt: strOrNull(row.funded_at),
    fundingTxId: strOrNull(row.funding_tx_id),
    refund: objOrNull(row.refund),
    receiverName: strOrNull(row.receiver_name),
    error: objOrNull<WithdrawalErrorInfo>(row.error),
    requestId: strOrNull(row.request_id),
    flags: Array.isArray(row.flags) ? (row.flags as string[]) : [],
    // Absent when none, as the desk ledger leaves them out: the state hash is the same on both engines. A value
    // that is not one is kept raw, so the record no longer matches its audited hash and is refused as tampered.
    ...(row.refs === null || row.refs === undefined
      ? {}
      : { references: row.refs as NonNullable<WithdrawalRecord['references']> }),
    ...(row.expected_payee === null || row.expected_payee === undefined
      ? {}
      : { expectedPayee: row.expected_payee as NonNullable<WithdrawalRecord['expectedPayee']> }),
  }
}
