/**
 * Which record fields never change, are set once, or once set are kept, per kind. The SQLite ledger keeps these by
 * construction (its writers are the planners of transitions.ts and the observation plans); the team database
 * enforces them on every write (migration 11's `record_moves`, one row per field). The planners never break them
 * and the database's table says the same: test/main/ledger/model/sql-rules.test.ts checks both.
 */
import type { DepositRecord } from '../../../shared/deposit-record'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'

export interface FieldRules<R> {
  /** Never changes once the record exists. */
  frozen: readonly (keyof R)[]
  /** May go from null to a value, then never changes. */
  setOnce: readonly (keyof R)[]
  /** Once set, never goes back to null (a recorded refund, status, answer). */
  kept: readonly (keyof R)[]
}

export const WITHDRAWAL_FIELDS: FieldRules<WithdrawalRecord> = {
  frozen: [
    'profile',
    'operator',
    'createdAt',
    'request',
    'pixKey',
    'amountKind',
    'amountCents',
    'references',
    'expectedPayee',
  ],
  setOnce: ['remoteId', 'depositAddress', 'depositAmountCents', 'payoutAmountCents'],
  kept: ['refund', 'fundedAt', 'remoteStatus', 'createResponse'],
}

export const DEPOSIT_FIELDS: FieldRules<DepositRecord> = {
  frozen: ['profile', 'operator', 'createdAt', 'origin', 'request', 'amountCents', 'depixAddress'],
  setOnce: ['remoteId', 'qrCopyPaste'],
  kept: ['blockchainTxId', 'bankTxId', 'reversedAt', 'remoteStatus', 'createResponse'],
}

/** The team database's column of a field (snake case; a payment's references are `refs`). */
export function columnOf(field: string): string {
  return field === 'references' ? 'refs' : field.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)
}
