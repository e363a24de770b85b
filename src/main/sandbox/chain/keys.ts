/**
 * Regtest addresses whose blinding private key the sandbox keeps (the DePix service's deposit addresses): the
 * sandbox can then unblind what was paid to them, as the real service does with its own keys.
 */
import { createECDH } from 'node:crypto'
import { payments, networks } from 'liquidjs-lib'

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

export function newKeyedAddress(): KeyedAddress {
  const spend = keyPair()
  const blind = keyPair()
  const p = payments.p2wpkh({ pubkey: spend.pub, blindkey: blind.pub, network: networks.regtest })
  if (!p.confidentialAddress || !p.output) throw new Error('liquidjs-lib derived no address')
  return { address: p.confidentialAddress, script: p.output.toString('hex'), blindingPrivateKey: blind.priv }
}
