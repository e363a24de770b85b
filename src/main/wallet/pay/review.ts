/**
 * What a PSET does, read back from the PSET itself and LWK's `PsetDetails` (its net effect on the wallet), and
 * refused unless it is exactly the payments selected: one output per payment (address, asset, units), nothing else
 * leaving the wallet but the fee, every input the wallet's own.
 */
import type { Balance, Pset } from 'lwk_wasm'
import type { WatchedWallet } from '../watch'
import type { PayAssets } from './types'
import { PayRefusal } from './errors'
import type { PayLine } from './lines'

export interface ReviewLine extends PayLine {
  /** the output of the transaction that pays it */
  readonly vout: number
}

export interface PayReview {
  /** the transaction id the signed PSET will have (signatures do not change it) */
  readonly txid: string
  readonly lines: readonly ReviewLine[]
  readonly totalUnits: bigint
  /** L-BTC units */
  readonly feeUnits: bigint
  /** wallet balance after this transaction (from LWK's balance minus the PSET's net effect) */
  readonly depixAfter: bigint
  readonly lbtcAfter: bigint
  /** "txid:vout" of every input, all the wallet's */
  readonly inputs: readonly string[]
}

/** LWK's `Balance` (asset id → units) as a Map. */
export function assetMap(b: Balance): Map<string, bigint> {
  return new Map([...(b.entries() as Iterable<[string, bigint]>)])
}

/** What the chain pays for a line's deposit address (itself, except on the sandbox; see PayAssets). */
export function onChain(assets: PayAssets, depositAddress: string): string {
  if (assets.chainAddress === undefined) return depositAddress
  try {
    return assets.chainAddress(depositAddress)
  } catch {
    return depositAddress
  }
}

const mismatch = (what: string): PayRefusal => new PayRefusal('pset_mismatch', { what })

export function reviewPset(
  wallet: WatchedWallet,
  pset: Pset,
  lines: readonly PayLine[],
  assets: PayAssets,
): PayReview {
  const w = wallet.lwkWollet
  const own = new Set(w.utxos().map((u) => `${u.outpoint().txid().toString()}:${u.outpoint().vout()}`))
  const inputs = pset.inputs().map((i) => `${i.previousTxid().toString()}:${i.previousVout()}`)
  for (const i of inputs) if (!own.has(i)) throw mismatch(`foreign input ${i}`)

  let details
  try {
    details = w.psetDetails(pset)
  } catch {
    throw mismatch('LWK cannot read this PSET with this wallet')
  }
  const balance = details.balance()
  const fee = balance.fee()
  const net = assetMap(balance.balances())
  const total = lines.reduce((s, l) => s + l.units, 0n)
  for (const [asset, units] of net) {
    const expected = asset === assets.depix ? -total : asset === assets.lbtc ? -fee : 0n
    if (units !== expected) throw mismatch(`net ${asset} ${units} ≠ ${expected}`)
  }
  if ((net.get(assets.depix) ?? 0n) !== -total) throw mismatch('DePix leaving the wallet ≠ the payments')
  if ((net.get(assets.lbtc) ?? 0n) !== -fee) throw mismatch('L-BTC leaving the wallet ≠ the fee')

  // Every output not the wallet's (the fee output aside) must be one payment, and every payment one output.
  const outside = balance.recipients().map((r) => ({
    vout: r.vout(),
    address: r.address()?.toString() ?? null,
    asset: r.asset()?.toString() ?? null,
    units: r.value() ?? null,
  }))
  // Lines waiting for their output, by what the chain pays (address and units): one lookup per output, so a
  // 200-output review stays linear (the sandbox's address conversion is done once per line, not per comparison).
  const open = new Map<string, PayLine[]>()
  for (const l of lines) {
    const key = `${onChain(assets, l.address)} ${l.units}`
    open.set(key, [...(open.get(key) ?? []), l])
  }
  const reviewed: ReviewLine[] = []
  for (const o of outside) {
    const waiting = o.asset === assets.depix ? open.get(`${o.address} ${o.units}`) : undefined
    const line = waiting?.shift()
    if (line === undefined) throw mismatch(`output ${o.vout} is no selected payment`)
    reviewed.push({ ...line, vout: o.vout })
  }
  const left = [...open.values()].flat()
  if (left.length > 0) throw mismatch(`payment ${left[0]?.localId} has no output`)

  const has = assetMap(w.balance())
  const txid = pset.extractTx().txid().toString()
  reviewed.sort((a, b) => a.vout - b.vout)
  return {
    txid,
    lines: reviewed,
    totalUnits: total,
    feeUnits: fee,
    depixAfter: (has.get(assets.depix) ?? 0n) - total,
    lbtcAfter: (has.get(assets.lbtc) ?? 0n) - fee,
    inputs,
  }
}
