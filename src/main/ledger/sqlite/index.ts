/**
 * The withdrawal ledger: the only memory of what was created (the API has no idempotency and no list endpoint).
 * SQLite through node:sqlite, WAL, synchronous=FULL, numbered migrations, hash-chained audit log whose entries
 * carry the state of the records they changed, an identity file beside it, rolling backups.
 *
 *   const ledger = openLedger(file)
 *   ledger.recoverInterrupted()        // once, before any new submission
 *   const rec = ledger.insertSubmitting(input, operator)   // committed and fsynced: now the POST may leave
 */
import { rmSync } from 'node:fs'
import { appendAuditRow, readAudit, readHead, type AuditHead } from './audit'
import {
  backupDue,
  backupPath,
  createBackup,
  listBackups,
  type BackupInfo,
  type BackupReason,
} from './backups'
import type { Ctx } from './context'
import type { Db } from './db'
import { depositLedger } from './deposit-ledger'
import { LedgerError } from '../model/errors'
import { quickCheckFile } from './file-check'
import { identityPath, refusal, writeIdentity } from './identity'
import { readCheckpoint, removeCheckpoint, writeCheckpoint } from './checkpoint'
import { acquireLedgerLock } from './lock'
import { isInMemory, openChecked, recordCount } from './open-checks'
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
import { ledgerReceipts } from './receipts'
import { replaceWithBackup } from './restore'
import { markFundedMany } from './funded-many'
import { ledgerRuns } from './runs'
import { runLinksFor } from './run-links'
import { openSnapshot } from './snapshot'
import type { Ledger, LedgerOptions } from './types'
import { verifyChain, verifyExtends } from './verify-chain'
import * as w from './withdrawals'

/** Once a deferred quick_check failed, every write is refused: a damaged file is never written on, or repaired. */
function refusingWhenCorrupt(db: Db, corrupt: () => LedgerError | null): Db {
  return {
    ...db,
    raw: db.raw,
    tx: (fn) => {
      const e = corrupt()
      if (e) throw e
      return db.tx(fn)
    },
  }
}

export function openLedger(file: string, o: LedgerOptions = {}): Ledger {
  const now = o.now ?? Date.now
  const nowDate = (): Date => new Date(now())
  let written: AuditHead | null = null
  let ledgerId = ''
  // The identity follows every committed write that moved the head. A failure here (disk full) leaves it
  // behind the ledger, which the next open accepts; the next commit tries again.
  const syncIdentity = (): void => {
    if (isInMemory(file)) return
    try {
      const head = readHead(ctx.db)
      if (written && written.seq === head.seq && written.hash === head.hash) return
      writeIdentity(file, { ledgerId, head, records: recordCount(ctx.db), now: new Date().toISOString() })
      written = head
    } catch {
      written = null
    }
  }
  let quickChecked = false
  let corrupt: LedgerError | null = null
  const open = (): number => {
    const opened = openChecked(file, () => syncIdentity(), nowDate, o.syncQuickCheckMaxBytes)
    ctx.db = refusingWhenCorrupt(opened.db, () => corrupt)
    ledgerId = opened.ledgerId
    quickChecked = opened.quickChecked
    corrupt = null
    written = null
    return opened.version
  }
  const ctx = { nowIso: () => nowDate().toISOString() } as Ctx
  // One owner per file (lock.ts), before the database is touched: a second instance never even recovers.
  const lock = isInMemory(file) ? null : acquireLedgerLock(file)
  let version: number
  try {
    version = open()
  } catch (e) {
    lock?.release()
    throw e
  }

  /**
   * The head the last full verification vouched for, and the data_version of our connection then: our own
   * writes go through writeRecord (never laundering an edit) and leave data_version alone, anyone else's change
   * it, and then the next verification walks everything again. This keeps the check before every export from
   * re-hashing a whole 100k-record ledger that was verified at start-up.
   */
  let trusted: { dataVersion: number; head: AuditHead } | null = null
  let verifiedOnce = false
  const readDataVersion = (): number =>
    Number(ctx.db.raw.prepare('PRAGMA data_version').get()?.data_version ?? Number.NaN)

  const backup = (reason: BackupReason): BackupInfo => {
    if (isInMemory(file)) throw new LedgerError('invalid_input', 'an in-memory ledger has no backups')
    return createBackup(ctx.db.raw, file, reason, nowDate())
  }

  return {
    file,
    get schemaVersion() {
      return version
    },
    get ledgerId() {
      return ledgerId
    },
    deposits: depositLedger(ctx),
    insertSubmitting: (input, operator) => w.insertSubmitting(ctx, input, operator),
    markCreated: (localId, outcome) => w.markCreated(ctx, localId, outcome),
    applyJournaledCreate: (localId, outcome) => w.applyJournaledCreate(ctx, localId, outcome),
    markRejected: (localId, error) => w.markRejected(ctx, localId, error),
    markOutcomeUnknown: (localId, error, reason) => w.markOutcomeUnknown(ctx, localId, error, reason),
    recoverInterrupted: () => w.recoverInterrupted(ctx),
    resolveUnknown: (localId, resolution, operator) => w.resolveUnknown(ctx, localId, resolution, operator),
    recordObservation: (localId, observation) => w.recordWithdrawalObservation(ctx, localId, observation),
    markFunded: (localId, funding, operator) => w.markFunded(ctx, localId, funding, operator),
    markFundedMany: (localIds, funding, operator) => markFundedMany(ctx, localIds, funding, operator),
    setFlags: (localId, flags, operator) => w.setFlags(ctx, localId, flags, operator),
    get: (localId) => getRecord(ctx.db, localId),
    findByRemoteId: (remoteId) => getByRemoteId(ctx.db, remoteId),
    listOpen: () => listOpen(ctx.db),
    findRecentSimilar: (q) => findRecentSimilar(ctx.db, q),
    query: (filter) => queryRecords(ctx.db, filter),
    runLinks: (localIds) => runLinksFor(ctx.db, localIds),
    iterate: (filter) => iterateRecords(ctx.db, filter),
    totalsByStatus: (filter) => totalsByStatus(ctx.db, filter),
    observations: (localId) => listObservations(ctx.db, localId),
    audit: (options) => readAudit(ctx.db, options),
    appendAudit: (entry) => ctx.db.tx(() => appendAuditRow(ctx.db, ctx.nowIso(), entry)),
    auditHead: () => readHead(ctx.db),
    transact: (fn) =>
      ctx.db.tx(() => {
        const at = ctx.nowIso()
        return fn({
          stmt: (sql) => ctx.db.stmt(sql),
          at,
          audit: (entry) => appendAuditRow(ctx.db, at, entry),
        })
      }),
    read: (fn) => fn({ stmt: (sql) => ctx.db.stmt(sql) }),
    verifyAuditChain: () => verifyChain(ctx.db),
    verifyExtends: (older) => verifyExtends(ctx.db, older),
    snapshot: () =>
      openSnapshot(
        file,
        () => {
          const dataVersion = readDataVersion()
          return {
            since: trusted !== null && trusted.dataVersion === dataVersion ? trusted.head : null,
            // Only before this run's first verification: once it has one, a change by another connection means
            // the whole chain is walked again (the data_version rule above), as before checkpoints.
            checkpoint: verifiedOnce || isInMemory(file) ? null : readCheckpoint(file),
            verified: (head) => {
              trusted = { dataVersion, head }
              verifiedOnce = true
              if (!isInMemory(file)) writeCheckpoint(file, head)
            },
          }
        },
        isInMemory(file) ? undefined : o.verifyWorker,
      ),
    checkFile: async () => {
      if (quickChecked) return []
      const problems = await quickCheckFile(file)
      if (problems.length > 0) corrupt = refusal('ledger_corrupt', file, problems.slice(0, 3).join('; '))
      else quickChecked = true
      return problems
    },
    backups: () => (isInMemory(file) ? [] : listBackups(file)),
    backup,
    backupIfDue: (maxAgeMs) =>
      !isInMemory(file) && backupDue(file, nowDate(), maxAgeMs) ? backup('daily') : null,
    restoreBackup: (name, operator) => {
      const source = backupPath(file, name)
      trusted = null
      const replacedHead = readHead(ctx.db)
      const safety = backup('restore')
      ctx.db.close()
      try {
        replaceWithBackup(file, source)
        // The operator chose this file: its identity (and head, even if older) becomes the expected one.
        rmSync(identityPath(file), { force: true })
        removeCheckpoint(file)
      } finally {
        version = open()
      }
      ctx.db.tx(() =>
        appendAuditRow(ctx.db, ctx.nowIso(), {
          operator,
          action: 'ledger.restored',
          details: { backup: name, safetyBackup: safety.name, replacedHead },
        }),
      )
      return { restored: name, safetyBackup: safety.name }
    },
    receipts: ledgerReceipts(ctx),
    runs: ledgerRuns(ctx),
    close: () => {
      try {
        ctx.db.close()
      } finally {
        lock?.release()
      }
    },
  }
}

export { LedgerError, type LedgerErrorCode, type UserMessage } from '../model/errors'
export { createdOutcomeSchema } from './types'
export { SYSTEM_OPERATOR, auditHash, type AuditHead, type AuditInput } from './audit'
export { BACKUPS_KEPT, type BackupInfo, type BackupReason } from './backups'
export { openSnapshot, type LedgerSnapshot } from './snapshot'
export type { DepositLedger, DepositResolution, ImportedDeposit, NewDeposit } from './deposit-types'
export type { LedgerReceipts, ReceiptRow, StoredReceipt } from './receipts'
export type { LedgerRuns } from './runs'
export type {
  CreatedOutcome,
  Ledger,
  LedgerOptions,
  LedgerTx,
  NewWithdrawal,
  ObservationInput,
  ObservationResult,
  SimilarQuery,
  UnknownResolution,
} from './types'
