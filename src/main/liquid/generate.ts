import { createECDH } from 'node:crypto'
import * as liquid from 'liquidjs-lib'
import { checkLiquidAddress } from './address'
import { libNetwork, type LiquidNetwork } from './networks'

/**
 * A real, valid p2wpkh address with throwaway keys, for the embedded API simulator. Confidential by default, like
 * the deposit addresses the real service hands out. Nobody holds the private keys: never fund it on mainnet.
 */
export function generateLiquidAddress(
  network: LiquidNetwork,
  o: { confidential?: boolean } = {},
): { address: string; scriptPubKey: string } {
  const net = libNetwork(network)
  const pubkey = randomCompressedPubkey()
  const confidential = o.confidential ?? true
  const payment = confidential
    ? liquid.payments.p2wpkh({ pubkey, blindkey: randomCompressedPubkey(), network: net })
    : liquid.payments.p2wpkh({ pubkey, network: net })
  const address = confidential ? payment.confidentialAddress : payment.address
  if (!address || !payment.output) throw new Error('liquidjs-lib derived no p2wpkh address')
  const scriptPubKey = payment.output.toString('hex')
  // The simulator must never hand out an address the app itself would refuse.
  const checked = checkLiquidAddress(address, network)
  if (!checked.ok || checked.scriptPubKey !== scriptPubKey || checked.confidential !== confidential) {
    throw new Error(`generated address failed its own check: ${address}`)
  }
  return { address, scriptPubKey }
}

function randomCompressedPubkey(): Buffer {
  const ecdh = createECDH('secp256k1')
  ecdh.generateKeys()
  return ecdh.getPublicKey(null, 'compressed')
}
