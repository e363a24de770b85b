/**
 * Cell formats of the CSV and HTML exports. Two conventions:
 * - pt-BR: dates in São Paulo time "dd/mm/aaaa hh:mm:ss", amounts "1.234,56";
 * - en: dates ISO 8601 UTC as stored ("2026-01-15T14:30:00.000Z"), amounts "1234.56".
 * Amounts never carry a currency symbol: a spreadsheet reads the bare number in its locale.
 */
import { centsToDecimalString, formatBRL } from '../../shared/money'
import { csvReader, kernel as K } from './kernel'

export type ExportLocale = 'pt-BR' | 'en'
export const EXPORT_LOCALES = ['pt-BR', 'en'] as const

const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n))
const pad4 = (n: number): string => String(n).padStart(4, '0')

/**
 * A timestamp for a cell; '' for null. Values that do not parse as dates (the API's fields are "not shown"
 * beyond ISO 8601) are written as received rather than guessed. pt-BR: São Paulo time, offsets from the tz
 * database (cached per UTC hour; see kernel.ts).
 */
export const formatDateTime: (value: string | null | undefined, locale: ExportLocale) => string =
  K.formatDateTime

const DAY_MS = 86_400_000
/** "YYYY-MM-DD" by day number (days since the epoch): an export asks once per record, for a few hundred days. */
const dayNames = new Map<number, string>()

/** São Paulo calendar day of a timestamp, "YYYY-MM-DD" (sortable); null when it does not parse. */
export function saoPauloDay(value: string): string | null {
  const t = K.parseIso(value)
  if (Number.isNaN(t)) return null
  // The calendar day of the shifted instant (read with getUTC*).
  const n = Math.floor((t + K.saoPauloOffsetMs(t)) / DAY_MS)
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

/** Inverse of formatAmount: cents, null for an empty cell, undefined when the cell is not an amount. */
export const parseAmount: (cell: string, locale: ExportLocale) => number | null | undefined =
  csvReader.parseAmount
