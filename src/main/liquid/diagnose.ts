import { createHash } from 'node:crypto'

// Refuses early and explains WHY an address was refused. It never accepts: acceptance is decided only by
// liquidjs-lib plus the strict re-encode in address.ts. Its checksum code is independent of liquidjs-lib on purpose.

export type RefusalReason = 'bad_checksum' | 'malformed' | 'unsupported'

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const BASE58_ALPHABET = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz'
export const BASE58_PATTERN = /^[1-9A-HJ-NP-Za-km-z]+$/

const BECH32_HRPS = new Set(['ex', 'tex', 'ert'])
const BLECH32_HRPS = new Set(['lq', 'tlq', 'el'])
// Bitcoin, and the other payout networks the DePix API knows (Arkade, Spark): recognisable, never fundable here.
const FOREIGN_HRPS = new Set([
  'bc',
  'tb',
  'bcrt',
  'ark',
  'tark',
  'spark',
  'sparkt',
  'sparkrt',
  'sparks',
  'sparkl',
])
// Bitcoin base58 versions: P2PKH/P2SH on mainnet and testnet. No Liquid network uses these bytes.
const BITCOIN_BASE58_VERSIONS = new Set([0, 5, 111, 196])

export type BechFamily = 'bech32' | 'blech32' | 'foreign'

/** `lower` must already be lowercase. The data part never contains '1', so the last '1' is the separator. */
export function bechFamily(lower: string): BechFamily | undefined {
  const sep = lower.lastIndexOf('1')
  if (sep < 1) return undefined
  const hrp = lower.slice(0, sep)
  if (BLECH32_HRPS.has(hrp)) return 'blech32'
  if (BECH32_HRPS.has(hrp)) return 'bech32'
  if (FOREIGN_HRPS.has(hrp)) return 'foreign'
  return undefined
}

export function diagnoseLiquidAddress(address: string): RefusalReason {
  const family = bechFamily(address)
  if (family === 'foreign') return 'unsupported'
  if (!family) return diagnoseBase58(address)
  const early = precheckBech(address, family)
  if (early) return early
  // Checksum and variant are right, so the decoder refused the content. A correctly encoded future witness version
  // is a real script we refuse on purpose; anything else is structurally broken.
  const version = CHARSET.indexOf(address.charAt(address.lastIndexOf('1') + 1))
  return version >= 2 ? 'unsupported' : 'malformed'
}

/**
 * Refusal reason for a bech32/blech32 string that cannot be valid on ANY network (length, charset, checksum,
 * checksum variant, witness version), or undefined when it might be. Cheap, so refusals skip the slow decoder.
 */
export function precheckBech(address: string, family: 'bech32' | 'blech32'): RefusalReason | undefined {
  const blech = family === 'blech32'
  const sep = address.lastIndexOf('1')
  const hrp = address.slice(0, sep)
  const values: number[] = []
  for (let i = sep + 1; i < address.length; i++) {
    const v = CHARSET.indexOf(address.charAt(i))
    if (v < 0) return 'malformed'
    values.push(v)
  }
  const checksumLength = blech ? 12 : 6
  const programBytes = Math.floor(((values.length - 1 - checksumLength) * 5) / 8) - (blech ? 33 : 0)
  // Length first: a truncated paste is the common case, and "copy it whole" is the useful advice for it.
  if (programBytes < 2 || programBytes > 40) return 'malformed'
  const variant = blech ? blech32Variant(hrp, values) : bech32Variant(hrp, values)
  if (!variant) return 'bad_checksum'
  const version = values[0] ?? 0
  if (version > 16) return 'malformed'
  // BIP350 / Elements: v0 must use the plain checksum, v1+ the "m" one. Elements reports the mismatch as a checksum
  // error, and so do we, whichever of the two the address carries.
  if ((version === 0) !== (variant === 'plain')) return 'bad_checksum'
  return undefined
}

type Variant = 'plain' | 'm'

function hrpExpand(hrp: string): number[] {
  const out: number[] = []
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) >> 5)
  out.push(0)
  for (let i = 0; i < hrp.length; i++) out.push(hrp.charCodeAt(i) & 31)
  return out
}

const BECH32_GEN = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
const BECH32M_CONST = 0x2bc830a3

function bech32Variant(hrp: string, values: number[]): Variant | undefined {
  let chk = 1
  for (const v of [...hrpExpand(hrp), ...values]) {
    const top = chk >>> 25
    chk = (((chk & 0x1ffffff) << 5) ^ v) >>> 0
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk = (chk ^ (BECH32_GEN[i] ?? 0)) >>> 0
  }
  if (chk === 1) return 'plain'
  if (chk === BECH32M_CONST) return 'm'
  return undefined
}

// Blech32 (Elements' confidential-address checksum) is bech32 with a 60-bit state and a 12-character checksum. The
// state is kept as two 30-bit halves: plain numbers, no BigInt in the loop.
const split = (n: bigint): readonly [number, number] => [Number(n >> 30n), Number(n & 0x3fffffffn)]
const BLECH32_GEN = [
  0x7d52fba40bd886n,
  0x5e8dbf1a03950cn,
  0x1c3a3c74072a18n,
  0x385d72fa0e5139n,
  0x7093e5a608865bn,
].map(split)
const [BLECH32M_HI, BLECH32M_LO] = split(0x455972a3350f7a1n)

function blech32Variant(hrp: string, values: number[]): Variant | undefined {
  let hi = 0
  let lo = 1
  for (const v of [...hrpExpand(hrp), ...values]) {
    const top = hi >>> 25
    hi = ((hi & 0x1ffffff) << 5) | (lo >>> 25)
    lo = ((lo & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) {
      const gen = BLECH32_GEN[i]
      if ((top >>> i) & 1 && gen) {
        hi ^= gen[0]
        lo ^= gen[1]
      }
    }
  }
  if (hi === 0 && lo === 1) return 'plain'
  if (hi === BLECH32M_HI && lo === BLECH32M_LO) return 'm'
  return undefined
}

function diagnoseBase58(address: string): RefusalReason {
  return precheckBase58(address) ?? 'malformed'
}

/** Like precheckBech, for base58check: a reason when no network could accept it, else undefined. */
export function precheckBase58(address: string): RefusalReason | undefined {
  if (!BASE58_PATTERN.test(address)) return 'malformed'
  const bytes = base58Decode(address)
  if (bytes.length < 5) return 'malformed'
  const payload = bytes.subarray(0, bytes.length - 4)
  const digest = createHash('sha256').update(createHash('sha256').update(payload).digest()).digest()
  if (!digest.subarray(0, 4).equals(bytes.subarray(bytes.length - 4))) return 'bad_checksum'
  if (payload.length === 21 && BITCOIN_BASE58_VERSIONS.has(payload[0] ?? -1)) return 'unsupported'
  // 21 bytes: version + hash160. 55 bytes: confidential prefix + version + blinding key + hash160.
  if (payload.length !== 21 && payload.length !== 55) return 'malformed'
  return undefined
}

function base58Decode(s: string): Buffer {
  const littleEndian: number[] = []
  for (const ch of s) {
    let carry = BASE58_ALPHABET.indexOf(ch)
    for (let j = 0; j < littleEndian.length; j++) {
      carry += (littleEndian[j] ?? 0) * 58
      littleEndian[j] = carry & 0xff
      carry >>= 8
    }
    while (carry > 0) {
      littleEndian.push(carry & 0xff)
      carry >>= 8
    }
  }
  let zeros = 0
  while (s.charAt(zeros) === '1') zeros++
  return Buffer.concat([Buffer.alloc(zeros), Buffer.from(littleEndian.reverse())])
}
