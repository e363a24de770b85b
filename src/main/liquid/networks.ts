import * as liquid from 'liquidjs-lib'

export type LiquidNetwork = 'liquid' | 'testnet' | 'regtest'

export const LIQUID_NETWORKS: readonly LiquidNetwork[] = ['liquid', 'testnet', 'regtest']

// The DePix asset on Liquid mainnet. Testnet/regtest issue their own test assets, so callers override it there.
export const DEPIX_ASSET_ID = '02f22f8d9c76ab41661a2729e4752e2c5d1a263012141b86ea98af5472df5189'
export const DEPIX_PRECISION = 8

// Same wording in pt-BR and en: these are proper names of the networks.
export const LIQUID_NETWORK_LABEL: Readonly<Record<LiquidNetwork, string>> = {
  liquid: 'Liquid',
  testnet: 'Liquid Testnet',
  regtest: 'Liquid Regtest',
}

export function isLiquidNetwork(value: unknown): value is LiquidNetwork {
  return value === 'liquid' || value === 'testnet' || value === 'regtest'
}

export function libNetwork(network: LiquidNetwork): liquid.networks.Network {
  return liquid.networks[network]
}
