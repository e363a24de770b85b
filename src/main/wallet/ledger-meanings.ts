/**
 * The movement meanings of a profile from this computer's ledger: its latest payments' deposit addresses and
 * refund txids, and its latest top-ups' delivery txids (RECORD_PAGE_MAX of each). A team profile's records live in
 * the team ledger and are not read here yet (docs/WALLET.md).
 */
import { RECORD_PAGE_MAX } from '../../shared/withdrawal-record'
import type { Ledger } from '../ledger/sqlite'
import { scriptOfAddress, type TxMeanings } from './meanings'

export function ledgerMeanings(ledger: Ledger, profileId: string): TxMeanings {
  const paymentsByScript = new Map<string, string>()
  const refundsByTxid = new Map<string, string>()
  const topupsByTxid = new Map<string, string>()
  const sort = { field: 'createdAt', dir: 'desc' } as const
  for (const r of ledger.query({ profile: profileId, limit: RECORD_PAGE_MAX, sort }).rows) {
    const script = r.depositAddress === null ? null : scriptOfAddress(r.depositAddress)
    if (script !== null) paymentsByScript.set(script, r.localId)
    const refundTx = r.refund?.['txId']
    if (typeof refundTx === 'string') refundsByTxid.set(refundTx, r.localId)
  }
  for (const d of ledger.deposits.query({ profile: profileId, limit: RECORD_PAGE_MAX, sort }).rows) {
    if (d.blockchainTxId !== null) topupsByTxid.set(d.blockchainTxId, d.localId)
  }
  return { paymentsByScript, topupsByTxid, refundsByTxid }
}
