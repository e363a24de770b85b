/**
 * How a record reaches the kernel's row formatter (kernel.ts): each record becomes a list of strings
 * (`rowInputs`: everything that needs the record, the ledger's shared rules — display status, tax id masking,
 * amounts — and nothing else), and the formatter turns them into the CSV line and the report row. Same cells as `cellText` in csv.ts, column by column.
 */
import { YES_NO, type CsvDelimiter } from './csv'
import { formatAmount, type ExportLocale } from './format'
import { PAGE_BREAK, ROW_START } from './html'
import type { RowLayout } from './kernel'
import { NO_EXTRAS, type RowExtras } from './columns'
import { WITHDRAWAL_KIND, type AnyRecord, type RecordsKind } from './kinds'
import { REPORT_PAGE_ROWS } from './report-assets'

export interface RowPlan<R = AnyRecord> {
  layout: RowLayout
  /** The inputs of one record, in the layout's order; `x` what the view read beside it (its run). */
  inputs: (r: R, x?: RowExtras) => string[]
}

/**
 * Inputs: one per CSV column — the final cell text, except for dates, which are the raw timestamp ('' for none)
 * and are formatted by the kernel — then, for the report, the status in words and the raw cents of each amount
 * column (its `data-v`).
 * Kinds and locale are decided once: an export builds 3.6 M of these.
 */
export function rowPlan<R extends AnyRecord>(
  locale: ExportLocale,
  delimiter: CsvDelimiter,
  formats: { csv: boolean; html: boolean },
  kind: RecordsKind<R> = WITHDRAWAL_KIND as unknown as RecordsKind<R>,
): RowPlan<R> {
  const [yes, no] = YES_NO[locale]
  const CSV_COLUMNS = kind.csvColumns
  const HTML_COLUMNS = kind.htmlColumns
  const getters = CSV_COLUMNS.map((col): ((r: R, x: RowExtras) => string) => {
    const get = col.get
    switch (col.kind) {
      case 'date':
        return (r, x) => {
          const v = get(r, locale, x)
          return typeof v === 'string' ? v : ''
        }
      case 'amount':
        return (r, x) => formatAmount(get(r, locale, x) as number | null, locale)
      case 'bool':
        return (r, x) => (get(r, locale, x) ? yes : no)
      case 'text':
        return (r, x) => {
          const v = get(r, locale, x)
          return typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v)
        }
    }
  })
  const report: RowLayout['report'] = []
  if (formats.html) {
    for (const col of HTML_COLUMNS) {
      const cell = CSV_COLUMNS.indexOf(col)
      if (col.id === 'status') {
        // The CSV keeps the status code (scripts and the verifier group by it); the report says it in words.
        report.push({ cell: getters.length, kind: 'text', raw: getters.length })
        getters.push((r) => kind.statusWords(r, locale))
      } else if (col.kind === 'amount') {
        report.push({ cell, kind: 'amount', raw: getters.length })
        getters.push((r, x) => {
          const v = col.get(r, locale, x)
          return v === null ? '' : String(v)
        })
      } else {
        report.push({ cell, kind: col.kind === 'date' ? 'date' : 'text', raw: cell })
      }
    }
  }
  // Only the dates some output shows are formatted.
  const dates = CSV_COLUMNS.flatMap((c, i) =>
    c.kind === 'date' && (formats.csv || report.some((h) => h.cell === i)) ? [i] : [],
  )
  const n = getters.length
  return {
    layout: {
      locale,
      delimiter,
      dates,
      csvCells: formats.csv ? CSV_COLUMNS.length : 0,
      report,
      pageRows: REPORT_PAGE_ROWS,
      rowStart: ROW_START,
      pageBreak: PAGE_BREAK,
    },
    inputs: (r, x = NO_EXTRAS) => {
      const out = new Array<string>(n)
      for (let i = 0; i < n; i++) out[i] = (getters[i] as (r: R, x: RowExtras) => string)(r, x)
      return out
    },
  }
}
