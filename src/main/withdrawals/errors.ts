/**
 * The withdrawal service's own refusals. Every one is raised before anything leaves for the API or changes in the
 * ledger, except where the code says otherwise (`ledger_write_failed`), so a caller can show it and let the
 * operator fix the input.
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { refusalOfLedgerError, type KindWords, type Refuse } from '../journal/refusals'

export const WITHDRAWAL_ERROR_CODES = [
  /** The draft failed `withdrawalDraftSchema`; `fields` maps field paths to message codes. */
  'invalid_draft',
  /** The refund address is not a Liquid address of the profile's network; `reason` is the Liquid helper's. */
  'refund_address_invalid',
  /** Similar records in the last 24 h were not all confirmed; `duplicates` lists them. */
  'duplicate',
  /** A similar record (maybe still `submitting`) appeared after the review; the intent is void. Review again. */
  'duplicate_since_review',
  /** No such create intent: never issued, already used, or voided by a restart or profile switch. */
  'intent_invalid',
  /** The create intent is older than INTENT_TTL_MS. */
  'intent_expired',
  /** The create intent was issued for another request body or profile. */
  'intent_mismatch',
  /** The client has no session: nothing was journaled or sent. */
  'not_signed_in',
  /** No POST /withdraw token is free right now: nothing was journaled or sent. `retryAfterSeconds` says when. */
  'rate_limited',
  'not_found',
  /** The record is not in a state that allows the operation (e.g. resolving a record that is not outcome_unknown). */
  'illegal_state',
  /** The record belongs to another profile than this service's. */
  'other_profile',
  /** The API answered WITHDRAW_NOT_FOUND for the withdrawal id. */
  'remote_not_found',
  /** The API's answer is about another withdrawal than the one asked for (other id, other Pix key). */
  'remote_mismatch',
  /** The withdrawal id is already linked to another record. */
  'remote_id_in_use',
  'invalid_input',
  /** The API answered but the ledger could not store it; see the message for the record's state. */
  'ledger_write_failed',
  /** Team ledger: the payment is above the team's threshold and needs another analyst's approval first. */
  'approval_required',
  /** Team ledger: the approval is not (or no longer) approved, or its payment was already sent. */
  'approval_not_sendable',
] as const
export type WithdrawalErrorCode = (typeof WITHDRAWAL_ERROR_CODES)[number]

export interface WithdrawalErrorExtra {
  fields?: Record<string, string>
  duplicates?: WithdrawalRecord[]
  reason?: string
  retryAfterSeconds?: number
  localId?: string
  /** A withdrawal the API created (ledger_write_failed): the operator must see it at once. */
  withdrawalId?: string
  requestId?: string | null
  /** Our own sentence in both languages, for refusals whose facts a code cannot carry. */
  userMessage?: { 'pt-BR': string; en: string }
}

export class WithdrawalError extends Error {
  override readonly name = 'WithdrawalError'
  readonly fields?: Record<string, string>
  readonly duplicates?: WithdrawalRecord[]
  /** A finer machine reason (the Liquid helper's failure, the ledger's code). */
  readonly reason?: string
  readonly retryAfterSeconds?: number
  readonly localId?: string
  readonly withdrawalId?: string
  readonly requestId?: string | null
  readonly userMessage?: { 'pt-BR': string; en: string }

  constructor(
    readonly code: WithdrawalErrorCode,
    message: string,
    extra: WithdrawalErrorExtra = {},
  ) {
    super(message)
    if (extra.fields !== undefined) this.fields = extra.fields
    if (extra.duplicates !== undefined) this.duplicates = extra.duplicates
    if (extra.reason !== undefined) this.reason = extra.reason
    if (extra.retryAfterSeconds !== undefined) this.retryAfterSeconds = extra.retryAfterSeconds
    if (extra.localId !== undefined) this.localId = extra.localId
    if (extra.withdrawalId !== undefined) this.withdrawalId = extra.withdrawalId
    if (extra.requestId !== undefined) this.requestId = extra.requestId
    if (extra.userMessage !== undefined) this.userMessage = extra.userMessage
  }
}

/** The shared create mechanism's refusals (journal/refusals.ts) as WithdrawalError. */
export const withdrawalRefusal: Refuse = (code, message, extra = {}) =>
  new WithdrawalError(code, message, {
    ...(extra.duplicates ? { duplicates: extra.duplicates as WithdrawalRecord[] } : {}),
    ...(extra.retryAfterSeconds !== undefined ? { retryAfterSeconds: extra.retryAfterSeconds } : {}),
    ...(extra.localId !== undefined ? { localId: extra.localId } : {}),
    ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
    ...(extra.requestId !== undefined ? { requestId: extra.requestId } : {}),
    ...(extra.createdId !== undefined ? { withdrawalId: extra.createdId } : {}),
    ...(extra.userMessage !== undefined ? { userMessage: extra.userMessage } : {}),
  })

export const WITHDRAWAL_WORDS: KindWords = {
  en: 'withdrawal',
  ptSubject: 'O pagamento',
  ptCreated: 'CRIADO',
  ptPronoun: 'o',
}

/** Flags this module raises that `RECORD_FLAGS` (shared) does not name yet. */
export const SERVICE_FLAGS = {
  /** GET /withdraw-status answered WITHDRAW_NOT_FOUND for a created record. Cleared by the next good answer. */
  remoteNotFound: 'remote_not_found',
  /** The operator created it although the duplicate guard had found similar records. */
  duplicateConfirmed: 'duplicate_confirmed',
  /**
   * The last status answer had a known field whose value broke the contract (a fractional amount, a null status,
   * a string refund): that field alone was ignored, the answer is stored raw. Cleared by the next clean answer.
   */
  remoteFieldsInvalid: 'remote_fields_invalid',
} as const

/** Ledger refusals seen through the service's vocabulary; anything else (SQLite, disk) passes unchanged. */
export function fromLedgerError(e: unknown, localId: string): unknown {
  return refusalOfLedgerError(e, localId, 'withdrawal', withdrawalRefusal)
}

/** Runs a ledger call and rethrows its refusals as WithdrawalError. */
export async function ledgerCall<T>(localId: string, fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    throw fromLedgerError(e, localId)
  }
}
