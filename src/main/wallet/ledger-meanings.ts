/**
 * The movement meanings of a profile from its ledger: its latest payments' deposit addresses and refund txids, and
 * its latest top-ups' delivery txids (RECORD_PAGE_MAX of each). This computer's ledger is read at once
 * (`ledgerMeanings`); a team profile's records are the team ledger's, read through the runtime's store
 * (`storeMeanings`, every desk's records), so every desk gives a movement the same meaning.
 */
import { RECORD_PAGE_MAX, type RecordFilter } from '../../shared/withdrawal-record'
import type { Ledger } from '../ledger/sqlite'
import { scriptOfAddress, type TxMeanings } from './meanings'

interface PaymentFacts {
  readonly localId: string
  readonly depositAddress: string | null
  readonly refund: Record<string, unknown> | null
}
interface TopupFacts {
  readonly localId: string
  readonly blockchainTxId: string | null
}

function meaningsOf(payments: readonly PaymentFacts[], topups: readonly TopupFacts[]): TxMeanings {
  const paymentsByScript = new Map<string, string>()
  const refundsByTxid = new Map<string, string>()
  const topupsByTxid = new Map<string, string>()
  for (const r of payments) {
    const script = r.depositAddress === null ? null : scriptOfAddress(r.depositAddress)
    if (script !== null) paymentsByScript.set(script, r.localId)
    const refundTx = r.refund?.['txId']
    if (typeof refundTx === 'string') refundsByTxid.set(refundTx, r.localId)
  }
  for (const d of topups) if (d.blockchainTxId !== null) topupsByTxid.set(d.blockchainTxId, d.localId)
  return { paymentsByScript, topupsByTxid, refundsByTxid }
}

const latest = (profile?: string): RecordFilter => ({
  ...(profile !== undefined ? { profile } : {}),
  limit: RECORD_PAGE_MAX,
  sort: { field: 'createdAt', dir: 'desc' },
})

export function ledgerMeanings(ledger: Ledger, profileId: string): TxMeanings {
  return meaningsOf(ledger.query(latest(profileId)).rows, ledger.deposits.query(latest(profileId)).rows)
}

/** The team ledger's records through the runtime's store: every desk's (a team's profile ids differ per desk). */
export async function storeMeanings(store: {
  query(filter: RecordFilter): Promise<{ rows: readonly PaymentFacts[] }>
  readonly deposits?: { query(filter: RecordFilter): Promise<{ rows: readonly TopupFacts[] }> }
}): Promise<TxMeanings> {
  const [payments, topups] = await Promise.all([
    store.query(latest()),
    store.deposits ? store.deposits.query(latest()) : Promise.resolve({ rows: [] }),
  ])
  return meaningsOf(payments.rows, topups.rows)
}
