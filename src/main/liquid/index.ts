export {
  checkLiquidAddress,
  normaliseLiquidAddress,
  type LiquidAddressCheck,
  type LiquidAddressKind,
} from './address'
export { generateLiquidAddress } from './generate'
export {
  formatLiquidMessage,
  liquidMessages,
  type LiquidAddressFailure,
  type LiquidMessageLocale,
} from './messages'
export {
  DEPIX_ASSET_ID,
  DEPIX_PRECISION,
  isLiquidNetwork,
  LIQUID_NETWORK_LABEL,
  LIQUID_NETWORKS,
  type LiquidNetwork,
} from './networks'
export { fundingQrSvg } from './qr'
export { centsToDecimal, fundingUri } from './uri'
