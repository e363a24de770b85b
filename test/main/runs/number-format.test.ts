/** Which XLSX number formats show an amount as the number it holds (src/main/runs/import/number-format.ts). */
import { describe, expect, it } from 'vitest'
import { columnLetters, plainAmountFormat } from '../../../src/main/runs/import/number-format'

describe('plainAmountFormat', () => {
  it('accepts General, plain and grouped numbers and R$ currency showing the cents', () => {
    for (const f of [
      'General',
      '0.00',
      '#,##0.00',
      '[$R$-416]\\ #,##0.00',
      '[$-416]#,##0.00',
      '"R$ "#,##0.00',
      '_-[$R$-416]\\ * #,##0.00_-;\\-[$R$-416]\\ * #,##0.00_-;_-[$R$-416]\\ * "-"??_-;_-@_-',
      '#,##0.00;[RED]\\-#,##0.00',
    ]) {
      expect(plainAmountFormat(f, '1234.56'), f).toBe(true)
    }
    expect(plainAmountFormat('0', '10')).toBe(true)
  })

  it('refuses formats that show another number: literal text, scaling, conditions, rounded-away cents', () => {
    for (const f of ['"5.000,00"', '#,##0.00,', '[>99]"R$ 5.000,00";0.00', '0.00" mil"', '0%', '0.00E+00']) {
      expect(plainAmountFormat(f, '100'), f).toBe(false)
    }
    expect(plainAmountFormat('#,##0', '100.5')).toBe(false)
    expect(plainAmountFormat('0.0', '100.55')).toBe(false)
  })

  it('names columns as spreadsheets do', () => {
    expect([0, 4, 25, 26, 27, 701, 702].map(columnLetters)).toEqual(['A', 'E', 'Z', 'AA', 'AB', 'ZZ', 'AAA'])
  })
})
