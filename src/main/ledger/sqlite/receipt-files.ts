/**
 * Receipt files beside the ledger: `<ledger dir>/receipts/<sha256>.<ext>`, content-addressed so the same bytes
 * are stored once and a file's name says what it must contain. Written atomically (temporary file, fsync,
 * rename); read back only after the hash matches, so a file changed on disk is reported, never shown.
 */
import { readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { writeFileAtomic } from '../../secrets/atomic-file'
import { sha256Hex, type ReceiptMediaType } from '../model/receipts'

export const extensionOf = (t: ReceiptMediaType): 'pdf' | 'html' => (t === 'application/pdf' ? 'pdf' : 'html')

export const receiptsDir = (ledgerFile: string): string => join(dirname(ledgerFile), 'receipts')

export { sha256Hex }

export function receiptFileName(sha256: string, t: ReceiptMediaType): string {
  if (!/^[0-9a-f]{64}$/.test(sha256)) throw new Error('not a SHA-256 hex digest')
  return `${sha256}.${extensionOf(t)}`
}

/** Writes the bytes under their hash; returns the hash. An existing file of that name is replaced atomically. */
export function writeReceiptFile(dir: string, bytes: Uint8Array, t: ReceiptMediaType): string {
  const sha256 = sha256Hex(bytes)
  writeFileAtomic(join(dir, receiptFileName(sha256, t)), bytes)
  return sha256
}

export type ReadResult = { ok: true; bytes: Buffer } | { ok: false; reason: 'missing' | 'hash_mismatch' }

export function readReceiptFile(dir: string, sha256: string, t: ReceiptMediaType): ReadResult {
  let bytes: Buffer
  try {
    bytes = readFileSync(join(dir, receiptFileName(sha256, t)))
  } catch {
    return { ok: false, reason: 'missing' }
  }
  return sha256Hex(bytes) === sha256 ? { ok: true, bytes } : { ok: false, reason: 'hash_mismatch' }
}
