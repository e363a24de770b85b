/**
 * What a wallet movement means (issue #27): a payment's funding (an output to the payment's deposit address), a
 * top-up's delivery (the deposit's `blockchainTxID`), a refund (the withdrawal's `refund.txId`), or nothing the
 * ledger knows. Built from the ledger's most recent records of the profile (RECORD_PAGE_MAX of each kind).
 */
import { address as laddress, networks } from 'liquidjs-lib'

export type MovementMeaning = 'payment' | 'topup' | 'refund' | 'other'

export interface TxMeanings {
  /** deposit address script (hex) → payment localId */
  readonly paymentsByScript: ReadonlyMap<string, string>
  /** txid → top-up localId */
  readonly topupsByTxid: ReadonlyMap<string, string>
  /** txid → payment localId whose refund it is */
  readonly refundsByTxid: ReadonlyMap<string, string>
}

export const NO_MEANINGS: TxMeanings = {
  paymentsByScript: new Map(),
  topupsByTxid: new Map(),
  refundsByTxid: new Map(),
}

/** The output script of a Liquid address of any network (confidential or not), or null. */
export function scriptOfAddress(addr: string): string | null {
  try {
    if (laddress.isConfidential(addr)) {
      const s = laddress.fromConfidential(addr).scriptPubKey
      return s ? s.toString('hex') : null
    }
  } catch {
    // not confidential, or not an address: try the plain forms below
  }
  for (const net of [networks.liquid, networks.testnet, networks.regtest]) {
    try {
      return laddress.toOutputScript(addr, net).toString('hex')
    } catch {
      // another network's address
    }
  }
  return null
}

export function meaningOf(
  m: { txid: string; outputScripts: readonly string[] },
  t: TxMeanings,
): { meaning: MovementMeaning; localId: string | null } {
  const refund = t.refundsByTxid.get(m.txid)
  if (refund !== undefined) return { meaning: 'refund', localId: refund }
  const topup = t.topupsByTxid.get(m.txid)
  if (topup !== undefined) return { meaning: 'topup', localId: topup }
  for (const s of m.outputScripts) {
    const payment = t.paymentsByScript.get(s)
    if (payment !== undefined) return { meaning: 'payment', localId: payment }
  }
  return { meaning: 'other', localId: null }
}
