/**
 * A watched wallet's LWK state rebuilt on another thread (the PSET builder's worker, issue #28): its descriptor
 * and LWK's updates as WatchedWallet stores them (encrypted with the descriptor's key). Kept apart from watch.ts
 * so a worker loads only LWK.
 */
import type { Wollet } from 'lwk_wasm'
import type { LiquidNetwork } from '../liquid/networks'
import { networkOf } from './descriptor'
import type { Lwk } from './lwk'

export interface WalletReplay {
  readonly descriptor: string
  readonly network: LiquidNetwork
  /** regtest only: the chain's policy asset */
  readonly policyAsset?: string
  readonly updates: readonly string[]
}

/** Replays `r` into a new LWK wallet; throws if an update does not apply. */
export function replayWollet(lwk: Lwk, r: WalletReplay): Wollet {
  const descriptor = new lwk.WolletDescriptor(r.descriptor)
  const wollet = new lwk.Wollet(networkOf(lwk, r.network, r.policyAsset), descriptor)
  for (const line of r.updates) wollet.applyUpdate(lwk.Update.deserializeDecryptedBase64(line, descriptor))
  return wollet
}
