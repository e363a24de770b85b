/**
 * Dates typed and shown in the user's language through date-fns and its locales (pt-BR: dd/mm/aaaa), stored
 * as the `YYYY-MM-DD` calendar day the filters use. Text that is not a whole valid date is passed on as typed,
 * so the filter model reports it as invalid instead of guessing.
 */
import { format, isValid, parse } from 'date-fns'
import { enUS } from 'date-fns/locale/en-US'
import { ptBR } from 'date-fns/locale/pt-BR'

export function dateLocale(lang: 'pt-BR' | 'en'): typeof ptBR {
  return lang === 'pt-BR' ? ptBR : enUS
}

/** The pattern shown as a hint: "dd/mm/aaaa" in pt-BR, "mm/dd/yyyy" in en. */
export function datePattern(lang: 'pt-BR' | 'en'): string {
  return lang === 'pt-BR' ? 'dd/mm/aaaa' : 'mm/dd/yyyy'
}

/** `YYYY-MM-DD` → the locale's short date; anything else is shown as it is. */
export function dayToText(day: string, lang: 'pt-BR' | 'en'): string {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return day
  const d = parse(day, 'yyyy-MM-dd', new Date(2000, 0, 1))
  return isValid(d) ? format(d, 'P', { locale: dateLocale(lang) }) : day
}

/** The locale's short date (four-digit year) → `YYYY-MM-DD`; '' stays ''; anything else is returned trimmed. */
export function textToDay(text: string, lang: 'pt-BR' | 'en'): string {
  const s = text.trim()
  if (s === '') return ''
  if (!/^\d{1,2}\/\d{1,2}\/\d{4}$/.test(s)) return s
  const d = parse(s, 'P', new Date(2000, 0, 1), { locale: dateLocale(lang) })
  return isValid(d) ? format(d, 'yyyy-MM-dd') : s
}

export function dayToDate(day: string): Date | undefined {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) return undefined
  const d = parse(day, 'yyyy-MM-dd', new Date(2000, 0, 1))
  return isValid(d) ? d : undefined
}

export function dateToDay(d: Date): string {
  return format(d, 'yyyy-MM-dd')
}
