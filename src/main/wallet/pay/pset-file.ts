/**
 * The PSET carried to and from a signer outside the app: a file (base64 text, what Elements'
 * `walletprocesspsbt`, LWK's CLI and the Blockstream App take; a binary PSET — magic `pset` 0xff — is read too),
 * and a QR code when the base64 fits in one. A blinded PSET carries the range proofs of its inputs' coins (a few KB
 * each), so most do not fit: the screen then says so and offers the file.
 */
import { readFileSync, statSync } from 'node:fs'
import QRCode from 'qrcode'
import { PayRefusal } from './errors'

/** Far above a 500-payment PSET (~3.7 MB of base64): anything bigger is not one of ours. */
const MAX_FILE_BYTES = 16 * 1024 * 1024
const BINARY_MAGIC = Buffer.from([0x70, 0x73, 0x65, 0x74, 0xff]) // "pset" 0xff
/** What one QR code holds in byte mode at level L (version 40): base64 text is byte mode (lower case). */
export const PSET_QR_MAX_CHARS = 2953

/** A file name that says what it is and which transaction (no payee data in it). */
export function psetFileName(txid: string, signed: boolean): string {
  return `depix-pagamento-${txid.slice(0, 12)}${signed ? '-assinada' : ''}.pset`
}

export function psetFileText(base64: string): string {
  return `${base64}\n`
}

/** The base64 of a PSET file (text or binary); `not_a_pset` for anything else. */
export function readPsetFile(path: string): string {
  let bytes: Buffer
  try {
    if (statSync(path).size > MAX_FILE_BYTES) throw new PayRefusal('not_a_pset', { what: 'file too large' })
    bytes = readFileSync(path)
  } catch (e) {
    if (e instanceof PayRefusal) throw e
    throw new PayRefusal('not_a_pset', { what: 'file unreadable' })
  }
  if (bytes.subarray(0, BINARY_MAGIC.length).equals(BINARY_MAGIC)) return bytes.toString('base64')
  const text = bytes.toString('utf8').replace(/\s+/g, '')
  if (text === '' || !/^[A-Za-z0-9+/]+=*$/.test(text))
    throw new PayRefusal('not_a_pset', { what: 'not base64' })
  return text
}

export type PsetQr =
  | { readonly fits: true; readonly svg: string; readonly chars: number }
  | { readonly fits: false; readonly chars: number; readonly maxChars: number }

export async function psetQr(base64: string): Promise<PsetQr> {
  if (base64.length > PSET_QR_MAX_CHARS)
    return { fits: false, chars: base64.length, maxChars: PSET_QR_MAX_CHARS }
  const svg = await QRCode.toString(base64, { type: 'svg', errorCorrectionLevel: 'L' })
  return { fits: true, svg, chars: base64.length }
}
