/**
 * CPF and CNPJ: normalisation, check digits and display masks. Covers the alphanumeric CNPJ in force from July
 * 2026 (12 characters [0-9A-Z] + 2 numeric check digits), where a character's value is its ASCII code − 48, so
 * numeric CNPJs are the same algorithm with digits only (test/fixtures/taxid-vectors.json).
 */

const CPF_SHAPE = /^[0-9]{11}$/
const CNPJ_SHAPE = /^[0-9A-Z]{12}[0-9]{2}$/
// The separators of the official masks, plus spaces that creep in when a number is copied from a PDF.
// Anything else ("=", an en dash) makes the input invalid rather than being silently dropped.
const SEPARATORS = /[.\-/\s]/g

const CNPJ_DV1_WEIGHTS = [5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const
const CNPJ_DV2_WEIGHTS = [6, 5, 4, 3, 2, 9, 8, 7, 6, 5, 4, 3, 2] as const

/**
 * Canonical form of a CPF or CNPJ: separators (. - / spaces) removed, letters uppercased. Null unless the result
 * is 11 digits (CPF shape) or 12 [0-9A-Z] + 2 digits (CNPJ shape). Check digits are not verified here.
 */
export function normalizeTaxId(input: string): string | null {
  if (typeof input !== 'string') return null
  // ASCII-only uppercasing: String#toUpperCase would turn 'ı' or 'ſ' into 'I' / 'S' and let lookalikes through.
  const s = input.replace(SEPARATORS, '').replace(/[a-z]/g, (c) => c.toUpperCase())
  return CPF_SHAPE.test(s) || CNPJ_SHAPE.test(s) ? s : null
}

function charValue(s: string, i: number): number {
  return s.charCodeAt(i) - 48
}

function mod11Digit(sum: number): number {
  const r = sum % 11
  return r < 2 ? 0 : 11 - r
}

function weightedSum(s: string, weights: readonly number[]): number {
  let sum = 0
  weights.forEach((w, i) => {
    sum += charValue(s, i) * w
  })
  return sum
}

/**
 * Repeated-digit CPFs (111.111.111-11) satisfy mod 11 but are placeholders, never issued. For CNPJ only
 * 00000000000000 would pass; the same rule covers it.
 */
function isRepeated(s: string): boolean {
  return s.split('').every((c) => c === s[0])
}

function cpfCheckDigitsHold(cpf: string): boolean {
  const dv1 = mod11Digit(weightedSum(cpf, [10, 9, 8, 7, 6, 5, 4, 3, 2]))
  const dv2 = mod11Digit(weightedSum(cpf, [11, 10, 9, 8, 7, 6, 5, 4, 3, 2]))
  return charValue(cpf, 9) === dv1 && charValue(cpf, 10) === dv2
}

function cnpjCheckDigitsHold(cnpj: string): boolean {
  const dv1 = mod11Digit(weightedSum(cnpj, CNPJ_DV1_WEIGHTS))
  const dv2 = mod11Digit(weightedSum(cnpj, CNPJ_DV2_WEIGHTS))
  return charValue(cnpj, 12) === dv1 && charValue(cnpj, 13) === dv2
}

/** CPF, bare ("52998224725") or masked ("529.982.247-25"). Repeated-digit numbers are refused. */
export function isValidCpf(input: string): boolean {
  const n = normalizeTaxId(input)
  return n !== null && n.length === 11 && !isRepeated(n) && cpfCheckDigitsHold(n)
}

/**
 * CNPJ, bare or masked ("00.000.000/0000-00"), numeric or alphanumeric. Lowercase letters are accepted because
 * normalisation uppercases them (docs/history/DECISIONS.md); the canonical form sent to the API is uppercase.
 */
export function isValidCnpj(input: string): boolean {
  const n = normalizeTaxId(input)
  return n !== null && n.length === 14 && !isRepeated(n) && cnpjCheckDigitsHold(n)
}

/** Which kind of tax id this is, after normalisation and check digits; null when neither holds. */
export function taxIdKind(input: string): 'cpf' | 'cnpj' | null {
  if (isValidCpf(input)) return 'cpf'
  if (isValidCnpj(input)) return 'cnpj'
  return null
}

/**
 * Display mask: CPF "000.000.000-00", CNPJ "00.000.000/0000-00" (alphanumeric too: "12.ABC.345/01DE-35").
 * Masks by shape only (check digits are not this function's business). Input that has neither shape is
 * returned unchanged, so values the API already masks ("***.456.789-**") display as received.
 */
export function maskTaxId(input: string): string {
  const n = normalizeTaxId(input)
  if (n === null) return input
  if (n.length === 11) return `${n.slice(0, 3)}.${n.slice(3, 6)}.${n.slice(6, 9)}-${n.slice(9)}`
  return `${n.slice(0, 2)}.${n.slice(2, 5)}.${n.slice(5, 8)}/${n.slice(8, 12)}-${n.slice(12)}`
}
