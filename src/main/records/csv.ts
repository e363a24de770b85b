/**
 * CSV: RFC 4180 (CRLF line ends, quotes doubled) with **every** field quoted, UTF-8 with a BOM so spreadsheet
 * programs pick the encoding.
 *
 * Formula injection: a spreadsheet runs a cell that starts with = + - @ (and some with a leading tab or CR) as a
 * formula, and receiver names, Pix keys and raw API text are not ours. The file may be opened with the other
 * separator (an en-US Excel opening the pt-BR `;` file) or with several ticked (LibreOffice), which splits our
 * cells at a `,` or `;` inside them; tab-separated reading splits at tabs, and a reader that lost track of quotes
 * at line breaks. So the rule applies at every place a reader may start a cell: the start of ours and right after
 * each `;` `,` tab, CR or LF in it. Where what follows is one of = + - @ ＝ ＋ － ＠ (after white space), a tab, CR,
 * LF, or a single quote, one `'` goes in. The rule is reversible: at each of those places, a `'` was put there
 * (that is why a `'` itself is escaped), so reading drops one `'` at the start and after each of those characters.
 * Amounts and dates never trigger it (amounts are not negative). Applied to every cell, not only text ones: one
 * rule is easier to audit. Quoting every cell keeps a quote-aware reader on our cell boundaries whatever
 * separator it was told.
 */
import { formatAmount, formatDateTime, type ExportLocale } from './format'
import { csvReader, type CsvRow } from './kernel'
import { CSV_COLUMNS, headerIn, NO_EXTRAS, type Column, type ColumnKind, type RowExtras } from './columns'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'

export type CsvDelimiter = ';' | ','
export const BOM = '\uFEFF'
export const CRLF = '\r\n'

/** Inverse of neutralise. */
export const unneutralise: (cell: string) => string = csvReader.unneutralise

/**
 * Where a spreadsheet may start reading a cell: the start of ours, and after either separator, a tab, CR or LF
 * inside it (a file opened with the other separator, or with several ticked, splits our cells there). A `'` goes
 * in at each such place where what follows is a tab, CR, LF or `'`, or a formula character after white space.
 */
const FORMULA_START = /^(?:[\t\r\n']|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/
const FORMULA_AFTER = /([;,\t\r\n])(?=[\t\r\n']|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/g
/** Whether FORMULA_AFTER can match at all: a separator, tab, CR or LF followed by what it looks for. */
const AFTER_POSSIBLE = /[;,\t\r\n][\s'=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/
const isAsciiAlnum = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

/** The formula-injection rule above. */
export function neutralise(text: string): string {
  if (text === '') return text
  // Cheap tests first (36 cells × 100k rows): most cells start with a letter or digit and hold no separator
  // followed by anything suspicious. Both rules are judged on the original text: one regex cannot both insert
  // at the start and treat a separator there as a place of its own (a zero-length match at the start skips it).
  const start = !isAsciiAlnum(text.charCodeAt(0)) && FORMULA_START.test(text)
  const inner = AFTER_POSSIBLE.test(text) ? text.replace(FORMULA_AFTER, "$1'") : text
  return start ? `'${inner}` : inner
}

/** Every cell quoted (so a reader's separator inside one never splits it), quotes doubled. */
function quote(safe: string): string {
  return safe.indexOf('"') === -1 ? safe : safe.replace(/"/g, '""')
}

/** Neutralised, then quoted (quotes doubled). */
export function csvCell(text: string): string {
  return `"${quote(neutralise(text))}"`
}

/** One CSV line (CRLF included) of already formatted cells. */
export function csvLine(cells: readonly string[], delimiter: CsvDelimiter): string {
  const n = cells.length
  const out = new Array<string>(n)
  // csvCell, inlined without its quotes, which the join puts in: this runs for every cell of an export.
  for (let i = 0; i < n; i++) out[i] = quote(neutralise(cells[i] ?? ''))
  // join builds one flat string; `+=` would build a tree of 70 pieces that every later reader must walk.
  return `"${out.join(`"${delimiter}"`)}"\r\n`
}

/** The header of a kind's CSV (withdrawals by default). */
export function csvHeader(
  locale: ExportLocale,
  columns: readonly Pick<Column<never>, 'id' | 'pt'>[] = CSV_COLUMNS,
): string[] {
  return headerIn(locale, columns)
}

export const YES_NO: Readonly<Record<ExportLocale, readonly [string, string]>> = {
  'pt-BR': ['sim', 'não'],
  en: ['yes', 'no'],
}

/** How a column of `kind` turns its value into its cell's text, decided once per column (an export runs it 3.6 M times). */
export function cellFormat(kind: ColumnKind, locale: ExportLocale): (v: unknown) => string {
  switch (kind) {
    case 'date':
      return (v) => (typeof v === 'string' ? formatDateTime(v, locale) : '')
    case 'amount':
      return (v) => formatAmount(v as number | null, locale)
    case 'bool': {
      const [yes, no] = YES_NO[locale]
      return (v) => (v ? yes : no)
    }
    case 'text':
      return (v) => (typeof v === 'string' ? v : v === null || v === undefined ? '' : String(v))
  }
}

/**
 * The CSV line of a record, cell by cell: the definition. Exports build the same line with the report's row
 * (layout.ts; a test holds the two together).
 */
export function csvRow(
  r: WithdrawalRecord,
  locale: ExportLocale,
  delimiter: CsvDelimiter,
  x: RowExtras = NO_EXTRAS,
): string {
  return csvLine(
    CSV_COLUMNS.map((c) => cellFormat(c.kind, locale)(c.get(r, locale, x))),
    delimiter,
  )
}

export class CsvSyntaxError extends Error {
  override readonly name = 'CsvSyntaxError'
}

export type { CsvRow }

/**
 * Reads RFC 4180 bytes (UTF-8, after the BOM), calling `onRow` for each row. Accepts CRLF or LF line ends and a
 * missing final line end; refuses (CsvSyntaxError) a quote inside an unquoted field, text after a closing quote,
 * an unterminated quote, or a CR without LF, which is how a damaged file usually shows. Works on bytes: the
 * delimiter, quote, CR and LF never occur inside a UTF-8 multi-byte sequence, so no decoding is needed to find
 * the cells. (The code is in kernel.ts.)
 */
export function parseCsv(buf: Buffer, delimiter: CsvDelimiter, onRow: (row: CsvRow) => void): void {
  csvReader.parseCsv(buf, delimiter, onRow, (message) => new CsvSyntaxError(message))
}
