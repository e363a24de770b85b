import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import {
  PIX_KEY_REASONS,
  PIX_KEY_TYPES,
  type PixKeyReason,
  type PixKeyType,
  parsePixKey,
  pixKeyMessages,
} from '../../src/shared/pix-key'

// Read rather than imported: the composite tsconfig would have to list the JSON file.
const fixture = z
  .object({
    vectors: z.array(
      z.object({ type: z.enum(PIX_KEY_TYPES), key: z.string(), valid: z.boolean(), source: z.string() }),
    ),
  })
  .parse(JSON.parse(readFileSync(new URL('../fixtures/pixkey-vectors.json', import.meta.url), 'utf8')))

/*
 * The fixture's `valid` judges the key *as given* against the DICT canonical form. parsePixKey normalises what
 * cannot change which key is meant (CPF mask, letter case, phone punctuation after +55) and returns the
 * canonical form, so for those vectors our documented behaviour is "accepted, canonicalised".
 */
const ACCEPTED_AFTER_NORMALISATION: Record<string, { key: string; why: string }> = {
  '123.456.789-09': { key: '12345678909', why: 'CPF mask stripped' },
  '12abc34501de35': { key: '12ABC34501DE35', why: 'alphanumeric CNPJ uppercased, as normalizeTaxId does' },
  '+55 61 98888-7777': { key: '+5561988887777', why: 'spaces and hyphen removed; +55 was given' },
  'Pix@BCB.gov.br': { key: 'pix@bcb.gov.br', why: 'email lowercased (DICT stores it lowercase)' },
  '7D9F0335-8DCC-4054-9BF9-0DBD61D36906': {
    key: '7d9f0335-8dcc-4054-9bf9-0dbd61d36906',
    why: 'random key lowercased',
  },
}

/** Reason when detecting the type / when the vector's type is given. Every refused vector must be listed. */
const REFUSAL_REASONS: Record<string, { detected: PixKeyReason; typed: PixKeyReason }> = {
  '11122233300': { detected: 'cpf_check_digits', typed: 'cpf_check_digits' },
  '12345678901': { detected: 'cpf_check_digits', typed: 'cpf_check_digits' },
  '12345678901234': { detected: 'cnpj_check_digits', typed: 'cnpj_check_digits' },
  '5561988887777': { detected: 'phone_needs_country_code', typed: 'phone_needs_country_code' },
  '(61) 98888-7777': { detected: 'phone_needs_country_code', typed: 'phone_needs_country_code' },
  '+5561988887777777777': { detected: 'phone_format', typed: 'phone_format' },
  'fulano%teste@example.com': { detected: 'email_format', typed: 'email_format' },
  ['a'.repeat(66) + '@example.com']: { detected: 'email_too_long', typed: 'email_too_long' },
  'fulano@-example.com': { detected: 'email_format', typed: 'email_format' },
  '7d9f03358dcc40549bf90dbd61d36906': { detected: 'evp_format', typed: 'evp_format' },
  '7d9f0335-8dcc-4054-9bf9-0dbd61d3690g': { detected: 'evp_format', typed: 'evp_format' },
}

describe('pixkey-vectors.json', () => {
  const vectors = fixture.vectors.map((v) => {
    const normalised = ACCEPTED_AFTER_NORMALISATION[v.key]
    return {
      ...v,
      ours: normalised
        ? `accepted as ${normalised.key}: ${normalised.why}`
        : v.valid
          ? 'accepted'
          : 'refused',
    }
  })

  it('every vector our policy names is still in the fixture, and every refusal has a decided reason', () => {
    const keys = new Set(fixture.vectors.map((v) => v.key))
    for (const key of [...Object.keys(ACCEPTED_AFTER_NORMALISATION), ...Object.keys(REFUSAL_REASONS)]) {
      expect(keys.has(key), key).toBe(true)
    }
    for (const v of fixture.vectors) {
      if (!v.valid && !ACCEPTED_AFTER_NORMALISATION[v.key])
        expect(REFUSAL_REASONS[v.key], v.key).toBeDefined()
    }
  })

  it.each(vectors)('$type $key (valid as given: $valid) -> $ours; source: $source', (v) => {
    const normalised = ACCEPTED_AFTER_NORMALISATION[v.key]
    if (v.valid || normalised) {
      const expected = { ok: true, type: v.type, key: normalised?.key ?? v.key }
      expect(parsePixKey(v.key)).toEqual(expected)
      expect(parsePixKey(v.key, v.type)).toEqual(expected)
    } else {
      const reasons = REFUSAL_REASONS[v.key]
      expect(parsePixKey(v.key)).toEqual({ ok: false, reason: reasons?.detected })
      expect(parsePixKey(v.key, v.type)).toEqual({ ok: false, reason: reasons?.typed })
    }
  })
})

describe('parsePixKey', () => {
  it('refuses empty and blank input', () => {
    expect(parsePixKey('')).toEqual({ ok: false, reason: 'empty' })
    expect(parsePixKey('   ', 'email')).toEqual({ ok: false, reason: 'empty' })
  })

  it('trims surrounding whitespace', () => {
    expect(parsePixKey('  pix@bcb.gov.br\n')).toEqual({ ok: true, type: 'email', key: 'pix@bcb.gov.br' })
  })

  it('refuses a key of another type than the one given', () => {
    expect(parsePixKey('pix@bcb.gov.br', 'cpf')).toEqual({ ok: false, reason: 'cpf_format' })
    expect(parsePixKey('52998224725', 'cnpj')).toEqual({ ok: false, reason: 'cnpj_format' })
    expect(parsePixKey('52998224725', 'phone')).toEqual({ ok: false, reason: 'phone_needs_country_code' })
    expect(parsePixKey('+5561988887777', 'evp')).toEqual({ ok: false, reason: 'evp_format' })
    expect(parsePixKey('12ABC34501DE35', 'email')).toEqual({ ok: false, reason: 'email_format' })
  })

  it('refuses an unknown type passed at run time', () => {
    expect(parsePixKey('pix@bcb.gov.br', 'iban' as PixKeyType)).toEqual({ ok: false, reason: 'type_invalid' })
  })

  it('accepts a bare or CPF-masked 11-digit string as a CPF only when its check digits hold', () => {
    // 529.982.247-25 also has a mobile number's shape (DDD 52, 9 9822-4725): bare, it is a CPF by definition.
    expect(parsePixKey('52998224725')).toEqual({ ok: true, type: 'cpf', key: '52998224725' })
    expect(parsePixKey('529.982.247-25')).toEqual({ ok: true, type: 'cpf', key: '52998224725' })
    // Mobile-shaped and failing the check digits: the reason points at both readings.
    expect(parsePixKey('61988887777')).toEqual({ ok: false, reason: 'cpf_or_phone' })
  })

  it('reads 11 digits in a phone layout as a phone missing +55, even when they satisfy the CPF check', () => {
    expect(parsePixKey('52 99822-4725')).toEqual({ ok: false, reason: 'phone_needs_country_code' })
    expect(parsePixKey('(52) 99822-4725')).toEqual({ ok: false, reason: 'phone_needs_country_code' })
    expect(parsePixKey('+55 (52) 99822-4725')).toEqual({ ok: true, type: 'phone', key: '+5552998224725' })
    // With the type given, the CPF reading is explicit and the layout is just a mask to strip.
    expect(parsePixKey('529 982 247 25', 'cpf')).toEqual({ ok: true, type: 'cpf', key: '52998224725' })
  })

  it('takes phones as Brazilian mobile numbers: +55, DDD, 9 digits starting with 9', () => {
    expect(parsePixKey('+55 (11) 9 8765-4321')).toEqual({ ok: true, type: 'phone', key: '+5511987654321' })
    expect(parsePixKey('+556133334444')).toEqual({ ok: false, reason: 'phone_format' })
    expect(parsePixKey('+55611988887777')).toEqual({ ok: false, reason: 'phone_format' })
    expect(parsePixKey('+550198888777')).toEqual({ ok: false, reason: 'phone_format' })
    expect(parsePixKey('+5561x88887777')).toEqual({ ok: false, reason: 'phone_format' })
    expect(parsePixKey('+1 415 555 2671')).toEqual({ ok: false, reason: 'phone_not_brazilian' })
    expect(parsePixKey('+351912345678', 'phone')).toEqual({ ok: false, reason: 'phone_not_brazilian' })
  })

  it('takes any UUID version as a random key', () => {
    for (const key of [
      '00000000-0000-0000-0000-000000000000',
      '123e4567-e89b-12d3-a456-426655440000',
      '5f84a4c5-c5cb-4599-9f13-7eb4d419dacc',
      '0190a5f0-8a6e-7c3b-9f1a-2b3c4d5e6f70',
    ]) {
      expect(parsePixKey(key)).toEqual({ ok: true, type: 'evp', key })
    }
  })

  it('detects alphanumeric CNPJs whose characters happen to be hex digits', () => {
    expect(parsePixKey('12ABC34501DE35')).toEqual({ ok: true, type: 'cnpj', key: '12ABC34501DE35' })
    expect(parsePixKey('12.ABC.345/01DE-35')).toEqual({ ok: true, type: 'cnpj', key: '12ABC34501DE35' })
    expect(parsePixKey('12ABC34501DE36')).toEqual({ ok: false, reason: 'cnpj_check_digits' })
  })

  it('refuses what it cannot recognise', () => {
    for (const s of [
      'hello',
      '5299822472',
      '12345',
      'lq1qq2xvpcvfup5j8zscjq05u2wxxjcyewk7979f3mmz5l7uw5pqmx6xf5xy50hsn',
    ])
      expect(parsePixKey(s)).toEqual({ ok: false, reason: 'unrecognized' })
  })

  it('uppercase in an email is folded, any other non-DICT character is refused', () => {
    expect(parsePixKey('Fulano.Tal@Example.COM')).toEqual({
      ok: true,
      type: 'email',
      key: 'fulano.tal@example.com',
    })
    for (const s of [
      'a b@example.com',
      'joão@example.com',
      'a@b@example.com',
      'a@example.com.',
      '@example.com',
    ])
      expect(parsePixKey(s)).toEqual({ ok: false, reason: 'email_format' })
  })

  it('returns a canonical key that parses to itself (fixed point), whatever the input', () => {
    const keyish = fc.oneof(
      fc.uuid().map((u) => u.toUpperCase()),
      fc.uuid(),
      fc.stringMatching(/^\+55 ?\(?[1-9][0-9]\)? ?9[0-9]{4}-?[0-9]{4}$/),
      fc.stringMatching(/^[0-9]{3}\.?[0-9]{3}\.?[0-9]{3}-?[0-9]{2}$/),
      fc.stringMatching(/^[0-9A-Za-z]{12}[0-9]{2}$/),
      fc.stringMatching(/^[a-z0-9._-]{1,20}@[a-z0-9]{1,10}\.[a-z]{2,3}$/),
      fc.string(),
    )
    fc.assert(
      fc.property(keyish, fc.option(fc.constantFrom(...PIX_KEY_TYPES), { nil: undefined }), (input, type) => {
        const r = parsePixKey(input, type)
        if (!r.ok) {
          expect(PIX_KEY_REASONS).toContain(r.reason)
          return
        }
        if (type) expect(r.type).toBe(type)
        expect(parsePixKey(r.key)).toEqual(r)
        expect(parsePixKey(r.key, r.type)).toEqual(r)
      }),
      { numRuns: 3_000 },
    )
  })

  it('accepts every generated UUID and Brazilian mobile number', () => {
    fc.assert(
      fc.property(fc.uuid(), (u) => {
        expect(parsePixKey(u.toUpperCase())).toEqual({ ok: true, type: 'evp', key: u.toLowerCase() })
      }),
    )
    fc.assert(
      fc.property(fc.stringMatching(/^[1-9][0-9]9[0-9]{8}$/), (national) => {
        expect(parsePixKey(`+55${national}`)).toEqual({ ok: true, type: 'phone', key: `+55${national}` })
      }),
    )
  })
})

describe('pixKeyMessages', () => {
  it.each(PIX_KEY_REASONS)('%s has a pt-BR and an en sentence', (reason) => {
    expect(pixKeyMessages[reason]['pt-BR']).toMatch(/\S/)
    expect(pixKeyMessages[reason].en).toMatch(/\S/)
    expect(pixKeyMessages[reason]['pt-BR']).not.toBe(pixKeyMessages[reason].en)
  })
})
