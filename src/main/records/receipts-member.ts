/**
 * Issue #14: the exported records' stored receipts, copied into the export's receipts/ subfolder and listed in
 * the manifest one entry per record (name = the file's SHA-256, so two records with the same bytes share a file).
 * Each local file is re-hashed before it is copied: a receipt changed on disk after it was stored is left out
 * (counted in `skipped`) rather than vouched for by the signature.
 */
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Ledger } from '../ledger/index'
import { readReceiptFile, receiptsDir } from '../receipts/files'
import { MAX_RECEIPTS, RECEIPTS_DIR, receiptMemberName, type FileEntry } from './manifest'

export async function writeReceiptMembers(
  ledger: Ledger,
  folder: string,
  exported: ReadonlySet<string>,
): Promise<{ entries: FileEntry[]; skipped: number }> {
  const source = receiptsDir(ledger.file)
  const entries: FileEntry[] = []
  const written = new Set<string>()
  let skipped = 0
  for (const row of ledger.receipts.listStored()) {
    if (!exported.has(row.localId) || row.sha256 === null || row.mediaType === null) continue
    if (entries.length >= MAX_RECEIPTS) {
      skipped += 1
      continue
    }
    const file = readReceiptFile(source, row.sha256, row.mediaType)
    if (!file.ok) {
      skipped += 1
      continue
    }
    const name = receiptMemberName(row.sha256, row.mediaType)
    if (!written.has(name)) {
      await mkdir(join(folder, RECEIPTS_DIR), { recursive: true })
      await writeFile(join(folder, name), file.bytes, { flag: 'wx' })
      written.add(name)
    }
    entries.push({
      name,
      format: 'receipt',
      localId: row.localId,
      mediaType: row.mediaType,
      bytes: file.bytes.length,
      sha256: row.sha256,
    })
  }
  return { entries, skipped }
}
