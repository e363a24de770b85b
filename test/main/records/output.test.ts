import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { createChecker } from '../../../src/main/records/checker'
import { columnIndex, CSV_COLUMNS } from '../../../src/main/records/columns'
import { BOM, csvHeader, csvLine, csvRow, YES_NO, type CsvDelimiter } from '../../../src/main/records/csv'
import type { ExportLocale } from '../../../src/main/records/format'
import { csvReader, kernel } from '../../../src/main/records/kernel'
import { rowPlan } from '../../../src/main/records/layout'
import { createFileWriter } from '../../../src/main/records/output'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { makeRecords, nastyRecords, tempDir } from './fixtures'

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

/** Writes the CSV and the report rows of `recs` with a writer; the files' bytes and hashes. */
async function writeRows(
  recs: WithdrawalRecord[],
  locale: ExportLocale,
  delimiter: CsvDelimiter,
  formatOnWorker: boolean,
): Promise<{ on: string; csv: Buffer; html: Buffer; sha: string[] }> {
  const dir = tempDir()
  const writer = createFileWriter({ formatOnWorker })
  try {
    const csv = await writer.create(path.join(dir, 'a.csv'), true)
    const html = await writer.create(path.join(dir, 'b.html'), true)
    csv.write(BOM + csvLine(csvHeader(locale), delimiter))
    html.write('<head>')
    const plan = rowPlan(locale, delimiter, { csv: true, html: true })
    const rows = await writer.rows(plan.layout, csv, html)
    for (const [i, r] of recs.entries()) {
      rows.write(plan.inputs(r))
      if (i % 100 === 0) await rows.drain()
    }
    rows.end()
    const w = [await csv.close(), await html.close()]
    return {
      on: rows.formattedOn,
      csv: fs.readFileSync(path.join(dir, 'a.csv')),
      html: fs.readFileSync(path.join(dir, 'b.html')),
      sha: w.map((x) => x.sha256),
    }
  } finally {
    await writer.close()
  }
}

describe('rows formatted on the writer’s worker', () => {
  it.each([
    ['pt-BR', ';'],
    ['en', ','],
    ['pt-BR', ','],
  ] as const)('%s %s: the same bytes as on the main thread, hashed as written', async (locale, delimiter) => {
    const recs = records()
    const worker = await writeRows(recs, locale, delimiter, true)
    const main = await writeRows(recs, locale, delimiter, false)
    expect(worker.on).toBe('worker')
    expect(main.on).toBe('main')
    expect(worker.csv.equals(main.csv)).toBe(true)
    expect(worker.html.equals(main.html)).toBe(true)
    expect(worker.sha).toEqual(main.sha)
    expect(worker.sha[0]).toBe(createHash('sha256').update(worker.csv).digest('hex'))
    expect(worker.html.toString('utf8').match(/<tr class="rec">/g)).toHaveLength(recs.length)
  })

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

  it('never overwrites an existing file', async () => {
    const file = path.join(tempDir(), 'taken')
    fs.writeFileSync(file, 'mine')
    const writer = createFileWriter()
    try {
      await expect(writer.create(file, true)).rejects.toMatchObject({ code: 'EEXIST' })
    } finally {
      await writer.close()
    }
    expect(fs.readFileSync(file, 'utf8')).toBe('mine')
  })
})

describe('CSV check on the verifier’s worker', () => {
  it('gives what the main thread gives, on an intact and a damaged file', async () => {
    const checker = createChecker()
    try {
      expect(await checker.csvOnWorker).toBe(true)
      const locale: ExportLocale = 'pt-BR'
      const lines = [
        csvLine(csvHeader(locale), ';'),
        ...records().map((r) =>
          csvLine(
            CSV_COLUMNS.map((c) => {
              const v = c.get(r)
              return c.kind === 'bool' ? (v ? 'sim' : 'não') : v === null ? '' : String(v)
            }),
            ';',
          ),
        ),
      ]
      const spec = {
        delimiter: ';' as const,
        locale,
        header: csvHeader(locale),
        at: {
          status: columnIndex('status'),
          refunded: columnIndex('refunded'),
          deposit: columnIndex('deposit_amount'),
          payout: columnIndex('payout_amount'),
        },
        yesNo: [...YES_NO[locale]] as [string, string],
        maxListed: 5,
      }
      for (const text of [lines.join(''), lines.slice(0, 50).join('') + 'a;"b\r\n']) {
        const data = Buffer.from(text, 'utf8')
        expect(await checker.checkCsv(data, spec)).toEqual(csvReader.checkCsvRows(data, spec))
      }
    } finally {
      await checker.close()
    }
  })
})
