import { describe, expect, it } from 'vitest'
import { csvRow } from '../../../src/main/records/csv'
import { NO_EXTRAS } from '../../../src/main/records/columns'
import { rowWriter } from '../../../src/main/records/layout'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { makeRecords, nastyRecords } from './fixtures'

/** Records whose dates and text take every path of the row writer. */
function records(): WithdrawalRecord[] {
  const odd = [
    '1913-12-31T23:59:59.000Z',
    '2018-02-18T01:30:00.000Z',
    '2025-02-30T00:00:00.000Z',
    'amanhã',
    '',
  ]
  const base = [...makeRecords(1200, { seed: 11 }), ...nastyRecords()]
  return base.map((r, i) =>
    i % 97 === 0
      ? {
          ...r,
          fundedAt: odd[i % odd.length] ?? null,
          expiration: odd[(i + 1) % odd.length] ?? null,
          receiverName: `${r.receiverName ?? ''} <&> "😀"`,
        }
      : r,
  )
}

describe('the export’s row writer', () => {
  it('writes the CSV line of a record’s cells (csvRow), in both locales, with either delimiter, with or without the report', () => {
    for (const [locale, delimiter] of [
      ['pt-BR', ';'],
      ['en', ','],
      ['en', ';'],
    ] as const) {
      const csvOnly = rowWriter(locale, delimiter, { csv: true, html: false })
      const both = rowWriter(locale, delimiter, { csv: true, html: true })
      for (const [i, r] of records().entries()) {
        expect(csvOnly(r, NO_EXTRAS, i)).toEqual([csvRow(r, locale, delimiter), ''])
        expect(both(r, NO_EXTRAS, i)[0]).toBe(csvRow(r, locale, delimiter))
      }
    }
  })

  it('writes the same report row without the CSV (only the report’s cells are made then)', () => {
    const reportOnly = rowWriter('pt-BR', ';', { csv: false, html: true })
    const both = rowWriter('pt-BR', ';', { csv: true, html: true })
    for (const [i, r] of records().entries()) {
      const [csv, html] = reportOnly(r, NO_EXTRAS, i)
      expect(csv).toBe('')
      expect(html).toBe(both(r, NO_EXTRAS, i)[1])
      expect(html).toContain(`data-v="${String(r.payoutAmountCents ?? '')}"`)
    }
  })
})
