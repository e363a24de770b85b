/**
 * One PSET for many payments, built by LWK's `TxBuilder` from the watched wallet: one output per payment with its
 * exact DePix units, the fee in L-BTC, change back to the wallet (LWK's coin selection and blinding). Refused with
 * how much is missing when the wallet cannot pay; the result is reviewed (review.ts) before anyone sees it.
 * In the app LWK's `finish` runs on a worker thread (build-worker.ts); tests and benchmarks may run it here.
 */
import type { Network, Wollet } from 'lwk_wasm'
import { loadLwk, type Lwk } from '../lwk'
import type { WatchedWallet } from '../watch'
import { PayRefusal } from './errors'
import type { PayLine } from './lines'
import type { BuildRequest, PayAssets } from './types'
import { finishOnWorker } from './off-thread'
import { assetMap, onChain, reviewPset, type PayReview } from './review'

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

export function prepareBuild(
  wallet: WatchedWallet,
  lines: readonly PayLine[],
  assets: PayAssets,
): BuildRequest {
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
  // name here, so that a failure of `finish` can only mean the fee.
  const recipients = lines.map((l) => {
    let parsed
    try {
      parsed = lwk.Address.parse(onChain(assets, l.address), wallet.lwkNetwork)
    } catch {
      throw new PayRefusal('not_payable', { localId: l.localId, problem: 'deposit_address_other_network' })
    }
    const r = { address: parsed.toString(), units: l.units.toString(), blinded: parsed.isBlinded() }
    parsed.free()
    return r
  })
  return { recipients, depix: assets.depix, missingIfShort: estimate > lbtc ? estimate - lbtc : 1n }
}

/**
 * LWK's `TxBuilder.finish` for `req` over `wollet`; null when LWK cannot find the coins (DePix is known to be
 * enough, so: the L-BTC for the fee). The one slow step: LWK blinds every output twice (once to weigh the
 * transaction for the fee, once for real), tens of ms per output in wasm (docs/BENCHMARKS.md).
 */
export function finishPset(lwk: Lwk, network: Network, wollet: Wollet, req: BuildRequest): string | null {
  const asset = new lwk.AssetId(req.depix)
  let builder = new lwk.TxBuilder(network)
  for (const r of req.recipients) {
    const to = lwk.Address.parse(r.address, network)
    builder = r.blinded
      ? builder.addRecipient(to, BigInt(r.units), asset)
      : builder.addExplicitRecipient(to, BigInt(r.units), asset)
  }
  try {
    return builder.finish(wollet).toString()
  } catch {
    return null
  }
}

function shortOfFee(req: BuildRequest): PayRefusal {
  return new PayRefusal('lbtc_short', { missingUnits: req.missingIfShort.toString() })
}

/** Checks, builds and reviews on this thread (tests, benchmarks). */
export function buildPayment(
  wallet: WatchedWallet,
  lines: readonly PayLine[],
  assets: PayAssets,
): BuiltPayment {
  const req = prepareBuild(wallet, lines, assets)
  const lwk = loadLwk()
  const pset = finishPset(lwk, wallet.lwkNetwork, wallet.lwkWollet, req)
  if (pset === null) throw shortOfFee(req)
  return { pset, review: reviewPset(wallet, new lwk.Pset(pset), lines, assets) }
}

/**
 * The same, with LWK's `finish` on a worker thread (`script`: build-worker.ts): a 200-output wave takes seconds
 * of blinding that must not hold main (IPC, trackers, the window). The review runs here, on main's own wallet:
 * what the worker returns is checked like any PSET from outside.
 */
export async function buildPaymentOffThread(
  wallet: WatchedWallet,
  lines: readonly PayLine[],
  assets: PayAssets,
  script: string,
): Promise<BuiltPayment> {
  const req = prepareBuild(wallet, lines, assets)
  const pset = await finishOnWorker(script, { wallet: wallet.replayable(), request: req })
  if (pset === null) throw shortOfFee(req)
  return { pset, review: reviewPset(wallet, new (loadLwk().Pset)(pset), lines, assets) }
}
