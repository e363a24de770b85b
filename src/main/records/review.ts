/**
 * Offline review of an export: verify it, then load its JSON records into a throwaway ledger so the live list's
 * own query, filter and totals code serves the review (no second implementation to drift). No sign-in, no
 * network. The records are loaded even when verification failed, so a reviewer can look at what is there; the
 * UI must then show the problems above the list, never the list alone. Without a readable JSON file the ledger
 * is empty (the CSV and HTML carry fewer fields than a WithdrawalRecord).
 *
 * The ledger lives in a new temporary folder (node:sqlite needs a file for a second connection; the import and
 * the Ledger are two) and is deleted by close(). Writes to it go nowhere.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { openLedger, type Ledger } from '../ledger/index'
import { importRecords } from '../ledger/import'
import { importDepositRecords } from '../ledger/deposit-import'
import { isFingerprint, normalizeFingerprint } from './sign'
import { verifyExport, type ExportVerification } from './verify'

export interface Review {
  /** Verification of the export; `records` is left out (they are in the ledger). */
  verification: ExportVerification
  ledger: Ledger
  /** Closes the ledger and deletes its temporary folder. Idempotent. */
  close(): void
}

export async function openReview(
  manifestPath: string,
  o: { expectFingerprint?: string } = {},
): Promise<Review> {
  const verification = await verifyExport(manifestPath, { keepRecords: true, fixedHashes: true, ...o })
  const records = verification.records ?? []
  const deposits = verification.depositRecords ?? []
  delete verification.records
  delete verification.depositRecords
  const dir = mkdtempSync(join(tmpdir(), 'depix-review-'))
  const file = join(dir, 'review.sqlite')
  try {
    try {
      const details = { source: 'review', manifest: basename(manifestPath) }
      // A deposit export (issue #17) loads its records as deposits: the review lists them with their own queries.
      if (verification.manifest?.recordKind === 'deposit') importDepositRecords(file, deposits, { details })
      else {
        // The verifier parsed every record with the strict schema and hashed its state: neither is done twice.
        importRecords(file, records, {
          details,
          validated: true,
          scratch: true,
          ...(verification.audit?.stateHashes ? { stateHashes: verification.audit.stateHashes } : {}),
        })
      }
    } catch (e) {
      // Only a tampered file gets here (e.g. two records sharing a remote id). The import is one transaction,
      // so the file is a migrated, empty ledger: say why, review nothing.
      verification.problems.push({
        file: verification.manifest?.files.find((f) => f.format === 'json')?.name ?? 'records.json',
        check: 'schema',
        detail: `records cannot be loaded for review: ${(e as Error).message}`,
      })
      verification.ok = false
    }
    const ledger = openLedger(file)
    let closed = false
    return {
      verification,
      ledger,
      close() {
        if (closed) return
        closed = true
        try {
          ledger.close()
        } finally {
          rmSync(dir, { recursive: true, force: true })
        }
      },
    }
  } catch (e) {
    rmSync(dir, { recursive: true, force: true })
    throw e
  }
}

/**
 * A valid signature only proves the manifest was signed by the key it carries, which anyone can make. Trust needs
 * the expected signer, got out of band: `none` (nothing to compare) and `mismatch` must not look like `match`.
 */
export type SignerMatch = 'match' | 'mismatch' | 'none'

/** `expected` as typed (spaces, colons, case ignored); null or blank compares nothing. Throws on a non-fingerprint. */
export function compareSigner(signerFingerprint: string, expected: string | null): SignerMatch {
  if (expected === null || expected.trim() === '') return 'none'
  if (!isFingerprint(expected)) throw new RangeError('not a key fingerprint (32 hexadecimal digits)')
  if (signerFingerprint === '') return 'mismatch'
  return normalizeFingerprint(expected) === normalizeFingerprint(signerFingerprint) ? 'match' : 'mismatch'
}
