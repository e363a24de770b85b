/** The deposit side of the SQLite ledger (`ledger.deposits`): its interface; the inputs are model/inputs.ts. */
import type { DepositRecord } from '../../../shared/deposit-record'
import type {
  RecordFilter,
  StatusObservation,
  StatusTotal,
  WithdrawalErrorInfo,
} from '../../../shared/withdrawal-record'
import type { CreatedOutcome, ObservationInput } from '../model/inputs'

import {
  newDepositSchema,
  type NewDeposit,
  importedDepositSchema,
  type ImportedDeposit,
  depositResolutionSchema,
  type DepositResolution,
  type DepositObservationResult,
} from '../model/inputs'

export {
  newDepositSchema,
  type NewDeposit,
  importedDepositSchema,
  type ImportedDeposit,
  depositResolutionSchema,
  type DepositResolution,
  type DepositObservationResult,
}

export interface DepositLedger {
  // Create flow: the same lifecycle as withdrawals, one transaction each, audited.
  insertSubmitting(input: NewDeposit, operator: string): DepositRecord
  markCreated(localId: string, outcome: CreatedOutcome): DepositRecord
  /** Side-journal replay (journal/side-journal.ts); idempotent. */
  applyJournaledCreate(localId: string, outcome: CreatedOutcome): { record: DepositRecord; applied: boolean }
  markRejected(localId: string, error: WithdrawalErrorInfo): DepositRecord
  markOutcomeUnknown(localId: string, error: WithdrawalErrorInfo | null, reason: string): DepositRecord
  /** Leftover `submitting` deposits become `outcome_unknown` (start-up recovery). */
  recoverInterrupted(): number
  resolveUnknown(localId: string, resolution: DepositResolution, operator: string): DepositRecord
  /** Reconciliation: a deposit made outside the app, imported for tracking (`origin: imported`). */
  importOutside(input: ImportedDeposit, operator: string): DepositRecord

  recordObservation(localId: string, observation: ObservationInput): DepositObservationResult
  setFlags(localId: string, flags: readonly string[], operator: string): DepositRecord

  get(localId: string): DepositRecord | undefined
  findByRemoteId(profile: string, remoteId: string): DepositRecord | undefined
  knownRemoteIds(profile: string, remoteIds: readonly string[]): Set<string>
  listOpen(): DepositRecord[]
  findRecentSimilar(q: {
    profile: string
    amountCents: number
    depixAddress: string
    sinceIso: string
  }): DepositRecord[]
  query(filter?: RecordFilter): { rows: DepositRecord[]; total: number }
  iterate(filter?: RecordFilter): Generator<DepositRecord, void, undefined>
  totalsByStatus(filter?: RecordFilter): StatusTotal[]
  observations(localId: string): StatusObservation[]
}
