/** Pure helpers of the funding page: countdown, QR data URI, txid check, remote facts. */
import type { WithdrawalRecord } from '../../../../shared/withdrawal-record'

export type Countdown =
  | { state: 'none' }
  | { state: 'invalid' }
  | { state: 'expired' }
  | { state: 'running'; days: number; hours: number; minutes: number; seconds: number }

export function countdown(expiration: string | null, nowMs: number): Countdown {
  if (expiration === null || expiration === '') return { state: 'none' }
  const end = Date.parse(expiration)
  if (Number.isNaN(end)) return { state: 'invalid' }
  const left = Math.floor((end - nowMs) / 1000)
  if (left <= 0) return { state: 'expired' }
  return {
    state: 'running',
    days: Math.floor(left / 86_400),
    hours: Math.floor((left % 86_400) / 3600),
    minutes: Math.floor((left % 3600) / 60),
    seconds: left % 60,
  }
}

/** "1d 02:03:04" / "02:03:04": fixed width so the ticking text does not jump. */
export function formatCountdown(c: Extract<Countdown, { state: 'running' }>): string {
  const two = (n: number): string => String(n).padStart(2, '0')
  const clock = `${two(c.hours)}:${two(c.minutes)}:${two(c.seconds)}`
  return c.days > 0 ? `${c.days}d ${clock}` : clock
}

/**
 * The QR's SVG as an image URL. It is shown as an <img> (scripts in an SVG image never run), never injected as
 * markup; base64 of its UTF-8 bytes, since btoa only takes Latin-1.
 */
export function svgDataUri(svg: string): string {
  const bytes = new TextEncoder().encode(svg)
  let binary = ''
  for (const b of bytes) binary += String.fromCharCode(b)
  return `data:image/svg+xml;base64,${btoa(binary)}`
}

/** A Liquid transaction id: 32 bytes in hex. Optional on "marked as sent", but if given it must be one. */
export function txIdProblem(input: string): 'txid_format' | null {
  const s = input.trim()
  return s === '' || /^[0-9a-fA-F]{64}$/.test(s) ? null : 'txid_format'
}

/** A raw remote field as display text; objects and arrays as JSON, absent as null. Never throws. */
export function rawText(v: unknown): string | null {
  if (v === undefined || v === null || v === '') return null
  if (typeof v === 'string') return v
  if (typeof v === 'number' || typeof v === 'boolean') return String(v)
  try {
    return JSON.stringify(v)
  } catch {
    return String(v)
  }
}

/** Receipt fields of a paid withdrawal (docs/API-CONTRACT.md#s2-3), read defensively from the last status body. */
export const RECEIPT_FIELDS = [
  'receiverName',
  'receiverTaxNumber',
  'payoutAmountInCents',
  'transferDate',
  'centralBankId',
  'blockchainTxID',
  'receiptUrl',
] as const

export function receiptFacts(record: WithdrawalRecord): Array<[string, unknown]> {
  const remote = record.lastRemote ?? {}
  return RECEIPT_FIELDS.filter((k) => remote[k] !== undefined && remote[k] !== null).map((k) => [
    k,
    remote[k],
  ])
}

/** Refund fields, known ones first (spec names only txId and reason; every other field is kept and shown raw). */
export function refundFacts(refund: Record<string, unknown>): Array<[string, unknown]> {
  const known = ['txId', 'reason']
  const first = known.filter((k) => refund[k] !== undefined).map((k): [string, unknown] => [k, refund[k]])
  const rest = Object.entries(refund).filter(([k]) => !known.includes(k))
  return [...first, ...rest]
}
