import { checkLiquidAddress } from './address'
import { DEPIX_ASSET_ID, isLiquidNetwork, type LiquidNetwork } from './networks'

// Elements wallets register `liquidnetwork:` for mainnet and `liquidtestnet:` for every test chain.
const URI_SCHEME: Readonly<Record<LiquidNetwork, string>> = {
  liquid: 'liquidnetwork',
  testnet: 'liquidtestnet',
  regtest: 'liquidtestnet',
}

const ASSET_ID = /^[0-9a-f]{64}$/

/**
 * Cents as a decimal string with exactly two decimals: 1234 -> "12.34", 200 -> "2.00", 5 -> "0.05".
 * Always two decimals so the amount reads like the BRL value it mirrors (1 DePix = R$ 1,00); wallets parse it in
 * asset units, so "2.00" and "2" are the same 200000000 base units. String math only: no float ever rounds it.
 */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents <= 0) {
    throw new RangeError(`cents must be a positive safe integer, got ${String(cents)}`)
  }
  const digits = String(cents).padStart(3, '0')
  return `${digits.slice(0, -2)}.${digits.slice(-2)}`
}

/**
 * `liquidnetwork:<address>?amount=<decimal>&assetid=<asset id>`. Refuses (TypeError) an address that is not valid
 * for `network`: a funding URI is something a user will pay, so it is never built around an unchecked address.
 */
export function fundingUri(o: {
  address: string
  cents: number
  network: LiquidNetwork
  assetId?: string
}): string {
  const amount = centsToDecimal(o.cents)
  if (!isLiquidNetwork(o.network)) throw new TypeError(`unknown Liquid network: ${String(o.network)}`)
  const assetId = (o.assetId ?? DEPIX_ASSET_ID).toLowerCase()
  if (!ASSET_ID.test(assetId)) throw new TypeError('assetId must be 64 hexadecimal characters')
  const checked = checkLiquidAddress(o.address, o.network)
  if (!checked.ok)
    throw new TypeError(`refusing to build a funding URI: ${checked.message} (${checked.reason})`)
  return `${URI_SCHEME[o.network]}:${checked.address}?amount=${amount}&assetid=${assetId}`
}
