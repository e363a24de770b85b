/**
 * Receipts behind one async port (issue #29), so one receipt service (main/receipts/service.ts) keeps a desk's
 * receipts (rows in its SQLite ledger, bytes as content-addressed files beside it) and a team's (rows and bytes
 * in its PostgreSQL ledger, pg/receipts.ts pgReceiptStore) the same way: register a URL, fetch what is due, back
 * off, store, and read back only bytes whose hash still matches. The engines differ only here:
 *
 * - `notice`: a desk fetches a receipt it registers; a team desk also kicks a pass for a receipt another desk
 *   registered and no one fetched yet (the fetching desk is the tracker's leader, which may have changed);
 * - `stored`: a desk writes the file and the row with the time it gives; the team database sets the time and who
 *   fetched, checks the hash and audits the storing itself;
 * - `check`/`read`: a desk re-hashes the file; the team ledger compares the server's hash of the bytes and the hash
 *   the audit trail recorded with the row's.
 */
import type { ReceiptMediaType } from './model/receipts'
import type { Ledger, ReceiptRow } from './sqlite'
import { readReceiptFile, receiptsDir, writeReceiptFile } from './sqlite/receipt-files'

export type { ReceiptRow }

/** The next attempt after a failure, or giving up (receipts/service.ts nextAttempt). */
export type ReceiptRetry = { nextAttemptAt: string } | 'give_up'

/** A row in state `stored`, with what that state guarantees. */
export type StoredReceiptRow = ReceiptRow & { sha256: string; mediaType: ReceiptMediaType }

export interface ReceiptStore {
  get(localId: string): Promise<ReceiptRow | null>
  /** Registers the URL on first sighting (first sighting wins); true when a fetch is worth trying now. */
  notice(localId: string, url: string, atIso: string): Promise<boolean>
  /** Pending receipts whose next attempt is due at `atIso`, oldest first. */
  due(atIso: string, limit: number): Promise<ReceiptRow[]>
  failed(localId: string, error: string, next: ReceiptRetry): Promise<void>
  stored(localId: string, r: { bytes: Buffer; mediaType: ReceiptMediaType; fetchedAt: string }): Promise<void>
  /** Whether the stored bytes are still the ones the row names, and their size, without handing them over. */
  check(
    row: StoredReceiptRow,
  ): Promise<{ ok: true; size: number } | { ok: false; reason: 'missing' | 'hash_mismatch' }>
  /** The stored bytes when the engine's own checks pass; the service hashes them again before showing them. */
  read(row: StoredReceiptRow): Promise<Buffer | null>
}

/** One desk's receipts: `ledger.receipts` rows, files in `<ledger dir>/receipts/` (sqlite/receipt-files.ts). */
export function sqliteReceiptStore(ledger: Pick<Ledger, 'file' | 'receipts'>): ReceiptStore {
  const dir = receiptsDir(ledger.file)
  const r = ledger.receipts
  return {
    get: async (localId) => r.get(localId),
    // A receipt this desk already knows is fetched by its own pass, never kicked again from here.
    notice: async (localId, url, atIso) => r.get(localId) === null && r.track(localId, url, atIso),
    due: async (atIso, limit) => r.due(atIso, limit),
    failed: async (localId, error, next) => r.failed(localId, error, next),
    stored: async (localId, s) => {
      const sha256 = writeReceiptFile(dir, s.bytes, s.mediaType)
      r.stored(localId, { sha256, size: s.bytes.length, mediaType: s.mediaType, fetchedAt: s.fetchedAt })
    },
    check: async (row) => {
      const file = readReceiptFile(dir, row.sha256, row.mediaType)
      return file.ok ? { ok: true, size: row.size ?? file.bytes.length } : file
    },
    read: async (row) => {
      const file = readReceiptFile(dir, row.sha256, row.mediaType)
      return file.ok ? file.bytes : null
    },
  }
}
