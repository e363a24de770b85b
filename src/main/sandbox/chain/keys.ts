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

function keyPair(): { priv: Buffer; pub: Buffer } {
  const ecdh = createECDH('secp256k1')
  ecdh.generateKeys()
  return { priv: ecdh.getPrivateKey(), pub: ecdh.getPublicKey(null, 'compressed') }
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
 * The regtest form of a confidential address of another Liquid network: same script, same blinding key, so an
 * output paid to either is byte for byte the same. Lets a regtest wallet (the sandbox treasury) pay a deposit
 * address the sandbox service handed out in Liquid form. Sandbox only.
 */
export function regtestTwin(confidentialAddress: string): string {
  const { blindingKey, scriptPubKey } = address.fromConfidential(confidentialAddress)
  const unconfidential = address.fromOutputScript(scriptPubKey as Buffer, networks.regtest)
  return address.toConfidential(unconfidential, blindingKey)
}
