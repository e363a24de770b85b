import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { isValidCnpj, isValidCpf, maskTaxId, normalizeTaxId, taxIdKind } from '../../src/shared/tax-id'

// Read rather than imported: the composite tsconfig would have to list the JSON file.
const fixture = z
  .object({
    vectors: z.array(
      z.object({
        type: z.enum(['cpf', 'cnpj', 'cnpj-alnum']),
        value: z.string(),
        valid: z.boolean(),
        source: z.string(),
      }),
    ),
  })
  .parse(JSON.parse(readFileSync(new URL('../fixtures/taxid-vectors.json', import.meta.url), 'utf8')))

/*
 * Check digits recomputed independently of the module under test, from the fixture's algorithm text but written
 * the other way round: weights counted from the right (2, 3, ... for CPF; cycling 2..9 for CNPJ).
 */
const value = (c: string): number => c.charCodeAt(0) - 48
function mod11(sum: number): number {
  return sum % 11 < 2 ? 0 : 11 - (sum % 11)
}
function cpfDigit(body: string): number {
  return mod11([...body].reverse().reduce((sum, c, i) => sum + value(c) * (i + 2), 0))
}
function cnpjDigit(body: string): number {
  return mod11([...body].reverse().reduce((sum, c, i) => sum + value(c) * (2 + (i % 8)), 0))
}
function makeCpf(base9: string): string {
  const d1 = cpfDigit(base9)
  return `${base9}${d1}${cpfDigit(base9 + d1)}`
}
function makeCnpj(base12: string): string {
  const d1 = cnpjDigit(base12)
  return `${base12}${d1}${cnpjDigit(base12 + d1)}`
}
function withDigitChanged(id: string, index: number, by: number): string {
  const changed = String((Number(id[index]) + by) % 10)
  return id.slice(0, index) + changed + id.slice(index + 1)
}

const ALNUM = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const cpfBase = fc.stringMatching(/^[0-9]{9}$/).filter((b) => !/^(.)\1*$/.test(b))
const cnpjBase = fc.string({ unit: fc.constantFrom(...ALNUM), minLength: 12, maxLength: 12 })
const cnpjNumericBase = fc.stringMatching(/^[0-9]{12}$/).filter((b) => !/^0+$/.test(b))

// Our documented policy where a vector is stricter than our interface (fixtures/README.md): normalizeTaxId
// uppercases, so the lowercase alphanumeric CNPJ, "invalid as given", is accepted once its check digits hold.
const POLICY_OVERRIDES: Record<string, { valid: boolean; why: string }> = {
  q0slfmbd7vx439: { valid: true, why: 'accepted after our uppercasing normalisation (Q0SLFMBD7VX439 holds)' },
}

describe('taxid-vectors.json', () => {
  const vectors = fixture.vectors.map((v) => {
    const override = POLICY_OVERRIDES[v.value]
    return { ...v, expected: override?.valid ?? v.valid, why: override?.why ?? 'as the fixture says' }
  })

  it('still contains the vectors our policy overrides', () => {
    for (const value of Object.keys(POLICY_OVERRIDES)) {
      expect(fixture.vectors.some((v) => v.value === value)).toBe(true)
    }
  })

  it.each(vectors)('$type $value -> valid=$expected ($why; source: $source)', (v) => {
    const isCpf = v.type === 'cpf'
    expect(isCpf ? isValidCpf(v.value) : isValidCnpj(v.value)).toBe(v.expected)
    // An id of one kind is never accepted as the other.
    expect(isCpf ? isValidCnpj(v.value) : isValidCpf(v.value)).toBe(false)
    expect(taxIdKind(v.value)).toBe(v.expected ? (isCpf ? 'cpf' : 'cnpj') : null)
    if (v.expected) {
      const canonical = v.value.replace(/[.\-/ ]/g, '').toUpperCase()
      expect(normalizeTaxId(v.value)).toBe(canonical)
      const masked = maskTaxId(v.value)
      expect(masked).toMatch(
        isCpf ? /^\d{3}\.\d{3}\.\d{3}-\d{2}$/ : /^[0-9A-Z]{2}\.[0-9A-Z]{3}\.[0-9A-Z]{3}\/[0-9A-Z]{4}-\d{2}$/,
      )
      expect(normalizeTaxId(masked)).toBe(canonical)
    }
  })
})

describe('normalizeTaxId', () => {
  it.each([
    ['529.982.247-25', '52998224725'],
    ['52998224725', '52998224725'],
    [' 529 982 247 25 ', '52998224725'],
    ['12.abc.345/01de-35', '12ABC34501DE35'],
    // Shape only: check digits are isValidCpf's business.
    ['123.456.789-00', '12345678900'],
  ])('%j -> %j', (input, out) => {
    expect(normalizeTaxId(input)).toBe(out)
  })

  it.each([
    ['', 'empty'],
    ['5299822472', '10 digits'],
    ['529982247250', '12 digits'],
    ['1234567890123', '13 characters'],
    ['123456789012345', '15 characters'],
    ['529.982.247=25', 'foreign separator'],
    ['12.ABC.345/01DE–35', 'en dash'],
    ['12ABC34501DEAB', 'letters in check-digit positions'],
    ['5299822472A', 'letter in a CPF'],
    ['12ABC34501D!35', 'symbol'],
    ['12ABÇ34501DE35', 'non-ASCII letter'],
  ])('%j is null (%s)', (input) => {
    expect(normalizeTaxId(input)).toBeNull()
  })

  it('uppercases ASCII only, so Unicode lookalikes (ı, ſ) cannot become I or S', () => {
    const withI = makeCnpj('12ABCI4501DE')
    const withS = makeCnpj('12ABCS4501DE')
    expect(isValidCnpj(withI)).toBe(true)
    expect(isValidCnpj(withS)).toBe(true)
    expect(isValidCnpj(withI.replace('I', 'ı'))).toBe(false)
    expect(isValidCnpj(withS.replace('S', 'ſ'))).toBe(false)
    expect(isValidCnpj(withI.toLowerCase())).toBe(true)
  })
})

describe('CPF', () => {
  it('refuses every repeated-digit CPF, although they satisfy mod 11', () => {
    for (let d = 0; d <= 9; d++) {
      const cpf = String(d).repeat(11)
      expect(makeCpf(cpf.slice(0, 9))).toBe(cpf)
      expect(isValidCpf(cpf)).toBe(false)
      expect(taxIdKind(cpf)).toBeNull()
    }
  })

  it('accepts generated CPFs, bare and masked', () => {
    fc.assert(
      fc.property(cpfBase, (base) => {
        const cpf = makeCpf(base)
        const masked = `${cpf.slice(0, 3)}.${cpf.slice(3, 6)}.${cpf.slice(6, 9)}-${cpf.slice(9)}`
        expect(isValidCpf(cpf)).toBe(true)
        expect(isValidCpf(masked)).toBe(true)
        expect(maskTaxId(cpf)).toBe(masked)
        expect(taxIdKind(masked)).toBe('cpf')
      }),
      { numRuns: 1_000 },
    )
  })

  it('refuses a generated CPF with one check digit changed', () => {
    fc.assert(
      fc.property(cpfBase, fc.constantFrom(9, 10), fc.integer({ min: 1, max: 9 }), (base, index, by) => {
        const cpf = withDigitChanged(makeCpf(base), index, by)
        expect(isValidCpf(cpf)).toBe(false)
        expect(taxIdKind(cpf)).toBeNull()
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('CNPJ', () => {
  it('refuses 00000000000000 and every other repeated-character CNPJ', () => {
    expect(makeCnpj('000000000000')).toBe('00000000000000')
    for (const c of ALNUM) expect(isValidCnpj(c.repeat(14))).toBe(false)
  })

  it('accepts generated alphanumeric CNPJs, bare, masked and in lowercase', () => {
    fc.assert(
      fc.property(
        cnpjBase.filter((b) => !/^0+$/.test(b)),
        (base) => {
          const cnpj = makeCnpj(base)
          const masked = `${cnpj.slice(0, 2)}.${cnpj.slice(2, 5)}.${cnpj.slice(5, 8)}/${cnpj.slice(8, 12)}-${cnpj.slice(12)}`
          expect(isValidCnpj(cnpj)).toBe(true)
          expect(isValidCnpj(masked)).toBe(true)
          expect(isValidCnpj(cnpj.toLowerCase())).toBe(true)
          expect(maskTaxId(cnpj)).toBe(masked)
          expect(normalizeTaxId(masked.toLowerCase())).toBe(cnpj)
          expect(taxIdKind(cnpj)).toBe('cnpj')
        },
      ),
      { numRuns: 1_000 },
    )
  })

  it('accepts generated numeric CNPJs (the same algorithm on digits)', () => {
    fc.assert(
      fc.property(cnpjNumericBase, (base) => {
        expect(isValidCnpj(makeCnpj(base))).toBe(true)
      }),
    )
  })

  it('refuses a generated CNPJ with one check digit changed', () => {
    fc.assert(
      fc.property(cnpjBase, fc.constantFrom(12, 13), fc.integer({ min: 1, max: 9 }), (base, index, by) => {
        const cnpj = withDigitChanged(makeCnpj(base), index, by)
        expect(isValidCnpj(cnpj)).toBe(false)
        expect(taxIdKind(cnpj)).toBeNull()
      }),
      { numRuns: 1_000 },
    )
  })
})

describe('maskTaxId', () => {
  it('masks by shape and leaves anything else as received', () => {
    expect(maskTaxId('52998224725')).toBe('529.982.247-25')
    expect(maskTaxId('12abc34501de35')).toBe('12.ABC.345/01DE-35')
    expect(maskTaxId('12345678900')).toBe('123.456.789-00')
    expect(maskTaxId('***.456.789-**')).toBe('***.456.789-**')
    expect(maskTaxId('')).toBe('')
  })
})
