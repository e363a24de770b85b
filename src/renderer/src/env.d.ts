import type { TreasuryBridge } from '../../shared/contract'

declare global {
  interface Window {
    treasury: TreasuryBridge
  }
}
export {}
