import { describe, expect, it } from 'vitest'
import { csvRow } from '../../../src/main/records/csv'
import { kernel } from '../../../src/main/records/kernel'
import { rowPlan } from '../../../src/main/records/layout'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { makeRecords, nastyRecords } from './fixtures'

/** Records whose dates and text take every path of the kernel. */
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

describe('the export’s row formatter', () => {
  it('a record’s inputs make the CSV line of its cells (csvRow), in both locales and with either delimiter', () => {
    for (const [locale, delimiter] of [
      ['pt-BR', ';'],
      ['en', ','],
      ['en', ';'],
    ] as const) {
      const plan = rowPlan(locale, delimiter, { csv: true, html: false })
      const format = kernel.rowFormatter(plan.layout)
      for (const [i, r] of records().entries()) {
        expect(format(plan.inputs(r), i)).toEqual([csvRow(r, locale, delimiter), ''])
      }
    }
  })
})
