/**
 * Regtest addresses whose blinding private key the sandbox keeps (the DePix service's deposit addresses): the
 * sandbox can then unblind what was paid to them, as the real service does with its own keys.
 */
import { createECDH } from 'node:crypto'
import { address, payments, networks } from 'liquidjs-lib'

export interface KeyedAddress {
  readonly address: string
  /** hex */
  readonly script: string
  readonly blindingPrivateKey: Buffer
}

/**
 * Node's ECDH hands the private key back without its leading zero bytes (one key in 256 is 31 bytes long). A
 * shortened blinding key derives a different nonce and the sandbox could not unblind what was paid to that
 * address, so the key is padded back to its 32 bytes.
 */
export function keyPair(): { priv: Buffer; pub: Buffer } {
  const ecdh = createECDH('secp256k1')
  ecdh.generateKeys()
  const raw = ecdh.getPrivateKey()
  const priv = Buffer.concat([Buffer.alloc(32 - raw.length), raw])
  return { priv, pub: ecdh.getPublicKey(null, 'compressed') }
}

/** `liquid`: the address format the sandbox DePix service hands out (lq1…); the chain only sees its script. */
export function newKeyedAddress(network: 'regtest' | 'liquid' = 'regtest'): KeyedAddress {
  const spend = keyPair()
  const blind = keyPair()
  const p = payments.p2wpkh({ pubkey: spend.pub, blindkey: blind.pub, network: networks[network] })
  if (!p.confidentialAddress || !p.output) throw new Error('liquidjs-lib derived no address')
  return { address: p.confidentialAddress, script: p.output.toString('hex'), blindingPrivateKey: blind.priv }
}

/**
 * The same output script (and blinding key, if confidential) written for another Liquid network: an output paid
 * to either form is byte for byte the same. Lets the regtest sandbox chain pay, and be paid by, the `liquid`-form
 * addresses the Sandbox profile and its DePix service use. Sandbox only. Throws on anything but an address.
 */
export function twinAddress(addr: string, to: 'liquid' | 'regtest'): string {
  const from = /^(el1|ert1|AzP|XR|2d)/.test(addr) ? networks.regtest : networks.liquid
  if (address.isConfidential(addr)) {
    const { blindingKey, scriptPubKey } = address.fromConfidential(addr)
    return address.toConfidential(address.fromOutputScript(scriptPubKey as Buffer, networks[to]), blindingKey)
  }
  return address.fromOutputScript(address.toOutputScript(addr, from), networks[to])
}

/** The regtest twin of a `liquid`-form address (see twinAddress). */
export const regtestTwin = (addr: string): string => twinAddress(addr, 'regtest')
