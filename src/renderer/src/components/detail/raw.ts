/**
 * Reading the service's raw objects (status bodies, refund) defensively: most of their fields are "not shown" in
 * the API contract, so a field may be missing, of another type, or new. Nothing here throws or guesses.
 */
import type { IpcError } from '../../../../shared/contract'
import type { LiquidNetwork } from '../../../../shared/profile'
import type { WithdrawalErrorInfo } from '../../../../shared/withdrawal-record'

export type RawObject = Record<string, unknown> | null | undefined

/** A field as display text: strings as they are, numbers and booleans as written; anything else null. */
export function text(obj: RawObject, key: string): string | null {
  if (!obj || !Object.hasOwn(obj, key)) return null
  const v = obj[key]
  if (typeof v === 'string') return v === '' ? null : v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  return null
}

/** A field that must be an integer amount in cents. */
export function cents(obj: RawObject, key: string): number | null {
  if (!obj || !Object.hasOwn(obj, key)) return null
  const v = obj[key]
  return typeof v === 'number' && Number.isSafeInteger(v) ? v : null
}

/** Any value as one line of text for a "shown as sent" list. */
export function display(v: unknown): string {
  if (v === null || v === undefined) return String(v)
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  try {
    return JSON.stringify(v)
  } catch {
    return String(v)
  }
}

export function prettyJson(v: unknown): string {
  try {
    return JSON.stringify(v, null, 2) ?? String(v)
  } catch {
    return String(v)
  }
}

const EXPLORER: Readonly<Partial<Record<LiquidNetwork, string>>> = {
  liquid: 'https://blockstream.info/liquid/tx/',
  testnet: 'https://blockstream.info/liquidtestnet/tx/',
}

/** Explorer page of a Liquid transaction; null where there is no public explorer (regtest) or no usable id. */
export function explorerTxUrl(txId: string, network: LiquidNetwork | undefined = 'liquid'): string | null {
  const base = EXPLORER[network]
  if (!base || !/^[0-9a-fA-F]{64}$/.test(txId)) return null
  return base + txId.toLowerCase()
}

/** Refund reasons we can put in words; others are shown raw. */
export const KNOWN_REFUND_REASONS = ['invalid_pix_key', 'payout_failure'] as const

/** Refund fields shown by name (amounts, reason, tx); every other field is listed raw. The fee's names are the
 * ones the totals read (shared/money-totals.ts). */
export { REFUND_FEE_KEYS } from '../../../../shared/money-totals'
export const REFUND_AMOUNT_KEYS = ['amountInCents', 'returnedAmountInCents', 'refundedAmountInCents'] as const

export function firstCents(obj: RawObject, keys: readonly string[]): { key: string; cents: number } | null {
  for (const key of keys) {
    const c = cents(obj, key)
    if (c !== null) return { key, cents: c }
  }
  return null
}

/** A create error kept on the record, in the shape ErrorNotice shows. */
export function recordErrorAsIpcError(e: WithdrawalErrorInfo): IpcError {
  const out: IpcError = {
    code: e.kind,
    message: e.message ?? '',
    kind: e.kind,
    status: e.status,
    requestId: e.requestId,
  }
  if (e.messageCode) out.messageCode = e.messageCode
  if (e.denialCode) out.denialCode = e.denialCode
  if (e.message) out.serviceMessage = e.message
  return out
}
