/**
 * Pix keys of the five DICT types, reduced to the canonical form the API receives. Formats follow the DICT API
 * v1.8.0 regexes (test/fixtures/pixkey-vectors.json) plus the alphanumeric CNPJ of API Pix v2.9.0, with CPF/CNPJ
 * check digits on top. A wrong but well-formed key pays a stranger or comes back minus a 1-token fee, so the
 * rules lean strict: we normalise only what cannot change which key is meant (masks, letter case, phone
 * punctuation) and refuse everything that would need a guess.
 */
import { isValidCnpj, isValidCpf, normalizeTaxId } from './tax-id'

export const PIX_KEY_TYPES = ['cpf', 'cnpj', 'email', 'phone', 'evp'] as const
export type PixKeyType = (typeof PIX_KEY_TYPES)[number]

export type LocalizedText = { 'pt-BR': string; en: string }

export const PIX_KEY_REASONS = [
  'empty',
  'type_invalid',
  'unrecognized',
  'cpf_format',
  'cpf_check_digits',
  'cpf_or_phone',
  'cnpj_format',
  'cnpj_check_digits',
  'email_too_long',
  'email_format',
  'phone_needs_country_code',
  'phone_not_brazilian',
  'phone_format',
  'evp_format',
] as const
export type PixKeyReason = (typeof PIX_KEY_REASONS)[number]

export type PixKeyResult = { ok: true; type: PixKeyType; key: string } | { ok: false; reason: PixKeyReason }

export const pixKeyMessages: Readonly<Record<PixKeyReason, LocalizedText>> = {
  empty: { 'pt-BR': 'Informe a chave Pix.', en: 'Enter the Pix key.' },
  type_invalid: { 'pt-BR': 'Tipo de chave Pix desconhecido.', en: 'Unknown Pix key type.' },
  unrecognized: {
    'pt-BR': 'Não é uma chave Pix reconhecível (CPF, CNPJ, e-mail, celular com +55 ou chave aleatória).',
    en: 'Not a recognisable Pix key (CPF, CNPJ, email, mobile number with +55, or random key).',
  },
  cpf_format: { 'pt-BR': 'O CPF deve ter 11 dígitos.', en: 'A CPF has 11 digits.' },
  cpf_check_digits: {
    'pt-BR': 'CPF inválido: confira os dígitos.',
    en: 'Invalid CPF: check the digits.',
  },
  cpf_or_phone: {
    'pt-BR': 'CPF inválido. Se for um celular, digite com +55 (ex.: +55 61 98888-7777).',
    en: 'Invalid CPF. If this is a mobile number, type it with +55 (e.g. +55 61 98888-7777).',
  },
  cnpj_format: {
    'pt-BR': 'O CNPJ deve ter 14 caracteres (12 letras ou dígitos e 2 dígitos verificadores).',
    en: 'A CNPJ has 14 characters (12 letters or digits and 2 check digits).',
  },
  cnpj_check_digits: {
    'pt-BR': 'CNPJ inválido: confira os caracteres.',
    en: 'Invalid CNPJ: check the characters.',
  },
  email_too_long: {
    'pt-BR': 'A chave de e-mail pode ter no máximo 77 caracteres.',
    en: 'An email key can be at most 77 characters long.',
  },
  email_format: { 'pt-BR': 'E-mail inválido para chave Pix.', en: 'Not a valid email for a Pix key.' },
  phone_needs_country_code: {
    'pt-BR': 'Digite o celular com +55 e DDD (ex.: +55 61 98888-7777).',
    en: 'Type the mobile number with +55 and the area code (e.g. +55 61 98888-7777).',
  },
  phone_not_brazilian: {
    'pt-BR': 'Chaves Pix de celular são números brasileiros (+55).',
    en: 'Pix mobile keys are Brazilian numbers (+55).',
  },
  phone_format: {
    'pt-BR': 'Celular inválido: use +55, DDD e 9 dígitos começando por 9.',
    en: 'Invalid mobile number: use +55, the area code and 9 digits starting with 9.',
  },
  evp_format: {
    'pt-BR': 'Chave aleatória inválida: são 32 caracteres hexadecimais no formato 8-4-4-4-12, com hífens.',
    en: 'Invalid random key: 32 hexadecimal characters as 8-4-4-4-12, with hyphens.',
  },
}

const EMAIL_MAX_LENGTH = 77
// DICT v1.8.0 EMAIL pattern (lowercase only; '%' was removed in v1.7.2).
const EMAIL =
  /^[a-z0-9.!#$&'*+/=?^_`{|}~-]+@[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/
// Pix phone keys are mobile numbers: +55, a two-digit area code, then 9 digits starting with 9 (the only
// Brazilian mobile format since 2016). Area codes are not checked against the assigned list (the DICT example
// +5510998765432 uses DDD 10).
const BR_MOBILE = /^\+55[1-9][0-9]9[0-9]{8}$/
const PHONE_PUNCTUATION = /[\s().-]/g
const EVP = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
// Something the user meant as a random key, even if a character is wrong or the hyphens are missing.
const EVP_LIKE = /^(?:[0-9a-z]{8}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{4}-[0-9a-z]{12}|[0-9a-f]{32})$/i
const CPF_LAYOUT = /^(?:[0-9]{11}|[0-9]{3}\.[0-9]{3}\.[0-9]{3}-[0-9]{2})$/
// National mobile number without +55: DDD + 9xxxxxxxx. Also the shape of about one CPF in ten.
const NATIONAL_MOBILE = /^[1-9][0-9]9[0-9]{8}$/

function fail(reason: PixKeyReason): PixKeyResult {
  return { ok: false, reason }
}

function parseCpf(s: string): PixKeyResult {
  const n = normalizeTaxId(s)
  if (n === null || n.length !== 11) return fail('cpf_format')
  return isValidCpf(n) ? { ok: true, type: 'cpf', key: n } : fail('cpf_check_digits')
}

function parseCnpj(s: string): PixKeyResult {
  const n = normalizeTaxId(s)
  if (n === null || n.length !== 14) return fail('cnpj_format')
  return isValidCnpj(n) ? { ok: true, type: 'cnpj', key: n } : fail('cnpj_check_digits')
}

function parseEmail(s: string): PixKeyResult {
  // Lowercasing cannot change which mailbox DICT resolves: DICT stores email keys in lowercase.
  const key = s.toLowerCase()
  if (key.length > EMAIL_MAX_LENGTH) return fail('email_too_long')
  return EMAIL.test(key) ? { ok: true, type: 'email', key } : fail('email_format')
}

function parsePhone(s: string): PixKeyResult {
  const compact = s.replace(PHONE_PUNCTUATION, '')
  // Without the country code we refuse instead of adding +55: the same digits may have been meant as a CPF.
  if (!compact.startsWith('+')) return fail('phone_needs_country_code')
  if (!/^\+[0-9]+$/.test(compact)) return fail('phone_format')
  if (!compact.startsWith('+55')) return fail('phone_not_brazilian')
  return BR_MOBILE.test(compact) ? { ok: true, type: 'phone', key: compact } : fail('phone_format')
}

function parseEvp(s: string): PixKeyResult {
  const key = s.toLowerCase()
  return EVP.test(key) ? { ok: true, type: 'evp', key } : fail('evp_format')
}

const PARSERS: Readonly<Record<PixKeyType, (s: string) => PixKeyResult>> = {
  cpf: parseCpf,
  cnpj: parseCnpj,
  email: parseEmail,
  phone: parsePhone,
  evp: parseEvp,
}

/**
 * Type detection, in order: '@' -> email; leading '+' -> phone; UUID-like -> evp; parentheses -> phone
 * (national format, refused for lacking +55); 11 digits -> CPF; 14 characters -> CNPJ. An 11-digit string
 * is a CPF only when its check digits hold. When they do not and it has a mobile number's shape, the reason is
 * `cpf_or_phone`. Eleven digits laid out other than bare or in the CPF mask ("61 98888-7777") are read as a
 * phone missing +55 when mobile-shaped, so a phone number that happens to satisfy mod 11 is not taken for a CPF.
 */
function detect(s: string): PixKeyResult {
  if (s.includes('@')) return parseEmail(s)
  if (s.startsWith('+')) return parsePhone(s)
  if (EVP_LIKE.test(s) && !/^[0-9]+$/.test(s)) return parseEvp(s)
  if (s.includes('(')) return parsePhone(s)
  const taxId = normalizeTaxId(s)
  if (taxId?.length === 11) {
    const mobileShaped = NATIONAL_MOBILE.test(taxId)
    if (!CPF_LAYOUT.test(s) && mobileShaped) return fail('phone_needs_country_code')
    if (isValidCpf(taxId)) return { ok: true, type: 'cpf', key: taxId }
    return fail(mobileShaped ? 'cpf_or_phone' : 'cpf_check_digits')
  }
  if (taxId?.length === 14) return parseCnpj(taxId)
  const digits = s.replace(PHONE_PUNCTUATION, '')
  if (/^55[0-9]{10,11}$/.test(digits)) return fail('phone_needs_country_code')
  return fail('unrecognized')
}

/**
 * Validates a Pix key and returns its canonical form: cpf/cnpj without mask (alphanumeric CNPJ uppercase),
 * email lowercase (≤ 77 characters), phone "+55DDD9XXXXXXXX", evp lowercase with hyphens (any UUID version).
 * With `type` the key must be of that type; without it the type is detected (see `detect`).
 */
export function parsePixKey(input: string, type?: PixKeyType): PixKeyResult {
  if (typeof input !== 'string') return fail('empty')
  const s = input.trim()
  if (s === '') return fail('empty')
  if (type === undefined) return detect(s)
  if (!(PIX_KEY_TYPES as readonly string[]).includes(type)) return fail('type_invalid')
  return PARSERS[type](s)
}
