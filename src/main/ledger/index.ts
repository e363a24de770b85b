/**
 * The withdrawal ledger: the only memory of what was created (the API has no idempotency and no list endpoint).
 * SQLite through node:sqlite, WAL, synchronous=FULL, numbered migrations, hash-chained audit log.
 *
 *   const ledger = openLedger(file)
 *   ledger.recoverInterrupted()        // once, before any new submission
 *   const rec = ledger.insertSubmitting(input, operator)   // committed and fsynced: now the POST may leave
 */
import { appendAuditRow, readAudit, readHead, verifyChain } from './audit'
import type { Ctx } from './context'
import { openDb } from './db'
import { acquireLedgerLock } from './lock'
import { migrate } from './migrations'
import { recordObservation } from './observations'
import {
  findRecentSimilar,
  getByRemoteId,
  getRecord,
  iterateRecords,
  listObservations,
  listOpen,
  queryRecords,
  totalsByStatus,
} from './queries'
import type { Ledger, LedgerOptions } from './types'
import * as w from './withdrawals'

export function openLedger(file: string, o: LedgerOptions = {}): Ledger {
  // One owner per file (lock.ts), before the database is touched: a second instance never even recovers.
  const lock = acquireLedgerLock(file)
  let db: ReturnType<typeof openDb>
  let version: number
  try {
    db = openDb(file)
  } catch (e) {
    lock?.release()
    throw e
  }
  try {
    // No ANALYZE / PRAGMA optimize: the listing indexes are shaped so that the planner's default heuristics
    // (most equality columns first) pick them; sampled statistics made plans worse and vary with the data.
    version = migrate(db.raw)
  } catch (e) {
    db.close()
    lock?.release()
    throw e
  }
  const now = o.now ?? Date.now
  const ctx: Ctx = { db, nowIso: () => new Date(now()).toISOString() }

  return {
    file,
    schemaVersion: version,
    insertSubmitting: (input, operator) => w.insertSubmitting(ctx, input, operator),
    markCreated: (localId, outcome) => w.markCreated(ctx, localId, outcome),
    applyJournaledCreate: (localId, outcome) => w.applyJournaledCreate(ctx, localId, outcome),
    markRejected: (localId, error) => w.markRejected(ctx, localId, error),
    markOutcomeUnknown: (localId, error, reason) => w.markOutcomeUnknown(ctx, localId, error, reason),
    recoverInterrupted: () => w.recoverInterrupted(ctx),
    resolveUnknown: (localId, resolution, operator) => w.resolveUnknown(ctx, localId, resolution, operator),
    recordObservation: (localId, observation) => recordObservation(ctx, localId, observation),
    markFunded: (localId, funding, operator) => w.markFunded(ctx, localId, funding, operator),
    setFlags: (localId, flags, operator) => w.setFlags(ctx, localId, flags, operator),
    get: (localId) => getRecord(db, localId),
    findByRemoteId: (remoteId) => getByRemoteId(db, remoteId),
    listOpen: () => listOpen(db),
    findRecentSimilar: (q) => findRecentSimilar(db, q),
    query: (filter) => queryRecords(db, filter),
    iterate: (filter) => iterateRecords(db, filter),
    totalsByStatus: (filter) => totalsByStatus(db, filter),
    observations: (localId) => listObservations(db, localId),
    audit: (options) => readAudit(db, options),
    appendAudit: (entry) => db.tx(() => appendAuditRow(db, ctx.nowIso(), entry)),
    auditHead: () => readHead(db),
    verifyAuditChain: () => verifyChain(db),
    close: () => {
      try {
        db.close()
      } finally {
        lock?.release()
      }
    },
  }
}

export { LedgerError, type LedgerErrorCode } from './errors'
export { createdOutcomeSchema } from './types'
export { SYSTEM_OPERATOR, auditHash, type AuditHead, type AuditInput } from './audit'
export type {
  CreatedOutcome,
  Ledger,
  LedgerOptions,
  NewWithdrawal,
  ObservationInput,
  ObservationResult,
  SimilarQuery,
  UnknownResolution,
} from './types'
