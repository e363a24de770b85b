/**
 * The deposit record ("compra de DePix", a top-up): what the ledger remembers about one `POST /deposit` we tried to
 * create, or one deposit the reconciliation found at the service and the operator imported for tracking. The
 * second record kind of the ledger, next to `WithdrawalRecord`: same local lifecycle (submitting → created |
 * rejected | outcome_unknown; outcome_unknown → created | not_created), same audit trail, its own request body,
 * status vocabulary (deposit-status.ts) and QR facts.
 *
 * Remote data (create response, status bodies) is kept raw with unknown fields intact: the API contract shows no field of
 * the create response beyond `id`, so whatever arrives is kept and shown.
 */
import { z } from 'zod'
import { localStateSchema, withdrawalErrorInfoSchema } from './withdrawal-record'

export const DEPOSIT_ORIGINS = ['app', 'imported'] as const
/**
 * `app`: created by this app (journaled, POSTed once). `imported`: made outside the app (another tool, the
 * service's own channels), found by reconciliation and imported by the operator to follow it here. Never confused:
 * an imported record has no request body of ours and says so on every screen and export.
 */
export const depositOriginSchema = z.enum(DEPOSIT_ORIGINS)
export type DepositOrigin = z.infer<typeof depositOriginSchema>

export const DEPOSIT_FLAGS = {
  /** The deposit was reversed by a MED (status `refunded`): the BRL went back to the payer. Needs action. */
  medReversal: 'med_reversal',
  /** GET /deposit-status answered DEPOSIT_NOT_FOUND for a created record. Cleared by the next good answer. */
  remoteNotFound: 'remote_not_found',
  /** The service reported an amount other than the one we asked for. */
  valueMismatch: 'value_mismatch',
  /** Two different terminal statuses were reported (e.g. expired, then refunded). */
  remoteStatusConflict: 'remote_status_conflict',
  /** The operator created it although similar deposits of the last 24 h were shown. */
  duplicateConfirmed: 'duplicate_confirmed',
  /** A known field of the last status answer broke the contract and was ignored; the answer is stored raw. */
  remoteFieldsInvalid: 'remote_fields_invalid',
} as const

/** Flags that put a deposit in "Precisa de ação". */
export const DEPOSIT_ATTENTION_FLAGS = ['med_reversal', 'value_mismatch', 'remote_not_found'] as const

const rawObject = z.record(z.string(), z.unknown())
const isoString = z.string().min(1)

export const depositRecordSchema = z.object({
  localId: z.string().min(1),
  profile: z.string().min(1),
  /** Who created it here (or imported it). */
  operator: z.string(),
  createdAt: isoString,
  updatedAt: isoString,
  localState: localStateSchema,
  origin: depositOriginSchema,
  /** The exact JSON body of POST /deposit, as sent; `{}` for an imported record (we sent nothing). */
  request: z.looseObject({}),
  /** The amount asked for (`amountInCents`); for an imported record, the value the service reported. */
  amountCents: z.number().int(),
  /** Where the DePix goes: `depixAddress` of the request (an imported record: null, not reported by the API). */
  depixAddress: z.string().nullable(),
  /** The `response` object of POST /deposit, raw (fields beyond `id` are not in the contract). */
  createResponse: rawObject.nullable(),
  /** The deposit id (`qrId`). */
  remoteId: z.string().nullable(),
  remoteStatus: z.string().nullable(),
  remoteStatusAt: isoString.nullable(),
  /** When the service was last asked about this record, changed or not (bookkeeping, not audited). */
  remoteCheckedAt: isoString.nullable(),
  /** Last applied GET /deposit-status body, raw. */
  lastRemote: rawObject.nullable(),
  /** The Pix "copia e cola" payload, when the create response carried one (sandbox: `qrCopyPaste`). */
  qrCopyPaste: z.string().nullable(),
  /** QR expiry, ISO 8601, as reported. */
  expiration: z.string().nullable(),
  /** `valueInCents` as the service reports it. */
  valueCents: z.number().int().nullable(),
  bankTxId: z.string().nullable(),
  /** Liquid transaction of the DePix sent to us (`blockchainTxID`). */
  blockchainTxId: z.string().nullable(),
  payerName: z.string().nullable(),
  /** When the first observation showed the deposit reversed (MED): the date of the alert. */
  reversedAt: isoString.nullable(),
  error: withdrawalErrorInfoSchema.nullable(),
  /** X-Request-ID of the create call. */
  requestId: z.string().nullable(),
  flags: z.array(z.string()),
})
export type DepositRecord = z.infer<typeof depositRecordSchema>

/** Local ids of deposits start with this, so an audit entry or a log line says which kind it is about. */
export const DEPOSIT_ID_PREFIX = 'dep-'

/**
 * The display status: the normalised remote status of a created record that has one, else the local state. The
 * same rule as withdrawals; the ledger stores it (derived column) and totals group by it.
 */
export function depositDisplayStatus(
  r: Pick<DepositRecord, 'localState' | 'remoteStatus'>,
  normalize: (s: string) => string,
): string {
  return r.localState === 'created' && r.remoteStatus !== null ? normalize(r.remoteStatus) : r.localState
}

/** Best knowledge of the amount: what the service reports, else what we asked for. */
export function depositAmountOf(r: Pick<DepositRecord, 'valueCents' | 'amountCents'>): number {
  return r.valueCents ?? r.amountCents
}

/** One row of GET /deposits the ledger does not hold (made outside the app), as reconciliation lists it. */
export const outsideDepositSchema = z.object({
  qrId: z.string(),
  status: z.string(),
  bankTxId: z.string().nullable(),
})
export type OutsideDeposit = z.infer<typeof outsideDepositSchema>
