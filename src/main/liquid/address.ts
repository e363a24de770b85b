import { ECDH } from 'node:crypto'
import * as liquid from 'liquidjs-lib'
import { BASE58_PATTERN, bechFamily, diagnoseLiquidAddress, precheckBase58, precheckBech } from './diagnose'
import { formatLiquidMessage, type LiquidAddressFailure } from './messages'
import { isLiquidNetwork, libNetwork, LIQUID_NETWORKS, type LiquidNetwork } from './networks'

/**
 * What the address pays to, read from its script. A P2SH-wrapped P2WPKH and a P2TR with a script tree are
 * indistinguishable from a plain P2SH / P2TR by address, so they are reported as 'p2sh' / 'p2tr'.
 */
export type LiquidAddressKind = 'p2pkh' | 'p2sh' | 'p2wpkh' | 'p2wsh' | 'p2tr'

export type LiquidAddressCheck =
  | {
      ok: true
      /** The normalised address: trimmed, URI scheme and query removed, bech32/blech32 lowercased. */
      address: string
      network: LiquidNetwork
      confidential: boolean
      kind: LiquidAddressKind
      scriptPubKey: string
    }
  | {
      ok: false
      reason: LiquidAddressFailure
      message: string
      /** With 'wrong_network': the network the address belongs to, so any locale can name it. */
      actualNetwork?: LiquidNetwork
    }

// The longest real Liquid address (blech32, 40-byte program) is about 135 characters. Anything much longer is a
// paste accident and never reaches the decoders.
const MAX_ADDRESS_LENGTH = 200
const URI_SCHEME = /^liquid(?:network|testnet):/i

/**
 * Validates `input` as an address that can receive funds on `network`. Never throws.
 *
 * Accepts only what liquidjs-lib decodes for `network` AND re-encodes to exactly the same string: liquidjs-lib
 * alone accepts a blech32/bech32 checksum variant that does not match the witness version, which Elements rejects.
 */
export function checkLiquidAddress(input: string, network: LiquidNetwork): LiquidAddressCheck {
  try {
    return check(input, network)
  } catch {
    return refuse('malformed')
  }
}

export function normaliseLiquidAddress(
  input: string,
): { address: string } | { reason: 'empty' | 'malformed' } {
  let s = input.trim()
  const scheme = URI_SCHEME.exec(s)
  if (scheme) s = s.slice(scheme[0].length)
  const query = s.indexOf('?')
  if (query >= 0) s = s.slice(0, query)
  if (s === '') return { reason: 'empty' }
  if (s.length > MAX_ADDRESS_LENGTH) return { reason: 'malformed' }
  // Only bech32/blech32 are case-insensitive (all-upper is legal, e.g. for QR alphanumeric mode); base58 is not.
  const lower = s.toLowerCase()
  if (bechFamily(lower)) {
    if (s !== lower && s !== s.toUpperCase()) return { reason: 'malformed' }
    s = lower
  }
  return { address: s }
}

function check(input: unknown, network: LiquidNetwork): LiquidAddressCheck {
  if (!isLiquidNetwork(network)) return refuse('unsupported')
  if (input === undefined || input === null) return refuse('empty')
  if (typeof input !== 'string') return refuse('malformed')
  const normalised = normaliseLiquidAddress(input)
  if ('reason' in normalised) return refuse(normalised.reason)
  const address = normalised.address
  const family = bechFamily(address)
  if (family === 'foreign') return refuse('unsupported')
  // Checksums first, in microseconds: liquidjs-lib then only ever sees strings that could be valid somewhere.
  const early = family ? precheckBech(address, family) : precheckBase58(address)
  if (early) return refuse(early)

  const own = decodeFor(address, network)
  if (own === 'mismatch') return refuse('bad_checksum')
  if (own === 'malformed') return refuse('malformed')
  if (own) {
    const kind = kindOf(own.script)
    if (!kind) return refuse('unsupported')
    const scriptPubKey = own.script.toString('hex')
    return { ok: true, address, network, confidential: own.confidential, kind, scriptPubKey }
  }
  for (const other of LIQUID_NETWORKS) {
    if (other === network) continue
    if (typeof decodeFor(address, other) === 'object') {
      return refuse('wrong_network', { expected: network, actual: other })
    }
  }
  return refuse(diagnoseLiquidAddress(address))
}

function refuse(
  reason: LiquidAddressFailure,
  networks?: { expected: LiquidNetwork; actual: LiquidNetwork },
): LiquidAddressCheck {
  const message = formatLiquidMessage(reason, 'en', networks)
  return networks
    ? { ok: false, reason, message, actualNetwork: networks.actual }
    : { ok: false, reason, message }
}

type Decoded = { script: Buffer; confidential: boolean }
type Outcome = Decoded | 'mismatch' | 'malformed' | undefined

/**
 * The liquidjs-lib decode plus strict re-encode for one network. Exported for tests only: checkLiquidAddress
 * prechecks checksums first, so this is the layer that must catch what liquidjs-lib accepts wrongly on its own.
 *
 * `undefined`: not an address of this network as far as liquidjs-lib can tell.
 * 'mismatch': decodes, but the canonical encoding differs (wrong checksum variant).
 * 'malformed': decodes as this network's, but the content cannot be paid to (bad program length, blinding key).
 */
export function decodeFor(address: string, network: LiquidNetwork): Outcome {
  const net = libNetwork(network)
  try {
    if (address.startsWith(`${net.bech32}1`)) return decodeSegwit(address, net)
    if (address.startsWith(`${net.blech32}1`)) return decodeConfidentialSegwit(address, net)
    if (BASE58_PATTERN.test(address)) return decodeBase58(address, net)
    return undefined
  } catch {
    return undefined
  }
}

function decodeSegwit(address: string, net: liquid.networks.Network): Outcome {
  const { version, prefix, data } = liquid.address.fromBech32(address)
  if (prefix !== net.bech32) return undefined
  if (!isValidProgram(version, data.length)) return 'malformed'
  if (liquid.address.toBech32(data, version, net.bech32) !== address) return 'mismatch'
  return { script: witnessScript(version, data), confidential: false }
}

function decodeConfidentialSegwit(address: string, net: liquid.networks.Network): Outcome {
  // `data` is the full witness output script: version opcode, push length, program.
  const { version, pubkey, data } = liquid.address.fromBlech32(address)
  // The blech32 package cannot encode v2+, so the re-encode check is impossible; diagnose explains the refusal.
  if (version > 1) return undefined
  if (!isValidProgram(version, data.length - 2) || !isBlindingKey(pubkey)) return 'malformed'
  if (liquid.address.toBlech32(data, pubkey, net.blech32, version) !== address) return 'mismatch'
  return { script: Buffer.from(data), confidential: true }
}

function decodeBase58(address: string, net: liquid.networks.Network): Outcome {
  let plain: liquid.address.Base58CheckResult | undefined
  try {
    plain = liquid.address.fromBase58Check(address)
  } catch {
    // Not a 21-byte payload: maybe the 55-byte confidential form, tried below.
  }
  if (plain) {
    const script = legacyScript(plain.version, plain.hash, net)
    if (!script) return undefined
    if (liquid.address.toBase58Check(plain.hash, plain.version) !== address) return 'mismatch'
    return { script, confidential: false }
  }
  const conf = liquid.address.fromConfidential(address)
  const inner = liquid.address.fromBase58Check(conf.unconfidentialAddress)
  const script = legacyScript(inner.version, inner.hash, net)
  if (!script) return undefined
  if (!isBlindingKey(conf.blindingKey)) return 'malformed'
  // Re-encoding with this network's confidential prefix also pins the address's first byte to this network.
  if (liquid.address.toConfidential(conf.unconfidentialAddress, conf.blindingKey) !== address)
    return 'mismatch'
  return { script, confidential: true }
}

function legacyScript(version: number, hash: Buffer, net: liquid.networks.Network): Buffer | undefined {
  if (hash.length !== 20) return undefined
  if (version === net.pubKeyHash)
    return Buffer.concat([Buffer.from([0x76, 0xa9, 0x14]), hash, Buffer.from([0x88, 0xac])])
  if (version === net.scriptHash) return Buffer.concat([Buffer.from([0xa9, 0x14]), hash, Buffer.from([0x87])])
  return undefined
}

// BIP141/BIP350 rules, as Elements applies them.
function isValidProgram(version: number, length: number): boolean {
  if (version === 0) return length === 20 || length === 32
  return version >= 1 && version <= 16 && length >= 2 && length <= 40
}

function witnessScript(version: number, program: Buffer): Buffer {
  return Buffer.concat([Buffer.from([version === 0 ? 0 : 0x50 + version, program.length]), program])
}

// Elements refuses a blinding key that is not a point on secp256k1; a wallet could not blind an output to it.
function isBlindingKey(key: Buffer): boolean {
  if (key.length !== 33 || (key[0] !== 0x02 && key[0] !== 0x03)) return false
  try {
    ECDH.convertKey(key, 'secp256k1', undefined, undefined, 'compressed')
    return true
  } catch {
    return false
  }
}

function kindOf(script: Buffer): LiquidAddressKind | undefined {
  const [op, push] = script
  const last = script[script.length - 1]
  if (script.length === 25 && op === 0x76 && push === 0xa9 && script[23] === 0x88 && last === 0xac)
    return 'p2pkh'
  if (script.length === 23 && op === 0xa9 && push === 0x14 && last === 0x87) return 'p2sh'
  if (script.length === 22 && op === 0x00 && push === 0x14) return 'p2wpkh'
  if (script.length === 34 && op === 0x00 && push === 0x20) return 'p2wsh'
  if (script.length === 34 && op === 0x51 && push === 0x20) return 'p2tr'
  return undefined
}
