/**
 * Field messages more than one form's schema raises (a payment, a payee, a profile): one wording per code, so the
 * same mistake reads the same on every screen.
 */
import type { LocalizedText } from './pix-key'

/** Not in the API contract; a bound so a paste accident cannot put kilobytes into a request. */
export const EUID_MAX_LENGTH = 200

export const commonFieldMessages = {
  invalid_value: { 'pt-BR': 'Valor inválido.', en: 'Invalid value.' },
  unknown_field: { 'pt-BR': 'Campo não reconhecido.', en: 'Unrecognised field.' },
} as const satisfies Record<string, LocalizedText>

/** Who is paid: the Pix key's type, the CPF/CNPJ and the EUID, as a payment and a payee both carry them. */
export const beneficiaryFieldMessages = {
  pix_key_type_invalid: { 'pt-BR': 'Tipo de chave Pix desconhecido.', en: 'Unknown Pix key type.' },
  tax_number_format: {
    'pt-BR': 'Informe um CPF (11 dígitos) ou CNPJ (14 caracteres).',
    en: 'Enter a CPF (11 digits) or a CNPJ (14 characters).',
  },
  tax_number_check_digits: {
    'pt-BR': 'CPF/CNPJ inválido: confira os dígitos verificadores.',
    en: 'Invalid CPF/CNPJ: check the check digits.',
  },
  euid_too_long: {
    'pt-BR': `O EUID pode ter no máximo ${EUID_MAX_LENGTH} caracteres.`,
    en: `The EUID can be at most ${EUID_MAX_LENGTH} characters long.`,
  },
} as const satisfies Record<string, LocalizedText>
