/** The ledger's public surface: inputs (validated with zod at the boundary, since callers pass API data) and
 * the `Ledger` interface. */
import { z } from 'zod'
import { expectedPayeeSchema } from '../../shared/payee'
import {
  amountKindSchema,
  withdrawalErrorInfoSchema,
  type AuditEntry,
  type AuditVerification,
  type RecordFilter,
  type RecordPage,
  type StatusObservation,
  type StatusTotal,
  type WithdrawalErrorInfo,
  type WithdrawalRecord,
} from '../../shared/withdrawal-record'
import type { AuditHead, AuditInput } from './audit'
import type { BackupInfo, BackupReason } from './backups'
import type { Db } from './db'
import type { DepositLedger } from './deposit-types'
import type { LedgerReceipts } from './receipts'
import type { LedgerRuns } from './runs'
import type { LedgerSnapshot } from './snapshot'

const rawObject = z.record(z.string(), z.unknown())
const cents = z.number().int().nonnegative()

export const newWithdrawalSchema = z.object({
  /** Generated when absent. */
  localId: z.string().min(1).max(100).optional(),
  profile: z.string().min(1),
  /** The exact JSON body about to be POSTed to /withdraw. */
  request: rawObject,
  pixKey: z.string().min(1),
  amountKind: amountKindSchema,
  amountCents: z.number().int().positive(),
  flags: z.array(z.string()).optional(),
  /** What the payment is for (already normalised: trimmed, blank fields dropped). Kept, never sent. */
  references: z
    .strictObject({
      invoice: z.string().min(1).optional(),
      costCentre: z.string().min(1).optional(),
      category: z.string().min(1).optional(),
      note: z.string().min(1).optional(),
    })
    .optional(),
  /** The payee-book entry the payment is for, as it is now (the name check compares with it). */
  expectedPayee: expectedPayeeSchema.optional(),
})
export type NewWithdrawal = z.infer<typeof newWithdrawalSchema>

export const createdOutcomeSchema = z.object({
  remoteId: z.string().min(1),
  /** The `response` object of the 2xx answer, raw. */
  createResponse: rawObject.nullable(),
  requestId: z.string().nullable(),
  nonce: z.string().nullable().optional(),
  depositAddress: z.string().nullable().optional(),
  depositAmountCents: cents.nullable().optional(),
  payoutAmountCents: cents.nullable().optional(),
  expiration: z.string().nullable().optional(),
  /** Status in the create response, if it carried one; recorded as the first observation. */
  status: z.string().nullable().optional(),
})
export type CreatedOutcome = z.infer<typeof createdOutcomeSchema>

export const unknownResolutionSchema = z.union([
  z.object({ withdrawalId: z.string().min(1), note: z.string().optional() }),
  z.object({ notCreated: z.literal(true), note: z.string().optional() }),
])
export type UnknownResolution = z.infer<typeof unknownResolutionSchema>

export const observationInputSchema = z.object({
  /** Raw status string from the body ('' if it had none). */
  status: z.string(),
  body: rawObject.nullable(),
  requestId: z.string().nullable().optional(),
  nonce: z.string().nullable().optional(),
  /** When the answer arrived, ISO 8601; defaults to now. */
  observedAt: z.iso.datetime({ offset: true }).optional(),
})
export type ObservationInput = z.infer<typeof observationInputSchema>

export interface ObservationResult {
  /** False when the answer equals the last stored observation (nothing stored). */
  changed: boolean
  /** True when it became the record's current remote status. */
  applied: boolean
  record: WithdrawalRecord
}

export const similarQuerySchema = z.object({
  pixKey: z.string().min(1),
  amountKind: amountKindSchema,
  amountCents: z.number().int(),
  sinceIso: z.iso.datetime({ offset: true }),
  /**
   * The window's length: the team ledger then takes its bound from the server's clock (which stamped its records),
   * not `sinceIso` from this desk's. The desk ledger keeps `sinceIso` (its own clock stamped its records).
   */
  windowMs: z.number().int().positive().optional(),
  profile: z.string().optional(),
  /**
   * The fee rule's rate (basis points) that turns either amount kind into what the payee receives: records match
   * by payout, whichever kind they or the query carry. Default: the profile default.
   */
  partnerRateBps: z.number().int().min(0).max(9999).optional(),
})
export type SimilarQuery = z.infer<typeof similarQuerySchema>

export const errorInfoOrNull = withdrawalErrorInfoSchema.nullable()

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
  setFlags(localId: string, flags: readonly string[], operator: string): WithdrawalRecord

  // Reads.
  get(localId: string): WithdrawalRecord | undefined
  findByRemoteId(remoteId: string): WithdrawalRecord | undefined
  listOpen(): WithdrawalRecord[]
  findRecentSimilar(query: SimilarQuery): WithdrawalRecord[]
  query(filter?: RecordFilter): RecordPage
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
