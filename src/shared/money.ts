/**
 * Money is integer cents (`Number.isSafeInteger`). DePix has 8 decimals on the wire; 1 DePix = R$ 1,00, so
 * a cent is 0.01 DePix and the six digits below the cent are always zero for amounts we produce.
 *
 * Every conversion here works on decimal digit strings. No amount ever passes through a float division or
 * multiplication, and no formatting depends on the ICU data of the machine: an export made on one computer must
 * read the same on another (Intl output differs across Node/Chromium builds, e.g. NBSP vs space after "R$").
 */

export type MoneyLocale = 'pt-BR' | 'en'

const SEPARATORS: Readonly<Record<MoneyLocale, { group: string; decimal: string; afterSymbol: string }>> = {
  // pt-BR follows ABNT usage: "R$ 1.234,56". A plain space (U+0020), not the NBSP Intl emits, so the string
  // is the same everywhere and survives copy/paste into spreadsheets.
  'pt-BR': { group: '.', decimal: ',', afterSymbol: ' ' },
  // en follows the usual English convention for a symbol prefix: "R$1,234.56".
  en: { group: ',', decimal: '.', afterSymbol: '' },
}

function assertCents(cents: number, allowNegative: boolean): void {
  if (!Number.isSafeInteger(cents)) throw new RangeError('cents must be a safe integer')
  if (!allowNegative && cents < 0) throw new RangeError('cents must not be negative')
}

/** Splits |cents| into the digits of whole reais and exactly two digits of centavos. */
function splitCents(cents: number): { sign: '' | '-'; whole: string; frac: string } {
  // String() of a safe integer is plain digits (exponent notation starts at 1e21), so slicing is exact.
  const digits = String(Math.abs(cents)).padStart(3, '0')
  return { sign: cents < 0 ? '-' : '', whole: digits.slice(0, -2), frac: digits.slice(-2) }
}

function groupThousands(whole: string, sep: string): string {
  let out = ''
  for (let i = 0; i < whole.length; i++) {
    if (i > 0 && (whole.length - i) % 3 === 0) out += sep
    out += whole[i]
  }
  return out
}

/**
 * Display form of an amount in BRL. pt-BR (default): "R$ 1.234,56"; en: "R$1,234.56". The minus sign goes
 * before the symbol ("-R$ 1,00"), as in the bank statements our users reconcile against.
 */
export function formatBRL(cents: number, locale: MoneyLocale = 'pt-BR'): string {
  assertCents(cents, true)
  const { group, decimal, afterSymbol } = SEPARATORS[locale]
  const { sign, whole, frac } = splitCents(cents)
  return `${sign}R$${afterSymbol}${groupThousands(whole, group)}${decimal}${frac}`
}

const MAX_SAFE_DIGITS = String(Number.MAX_SAFE_INTEGER).length

/** Builds cents from the digit strings of reais and centavos; null when not a safe integer. */
function centsFromDigits(whole: string, frac2: string): number | null {
  const digits = (whole + frac2).replace(/^0+(?=\d)/, '')
  if (digits.length > MAX_SAFE_DIGITS) return null
  const n = Number(digits)
  return Number.isSafeInteger(n) ? n : null
}

/*
 * Typed amounts. For pt-BR: '.' may appear only as a thousands separator, i.e. between groups of exactly three
 * digits with a non-zero leading group ("1.234" is R$ 1.234,00, "1.234.567,89" is fine); ',' is the decimal
 * separator with one or two digits. Anything else is refused rather than guessed: "12.5" / "12.50" would be an
 * English decimal point in a pt-BR field, and reading it either way can be wrong by a factor of 100 or 1000,
 * so it is null and the form asks again. The en rules are the mirror image (',' groups, '.' decimal).
 */
const AMOUNT_PATTERNS: Readonly<Record<MoneyLocale, RegExp>> = {
  'pt-BR': /^(?:([0-9]+)|([1-9][0-9]{0,2}(?:\.[0-9]{3})+))(?:,([0-9]{1,2}))?$/,
  en: /^(?:([0-9]+)|([1-9][0-9]{0,2}(?:,[0-9]{3})+))(?:\.([0-9]{1,2}))?$/,
}

/**
 * Parses an amount typed by a person into cents. Accepts an optional "R$" prefix and surrounding spaces;
 * refuses signs, more than two decimals, empty input, anything ambiguous (see AMOUNT_PATTERNS) and amounts
 * that are not safe integers in cents. `locale` defaults to pt-BR, the app's input convention.
 */
export function parseBRLToCents(input: string, locale: MoneyLocale = 'pt-BR'): number | null {
  if (typeof input !== 'string') return null
  let s = input.trim()
  if (s.startsWith('R$')) s = s.slice(2).trimStart()
  const m = AMOUNT_PATTERNS[locale].exec(s)
  if (!m) return null
  const whole = m[1] ?? (m[2] ?? '').replace(/[.,]/g, '')
  return centsFromDigits(whole, (m[3] ?? '').padEnd(2, '0'))
}

/** Wire form of a DePix amount: exactly 8 decimals, '.' separator, no grouping. 1234 -> "12.34000000". */
export function centsToDePix(cents: number): string {
  assertCents(cents, false)
  const { whole, frac } = splitCents(cents)
  return `${whole}.${frac}000000`
}

const DEPIX_PATTERN = /^(0|[1-9][0-9]*)(?:\.([0-9]{1,8}))?$/

/**
 * Reads a DePix amount ("12", "12.3", "12.34", "12.34000000") into cents. Null when malformed (signs,
 * spaces, leading zeros, more than 8 decimals), when it carries value below the cent (a silent truncation
 * would misstate money), or when the result is not a safe integer.
 */
export function dePixToCents(amount: string): number | null {
  if (typeof amount !== 'string') return null
  const m = DEPIX_PATTERN.exec(amount)
  if (!m) return null
  const fracDigits = m[2] ?? ''
  if (/[1-9]/.test(fracDigits.slice(2))) return null
  return centsFromDigits(m[1] ?? '', fracDigits.slice(0, 2).padEnd(2, '0'))
}

/**
 * Display form of a DePix amount, all 8 decimals kept so it can be compared with a wallet's screen.
 * pt-BR: "1.234,56000000 DePix"; en: "1,234.56000000 DePix". For copying into a wallet use centsToDePix.
 */
export function formatDePix(cents: number, locale: MoneyLocale = 'pt-BR'): string {
  assertCents(cents, true)
  const { group, decimal } = SEPARATORS[locale]
  const { sign, whole, frac } = splitCents(cents)
  return `${sign}${groupThousands(whole, group)}${decimal}${frac}000000 DePix`
}

/**
 * Plain decimal of cents/100 with exactly two decimals: 1234 -> "12.34", 200 -> "2.00", 5 -> "0.05".
 * This is the `amount` of the `liquidnetwork:` funding URI (BIP21-style: '.' separator, no grouping, in whole
 * asset units). Two fixed decimals rather than a trimmed "2": the value is the same for every wallet, and a
 * fixed shape is easy to compare with the amount shown next to the QR code.
 */
export function centsToDecimalString(cents: number): string {
  assertCents(cents, false)
  const { whole, frac } = splitCents(cents)
  return `${whole}.${frac}`
}

/**
 * Display form of an on-chain amount in units of an 8-decimal Liquid asset (L-BTC, or DePix to the unit), given
 * as an integer string (BigInt on the main side; the renderer gets strings). pt-BR: "0,01000000 L-BTC".
 */
export function formatAssetUnits(units: string, ticker: string, locale: MoneyLocale = 'pt-BR'): string {
  if (!/^-?\d{1,30}$/.test(units)) throw new RangeError('units must be an integer string')
  const { group, decimal } = SEPARATORS[locale]
  const negative = units.startsWith('-')
  const digits = (negative ? units.slice(1) : units).padStart(9, '0')
  const whole = digits.slice(0, -8).replace(/^0+(?=\d)/, '')
  return `${negative ? '-' : ''}${groupThousands(whole, group)}${decimal}${digits.slice(-8)} ${ticker}`
}
