/**
 * One cell to one field value. Excel's quirks are undone only where the meaning is certain: `="0123"` (Excel's way
 * of keeping leading zeros in CSV) is the text 0123; a CPF/CNPJ typed as a number lost its leading zeros and gets
 * them back (its check digits then decide); a phone key the way people type it is the DICT's `+55…`
 * (`(11) 98765-4321`, or `5511987654321` from a spreadsheet that dropped the `+`). Anything that would need a
 * guess is refused with a reason: an amount with a decimal point in a pt-BR file ("12.50" could be 12,50 or
 * 1.250), more than two decimals of R$.
 *
 * Formulas (issue #26): importing what a person typed is safe — formulas are neutralised where the app *writes*
 * spreadsheets (records/csv.ts). So a cell is refused as a formula only where it really is one: an XLSX formula
 * cell (xlsx.ts), or text that a spreadsheet would run as one — `=`, `+`, `-` or `@` followed by a function call,
 * a DDE link or a sheet reference (`=HYPERLINK(`, `+cmd|`, `@SUM(`, `=Plan1!A1`), or `=` followed by a cell
 * reference or a number (`=A1`, `=1+1`). `+5511987654321`, `-`, `- 10,00` and `@fulano` are text.
 */
import { dePixToCents, parseBRLToCents } from '../../../shared/money'
import { PIX_KEY_TYPES, type PixKeyType } from '../../../shared/pix-key'
import type { RunMessageCode } from '../../../shared/run'
import { hasHiddenText } from '../../../shared/visible-text'
import type { Cell } from './grid'
import { headerKey } from './columns'

export type CellValue<T> = { ok: true; value: T } | { ok: false; code: RunMessageCode }

const EXCEL_TEXT = /^="((?:[^"]|"")*)"$/
/** A function call, a DDE link or a sheet reference after any of = + - @ (what a spreadsheet would run). */
const FORMULA_CALL = /^[=+\-@]\s*[A-Za-z_\u00C0-\u024F][\w.\u00C0-\u024F]*\s*[(|!]/
/** `=` then a cell reference, a number, a parenthesis or another sign: a formula without a function. */
const FORMULA_EXPRESSION = /^=\s*(?:\$?[A-Za-z]{1,3}\$?\d|[\d(+\-"'])/

export function isFormulaText(t: string): boolean {
  return FORMULA_CALL.test(t) || FORMULA_EXPRESSION.test(t)
}

/** The text of a cell (trimmed; '' when blank), or why it is refused. */
export function cellText(c: Cell | undefined): CellValue<string> {
  if (c === undefined) return { ok: true, value: '' }
  if ('refused' in c) return { ok: false, code: c.refused }
  if ('number' in c) return { ok: true, value: c.number }
  let t = c.text.trim()
  const quoted = EXCEL_TEXT.exec(t)
  if (quoted) t = (quoted[1] ?? '').replace(/""/g, '"').trim()
  if (isFormulaText(t)) return { ok: false, code: 'formula_like' }
  // Controls, bidi and zero-width characters can make a name or note read as something else (issue #24).
  if (hasHiddenText(t)) return { ok: false, code: 'hidden_characters' }
  return { ok: true, value: t }
}

/** A national mobile number with its area code in parentheses: never a CPF, so +55 is certain. */
const NATIONAL_PHONE = /^\(\s*\d{2}\s*\)\s*9\d{4}[\s.-]?\d{4}$/
/** 55 + area code + 9 + 8 digits, as a spreadsheet keeps `+5511987654321` typed in a number cell. */
const PLUSLESS_PHONE = /^55\d{2}9\d{8}$/

/**
 * A Pix key cell as people type it, put in the DICT's form where the meaning is certain: `(11) 98765-4321` and a
 * phone-typed row's 11 national digits get +55; 13 digits `55…9…` (a number cell, or text that lost the `+`)
 * get the `+`. Everything else is left to the Pix key parser, unchanged.
 */
export function pixKeyText(c: Cell | undefined, type: PixKeyType | undefined): CellValue<string> {
  const t = cellText(c)
  if (!t.ok || t.value === '') return t
  const v = t.value
  if (NATIONAL_PHONE.test(v)) return { ok: true, value: `+55${v.replace(/\D/g, '')}` }
  const digits = v.replace(/[\s().-]/g, '')
  if (PLUSLESS_PHONE.test(digits) && (type === undefined || type === 'phone')) {
    return { ok: true, value: `+${digits}` }
  }
  if (type === 'phone' && /^\d{2}9\d{8}$/.test(digits)) return { ok: true, value: `+55${digits}` }
  return t
}

/** A number cell's digits for a CPF (11) or CNPJ (14), the leading zeros a spreadsheet dropped put back. */
export function taxNumberText(c: Cell | undefined): CellValue<string> {
  if (c !== undefined && 'number' in c && /^\d{1,14}$/.test(c.number)) {
    return { ok: true, value: c.number.padStart(c.number.length <= 11 ? 11 : 14, '0') }
  }
  return cellText(c)
}

/** "1234.5" (a number cell's value) → cents; null with more than two decimals or beyond a safe integer. */
function decimalToCents(s: string): number | null {
  const m = /^(\d+)(?:\.(\d{1,2}))?$/.exec(s)
  if (!m) return null
  const n = Number(`${m[1]}${(m[2] ?? '').padEnd(2, '0')}`)
  return Number.isSafeInteger(n) ? n : null
}

/** R$ amount: pt-BR text ("1.234,56", "R$ 10", "10,5") or a number cell. Null value: blank. */
export function brlCents(c: Cell | undefined): CellValue<number | null> {
  if (c !== undefined && 'number' in c) {
    const cents = decimalToCents(c.number)
    return cents === null ? { ok: false, code: 'amount_format' } : { ok: true, value: cents }
  }
  const t = cellText(c)
  if (!t.ok) return t
  if (t.value === '') return { ok: true, value: null }
  const cents = parseBRLToCents(t.value, 'pt-BR')
  return cents === null ? { ok: false, code: 'amount_format' } : { ok: true, value: cents }
}

/** DePix amount: the wire form with 8 decimals ("12.34000000"), pt-BR text, or a number cell. */
export function depixCents(c: Cell | undefined): CellValue<number | null> {
  if (c !== undefined && 'number' in c) {
    const cents = decimalToCents(c.number)
    return cents === null ? { ok: false, code: 'depix_format' } : { ok: true, value: cents }
  }
  const t = cellText(c)
  if (!t.ok) return t
  const s = t.value.replace(/\s*depix$/i, '')
  if (s === '') return { ok: true, value: null }
  // "12.345" could be a thousands dot or DePix decimals: only the 8-decimal wire form may use a point alone.
  if (/^\d+\.\d{8}$/.test(s)) {
    const wire = dePixToCents(s)
    return wire === null ? { ok: false, code: 'depix_format' } : { ok: true, value: wire }
  }
  if (s.includes('.') && !s.includes(',')) return { ok: false, code: 'depix_format' }
  const cents = parseBRLToCents(s, 'pt-BR')
  return cents === null ? { ok: false, code: 'depix_format' } : { ok: true, value: cents }
}

const KEY_TYPE_WORDS: Readonly<Record<string, PixKeyType>> = {
  cpf: 'cpf',
  cnpj: 'cnpj',
  email: 'email',
  phone: 'phone',
  telefone: 'phone',
  celular: 'phone',
  mobile: 'phone',
  evp: 'evp',
  aleatoria: 'evp',
  chavealeatoria: 'evp',
  random: 'evp',
  randomkey: 'evp',
}

export function pixKeyType(c: Cell | undefined): CellValue<PixKeyType | undefined> {
  const t = cellText(c)
  if (!t.ok) return t
  if (t.value === '') return { ok: true, value: undefined }
  const k = KEY_TYPE_WORDS[headerKey(t.value)]
  return k !== undefined && (PIX_KEY_TYPES as readonly string[]).includes(k)
    ? { ok: true, value: k }
    : { ok: false, code: 'pix_key_type_unknown' }
}
