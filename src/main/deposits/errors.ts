/**
 * The deposit service's own refusals. Like the withdrawal service's, every one is raised before anything leaves
 * for the API or changes in the ledger, except `ledger_write_failed`, so the operator can fix the input.
 */
import type { DepositRecord } from '../../shared/deposit-record'
import { refusalOfLedgerError, type KindWords, type Refuse } from '../journal/refusals'

export const DEPOSIT_ERROR_CODES = [
  /** The draft failed `depositDraftSchema`; `fields` maps field paths to message codes. */
  'invalid_draft',
  /** The destination is not a Liquid address of the profile's network; `reason` is the Liquid helper's. */
  'address_invalid',
  'duplicate',
  'duplicate_since_review',
  'intent_invalid',
  'intent_expired',
  'intent_mismatch',
  'not_signed_in',
  'rate_limited',
  'not_found',
  'illegal_state',
  'other_profile',
  /** The API answered DEPOSIT_NOT_FOUND for the id. */
  'remote_not_found',
  /** The API's answer is about another deposit (other id, other amount). */
  'remote_mismatch',
  /** The deposit id is already linked to another record of this profile. */
  'remote_id_in_use',
  'invalid_input',
  'ledger_write_failed',
  /** On a team ledger: above the limit, or delivered to an unregistered address (migration 15). */
  'approval_required',
  /** The approval is not an approved top-up, or its top-up was already created. */
  'approval_not_sendable',
] as const
export type DepositErrorCode = (typeof DEPOSIT_ERROR_CODES)[number]

export interface DepositErrorExtra {
  fields?: Record<string, string>
  duplicates?: DepositRecord[]
  reason?: string
  retryAfterSeconds?: number
  localId?: string
  /** A deposit the API created (ledger_write_failed): the operator must see it at once. */
  depositId?: string
  requestId?: string | null
  userMessage?: { 'pt-BR': string; en: string }
}

export class DepositError extends Error {
  override readonly name = 'DepositError'
  readonly fields?: Record<string, string>
  readonly duplicates?: DepositRecord[]
  readonly reason?: string
  readonly retryAfterSeconds?: number
  readonly localId?: string
  readonly depositId?: string
  readonly requestId?: string | null
  readonly userMessage?: { 'pt-BR': string; en: string }

  constructor(
    readonly code: DepositErrorCode,
    message: string,
    extra: DepositErrorExtra = {},
  ) {
    super(message)
    Object.assign(this, extra)
  }
}

export const depositRefusal: Refuse = (code, message, extra = {}) =>
  new DepositError(code, message, {
    ...(extra.duplicates ? { duplicates: extra.duplicates as DepositRecord[] } : {}),
    ...(extra.retryAfterSeconds !== undefined ? { retryAfterSeconds: extra.retryAfterSeconds } : {}),
    ...(extra.localId !== undefined ? { localId: extra.localId } : {}),
    ...(extra.reason !== undefined ? { reason: extra.reason } : {}),
    ...(extra.requestId !== undefined ? { requestId: extra.requestId } : {}),
    ...(extra.createdId !== undefined ? { depositId: extra.createdId } : {}),
    ...(extra.userMessage !== undefined ? { userMessage: extra.userMessage } : {}),
  })

export const DEPOSIT_WORDS: KindWords = {
  en: 'top-up',
  ptSubject: 'A compra de DePix',
  ptCreated: 'CRIADA',
  ptPronoun: 'a',
}

/** Ledger refusals in the service's vocabulary; anything else (SQLite, disk) passes unchanged. */
export function depositLedgerCall<T>(localId: string, fn: () => T): T {
  try {
    return fn()
  } catch (e) {
    throw refusalOfLedgerError(e, localId, 'deposit', depositRefusal)
  }
}

/** `depositLedgerCall` for the async store: the same translation of ledger refusals. */
export async function depositStoreCall<T>(localId: string, fn: () => Promise<T>): Promise<T> {
  try {
    return await fn()
  } catch (e) {
    throw refusalOfLedgerError(e, localId, 'deposit', depositRefusal)
  }
}

/** A top-up that waits for another analyst (the team's four-eyes, docs/TEAM-LEDGER.md). */
export const approvalRequired = (): DepositError =>
  new DepositError('approval_required', 'This top-up needs another analyst’s approval first.', {
    userMessage: {
      'pt-BR':
        'Esta compra de DePix precisa da aprovação de outro analista (acima do limite da equipe ou para um endereço não cadastrado): peça a aprovação.',
      en: 'This top-up needs another analyst’s approval (above the team’s limit or to an address not registered): ask for it.',
    },
  })
