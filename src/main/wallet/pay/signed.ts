/**
 * A PSET coming back from a signer is checked against the one we built before anything is finalized: the same
 * unsigned transaction (same id: same inputs, same outputs with the same commitments — a swapped output, a changed
 * amount, an added input or another build all change it), and the same review. Signatures are merged into what
 * was imported before, so a 2-of-3 wallet collects its two signatures one import at a time.
 */
import type { Pset } from 'lwk_wasm'
import { loadLwk } from '../lwk'
import type { WatchedWallet } from '../watch'
import type { PayAssets } from './types'
import { PayRefusal } from './errors'
import type { PayLine } from './lines'
import { reviewPset, type PayReview } from './review'

/** What the built PSET promised: its txid and amounts. */
export type Expected = Pick<PayReview, 'txid' | 'feeUnits' | 'totalUnits'>

export interface MergedSignatures {
  /** base64 of the PSET with every signature so far */
  readonly pset: string
  /** the finalized transaction (hex) when the signatures are enough; null when more are needed */
  readonly txHex: string | null
  /** signatures still missing, per input, when not final (LWK's count) */
  readonly missing: number
}

function parsePset(base64: string): Pset {
  const lwk = loadLwk()
  const text = base64.replace(/\s+/g, '')
  if (text === '' || !/^[A-Za-z0-9+/]+=*$/.test(text)) throw new PayRefusal('not_a_pset')
  try {
    return new lwk.Pset(text)
  } catch {
    throw new PayRefusal('not_a_pset')
  }
}

/** Throws `pset_mismatch` unless `pset` is the build `expected` reviewed, and the review still holds. */
export function sameBuild(
  wallet: WatchedWallet,
  pset: Pset,
  expected: Expected,
  lines: readonly PayLine[],
  assets: PayAssets,
): void {
  let txid: string
  try {
    txid = pset.extractTx().txid().toString()
  } catch {
    throw new PayRefusal('pset_mismatch', { what: 'no transaction' })
  }
  if (txid !== expected.txid) throw new PayRefusal('pset_mismatch', { what: 'another transaction' })
  const again = reviewPset(wallet, pset, lines, assets)
  if (again.feeUnits !== expected.feeUnits || again.totalUnits !== expected.totalUnits)
    throw new PayRefusal('pset_mismatch', { what: 'review differs' })
}

/** Checks `importedBase64`, merges its signatures into `currentBase64`, and finalizes when enough. */
export function mergeSigned(
  wallet: WatchedWallet,
  currentBase64: string,
  importedBase64: string,
  expected: Expected,
  lines: readonly PayLine[],
  assets: PayAssets,
): MergedSignatures {
  const imported = parsePset(importedBase64)
  sameBuild(wallet, imported, expected, lines, assets)
  const merged = parsePset(currentBase64)
  merged.combine(imported)
  sameBuild(wallet, merged, expected, lines, assets)
  const before = signatureCount(wallet, parsePset(currentBase64))
  const after = signatureCount(wallet, merged)
  if (after === before) throw new PayRefusal('not_signed')
  const pset = merged.toString()
  try {
    const final = wallet.lwkWollet.finalize(merged)
    return { pset, txHex: final.extractTx().toString(), missing: 0 }
  } catch {
    // Multisig below its threshold: keep the signatures, wait for the next import.
    return {
      pset,
      txHex: null,
      missing: wallet.lwkWollet.psetDetails(parsePset(pset)).fingerprintsMissing().length,
    }
  }
}

function signatureCount(wallet: WatchedWallet, pset: Pset): number {
  let n = 0
  for (const s of wallet.lwkWollet.psetDetails(pset).signatures()) {
    const has: unknown = s.hasSignature()
    if (Array.isArray(has)) n += has.length
  }
  return n
}
