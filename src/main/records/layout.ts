/**
 * A record's CSV line and report row, written together: each column's value is read once (`Column.get`), turned
 * into its cell once (csv.ts `cellFormat`), and that cell feeds both outputs. The report shows a subset of the CSV's
 * columns (kinds.ts `htmlColumns`), its status in words rather than the code, and a `data-v` sort key (raw cents,
 * raw timestamp) on amounts and dates. csv.ts `csvRow` is the definition of the CSV line; a test holds the two
 * together.
 */
import { cellFormat, csvLine, type CsvDelimiter } from './csv'
import type { ExportLocale } from './format'
import { escapeHtml, PAGE_BREAK, ROW_START } from './html'
import type { RowExtras } from './columns'
import { WITHDRAWAL_KIND, type AnyRecord, type RecordsKind } from './kinds'
import { REPORT_PAGE_ROWS } from './report-assets'

/** Record `index` (0-based, export order): its CSV line and report row ('' for a format not written). */
export type RowWriter<R = AnyRecord> = (r: R, x: RowExtras, index: number) => [csv: string, html: string]

/** Kinds, locale and columns are decided once: an export writes 100k rows with them. */
export function rowWriter<R extends AnyRecord>(
  locale: ExportLocale,
  delimiter: CsvDelimiter,
  formats: { csv: boolean; html: boolean },
  kind: RecordsKind<R> = WITHDRAWAL_KIND as unknown as RecordsKind<R>,
): RowWriter<R> {
  const columns = kind.csvColumns
  const report = formats.html
    ? kind.htmlColumns.map((col) => ({
        at: columns.indexOf(col),
        kind: col.id === 'status' ? ('status' as const) : col.kind,
      }))
    : []
  const n = columns.length
  const values = new Array<unknown>(n).fill(null)
  const cells = new Array<string>(n).fill('')
  // Only the cells some output shows are made; each column's kind is looked at once, here.
  const fills = columns.flatMap((col, i) => {
    if (!formats.csv && !report.some((h) => h.at === i)) return []
    const { get } = col
    const cell = cellFormat(col.kind, locale)
    return [
      (r: R, x: RowExtras): void => {
        const v = get(r, locale, x)
        values[i] = v
        cells[i] = cell(v)
      },
    ]
  })
  const parts: string[] = []
  return (r, x, index) => {
    for (const fill of fills) fill(r, x)
    const csv = formats.csv ? csvLine(cells, delimiter) : ''
    if (report.length === 0) return [csv, '']
    // Pieces joined once: one flat string rather than a tree of 40 concatenations.
    parts.length = 0
    parts.push(index > 0 && index % REPORT_PAGE_ROWS === 0 ? PAGE_BREAK + ROW_START : ROW_START)
    for (const { at, kind: k } of report) {
      const v = values[at]
      if (k === 'status') {
        // The CSV keeps the status code (scripts and the verifier group by it); the report says it in words.
        parts.push('<td>', escapeHtml(kind.statusWords(r, locale)), '</td>')
      } else if (k === 'amount') {
        parts.push('<td class="n" data-v="', v === null ? '' : String(v), '">', cells[at]!, '</td>')
      } else if (k === 'date') {
        const raw = typeof v === 'string' ? escapeHtml(v) : ''
        parts.push('<td class="d" data-v="', raw, '">', escapeHtml(cells[at]!), '</td>')
      } else parts.push('<td>', escapeHtml(cells[at]!), '</td>')
    }
    parts.push('</tr>\n')
    return [csv, parts.join('')]
  }
}
