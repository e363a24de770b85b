/**
 * Issue #14: the exported records' stored receipts, copied into the export's receipts/ subfolder and listed in
 * the manifest one entry per record (name = the file's SHA-256, so two records with the same bytes share a file).
 * Each receipt's bytes are checked against the hash they were stored with before they are copied: a receipt
 * changed after it was stored is left out (counted in `skipped`) rather than vouched for by the signature.
 * One rule for both engines (issue #16): each engine's export view gives the `ReceiptCandidate`s (this
 * computer's files, ledger/sqlite/export-view.ts; the team ledger's rows, ledger/pg/export-receipts.ts).
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { ReceiptCandidate } from '../ledger/export-view'
import { MAX_RECEIPTS, RECEIPTS_DIR, receiptMemberName, type FileEntry } from './manifest'

export async function writeReceiptEntries(
  folder: string,
  exported: ReadonlySet<string>,
  stored: Iterable<ReceiptCandidate> | AsyncIterable<ReceiptCandidate>,
): Promise<{ entries: FileEntry[]; skipped: number }> {
  const entries: FileEntry[] = []
  const written = new Set<string>()
  let skipped = 0
  for await (const row of stored) {
    if (!exported.has(row.localId)) continue
    if (entries.length >= MAX_RECEIPTS) {
      skipped += 1
      continue
    }
    const bytes = await row.read()
    if (bytes === null) {
      skipped += 1
      continue
    }
    const name = receiptMemberName(row.sha256, row.mediaType)
    if (!written.has(name)) {
      await mkdir(join(folder, RECEIPTS_DIR), { recursive: true })
      await writeFile(join(folder, name), bytes, { flag: 'wx' })
      written.add(name)
    }
    entries.push({
      name,
      format: 'receipt',
      localId: row.localId,
      mediaType: row.mediaType,
      bytes: bytes.length,
      sha256: row.sha256,
    })
  }
  return { entries, skipped }
}
