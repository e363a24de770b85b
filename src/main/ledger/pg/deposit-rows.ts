/**
 * `DepositRecord` ↔ `deposits` row on PostgreSQL (migration-deposits.ts). The derived listing columns come from
 * the SQLite ledger's own functions (ledger/sqlite/deposit-rows.ts), so both engines agree on display status, "open" and
 * the folded search text. A row read back is checked with the record's zod schema: a row edited outside the app
 * into something that is not a deposit is refused, never handed to the money flows.
 */
import { depositRecordSchema, type DepositRecord } from '../../../shared/deposit-record'
import { LedgerError } from '../model/errors'
import {
  BASE_COLUMNS,
  DEPOSIT_SELECT,
  DERIVED_COLUMNS,
  depositDisplay,
  depositSearchText,
  isOpenDeposit,
} from '../sqlite/deposit-rows'

export const DEPOSIT_COLUMNS = [...BASE_COLUMNS, ...DERIVED_COLUMNS] as const
/** The record's own columns (the derived ones stay in the database): the desk ledger's select, same table alias. */
export { DEPOSIT_SELECT }

const json = (v: unknown): string | null => (v === null || v === undefined ? null : JSON.stringify(v))

/** Parameters in DEPOSIT_COLUMNS order. */
export function depositValues(r: DepositRecord): unknown[] {
  return [
    r.localId,
    r.profile,
    r.operator,
    r.createdAt,
    r.updatedAt,
    r.localState,
    r.origin,
    JSON.stringify(r.request),
    r.amountCents,
    r.depixAddress,
    json(r.createResponse),
    r.remoteId,
    r.remoteStatus,
    r.remoteStatusAt,
    r.remoteCheckedAt,
    json(r.lastRemote),
    r.qrCopyPaste,
    r.expiration,
    r.valueCents,
    r.bankTxId,
    r.blockchainTxId,
    r.payerName,
    r.reversedAt,
    json(r.error),
    r.requestId,
    JSON.stringify(r.flags),
    depositDisplay(r),
    isOpenDeposit(r),
    depositSearchText(r),
  ]
}

const JSON_COLUMNS: ReadonlySet<string> = new Set([
  'request',
  'create_response',
  'last_remote',
  'error',
  'flags',
])

/** The record as one JSON object of its columns (what `write_deposit` takes, migration 11). */
export function depositRow(r: DepositRecord): string {
  const values = depositValues(r)
  return JSON.stringify(
    Object.fromEntries(
      DEPOSIT_COLUMNS.map((c, i) => {
        const v = values[i]
        return [c, JSON_COLUMNS.has(c) && typeof v === 'string' ? (JSON.parse(v) as unknown) : v]
      }),
    ),
  )
}

type Row = Record<string, unknown>

/** int8 arrives as text from node-postgres: back to a number, and only a safe integer. */
function int(v: unknown): unknown {
  if (v === null || v === undefined) return null
  const n = typeof v === 'number' ? v : Number(v)
  return Number.isSafeInteger(n) ? n : v
}

export function rowToDeposit(row: Row): DepositRecord {
  const candidate = {
    localId: row.local_id,
    profile: row.profile,
    operator: row.operator,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    localState: row.local_state,
    origin: row.origin,
    request: row.request,
    amountCents: int(row.amount_cents),
    depixAddress: row.depix_address,
    createResponse: row.create_response,
    remoteId: row.remote_id,
    remoteStatus: row.remote_status,
    remoteStatusAt: row.remote_status_at,
    remoteCheckedAt: row.remote_checked_at,
    lastRemote: row.last_remote,
    qrCopyPaste: row.qr_copy_paste,
    expiration: row.expiration,
    valueCents: int(row.value_cents),
    bankTxId: row.bank_tx_id,
    blockchainTxId: row.blockchain_tx_id,
    payerName: row.payer_name,
    reversedAt: row.reversed_at,
    error: row.error,
    requestId: row.request_id,
    flags: row.flags,
  }
  const parsed = depositRecordSchema.safeParse(candidate)
  if (!parsed.success) {
    const id = typeof row.local_id === 'string' ? row.local_id : '?'
    throw new LedgerError('record_tampered', `deposit row ${id} is not a valid deposit record`, {
      'pt-BR': `O registro de compra ${id} no livro-caixa da equipe está malformado (alterado fora do aplicativo); nada é feito com ele.`,
      en: `Top-up record ${id} on the team ledger is malformed (changed outside the app); nothing is done with it.`,
    })
  }
  return parsed.data
}
