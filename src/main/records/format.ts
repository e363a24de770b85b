/**
 * Cell formats of the CSV and HTML exports. Two conventions:
 * - pt-BR: dates in São Paulo time "dd/mm/aaaa hh:mm:ss", amounts "1.234,56";
 * - en: dates ISO 8601 UTC as stored ("2026-01-15T14:30:00.000Z"), amounts "1234.56".
 * Amounts never carry a currency symbol: a spreadsheet reads the bare number in its locale.
 */
import { centsToDecimalString, formatBRL } from '../../shared/money'

export type ExportLocale = 'pt-BR' | 'en'
export const EXPORT_LOCALES = ['pt-BR', 'en'] as const

export const SAO_PAULO = 'America/Sao_Paulo'

const HOUR_MS = 3_600_000
const offsetByHour = new Map<number, number>()
let offsetFormat: Intl.DateTimeFormat | undefined

/**
 * UTC offset of São Paulo at `t`, in ms. Intl is slow (µs per call) and 100k records carry several dates each,
 * so the offset is asked once per UTC hour and cached: São Paulo's offset has only ever changed on whole hours
 * since 1914 (DST ended in 2019; the tz database knows the old rules).
 */
let lastHour = NaN
let lastOffset = 0

function saoPauloOffsetMs(t: number): number {
  const hour = Math.floor(t / HOUR_MS)
  // A record's dates are usually minutes apart: the last answer is the likeliest.
  if (hour === lastHour) return lastOffset
  const cached = offsetByHour.get(hour)
  if (cached !== undefined) {
    lastHour = hour
    lastOffset = cached
    return cached
  }
  offsetFormat ??= new Intl.DateTimeFormat('en-US', {
    timeZone: SAO_PAULO,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  })
  const p: Record<string, number> = {}
  for (const part of offsetFormat.formatToParts(new Date(hour * HOUR_MS))) p[part.type] = Number(part.value)
  const asUtc = Date.UTC(
    p.year ?? 1970,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    p.hour ?? 0,
    p.minute ?? 0,
    p.second ?? 0,
  )
  const offset = asUtc - hour * HOUR_MS
  if (offsetByHour.size > 100_000) offsetByHour.clear()
  offsetByHour.set(hour, offset)
  lastHour = hour
  lastOffset = offset
  return offset
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n))
const pad4 = (n: number): string => String(n).padStart(4, '0')

/** Calendar fields of `t` in São Paulo, read with getUTC* from a shifted instant. */
function saoPauloFields(t: number): Date {
  return new Date(t + saoPauloOffsetMs(t))
}

const STORED_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
const digitsAt = (s: string, from: number, len: number): number => {
  let v = 0
  for (let i = from; i < from + len; i++) v = v * 10 + s.charCodeAt(i) - 48
  return v
}

/** Date.parse for the ledger's own `toISOString()` form, several times faster (an export reads 600k dates). */
function parseStoredIso(s: string): number {
  const y = digitsAt(s, 0, 4)
  const mo = digitsAt(s, 5, 2)
  const d = digitsAt(s, 8, 2)
  const h = digitsAt(s, 11, 2)
  const mi = digitsAt(s, 14, 2)
  const se = digitsAt(s, 17, 2)
  // Date.UTC (and V8's Date.parse) would roll "2025-02-30" over to March: an impossible date is not a date.
  const days = mo === 2 && isLeap(y) ? 29 : (DAYS_IN_MONTH[mo - 1] ?? 0)
  if (d < 1 || d > days || h > 23 || mi > 59 || se > 59) return NaN
  if (y < 100) return Date.parse(s)
  return Date.UTC(y, mo - 1, d, h, mi, se, digitsAt(s, 20, 3))
}

/**
 * A timestamp for a cell; '' for null. Values that do not parse as dates (the API's fields are "not shown"
 * beyond ISO 8601) are written as received rather than guessed.
 */
export function formatDateTime(value: string | null | undefined, locale: ExportLocale): string {
  if (value === null || value === undefined || value === '') return ''
  const stored = STORED_ISO.test(value)
  if (locale === 'en' && stored) return value
  const t = stored ? parseStoredIso(value) : Date.parse(value)
  if (Number.isNaN(t)) return value
  if (locale === 'en') return new Date(t).toISOString()
  const offset = saoPauloOffsetMs(t)
  if (stored && offset % HOUR_MS === 0) {
    // Same calendar day after the shift (21 hours of 24): reuse the string's own digits, no Date object.
    const h = digitsAt(value, 11, 2) + offset / HOUR_MS
    if (h >= 0 && h <= 23) {
      return `${value.slice(8, 10)}/${value.slice(5, 7)}/${value.slice(0, 4)} ${pad2(h)}${value.slice(13, 19)}`
    }
  }
  const d = new Date(t + offset)
  return (
    `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}/${pad4(d.getUTCFullYear())} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
  )
}

/** São Paulo calendar day of a timestamp, "YYYY-MM-DD" (sortable); null when it does not parse. */
export function saoPauloDay(value: string): string | null {
  const t = STORED_ISO.test(value) ? parseStoredIso(value) : Date.parse(value)
  if (Number.isNaN(t)) return null
  const d = saoPauloFields(t)
  return `${pad4(d.getUTCFullYear())}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`
}

/** A day key ("YYYY-MM-DD") for display: pt-BR "dd/mm/aaaa", en unchanged. */
export function formatDay(day: string, locale: ExportLocale): string {
  if (locale === 'en') return day
  const [y, m, d] = day.split('-')
  return `${d ?? ''}/${m ?? ''}/${y ?? ''}`
}

/** Amount cell: pt-BR "1.234,56", en "1234.56"; '' for null. */
export function formatAmount(cents: number | null | undefined, locale: ExportLocale): string {
  if (cents === null || cents === undefined) return ''
  if (locale === 'en') return cents < 0 ? `-${centsToDecimalString(-cents)}` : centsToDecimalString(cents)
  // formatBRL is hand-built (no Intl), so the digits are the same on every machine; only the symbol goes.
  return formatBRL(cents, 'pt-BR').replace('R$ ', '')
}

const AMOUNT_CELL: Readonly<Record<ExportLocale, RegExp>> = {
  'pt-BR': /^(-?)(\d{1,3}(?:\.\d{3})*),(\d{2})$/,
  en: /^(-?)(\d+)\.(\d{2})$/,
}

/** Inverse of formatAmount: cents, null for an empty cell, undefined when the cell is not an amount. */
export function parseAmount(cell: string, locale: ExportLocale): number | null | undefined {
  if (cell === '') return null
  const m = AMOUNT_CELL[locale].exec(cell)
  if (!m) return undefined
  const n = Number(`${(m[2] ?? '').replace(/\./g, '')}${m[3] ?? ''}`)
  if (!Number.isSafeInteger(n)) return undefined
  return m[1] === '-' ? -n : n
}
