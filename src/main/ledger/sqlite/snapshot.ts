/**
 * A consistent, read-only view of the ledger file on a connection of its own: one read transaction, so the
 * records, the audit entries and the head an export writes are all from the same instant while the app keeps
 * writing on its own connection (WAL lets both run). Close it promptly: a long-lived reader holds back WAL
 * checkpoints.
 */
import { DatabaseSync, type SQLOutputValue, type StatementSync } from 'node:sqlite'
import type {
  AuditEntry,
  AuditVerification,
  RecordFilter,
  WithdrawalRecord,
} from '../../../shared/withdrawal-record'
import { readHead, type AuditHead } from './audit'
import { AUDIT_ROW_COLUMNS } from './audit-rows'
import type { Db } from './db'
import { iterateRecords, recordSelection } from './queries'
import { depositSelection, iterateDeposits } from './deposit-queries'
import type { RecordKindId } from '../../../shared/record-kinds'
import { runLinksFor } from './run-links'
import type { RunLink } from '../../../shared/run-link'
import type { DepositRecord } from '../../../shared/deposit-record'
import { verifyChainSinceSteps, verifyChainSteps } from './verify-chain'
import { verifyOnWorker } from './verify-off-thread'

export interface LedgerSnapshot {
  auditHead(): AuditHead
  iterate(filter?: RecordFilter): Generator<WithdrawalRecord, void, undefined>
  /** The payment run each withdrawal came from (issue #26's "Lote"), from the same snapshot. */
  runLinksOf(localIds: readonly string[]): Map<string, RunLink>
  /** The deposits (second record kind) matching the filter, from the same snapshot. */
  iterateDeposits(filter?: RecordFilter): Generator<DepositRecord, void, undefined>
  /**
   * The records of one kind matching the filter and, from the same compiled filter, the entries about them (by
   * subject, in seq order) with their details as stored text (canonical JSON, as appendAuditRow wrote it): what
   * an export writes as it is.
   */
  selection(
    kind: RecordKindId,
    filter?: RecordFilter,
  ): {
    records: () => Generator<WithdrawalRecord | DepositRecord, void, undefined>
    auditTexts: () => Generator<{ entry: Omit<AuditEntry, 'details'>; detailsText: string }, void, undefined>
  }
  /** seq and stored details text of every `records.exported` entry, in seq order (records/anchors.ts). */
  exportedEntries(): Generator<{ seq: number; detailsText: string }, void, undefined>
  /** The entries at the given seqs (ascending), details as stored text, as auditTextsOf; absent seqs skipped. */
  auditTextsAt(
    seqs: readonly number[],
  ): Generator<{ entry: Omit<AuditEntry, 'details'>; detailsText: string }, void, undefined>
  /** seq, hash and subject of every entry up to `seq`, in seq order (no JSON parsed: cheap per row). */
  auditHashesUpTo(
    seq: number,
  ): Generator<{ seq: number; hash: string; subject: string | null }, void, undefined>
  /**
   * verifyAuditChain over this snapshot, pausing for the event loop every few thousand rows; a full check runs
   * on the start-up check's worker instead when the ledger was opened with one (LedgerOptions.verifyWorker).
   */
  verify(): Promise<AuditVerification>
  close(): void
}

/**
 * What the ledger's own connection knows: the head a full verification last vouched for, valid only while no
 * other connection (another process, a tool editing the file) has committed since — SQLite's data_version says
 * so. `verified` is told the head each successful verification reached.
 */
export interface SnapshotTrust {
  since: AuditHead | null
  /** Without `since`: a checkpoint kept from an earlier run (checkpoint.ts), used only if the chain proves it. */
  checkpoint?: AuditHead | null
  verified(head: AuditHead): void
}

const TEXT_COLUMNS = AUDIT_ROW_COLUMNS

/** As rowToEntry reads a row, less the JSON.parse of the details: an export writes the stored text as it is. */
function rowToText(row: Record<string, SQLOutputValue>): {
  entry: Omit<AuditEntry, 'details'>
  detailsText: string
} {
  const stateHash = typeof row.state_hash === 'string' ? row.state_hash : null
  return {
    entry: {
      seq: Number(row.seq),
      at: String(row.at),
      operator: String(row.operator),
      action: String(row.action),
      subject: row.subject === null ? null : String(row.subject),
      prevHash: String(row.prev_hash),
      hash: String(row.hash),
      ...(stateHash ? { stateHash } : {}),
    },
    detailsText: String(row.details),
  }
}

export function openSnapshot(file: string, trust?: () => SnapshotTrust, worker?: string): LedgerSnapshot {
  const raw = new DatabaseSync(file, { readOnly: true })
  const cache = new Map<string, StatementSync>()
  const db = {
    raw,
    stmt: (sql: string) => {
      let s = cache.get(sql)
      if (!s) cache.set(sql, (s = raw.prepare(sql)))
      return s
    },
    fresh: (sql: string) => raw.prepare(sql),
    tx: () => {
      throw new Error('ledger: a snapshot is read-only')
    },
    close: () => raw.close(),
  } satisfies Db
  let closed = false
  let trusted: SnapshotTrust | undefined
  try {
    raw.exec('PRAGMA busy_timeout = 5000')
    raw.exec('BEGIN')
    // The snapshot starts at the first read, not at BEGIN: read now.
    readHead(db)
    // Asked after the snapshot started: a write by another connection before it shows in data_version.
    trusted = trust?.()
  } catch (e) {
    raw.close()
    throw e
  }
  return {
    auditHead: () => readHead(db),
    iterate: (filter) => iterateRecords(db, filter),
    iterateDeposits: (filter) => iterateDeposits(db, filter),
    runLinksOf: (localIds) => runLinksFor(db, localIds),
    selection(kind, filter) {
      const sel = kind === 'deposit' ? depositSelection(db, filter) : recordSelection(db, filter)
      return {
        records: sel.records,
        *auditTexts() {
          for (const row of sel.audit()) yield rowToText(row)
        },
      }
    },
    *exportedEntries() {
      for (const row of db
        .fresh(`SELECT seq, details FROM audit_log WHERE action = 'records.exported' ORDER BY seq`)
        .iterate()) {
        yield { seq: Number(row.seq), detailsText: String(row.details) }
      }
    },
    *auditTextsAt(seqs) {
      const stmt = db.fresh(`SELECT ${TEXT_COLUMNS} FROM audit_log WHERE seq = ?`)
      for (const seq of seqs) {
        const row = stmt.get(seq)
        if (row) yield rowToText(row)
      }
    },
    *auditHashesUpTo(seq) {
      for (const row of db
        .fresh('SELECT seq, hash, subject FROM audit_log WHERE seq <= ? ORDER BY seq')
        .iterate(seq)) {
        yield {
          seq: Number(row.seq),
          hash: String(row.hash),
          subject: row.subject === null ? null : String(row.subject),
        }
      }
    },
    async verify() {
      const since = trusted?.since ?? null
      if (!since && worker) {
        // The whole check, on a connection and a thread of its own (verify-off-thread.ts).
        const r = await verifyOnWorker(worker, file, trusted?.checkpoint ?? null)
        if (r.verification.ok) trusted?.verified(r.head)
        return r.verification
      }
      const steps = since ? verifyChainSinceSteps(db, since) : verifyChainSteps(db, trusted?.checkpoint)
      for (;;) {
        const r = steps.next()
        if (r.done) {
          if (r.value.ok) trusted?.verified(readHead(db))
          return r.value
        }
        await new Promise<void>((resolve) => setImmediate(resolve))
      }
    },
    close() {
      if (closed) return
      closed = true
      try {
        raw.exec('COMMIT')
      } finally {
        raw.close()
      }
    },
  }
}
