/**
 * The shapes the build, the review, the signed-PSET checks and the builder's worker share: in a file of their own
 * so none of them imports another's module for a type (no import circle).
 */

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

/** One output to pay, as LWK's builder takes it (the address already the one the chain pays). */
export interface PayRecipient {
  readonly address: string
  /** decimal string: crosses to the builder's worker as structured data */
  readonly units: string
  readonly blinded: boolean
}

/** What LWK is asked to build, once the wallet is known to hold enough: checked, then built here or on a worker. */
export interface BuildRequest {
  readonly recipients: readonly PayRecipient[]
  readonly depix: string
  /** the L-BTC the fee may need, to say how much is missing if LWK finds too little */
  readonly missingIfShort: bigint
}
