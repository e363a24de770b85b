import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  centsToDePix,
  centsToDecimalString,
  dePixToCents,
  formatBRL,
  formatDePix,
  parseBRLToCents,
} from '../../src/shared/money'

const MAX = Number.MAX_SAFE_INTEGER

describe('formatBRL', () => {
  it.each([
    [0, 'R$ 0,00', 'R$0.00'],
    [5, 'R$ 0,05', 'R$0.05'],
    [100, 'R$ 1,00', 'R$1.00'],
    [99_999, 'R$ 999,99', 'R$999.99'],
    [123_456, 'R$ 1.234,56', 'R$1,234.56'],
    [600_000, 'R$ 6.000,00', 'R$6,000.00'],
    [100_000_000, 'R$ 1.000.000,00', 'R$1,000,000.00'],
    [-100, '-R$ 1,00', '-R$1.00'],
    [-123_456_789, '-R$ 1.234.567,89', '-R$1,234,567.89'],
    [MAX, 'R$ 90.071.992.547.409,91', 'R$90,071,992,547,409.91'],
  ])('%i cents -> %s / %s', (cents, ptBR, en) => {
    expect(formatBRL(cents)).toBe(ptBR)
    expect(formatBRL(cents, 'pt-BR')).toBe(ptBR)
    expect(formatBRL(cents, 'en')).toBe(en)
  })

  it('uses a plain ASCII space, not the NBSP of Intl, so the string is identical on every machine', () => {
    expect(formatBRL(123_456)).not.toMatch(/\u00a0/)
    expect(formatBRL(123_456).charCodeAt(2)).toBe(0x20)
  })

  it('refuses anything that is not a safe integer of cents', () => {
    for (const bad of [1.5, Number.NaN, Infinity, MAX + 1, -(MAX + 1)]) {
      expect(() => formatBRL(bad)).toThrow(RangeError)
    }
  })
})

describe('parseBRLToCents (pt-BR input convention)', () => {
  it.each([
    ['1.234,56', 123_456],
    ['1234,56', 123_456],
    ['R$ 1.234,56', 123_456],
    ['R$1.234,56', 123_456],
    ['  R$\u00a01.234,56  ', 123_456],
    ['1234', 123_400],
    ['0,05', 5],
    ['0,5', 50],
    ['12,5', 1_250],
    ['2', 200],
    ['6.000,00', 600_000],
    ['1.234.567,89', 123_456_789],
    ['0', 0],
    ['007', 700],
    // '.' followed by exactly three digits is a thousands separator: R$ 1.234,00, not R$ 1,234.
    ['1.234', 123_400],
    ['90.071.992.547.409,91', MAX],
  ])('%j -> %i', (input, cents) => {
    expect(parseBRLToCents(input)).toBe(cents)
  })

  it.each([
    ['', 'empty'],
    ['   ', 'blank'],
    ['R$', 'symbol only'],
    ['R$ ', 'symbol only'],
    ['-1,00', 'negative'],
    ['-R$ 1,00', 'negative'],
    ['R$ -1,00', 'negative'],
    ['+1,00', 'explicit sign'],
    ['1,234', 'three decimals'],
    ['1,001', 'three decimals'],
    ['0,001', 'three decimals'],
    // Ambiguous: an English decimal point in a pt-BR field. Refused rather than read as R$ 12,50 or R$ 125.
    ['12.5', 'dot not followed by a 3-digit group'],
    ['12.50', 'dot not followed by a 3-digit group'],
    ['1.2345', 'group of four'],
    ['1234.567', 'leading group of four'],
    ['01.234', 'grouped number with a leading zero'],
    ['.50', 'no whole part'],
    [',50', 'no whole part'],
    ['12,', 'dangling comma'],
    ['1.234.', 'dangling dot'],
    ['1 234,56', 'space as separator'],
    ['1,234.56', 'English format'],
    ['abc', 'garbage'],
    ['1e3', 'exponent'],
    ['0x10', 'hex'],
    ['١٢٣', 'non-ASCII digits'],
    ['12,34 R$', 'symbol after'],
    ['90.071.992.547.409,92', 'one cent above MAX_SAFE_INTEGER'],
    ['99999999999999999999', 'unsafe'],
  ])('%j is refused (%s)', (input) => {
    expect(parseBRLToCents(input)).toBeNull()
  })

  it('with locale en mirrors the rules (comma groups, dot decimals)', () => {
    expect(parseBRLToCents('R$1,234.56', 'en')).toBe(123_456)
    expect(parseBRLToCents('1,234', 'en')).toBe(123_400)
    expect(parseBRLToCents('12.5', 'en')).toBe(1_250)
    expect(parseBRLToCents('12,5', 'en')).toBeNull()
    expect(parseBRLToCents('1.234,56', 'en')).toBeNull()
  })

  it('round-trips formatBRL for every non-negative safe amount, in both locales', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (cents) => {
        expect(parseBRLToCents(formatBRL(cents))).toBe(cents)
        expect(parseBRLToCents(formatBRL(cents, 'en'), 'en')).toBe(cents)
      }),
      { numRuns: 2_000 },
    )
  })

  it('round-trips the withdrawal range exhaustively at the edges', () => {
    for (let cents = 0; cents <= 1_000; cents++) expect(parseBRLToCents(formatBRL(cents))).toBe(cents)
    for (let cents = 599_000; cents <= 601_000; cents++) expect(parseBRLToCents(formatBRL(cents))).toBe(cents)
  })

  it('refuses every negative formatted amount', () => {
    fc.assert(
      fc.property(fc.integer({ min: -MAX, max: -1 }), (cents) => {
        expect(parseBRLToCents(formatBRL(cents))).toBeNull()
      }),
    )
  })

  it('agrees with a BigInt reference on bare "reais,cc" strings', () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,20}$/), fc.stringMatching(/^[0-9]{0,2}$/), (whole, frac) => {
        const input = frac === '' ? whole : `${whole},${frac}`
        const ref = BigInt(whole) * 100n + BigInt(frac.padEnd(2, '0') || '0')
        const expected = ref <= BigInt(MAX) ? Number(ref) : null
        expect(parseBRLToCents(input)).toBe(expected)
      }),
    )
  })

  it('never returns anything but null or a non-negative safe integer, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(...'0123456789.,R$ -+e') }), (input) => {
        const r = parseBRLToCents(input)
        if (r !== null) expect(Number.isSafeInteger(r) && r >= 0).toBe(true)
      }),
      { numRuns: 5_000 },
    )
  })
})

describe('DePix amounts (8 decimals)', () => {
  it.each([
    [0, '0.00000000'],
    [1, '0.01000000'],
    [200, '2.00000000'],
    [1_234, '12.34000000'],
    [600_000, '6000.00000000'],
    [MAX, '90071992547409.91000000'],
  ])('centsToDePix(%i) = %s', (cents, amount) => {
    expect(centsToDePix(cents)).toBe(amount)
    expect(dePixToCents(amount)).toBe(cents)
  })

  it.each([
    ['12.34', 1_234],
    ['12.3', 1_230],
    ['12', 1_200],
    ['0.01', 1],
    ['12.34000000', 1_234],
    ['12.340', 1_234],
  ])('dePixToCents(%j) = %i', (amount, cents) => {
    expect(dePixToCents(amount)).toBe(cents)
  })

  it.each([
    ['12.34000001', 'finer than a cent'],
    ['0.00000001', 'finer than a cent'],
    ['12.345', 'finer than a cent'],
    ['12.340000000', 'nine decimals'],
    ['12,34', 'comma'],
    ['-12.34', 'negative'],
    ['+12.34', 'sign'],
    [' 12.34', 'space'],
    ['012.34', 'leading zero'],
    ['12.', 'dangling dot'],
    ['.34', 'no whole part'],
    ['1e2', 'exponent'],
    ['', 'empty'],
    ['90071992547409.92', 'unsafe'],
  ])('dePixToCents(%j) is null (%s)', (amount) => {
    expect(dePixToCents(amount)).toBeNull()
  })

  it('round-trips every non-negative safe amount', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (cents) => {
        const amount = centsToDePix(cents)
        expect(amount).toMatch(/^(0|[1-9][0-9]*)\.[0-9]{2}0{6}$/)
        expect(dePixToCents(amount)).toBe(cents)
      }),
      { numRuns: 2_000 },
    )
  })

  it('refuses any amount that carries value below the cent', () => {
    fc.assert(
      fc.property(fc.nat({ max: 1e9 }), fc.integer({ min: 1, max: 999_999 }), (cents, dust) => {
        const amount = `${centsToDePix(cents).slice(0, -6)}${String(dust).padStart(6, '0')}`
        expect(dePixToCents(amount)).toBeNull()
      }),
    )
  })

  it.each([
    [0, '0,00000000 DePix', '0.00000000 DePix', '0.00000000'],
    [5, '0,05000000 DePix', '0.05000000 DePix', '0.05000000'],
    [436_465, '4.364,65000000 DePix', '4,364.65000000 DePix', '4364.65000000'],
    [100_000_000, '1.000.000,00000000 DePix', '1,000,000.00000000 DePix', '1000000.00000000'],
    [-436_465, '-4.364,65000000 DePix', '-4,364.65000000 DePix', null],
    [
      MAX,
      '90.071.992.547.409,91000000 DePix',
      '90,071,992,547,409.91000000 DePix',
      '90071992547409.91000000',
    ],
  ])('formatDePix(%i): pt-BR %s, en %s; wallet form %s', (cents, ptBR, en, wallet) => {
    expect(formatDePix(cents)).toBe(ptBR)
    expect(formatDePix(cents, 'pt-BR')).toBe(ptBR)
    expect(formatDePix(cents, 'en')).toBe(en)
    if (wallet !== null) expect(centsToDePix(cents)).toBe(wallet)
    // Exactly 8 decimals, whatever the language.
    expect(ptBR).toMatch(/,\d{8} DePix$/)
    expect(en).toMatch(/\.\d{8} DePix$/)
  })

  it('formatDePix and centsToDePix hold the same digits: the display is the wallet form, grouped', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), (cents) => {
        const wallet = centsToDePix(cents)
        expect(formatDePix(cents, 'en').replace(/,/g, '')).toBe(`${wallet} DePix`)
        expect(formatDePix(cents, 'pt-BR').replace(/\./g, '').replace(',', '.')).toBe(`${wallet} DePix`)
      }),
    )
  })

  it('formatDePix keeps all 8 decimals for display', () => {
    expect(formatDePix(123_456)).toBe('1.234,56000000 DePix')
    expect(formatDePix(123_456, 'en')).toBe('1,234.56000000 DePix')
    expect(formatDePix(5)).toBe('0,05000000 DePix')
    expect(formatDePix(-100)).toBe('-1,00000000 DePix')
  })

  it('centsToDecimalString gives cents/100 with two fixed decimals (liquidnetwork: URI amount)', () => {
    expect(centsToDecimalString(200)).toBe('2.00')
    expect(centsToDecimalString(1_234)).toBe('12.34')
    expect(centsToDecimalString(5)).toBe('0.05')
    expect(centsToDecimalString(600_000)).toBe('6000.00')
    fc.assert(
      fc.property(fc.maxSafeNat(), (cents) => {
        expect(`${centsToDecimalString(cents)}000000`).toBe(centsToDePix(cents))
      }),
    )
  })

  it('wire conversions refuse negative and non-integer cents', () => {
    for (const bad of [-1, 1.5, Number.NaN, MAX + 1]) {
      expect(() => centsToDePix(bad)).toThrow(RangeError)
      expect(() => centsToDecimalString(bad)).toThrow(RangeError)
    }
    expect(() => formatDePix(0.1)).toThrow(RangeError)
  })
})

describe('no floating-point money math', () => {
  it.each(['money.ts', 'withdrawal.ts', 'tax-id.ts', 'pix-key.ts'])('src/shared/%s', (file) => {
    // Comments may say "cents/100"; only code counts.
    const source = readFileSync(new URL(`../../src/shared/${file}`, import.meta.url), 'utf8')
      .replace(/\/\*[\s\S]*?\*\//g, '')
      .replace(/^\s*\/\/.*$/gm, '')
    expect(source).not.toMatch(/parseFloat|toFixed|toPrecision|Intl\.|toLocaleString|Math\.round/)
    expect(source).not.toMatch(/[*/]\s*100\b/)
  })
})
