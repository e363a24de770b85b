/** The deposit side of the ledger (`ledger.deposits`): its inputs (zod-checked) and interface. */
import { z } from 'zod'
import type { DepositRecord } from '../../../shared/deposit-record'
import type {
  RecordFilter,
  StatusObservation,
  StatusTotal,
  WithdrawalErrorInfo,
} from '../../../shared/withdrawal-record'
import type { CreatedOutcome, ObservationInput } from './types'

const rawObject = z.record(z.string(), z.unknown())

export const newDepositSchema = z.object({
  /** Generated (`dep-<uuid>`) when absent. */
  localId: z.string().min(1).max(100).optional(),
  profile: z.string().min(1),
  /** The exact JSON body about to be POSTed to /deposit. */
  request: rawObject,
  flags: z.array(z.string()).optional(),
})
export type NewDeposit = z.infer<typeof newDepositSchema>

/** A deposit made outside the app, found by reconciliation: imported with the status answer that proved it. */
export const importedDepositSchema = z.object({
  profile: z.string().min(1),
  remoteId: z.string().min(1).max(200),
  /** The GET /deposit-status answer, raw. */
  status: z.string(),
  body: rawObject,
  requestId: z.string().nullable().optional(),
  nonce: z.string().nullable().optional(),
})
export type ImportedDeposit = z.infer<typeof importedDepositSchema>

export const depositResolutionSchema = z.union([
  z.object({ depositId: z.string().min(1).max(200), note: z.string().optional() }),
  z.object({ notCreated: z.literal(true), note: z.string().optional() }),
])
export type DepositResolution = z.infer<typeof depositResolutionSchema>

export interface DepositObservationResult {
  /** False when the answer equals the last stored observation (nothing stored). */
  changed: boolean
  applied: boolean
  record: DepositRecord
  /** Flags this answer raised (e.g. `med_reversal`). */
  raised: string[]
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
