/**
 * CSV: RFC 4180 (CRLF line ends, fields quoted when they contain the delimiter, a quote, CR or LF; quotes
 * doubled), UTF-8 with a BOM so spreadsheet programs pick the encoding.
 *
 * Formula injection: a spreadsheet runs a cell that starts with = + - @ (and some with a leading tab or CR) as a
 * formula, and receiver names, Pix keys and raw API text are not ours. Every cell whose text starts with one of
 * = + - @ ＝ ＋ － ＠ (after leading spaces), a tab, CR or LF, or a single quote, gets a single quote in front. The
 * rule is reversible: a cell starting with ' had exactly one ' added, so reading drops one leading '. Quotes are
 * escaped too, so that a value which really starts with ' round-trips. Amounts and dates never trigger it
 * (amounts are not negative). Applied to every cell, not only text ones: one rule is easier to audit.
 */
import { formatAmount, formatDateTime, type ExportLocale } from './format'
import { csvReader, kernel as K, type CsvRow } from './kernel'
import { CSV_COLUMNS, type Column } from './columns'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'

export type CsvDelimiter = ';' | ','
export const BOM = '\uFEFF'
export const CRLF = '\r\n'

/** The formula-injection rule above (kernel.ts). */
export const neutralise: (text: string) => string = K.neutralise

/** Inverse of neutralise. */
export function unneutralise(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell
}

/** Neutralised, then quoted when it holds the delimiter, a quote, CR or LF (quotes doubled). */
export const csvCell: (text: string, delimiter: CsvDelimiter) => string = K.csvCell

/** One CSV line (CRLF included) of already formatted cells. */
export const csvLine: (cells: readonly string[], delimiter: CsvDelimiter) => string = K.csvLine

export function csvHeader(locale: ExportLocale): string[] {
  return CSV_COLUMNS.map((c) => (locale === 'pt-BR' ? c.pt : c.id))
}

export const YES_NO: Readonly<Record<ExportLocale, readonly [string, string]>> = {
  'pt-BR': ['sim', 'não'],
  en: ['yes', 'no'],
}

/** The text of one cell. */
export function cellText(col: Column, r: WithdrawalRecord, locale: ExportLocale): string {
  switch (col.kind) {
    case 'date':
      return formatDateTime(col.get(r) as string | null, locale)
    case 'amount':
      return formatAmount(col.get(r) as number | null, locale)
    case 'bool':
      return col.get(r) ? YES_NO[locale][0] : YES_NO[locale][1]
    case 'text': {
      const v = col.get(r)
      return v === null || v === undefined ? '' : String(v)
    }
  }
}

/**
 * The CSV line of a record, cell by cell: the definition. Exports build the same line faster, through layout.ts
 * and the kernel (a test holds the two together).
 */
export function csvRow(r: WithdrawalRecord, locale: ExportLocale, delimiter: CsvDelimiter): string {
  return csvLine(
    CSV_COLUMNS.map((c) => cellText(c, r, locale)),
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
 * the cells. (The code is in kernel.ts: the verifier runs it on a worker thread.)
 */
export function parseCsv(buf: Buffer, delimiter: CsvDelimiter, onRow: (row: CsvRow) => void): void {
  csvReader.parseCsv(buf, delimiter, onRow, (message) => new CsvSyntaxError(message))
}
