import { describe, expect, it } from 'vitest'
import {
  canonicalPayeeFields,
  describePayeeCode,
  payeeInputSchema,
  payeeIssueCodes,
  payeeMessages,
} from '../../src/shared/payee'

function codes(input: unknown): Record<string, string> {
  const r = payeeInputSchema.safeParse(input)
  return r.success ? {} : payeeIssueCodes(r.error)
}

const good = {
  name: '  Maria   da Silva ',
  taxNumber: '529.982.247-25',
  pixKeys: [{ key: 'Maria@Example.com' }, { key: '+55 (61) 98888-7777', type: 'phone' }],
  euid: ' EU-1 ',
  notes: ' paga dia 5 ',
}

describe('payee input', () => {
  it('canonical on save: document unmasked, keys canonical with their type, texts trimmed', () => {
    expect(canonicalPayeeFields(good)).toEqual({
      name: 'Maria da Silva',
      taxNumber: '52998224725',
      pixKeys: [
        { key: 'maria@example.com', type: 'email' },
        { key: '+5561988887777', type: 'phone' },
      ],
      euid: 'EU-1',
      notes: 'paga dia 5',
    })
  })

  it('an invalid CPF/CNPJ is named precisely, on its field, with every other problem at once', () => {
    expect(codes({ ...good, taxNumber: '529.982.247-26' })).toEqual({ taxNumber: 'tax_number_check_digits' })
    expect(codes({ ...good, taxNumber: '123' })).toEqual({ taxNumber: 'tax_number_format' })
    expect(codes({ ...good, taxNumber: '' })).toEqual({ taxNumber: 'payee_tax_number_required' })
    expect(codes({ ...good, taxNumber: '11.111.111/1111-11', name: ' ' })).toEqual({
      taxNumber: 'tax_number_check_digits',
      name: 'payee_name_required',
    })
  })

  it('keys: at least one, each valid, no repeats, a bounded number; the exact entry is pointed at', () => {
    expect(codes({ ...good, pixKeys: [] })).toEqual({ pixKeys: 'payee_keys_required' })
    expect(codes({ ...good, pixKeys: [{ key: 'a@b.co' }, { key: '123' }] })).toEqual({
      'pixKeys.1.key': 'pix_key_unrecognized',
    })
    expect(codes({ ...good, pixKeys: [{ key: 'a@b.co' }, { key: 'A@B.CO' }] })).toEqual({
      'pixKeys.1.key': 'payee_key_repeated',
    })
    expect(
      codes({ ...good, pixKeys: Array.from({ length: 11 }, (_, i) => ({ key: `k${i}@b.co` })) }),
    ).toEqual({
      pixKeys: 'payee_keys_too_many',
    })
    expect(codes({ ...good, pixKeys: [{ key: 'a@b.co', type: 'cpf' }] })).toEqual({
      'pixKeys.0.key': 'pix_key_cpf_format',
    })
  })

  it('hostile input: unknown fields, control characters, wrong types, sizes', () => {
    expect(codes({ ...good, admin: true })).toEqual({ _form: 'unknown_field' })
    expect(codes({ ...good, name: 'Ana\u202eSouza' })).toEqual({ name: 'payee_text_characters' })
    expect(codes({ ...good, notes: 'x'.repeat(501) })).toEqual({ notes: 'payee_notes_too_long' })
    expect(codes({ ...good, name: 'x'.repeat(121) })).toEqual({ name: 'payee_name_too_long' })
    expect(codes({ ...good, pixKeys: 'a@b.co' })).toEqual({ pixKeys: 'payee_keys_required' })
    expect(codes(null)).toEqual({ _form: 'invalid_value' })
  })

  it('every code has words in both languages; unknown codes are shown as they are', () => {
    for (const [code, text] of Object.entries(payeeMessages)) {
      expect(text['pt-BR'], code).not.toBe('')
      expect(text.en, code).not.toBe('')
    }
    expect(describePayeeCode('tax_number_check_digits', 'pt-BR')).toContain('CPF/CNPJ inválido')
    expect(describePayeeCode('something_new', 'en')).toBe('something_new')
  })
})
