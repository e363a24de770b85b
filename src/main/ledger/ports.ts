/**
 * The ledger behind an async interface, so one desk's embedded SQLite file and a team's PostgreSQL server are
 * used the same way. Each method has the semantics of the `Ledger` method of the same name (src/main/ledger/
 * types.ts): one transaction with its audit entry, the same transitions, the same LedgerError codes.
 *
 * Differences a caller can observe, all on PostgreSQL and all deliberate:
 * - times and identities come from the database (its clock; `session_user` as the audit entry's operator, with
 *   the operator the desk named kept as `appOperator` in the details when it differs);
 * - `recoverInterrupted` recovers only this role's `submitting` records: another desk's may be mid-POST.
 */
import type {
  AuditEntry,
  AuditVerification,
  RecordFilter,
  RecordPage,
  StatusObservation,
  StatusTotal,
  WithdrawalErrorInfo,
  WithdrawalRecord,
} from '../../shared/withdrawal-record'
import type {
  AuditHead,
  CreatedOutcome,
  NewWithdrawal,
  ObservationInput,
  ObservationResult,
  SimilarQuery,
  UnknownResolution,
} from './sqlite'
import type { RunLink } from '../../shared/run-link'
import type { DepositStore } from './deposit-store'
import type { StoreEngine } from './model/engine'

export type { StoreEngine }

export interface StoreAuditInput {
  operator: string
  action: string
  subject?: string | null
  details?: Record<string, unknown>
}

/** The duplicate guard as part of the create: checked and inserted atomically across every desk. */
export interface DuplicateGuard {
  /** Records of the same key and payout (either amount kind) created since this moment count as duplicates. */
  sinceIso: string
  /** The window's length: on the team ledger the database takes the bound from its own clock (SimilarQuery). */
  windowMs?: number
  /** The fee rule's rate that turns either amount kind into the payout (ledger/model/similar.ts); default the profile's. */
  partnerRateBps?: number
  /** The operator saw the warning and confirmed: insert anyway. */
  confirmed?: boolean
  /**
   * Local ids of similar records the operator saw at review and confirmed: they do not count, any other does (one
   * created by another desk between the review and this insert).
   */
  allow?: readonly string[]
  /** Only records of this profile count (one desk's ledger shared by its profiles); absent: every record. */
  profile?: string
}

export type GuardedCreate =
  { kind: 'inserted'; record: WithdrawalRecord } | { kind: 'duplicate'; similar: WithdrawalRecord[] }

export interface LedgerStore {
  readonly engine: StoreEngine
  /** The identity the engine records for this connection (the database role on PostgreSQL). */
  readonly identity: string
  /**
   * The same ledger's deposits, when this store carries them (the team ledger, and its offline stand-in); the
   * embedded ledger's are reached through `Ledger.deposits` (deposit-store.ts sqliteDepositStore).
   */
  readonly deposits?: DepositStore

  insertSubmitting(
    input: NewWithdrawal,
    operator: string,
    o?: { approvalId?: string },
  ): Promise<WithdrawalRecord>
  /**
   * findRecentSimilar + insertSubmitting as one step no other desk can interleave with: of two desks paying the
   * same key and amount at the same moment, one inserts and the other gets `duplicate`.
   */
  createGuarded(
    input: NewWithdrawal,
    operator: string,
    guard: DuplicateGuard,
    o?: { approvalId?: string },
  ): Promise<GuardedCreate>
  markCreated(localId: string, outcome: CreatedOutcome): Promise<WithdrawalRecord>
  applyJournaledCreate(
    localId: string,
    outcome: CreatedOutcome,
  ): Promise<{ record: WithdrawalRecord; applied: boolean }>
  markRejected(localId: string, error: WithdrawalErrorInfo): Promise<WithdrawalRecord>
  markOutcomeUnknown(
    localId: string,
    error: WithdrawalErrorInfo | null,
    reason: string,
  ): Promise<WithdrawalRecord>
  recoverInterrupted(): Promise<number>
  resolveUnknown(localId: string, resolution: UnknownResolution, operator: string): Promise<WithdrawalRecord>
  recordObservation(localId: string, observation: ObservationInput): Promise<ObservationResult>
  markFunded(localId: string, funding: { txId?: string | null }, operator: string): Promise<WithdrawalRecord>
  /** `markFunded` with one txid on every payment, in one transaction: all recorded or none. */
  markFundedMany(
    localIds: readonly string[],
    funding: { txId: string },
    operator: string,
  ): Promise<WithdrawalRecord[]>
  setFlags(localId: string, flags: readonly string[], operator: string): Promise<WithdrawalRecord>

  get(localId: string): Promise<WithdrawalRecord | undefined>
  findByRemoteId(remoteId: string): Promise<WithdrawalRecord | undefined>
  listOpen(): Promise<WithdrawalRecord[]>
  findRecentSimilar(query: SimilarQuery): Promise<WithdrawalRecord[]>
  query(filter?: RecordFilter): Promise<RecordPage>
  /** The payment run each of these records came from (issue #26's "Lote"); records not from a run are absent. */
  runLinks(localIds: readonly string[]): Promise<Map<string, RunLink>>
  /** Every matching record in the filter's order, in batches (exports). */
  iterate(filter?: RecordFilter): AsyncGenerator<WithdrawalRecord, void, undefined>
  totalsByStatus(filter?: RecordFilter): Promise<StatusTotal[]>
  observations(localId: string): Promise<StatusObservation[]>

  audit(options?: {
    limit?: number
    offset?: number
    subject?: string
  }): Promise<{ rows: AuditEntry[]; total: number }>
  appendAudit(entry: StoreAuditInput): Promise<AuditEntry>
  auditHead(): Promise<AuditHead>
  verifyAuditChain(): Promise<AuditVerification>

  close(): Promise<void>
}
