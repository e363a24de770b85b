/** The SQLite ledger's public surface: the inputs (model/inputs.ts, validated with zod at the boundary) and
 * the `Ledger` interface. */
import {
  type AuditEntry,
  type AuditVerification,
  type RecordFilter,
  type RecordPage,
  type StatusObservation,
  type StatusTotal,
  type WithdrawalErrorInfo,
  type WithdrawalRecord,
} from '../../../shared/withdrawal-record'
import type { AuditHead, AuditInput } from './audit'
import type { BackupInfo, BackupReason } from './backups'
import type { Db } from './db'
import type { DepositLedger } from './deposit-types'
import type { LedgerReceipts } from './receipts'
import type { LedgerRuns } from './runs'
import type { RunLink } from '../../../shared/run-link'
import type { LedgerSnapshot } from './snapshot'

import {
  newWithdrawalSchema,
  type NewWithdrawal,
  createdOutcomeSchema,
  type CreatedOutcome,
  unknownResolutionSchema,
  type UnknownResolution,
  observationInputSchema,
  type ObservationInput,
  type ObservationResult,
  similarQuerySchema,
  type SimilarQuery,
  errorInfoOrNull,
} from '../model/inputs'

export {
  newWithdrawalSchema,
  type NewWithdrawal,
  createdOutcomeSchema,
  type CreatedOutcome,
  unknownResolutionSchema,
  type UnknownResolution,
  observationInputSchema,
  type ObservationInput,
  type ObservationResult,
  similarQuerySchema,
  type SimilarQuery,
  errorInfoOrNull,
}

export interface LedgerOptions {
  /** Clock in epoch milliseconds; tests pin it. */
  now?: () => number
  /** Files larger than this are quick_checked by `checkFile` on a worker instead of on open (default 64 MiB). */
  syncQuickCheckMaxBytes?: number
  /**
   * The start-up check's worker module (verify-worker.ts, built: verify-worker-path.ts). With it, a snapshot's
   * full verification (no verification yet this run, or another connection wrote) runs off the main thread.
   */
  verifyWorker?: string
}

/** A write transaction lent to a module that keeps its own tables in the ledger file (the payee book). */
export interface LedgerTx {
  stmt: Db['stmt']
  /** The transaction's time, ISO 8601 UTC. */
  at: string
  /** Appends an audit entry in this transaction: the change and its entry commit together or not at all. */
  audit(entry: AuditInput): AuditEntry
}

export interface Ledger {
  readonly file: string
  readonly schemaVersion: number
  /** Random, fixed at creation (migration 5); the identity file beside the ledger names it. */
  readonly ledgerId: string
  /** The second record kind (migration 8): deposits, "compras de DePix". */
  readonly deposits: DepositLedger

  // Create flow (docs/adr/0002-journal-before-post.md). Each call is one transaction with its audit row.
  insertSubmitting(input: NewWithdrawal, operator: string): WithdrawalRecord
  markCreated(localId: string, outcome: CreatedOutcome): WithdrawalRecord
  /** Side-journal replay: a stored-late create answer; idempotent (see withdrawals.ts). */
  applyJournaledCreate(
    localId: string,
    outcome: CreatedOutcome,
  ): { record: WithdrawalRecord; applied: boolean }
  markRejected(localId: string, error: WithdrawalErrorInfo): WithdrawalRecord
  markOutcomeUnknown(localId: string, error: WithdrawalErrorInfo | null, reason: string): WithdrawalRecord
  recoverInterrupted(): number
  resolveUnknown(localId: string, resolution: UnknownResolution, operator: string): WithdrawalRecord

  // After creation.
  recordObservation(localId: string, observation: ObservationInput): ObservationResult
  markFunded(localId: string, funding: { txId?: string | null }, operator: string): WithdrawalRecord
  /** `markFunded` with one txid on every payment, in one transaction: all recorded or none (funded-many.ts). */
  markFundedMany(localIds: readonly string[], funding: { txId: string }, operator: string): WithdrawalRecord[]
  setFlags(localId: string, flags: readonly string[], operator: string): WithdrawalRecord

  // Reads.
  get(localId: string): WithdrawalRecord | undefined
  findByRemoteId(remoteId: string): WithdrawalRecord | undefined
  listOpen(): WithdrawalRecord[]
  findRecentSimilar(query: SimilarQuery): WithdrawalRecord[]
  query(filter?: RecordFilter): RecordPage
  /** The payment run each of these records came from (issue #26's "Lote"); records not from a run are absent. */
  runLinks(localIds: readonly string[]): Map<string, RunLink>
  iterate(filter?: RecordFilter): Generator<WithdrawalRecord, void, undefined>
  totalsByStatus(filter?: RecordFilter): StatusTotal[]
  observations(localId: string): StatusObservation[]

  // Audit.
  audit(options?: { limit?: number; offset?: number; subject?: string }): {
    rows: AuditEntry[]
    total: number
  }
  appendAudit(entry: AuditInput): AuditEntry
  auditHead(): AuditHead
  /** The chain, and every record against its latest entry (state hashes). */
  verifyAuditChain(): AuditVerification
  /** verifyAuditChain, and `older` (an earlier export's head) is an entry of this chain: the ledger only grew. */
  verifyExtends(older: AuditHead): AuditVerification
  /**
   * PRAGMA quick_check on a worker, when open did not already run it (large file). Problems found make every later
   * write fail with ledger_corrupt. Returns the problems (empty: sound).
   */
  checkFile(): Promise<string[]>
  /** A consistent read-only view on its own connection (exports, the start-up check). Close it. */
  snapshot(): LedgerSnapshot

  // Other tables in the ledger file (main/payees): one transaction with its audit entries, and plain reads.
  transact<T>(fn: (tx: LedgerTx) => T): T
  read<T>(fn: (db: Pick<Db, 'stmt'>) => T): T

  // Backups (backups.ts): newest first.
  backups(): BackupInfo[]
  backup(reason: BackupReason): BackupInfo
  /** A 'daily' backup when the newest is older than `maxAgeMs`; null when none was due. */
  backupIfDue(maxAgeMs: number): BackupInfo | null
  /**
   * Replaces the ledger with one of its backups, after taking a backup of the current file; the restored file
   * becomes the expected identity and gets a `ledger.restored` entry. The caller asks the operator first.
   */
  restoreBackup(name: string, operator: string): { restored: string; safetyBackup: string }

  /** Local receipts and sent notifications (migration 7; issue #14). */
  readonly receipts: LedgerReceipts
  /** Payment runs, their rows and waves (migration 9; issue #15). */
  readonly runs: LedgerRuns
  close(): void
}
