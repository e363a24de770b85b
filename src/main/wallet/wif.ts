/**
 * Is there a WIF private key in this text? A WIF is base58check of 0x80 (mainnet) or 0xef (testnet/regtest), the
 * 32-byte key and an optional 0x01 (compressed). The shape alone is not enough: a SLIP-77 blinding key in hex that
 * starts with 9 or c and has no 0 for 51 characters looks like one, and refusing a valid watch-only descriptor for
 * that would be a false alarm one time in a hundred. The checksum decides.
 */
import { createHash } from 'node:crypto'

const ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
const CANDIDATE = /(?<![1-9A-HJ-NP-Za-km-z])[5KL9c][1-9A-HJ-NP-Za-km-z]{50,51}(?![1-9A-HJ-NP-Za-km-z])/g

function base58(text: string): Buffer {
  let n = 0n
  for (const ch of text) n = n * 58n + BigInt(ALPHABET.indexOf(ch))
  const hex = n.toString(16)
  const body = Buffer.from(hex.length % 2 === 0 ? hex : `0${hex}`, 'hex')
  const zeros = /^1*/.exec(text)?.[0].length ?? 0
  return Buffer.concat([Buffer.alloc(zeros), body])
}

const sha256 = (b: Buffer): Buffer => createHash('sha256').update(b).digest()

function isWif(text: string): boolean {
  const raw = base58(text)
  if (raw.length !== 37 && raw.length !== 38) return false
  const payload = raw.subarray(0, raw.length - 4)
  if (payload[0] !== 0x80 && payload[0] !== 0xef) return false
  if (payload.length === 34 && payload[33] !== 0x01) return false
  return sha256(sha256(payload))
    .subarray(0, 4)
    .equals(raw.subarray(raw.length - 4))
}

export const containsWif = (text: string): boolean => [...text.matchAll(CANDIDATE)].some((m) => isWif(m[0]))
