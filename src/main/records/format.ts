/**
 * Cell formats of the CSV and HTML exports. Two conventions:
 * - pt-BR: dates in São Paulo time "dd/mm/aaaa hh:mm:ss", amounts "1.234,56";
 * - en: dates ISO 8601 UTC as stored ("2026-01-15T14:30:00.000Z"), amounts "1234.56".
 * Amounts never carry a currency symbol: a spreadsheet reads the bare number in its locale.
 */
import { zoneOffsetMs } from '../../shared/calendar-day'
import { centsToDecimalString, formatBRL } from '../../shared/money'

export type ExportLocale = 'pt-BR' | 'en'
export const EXPORT_LOCALES = ['pt-BR', 'en'] as const

const HOUR_MS = 3_600_000
const DAY_MS = 24 * HOUR_MS
const offsetByHour = new Map<number, number>()

/** The offset at the start of UTC hour `hour` (hours since the epoch), from the tz database. */
function hourOffset(hour: number): number {
  const cached = offsetByHour.get(hour)
  if (cached !== undefined) return cached
  const offset = zoneOffsetMs(hour * HOUR_MS)
  if (offsetByHour.size > 100_000) offsetByHour.clear()
  offsetByHour.set(hour, offset)
  return offset
}

/**
 * UTC offset of São Paulo at `t`, in ms. Intl is slow (µs per call) and 100k records carry several dates each,
 * so offsets are cached per UTC hour: São Paulo's offset has only ever changed on whole hours since 1914 (DST
 * ended in 2019; the tz database knows the old rules), so one per UTC hour is exact.
 */
export function saoPauloOffsetMs(t: number): number {
  return hourOffset(Math.floor(t / HOUR_MS))
}

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n))
const pad4 = (n: number): string => String(n).padStart(4, '0')

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

/** Date.parse for the ledger's own `toISOString()` form; NaN when it is not that form or not a real date. */
export function parseIso(value: string): number {
  return STORED_ISO.test(value) ? parseStoredIso(value) : Date.parse(value)
}

/** `formatDateTime` without the per-hour cache. */
function formatInstant(value: string, stored: boolean, locale: ExportLocale): string {
  const t = stored ? parseStoredIso(value) : Date.parse(value)
  if (Number.isNaN(t)) return value
  if (locale === 'en') return new Date(t).toISOString()
  // A stored timestamp comes here once per UTC hour (hourHead caches the rest).
  const d = new Date(t + saoPauloOffsetMs(t))
  return (
    `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}/${pad4(d.getUTCFullYear())} ` +
    `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
  )
}

/**
 * pt-BR "dd/mm/aaaa hh" in São Paulo of a stored timestamp's UTC hour, cached per hour (an export formats
 * 600k timestamps, a few per hour): with a whole-hour offset the minutes and seconds are the stored ones, so
 * the rest of the cell is copied. Null when that does not hold (an offset that is not whole hours, before
 * 1914) or the hour is not a date: the long way then decides.
 */
const hourHeads = new Map<number, string | null>()
let lastHourKey = -1
let lastHourHead: string | null = null

function hourHead(stored: string): string | null {
  // Every digit counts (not only valid dates): "2025-13-…" must not share an entry with a real hour.
  const key =
    digitsAt(stored, 0, 4) * 1_000_000 +
    digitsAt(stored, 5, 2) * 10_000 +
    digitsAt(stored, 8, 2) * 100 +
    digitsAt(stored, 11, 2)
  if (key === lastHourKey) return lastHourHead
  let head = hourHeads.get(key)
  if (head === undefined) {
    const hourStart = `${stored.slice(0, 13)}:00:00.000Z`
    const t = parseStoredIso(hourStart)
    head =
      Number.isNaN(t) || saoPauloOffsetMs(t) % HOUR_MS !== 0
        ? null
        : formatInstant(hourStart, true, 'pt-BR').slice(0, 13)
    if (hourHeads.size > 100_000) hourHeads.clear()
    hourHeads.set(key, head)
  }
  lastHourKey = key
  lastHourHead = head
  return head
}

/**
 * A timestamp for a cell; '' for null. Values that do not parse as dates (the API's fields are "not shown"
 * beyond ISO 8601) are written as received rather than guessed.
 */
export function formatDateTime(value: string | null | undefined, locale: ExportLocale): string {
  if (value === null || value === undefined || value === '') return ''
  const stored = STORED_ISO.test(value)
  if (locale === 'en' && stored) return value
  if (stored && digitsAt(value, 14, 2) <= 59 && digitsAt(value, 17, 2) <= 59) {
    const head = hourHead(value)
    if (head !== null) return head + value.slice(13, 19)
  }
  return formatInstant(value, stored, locale)
}

/** "YYYY-MM-DD" by day number (days since the epoch): an export asks once per record, for a few hundred days. */
const dayNames = new Map<number, string>()

/** São Paulo calendar day of a timestamp, "YYYY-MM-DD" (sortable); null when it does not parse. */
export function saoPauloDay(value: string): string | null {
  const t = parseIso(value)
  if (Number.isNaN(t)) return null
  // The calendar day of the shifted instant (read with getUTC*).
  const n = Math.floor((t + saoPauloOffsetMs(t)) / DAY_MS)
  let name = dayNames.get(n)
  if (name === undefined) {
    const d = new Date(n * DAY_MS)
    name = `${pad4(d.getUTCFullYear())}-${pad2(d.getUTCMonth() + 1)}-${pad2(d.getUTCDate())}`
    if (dayNames.size >= 100_000) dayNames.clear()
    dayNames.set(n, name)
  }
  return name
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

/**
 * Inverse of formatAmount: cents, null for an empty cell, undefined when the cell is not an amount. pt-BR
 * `-1.234,56` (groups of three after the first one to three digits), en `-1234.56`. One pass over the characters: it runs for two cells of every CSV row.
 */
export function parseAmount(cell: string, locale: ExportLocale): number | null | undefined {
  if (cell === '') return null
  const pt = locale === 'pt-BR'
  const n = cell.length
  const from = cell.charCodeAt(0) === 0x2d ? 1 : 0
  // `,dd` / `.dd` at the end, at least one digit before.
  if (n - from < 4 || cell.charCodeAt(n - 3) !== (pt ? 0x2c : 0x2e)) return undefined
  let v = 0
  // Digits since the start or the last group dot; whether a dot was seen (pt-BR).
  let run = 0
  let grouped = false
  for (let k = from; k < n; k++) {
    if (k === n - 3) continue
    const c = cell.charCodeAt(k)
    if (c >= 0x30 && c <= 0x39) {
      v = v * 10 + (c - 0x30)
      if (k < n - 3) run += 1
    } else if (pt && c === 0x2e && k < n - 3 && run > 0 && run <= 3 && (!grouped || run === 3)) {
      grouped = true
      run = 0
    } else return undefined
  }
  if (run === 0 || (pt && (grouped ? run !== 3 : run > 3)) || !Number.isSafeInteger(v)) return undefined
  return from === 1 ? -v : v
}
