/**
 * This computer's ledger as an export reads it (the port is ledger/export-view.ts): its snapshot (snapshot.ts),
 * unchanged, behind the async view, so a desk's exports stay byte for byte what they were.
 */
import type { RecordFilter } from '../../../shared/withdrawal-record'
import type { RecordKindId } from '../../../shared/record-kinds'
import type { ExportLedger, ExportView, ReceiptCandidate } from '../export-view'
import { sqliteReceiptStore } from '../receipt-store'
import type { Ledger } from './index'

export function sqliteExportLedger(ledger: Ledger): ExportLedger {
  return {
    open: () => {
      const snap = ledger.snapshot()
      // The records and their entries from one compiled filter (snapshot.ts `selection`).
      let last: { kind: RecordKindId; filter: RecordFilter; sel: ReturnType<typeof snap.selection> } | null =
        null
      const selection = (kind: RecordKindId, filter: RecordFilter) => {
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
        records: (kind, filter) => asAsync(selection(kind, filter).records()),
        auditTextsOf: (kind, filter) => asAsync(selection(kind, filter).auditTexts()),
        runLinksOf: (localIds) => Promise.resolve(snap.runLinksOf(localIds)),
        exportedEntries: () => Promise.resolve([...snap.exportedEntries()]),
        auditTextsAt: (seqs) => Promise.resolve([...snap.auditTextsAt(seqs)]),
        receiptCandidates: (exported) => receiptCandidates(ledger, exported),
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

/**
 * This computer's receipts of `exported`: the files beside the ledger, each re-hashed as it is read by the receipt
 * service's own store (receipt-store.ts: null when changed).
 */
function receiptCandidates(ledger: Ledger, exported: ReadonlySet<string>): ReceiptCandidate[] {
  const store = sqliteReceiptStore(ledger)
  return ledger.receipts.listStored().flatMap((row): ReceiptCandidate[] => {
    const { localId, sha256, mediaType } = row
    if (sha256 === null || mediaType === null || !exported.has(localId)) return []
    const stored = { ...row, sha256, mediaType }
    return [{ localId, sha256, mediaType, read: () => store.read(stored) }]
  })
}

// Row by row as the snapshot's statement reads them: 100k records never sit in memory.
async function* asAsync<T>(it: Iterable<T>): AsyncGenerator<T, void, undefined> {
  yield* it
}
