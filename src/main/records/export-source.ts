/**
 * What an export reads, engine-neutral (issue #16: "exports and offline review work the same on both engines").
 * `exportFrom` (export.ts) takes an `ExportLedger`: this computer's SQLite ledger (`sqliteExportLedger`, a thin
 * wrapper of its snapshot, so a desk's exports stay byte for byte what they were) or the team's PostgreSQL ledger
 * (ledger/pg/export-view.ts: one REPEATABLE READ, READ ONLY transaction on one connection).
 *
 * Everything an `ExportView` returns comes from one consistent view of the ledger, opened by `open()`: the
 * records, their audit entries, the head and the earlier exports' anchors are all of the same moment while other
 * writers (the tracker, other desks) keep going. The `records.exported` entry is appended after the view is
 * closed, through the ledger's own audit path.
 */
import type { AuditHead, Ledger } from '../ledger/sqlite/index'
import type { AuditEntry, AuditVerification } from '../../shared/withdrawal-record'
import type { ExportFilter, FileEntry } from './manifest'
import type { RecordKindId } from '../../shared/record-kinds'
import type { AnyRecord } from './kinds'
import type { RunLink } from '../../shared/run-link'
import { writeReceiptMembers } from './receipts-member'

/** An audit entry with its details as stored (canonical JSON text): an export writes it as it is. */
export interface AuditText {
  entry: Omit<AuditEntry, 'details'>
  detailsText: string
}

export interface ExportView {
  /** The audit chain (and every record against its latest entry) over this view. */
  verify(): Promise<AuditVerification>
  auditHead(): Promise<AuditHead>
  /** How many records match, for progress only (what is written is counted as it is written). */
  count(kind: RecordKindId, filter: ExportFilter): Promise<number>
  /** The matching records of one kind, in the filter's order. */
  records(kind: RecordKindId, filter: ExportFilter): AsyncIterable<AnyRecord>
  /** The payment run each withdrawal came from, by local id (issue #26's "Lote" column), in this view. */
  runLinksOf(localIds: readonly string[]): Promise<ReadonlyMap<string, RunLink>>
  /** The entries about the records `records(kind, filter)` yielded (by subject), in seq order; asked after them. */
  auditTextsOf(kind: RecordKindId, filter: ExportFilter): AsyncIterable<AuditText>
  /** seq and stored details of every `records.exported` entry, in seq order (anchors.ts). */
  exportedEntries(): Promise<Array<{ seq: number; detailsText: string }>>
  /** The entries at the given seqs (ascending); absent seqs skipped. */
  auditTextsAt(seqs: readonly number[]): Promise<AuditText[]>
  /** The exported records' stored receipts (issue #14), written into the folder while the view is open. */
  receipts(folder: string, exported: ReadonlySet<string>): Promise<{ entries: FileEntry[]; skipped: number }>
  /** Idempotent; also called when the export fails. */
  close(): Promise<void>
}

export interface ExportAuditInput {
  operator: string
  action: 'records.exported'
  subject: null
  details: Record<string, unknown>
}

export interface ExportLedger {
  /**
   * The team's ledger on a server: a broken chain is for whoever runs the database (no backup of this computer
   * restores it), and the audit entry, which every desk reads, names the export's folder without this desk's path.
   */
  readonly shared?: boolean
  open(): Promise<ExportView>
  /** The `records.exported` entry, through the ledger's own audit path (chained and attributed by it). */
  appendExported(entry: ExportAuditInput): Promise<void>
}

/** This computer's ledger: its snapshot (ledger/sqlite/snapshot.ts), unchanged, behind the async view. */
export function sqliteExportLedger(ledger: Ledger): ExportLedger {
  return {
    open: () => {
      const snap = ledger.snapshot()
      // The records and their entries from one compiled filter (snapshot.ts `selection`).
      let last: { kind: RecordKindId; filter: ExportFilter; sel: ReturnType<typeof snap.selection> } | null =
        null
      const selection = (kind: RecordKindId, filter: ExportFilter) => {
        if (last?.kind !== kind || last.filter !== filter)
          last = { kind, filter, sel: snap.selection(kind, filter) }
        return last.sel
      }
      let closed = false
      const view: ExportView = {
        verify: () => snap.verify(),
        auditHead: () => Promise.resolve(snap.auditHead()),
        // On the ledger's own connection, as before: only a progress total.
        count: (kind, filter) =>
          Promise.resolve(
            (kind === 'deposit'
              ? ledger.deposits.query({ ...filter, limit: 1 })
              : ledger.query({ ...filter, limit: 1 })
            ).total,
          ),
        records: (kind, filter) => asAsync<AnyRecord>(selection(kind, filter).records()),
        auditTextsOf: (kind, filter) => asAsync(selection(kind, filter).auditTexts()),
        runLinksOf: (localIds) => Promise.resolve(snap.runLinksOf(localIds)),
        exportedEntries: () => Promise.resolve([...snap.exportedEntries()]),
        auditTextsAt: (seqs) => Promise.resolve([...snap.auditTextsAt(seqs)]),
        // This computer's files beside the ledger (receipts-member.ts).
        receipts: (folder, exported) => writeReceiptMembers(ledger, folder, exported),
        close: () => {
          if (!closed) {
            closed = true
            snap.close()
          }
          return Promise.resolve()
        },
      }
      return Promise.resolve(view)
    },
    appendExported: (entry) => {
      ledger.appendAudit(entry)
      return Promise.resolve()
    },
  }
}

// Row by row as the snapshot's statement reads them: 100k records never sit in memory.
async function* asAsync<T>(it: Iterable<T>): AsyncGenerator<T, void, undefined> {
  yield* it
}
