/**
 * The export's view of a ledger, engine-neutral (issue #16: "exports and offline review work the same on both
 * engines"): the port records/export.ts reads, implemented by each engine in its own folder, like the other
 * ledger ports (ports.ts, receipt-store.ts). This computer's SQLite ledger is `sqliteExportLedger`
 * (sqlite/export-view.ts: a thin wrapper of its snapshot, so a desk's exports stay byte for byte what they were);
 * the team's PostgreSQL ledger is `pgExportLedger` (pg/export-view.ts: one REPEATABLE READ, READ ONLY transaction
 * on one connection).
 *
 * Everything an `ExportView` returns comes from one consistent view of the ledger, opened by `open()`: the
 * records, their audit entries, the head, the earlier exports' anchors and the receipt candidates are all of the
 * same moment while other writers (the tracker, other desks) keep going. The `records.exported` entry is appended
 * after the view is closed, through the ledger's own audit path.
 */
import type { AuditHead } from './sqlite/index'
import type {
  AuditEntry,
  AuditVerification,
  RecordFilter,
  WithdrawalRecord,
} from '../../shared/withdrawal-record'
import type { DepositRecord } from '../../shared/deposit-record'
import type { RecordKindId } from '../../shared/record-kinds'
import type { RunLink } from '../../shared/run-link'
import type { ReceiptMediaType } from './model/receipts'

/** An audit entry with its details as stored (canonical JSON text): an export writes it as it is. */
export interface AuditText {
  entry: Omit<AuditEntry, 'details'>
  detailsText: string
}

/** A stored receipt of an exported record; `read` gives its bytes only if they still match `sha256`. */
export interface ReceiptCandidate {
  localId: string
  sha256: string
  mediaType: ReceiptMediaType
  read(): Promise<Buffer | null>
}

/** The filter's paging (`limit`, `offset`) does not apply: a view reads every matching record. */
export interface ExportView {
  /** The audit chain (and every record against its latest entry) over this view. */
  verify(): Promise<AuditVerification>
  auditHead(): Promise<AuditHead>
  /** How many records match, for progress only (what is written is counted as it is written). */
  count(kind: RecordKindId, filter: RecordFilter): Promise<number>
  /** The matching records of one kind, in the filter's order. */
  records(kind: RecordKindId, filter: RecordFilter): AsyncIterable<WithdrawalRecord | DepositRecord>
  /** The payment run each withdrawal came from, by local id (issue #26's "Lote" column), in this view. */
  runLinksOf(localIds: readonly string[]): Promise<ReadonlyMap<string, RunLink>>
  /** The entries about the records `records(kind, filter)` yielded (by subject), in seq order; asked after them. */
  auditTextsOf(kind: RecordKindId, filter: RecordFilter): AsyncIterable<AuditText>
  /** seq and stored details of every `records.exported` entry, in seq order (records/anchors.ts). */
  exportedEntries(): Promise<Array<{ seq: number; detailsText: string }>>
  /** The entries at the given seqs (ascending); absent seqs skipped. */
  auditTextsAt(seqs: readonly number[]): Promise<AuditText[]>
  /**
   * The stored receipts (issue #14) of the `exported` local ids, each read when asked: consume them (and read
   * their bytes) before `close()`, so on the team ledger the bytes are of the view's moment.
   */
  receiptCandidates(
    exported: ReadonlySet<string>,
  ): Iterable<ReceiptCandidate> | AsyncIterable<ReceiptCandidate>
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
