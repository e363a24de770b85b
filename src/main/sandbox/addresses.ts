/**
 * Deposit payout address → network (docs/API-CONTRACT.md#s1-3, §4.2): the network is read from the address alone. `lq1`
 * (confidential) and `ex1` (unconfidential) are Liquid mainnet and must pass the Liquid checks; `ark1` is
 * Arkade and `spark1` is Spark, checked as bech32/bech32m strings (checksum, charset, single case) since the
 * sandbox has no Arkade server or Spark wallet to ask. Anything else is an unknown network.
 */
import { checkLiquidAddress } from '../liquid'

export type PayoutNetwork = 'liquid' | 'arkade' | 'spark'

export type AddressClass =
  | { ok: true; network: PayoutNetwork; address: string }
  | { ok: false; reason: 'unknown_network' }
  | { ok: false; reason: 'invalid'; network: PayoutNetwork }

const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
const BECH32_CONST = 1
const BECH32M_CONST = 0x2bc830a3
const GENERATORS = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3] as const

function polymod(values: number[]): number {
  let chk = 1
  for (const v of values) {
    const top = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((top >>> i) & 1) chk ^= GENERATORS[i] as number
  }
  return chk >>> 0
}

/** Bech32 or bech32m with the given human-readable part; no length ceiling (Arkade addresses exceed 90). */
export function isBech32String(address: string, hrp: string): boolean {
  if (address !== address.toLowerCase() && address !== address.toUpperCase()) return false
  const s = address.toLowerCase()
  if (!s.startsWith(`${hrp}1`)) return false
  const data = s.slice(hrp.length + 1)
  // At least a few bytes of payload besides the 6-character checksum.
  if (data.length < 14 || data.length > 1000) return false
  const values: number[] = []
  for (const c of hrp) values.push(c.charCodeAt(0) >> 5)
  values.push(0)
  for (const c of hrp) values.push(c.charCodeAt(0) & 31)
  for (const c of data) {
    const v = CHARSET.indexOf(c)
    if (v < 0) return false
    values.push(v)
  }
  const chk = polymod(values)
  return chk === BECH32_CONST || chk === BECH32M_CONST
}

export function classifyPayoutAddress(address: string): AddressClass {
  const lower = address.toLowerCase()
  if (lower.startsWith('lq1') || lower.startsWith('ex1')) {
    const c = /[\s:?]/.test(address) ? undefined : checkLiquidAddress(address, 'liquid')
    const ok = c !== undefined && c.ok && c.confidential === lower.startsWith('lq1')
    return ok ? { ok: true, network: 'liquid', address } : { ok: false, reason: 'invalid', network: 'liquid' }
  }
  if (lower.startsWith('ark1')) {
    return isBech32String(address, 'ark')
      ? { ok: true, network: 'arkade', address }
      : { ok: false, reason: 'invalid', network: 'arkade' }
  }
  if (lower.startsWith('spark1')) {
    return isBech32String(address, 'spark')
      ? { ok: true, network: 'spark', address }
      : { ok: false, reason: 'invalid', network: 'spark' }
  }
  return { ok: false, reason: 'unknown_network' }
}
