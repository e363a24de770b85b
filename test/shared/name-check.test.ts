import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkPayeeName, compareNames, compareTaxNumbers, nameWords } from '../../src/shared/name-check'
import { isValidCnpj, isValidCpf } from '../../src/shared/tax-id'

/** Valid CPFs built from 9 random digits (check digits computed the Receita way). */
function cpfFrom(nine: number[]): string {
  const dv = (digits: number[], start: number): number => {
    const sum = digits.reduce((s, d, i) => s + d * (start - i), 0)
    const r = sum % 11
    return r < 2 ? 0 : 11 - r
  }
  const d1 = dv(nine, 10)
  const d2 = dv([...nine, d1], 11)
  return [...nine, d1, d2].join('')
}
const cpfArb = fc
  .array(fc.integer({ min: 0, max: 9 }), { minLength: 9, maxLength: 9 })
  .map(cpfFrom)
  .filter((c) => isValidCpf(c))

const ACCENTS: Record<string, string[]> = {
  a: ['á', 'à', 'ã', 'â', 'A', 'Á', 'Ã'],
  e: ['é', 'ê', 'E', 'É'],
  i: ['í', 'I', 'Í'],
  o: ['ó', 'õ', 'ô', 'O', 'Ó', 'Õ'],
  u: ['ú', 'U', 'Ú'],
  c: ['ç', 'C', 'Ç'],
}
const wordArb = fc
  .array(fc.constantFrom(...'abcdefghijlmnopqrstuvz'.split('')), { minLength: 2, maxLength: 9 })
  .map((cs) => cs.join(''))
  .filter((w) => !['de', 'da', 'do', 'das', 'dos', 'del', 'di'].includes(w))
const nameArb = fc.array(wordArb, { minLength: 1, maxLength: 5 }).map((ws) => ws.join(' '))

describe('compareNames (accent- and case-insensitive, by words)', () => {
  it('a name matches itself written with other accents, case, punctuation and spaces', () => {
    fc.assert(
      fc.property(nameArb, fc.array(fc.nat()), (name, picks) => {
        let i = 0
        const variant = name
          .split('')
          .map((ch) => {
            const options = ACCENTS[ch]
            const pick = picks[i++ % Math.max(picks.length, 1)] ?? 0
            return options && pick % 3 !== 0 ? (options[pick % options.length] as string) : ch
          })
          .join('')
          .replace(/ /g, (m) => (picks.length % 2 === 0 ? `  ${m}` : ' , '))
        expect(compareNames(name, `  ${variant}. `)).toBe('match')
        expect(compareNames(variant, name)).toBe('match')
      }),
    )
  })

  it('is symmetric', () => {
    fc.assert(
      fc.property(nameArb, nameArb, (a, b) => {
        expect(compareNames(a, b)).toBe(compareNames(b, a))
      }),
    )
  })

  it('a missing, extra or different word is a mismatch', () => {
    fc.assert(
      fc.property(nameArb, wordArb, (name, extra) => {
        fc.pre(!nameWords(name).includes(extra))
        expect(compareNames(name, `${name} ${extra}`)).toBe('mismatch')
        expect(compareNames(`${extra} ${name}`, name)).toBe('mismatch')
        const words = name.split(' ')
        words[words.length - 1] = extra
        expect(compareNames(name, words.join(' '))).toBe('mismatch')
      }),
    )
  })

  it('connecting words and company suffixes are spelt one way; real differences are not folded away', () => {
    expect(compareNames('Maria da Silva Sandbox', 'MARIA SILVA SANDBOX')).toBe('match')
    expect(compareNames('João dos Santos e Filhos', 'Joao Santos Filhos')).toBe('match')
    expect(compareNames('Padaria Pão Quente S/A', 'PADARIA PAO QUENTE S.A.')).toBe('match')
    expect(compareNames('Fornecedora Exemplo Limitada', 'Fornecedora Exemplo LTDA.')).toBe('match')
    expect(compareNames('Maria da Silva Sandbox', 'Beneficiário Sandbox')).toBe('mismatch')
    expect(compareNames('Ana Souza', 'Ana Sousa')).toBe('mismatch')
    expect(compareNames('Ana Souza', 'Ana')).toBe('mismatch')
  })

  it('nothing reported decides nothing', () => {
    expect(compareNames('Ana', undefined)).toBe('absent')
    expect(compareNames('Ana', '   ')).toBe('absent')
    expect(compareNames('Ana', '...')).toBe('unreadable')
  })
})

describe('compareTaxNumbers (masked digits respected)', () => {
  it('any mask of a CPF matches it, as long as one position shows', () => {
    fc.assert(
      fc.property(
        cpfArb,
        fc.array(fc.boolean(), { minLength: 11, maxLength: 11 }),
        fc.constantFrom('*', '•', 'X', 'x', '#'),
        (cpf, hide, mask) => {
          fc.pre(hide.some((h) => !h))
          const masked = cpf
            .split('')
            .map((c, i) => (hide[i] ? mask : c))
            .join('')
          const shown = `${masked.slice(0, 3)}.${masked.slice(3, 6)}.${masked.slice(6, 9)}-${masked.slice(9)}`
          expect(compareTaxNumbers(cpf, shown)).toBe('match')
          expect(compareTaxNumbers(cpf, masked)).toBe('match')
        },
      ),
    )
  })

  it('one visible position that differs is a mismatch, whatever else is hidden', () => {
    fc.assert(
      fc.property(
        cpfArb,
        fc.integer({ min: 0, max: 10 }),
        fc.integer({ min: 1, max: 9 }),
        (cpf, at, delta) => {
          const changed = String((Number(cpf[at]) + delta) % 10)
          const masked = cpf
            .split('')
            .map((c, i) => (i === at ? changed : i % 2 === 0 ? '*' : c))
            .join('')
          expect(compareTaxNumbers(cpf, masked)).toBe('mismatch')
        },
      ),
    )
  })

  it('the sandbox and Pix receipt masks; shapes; nothing visible', () => {
    expect(compareTaxNumbers('52998224725', '***.982.247-**')).toBe('match')
    expect(compareTaxNumbers('52998224725', '***.982.248-**')).toBe('mismatch')
    expect(compareTaxNumbers('11222333000181', '11.222.333/****-**')).toBe('match')
    expect(compareTaxNumbers('11222333000181', '11.222.334/****-**')).toBe('mismatch')
    // A CPF-shaped value for a CNPJ payee (and the reverse): another person.
    expect(compareTaxNumbers('11222333000181', '***.982.247-**')).toBe('mismatch')
    expect(compareTaxNumbers('52998224725', '11.222.333/****-**')).toBe('mismatch')
    expect(compareTaxNumbers('52998224725', '***.***.***-**')).toBe('unreadable')
    expect(compareTaxNumbers('52998224725', '98224')).toBe('unreadable')
    expect(compareTaxNumbers('52998224725', '529-982-247=25')).toBe('unreadable')
    expect(compareTaxNumbers('52998224725', null)).toBe('absent')
    expect(isValidCnpj('11222333000181')).toBe(true)
  })
})

describe('checkPayeeName', () => {
  const maria = { name: 'Maria da Silva Sandbox', taxNumber: '52998224725' }
  it('any mismatch decides; otherwise a match on either part; otherwise unknown', () => {
    expect(
      checkPayeeName(maria, { receiverName: 'MARIA SILVA SANDBOX', receiverTaxNumber: '***.982.247-**' }),
    ).toEqual({ verdict: 'match', name: 'match', taxNumber: 'match' })
    expect(
      checkPayeeName(maria, { receiverName: 'Beneficiário Sandbox', receiverTaxNumber: '***.982.247-**' })
        .verdict,
    ).toBe('mismatch')
    expect(
      checkPayeeName(maria, { receiverName: 'Maria da Silva Sandbox', receiverTaxNumber: '***.111.247-**' })
        .verdict,
    ).toBe('mismatch')
    expect(checkPayeeName(maria, { receiverTaxNumber: '***.982.247-**' }).verdict).toBe('match')
    expect(checkPayeeName(maria, {}).verdict).toBe('unknown')
    // Hostile types from a raw status body: never a crash, never a match.
    expect(checkPayeeName(maria, { receiverName: 42, receiverTaxNumber: { x: 1 } }).verdict).toBe('unknown')
  })
})
