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
import { csvReader, kernel as K, type CsvRow } from './kernel'
import { CSV_COLUMNS, headerIn, NO_EXTRAS, type Column, type RowExtras } from './columns'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'

export type CsvDelimiter = ';' | ','
export const BOM = '\uFEFF'
export const CRLF = '\r\n'

/** The formula-injection rule above (kernel.ts). */
export const neutralise: (text: string) => string = K.neutralise

/** Inverse of neutralise. */
export const unneutralise: (cell: string) => string = csvReader.unneutralise

/** Neutralised, then quoted (quotes doubled). */
export const csvCell: (text: string) => string = K.csvCell

/** One CSV line (CRLF included) of already formatted cells. */
export const csvLine: (cells: readonly string[], delimiter: CsvDelimiter) => string = K.csvLine

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

/** The text of one cell. */
export function cellText(
  col: Column,
  r: WithdrawalRecord,
  locale: ExportLocale,
  x: RowExtras = NO_EXTRAS,
): string {
  switch (col.kind) {
    case 'date':
      return formatDateTime(col.get(r, locale, x) as string | null, locale)
    case 'amount':
      return formatAmount(col.get(r, locale, x) as number | null, locale)
    case 'bool':
      return col.get(r, locale, x) ? YES_NO[locale][0] : YES_NO[locale][1]
    case 'text': {
      const v = col.get(r, locale, x)
      return v === null || v === undefined ? '' : String(v)
    }
  }
}

/**
 * The CSV line of a record, cell by cell: the definition. Exports build the same line faster, through layout.ts
 * and the kernel (a test holds the two together).
 */
export function csvRow(
  r: WithdrawalRecord,
  locale: ExportLocale,
  delimiter: CsvDelimiter,
  x: RowExtras = NO_EXTRAS,
): string {
  return csvLine(
    CSV_COLUMNS.map((c) => cellText(c, r, locale, x)),
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
