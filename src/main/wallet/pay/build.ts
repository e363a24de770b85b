/**
 * One PSET for many payments, built by LWK's `TxBuilder` from the watched wallet: one output per payment with its
 * exact DePix units, the fee in L-BTC, change back to the wallet (LWK's coin selection and blinding). Refused with
 * how much is missing when the wallet cannot pay; the result is reviewed (review.ts) before anyone sees it.
 */
import type { Pset } from 'lwk_wasm'
import { loadLwk } from '../lwk'
import type { WatchedWallet } from '../watch'
import { PayRefusal } from './errors'
import type { PayLine } from './lines'
import { assetMap, onChain, reviewPset, type PayReview } from './review'

export interface PayAssets {
  /** display hex of the DePix asset on this network */
  readonly depix: string
  /** display hex of L-BTC (the policy asset) */
  readonly lbtc: string
  /**
   * SANDBOX ONLY: the address the chain is paid for a deposit address. The Sandbox service hands out `liquid`-form
   * (lq1…) addresses while its chain is regtest; the wallet pays their regtest twin (same script and blinding key,
   * so the very same output). Absent on every live profile: there an address of another network is refused.
   */
  readonly chainAddress?: (depositAddress: string) => string
}

export interface BuiltPayment {
  readonly pset: string
  readonly review: PayReview
}

/**
 * A rough upper bound of the fee (units of L-BTC) of a transaction with `outputs` payments at LWK's default
 * 0.1 sat/vB: only to say how much L-BTC is missing when LWK cannot find enough (measured on the sandbox: 53
 * units for 3 payments, 2 inputs and 2 change outputs; ~110 vB per blinded output, proofs discounted as witness).
 */
export function feeEstimate(outputs: number, inputs = 2): bigint {
  return BigInt(Math.ceil(((outputs + 2) * 110 + inputs * 70 + 150) / 10))
}

function walletHas(wallet: WatchedWallet, asset: string): bigint {
  return assetMap(wallet.lwkWollet.balance()).get(asset) ?? 0n
}

export function buildPayment(
  wallet: WatchedWallet,
  lines: readonly PayLine[],
  assets: PayAssets,
): BuiltPayment {
  if (lines.length === 0) throw new RangeError('nothing to pay')
  const seen = new Set<string>()
  for (const l of lines) {
    if (seen.has(l.localId)) throw new RangeError(`payment ${l.localId} selected twice`)
    seen.add(l.localId)
  }
  const total = lines.reduce((s, l) => s + l.units, 0n)
  const depix = walletHas(wallet, assets.depix)
  if (depix < total) throw new PayRefusal('depix_short', { missingUnits: (total - depix).toString() })
  const lbtc = walletHas(wallet, assets.lbtc)
  const estimate = feeEstimate(lines.length)
  if (lbtc === 0n) throw new PayRefusal('lbtc_short', { missingUnits: estimate.toString() })

  const lwk = loadLwk()
  // An address of another network (e.g. a mainnet deposit address while the wallet is on regtest) is refused by
  // name here, so that a failure of `finish` below can only mean the fee.
  const addresses = lines.map((l) => {
    try {
      return lwk.Address.parse(onChain(assets, l.address), wallet.lwkNetwork)
    } catch {
      throw new PayRefusal('not_payable', { localId: l.localId, problem: 'deposit_address_other_network' })
    }
  })
  const asset = new lwk.AssetId(assets.depix)
  let builder = new lwk.TxBuilder(wallet.lwkNetwork)
  for (const [i, l] of lines.entries()) {
    const to = addresses[i] as NonNullable<(typeof addresses)[number]>
    builder = to.isBlinded()
      ? builder.addRecipient(to, l.units, asset)
      : builder.addExplicitRecipient(to, l.units, asset)
  }
  let pset: Pset
  try {
    pset = builder.finish(wallet.lwkWollet)
  } catch {
    // DePix is enough (checked above), so what LWK could not find is L-BTC for the fee.
    const missing = estimate > lbtc ? estimate - lbtc : 1n
    throw new PayRefusal('lbtc_short', { missingUnits: missing.toString() })
  }
  const review = reviewPset(wallet, pset, lines, assets)
  return { pset: pset.toString(), review }
}
