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
import { CSV_COLUMNS, type Column } from './columns'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'

export type CsvDelimiter = ';' | ','
export const BOM = '\uFEFF'
export const CRLF = '\r\n'

const FORMULA_START = /^(?:[\t\r\n']|\s*[=+\-@\uFF1D\uFF0B\uFF0D\uFF20])/

const isAsciiAlnum = (c: number): boolean =>
  (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122)

export function neutralise(text: string): string {
  // Most cells start with a letter or digit: skip the regex for them (36 cells × 100k rows).
  if (text === '' || isAsciiAlnum(text.charCodeAt(0))) return text
  return FORMULA_START.test(text) ? `'${text}` : text
}

/** Inverse of neutralise. */
export function unneutralise(cell: string): string {
  return cell.startsWith("'") ? cell.slice(1) : cell
}

const needsQuotes: Readonly<Record<CsvDelimiter, RegExp>> = {
  ';': /[;"\r\n]/,
  ',': /[,"\r\n]/,
}

/** Neutralised, then quoted when needed. */
export function csvCell(text: string, delimiter: CsvDelimiter): string {
  const safe = neutralise(text)
  return needsQuotes[delimiter].test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe
}

export function csvLine(cells: readonly string[], delimiter: CsvDelimiter): string {
  let out = ''
  for (let i = 0; i < cells.length; i++) {
    if (i > 0) out += delimiter
    out += csvCell(cells[i] ?? '', delimiter)
  }
  return out + CRLF
}

export function csvHeader(locale: ExportLocale): string[] {
  return CSV_COLUMNS.map((c) => (locale === 'pt-BR' ? c.pt : c.id))
}

const YES_NO: Readonly<Record<ExportLocale, readonly [string, string]>> = {
  'pt-BR': ['sim', 'não'],
  en: ['yes', 'no'],
}

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

export function parseYesNo(cell: string, locale: ExportLocale): boolean | undefined {
  const [yes, no] = YES_NO[locale]
  return cell === yes ? true : cell === no ? false : undefined
}

export function csvRow(r: WithdrawalRecord, locale: ExportLocale, delimiter: CsvDelimiter): string {
  return csvLine(
    CSV_COLUMNS.map((c) => cellText(c, r, locale)),
    delimiter,
  )
}

export class CsvSyntaxError extends Error {
  override readonly name = 'CsvSyntaxError'
}

/** One parsed row: cells are decoded only when asked for (the verifier reads 4 of 36 columns). */
export interface CsvRow {
  readonly length: number
  /** 1-based line number where the row starts. */
  readonly line: number
  cell(i: number): string
}

const QUOTE = 0x22
const CR = 0x0d
const LF = 0x0a

/**
 * Reads RFC 4180 bytes (UTF-8, after the BOM), calling `onRow` for each row. Accepts CRLF or LF line ends and a
 * missing final line end; refuses a quote inside an unquoted field, text after a closing quote, an unterminated
 * quote, or a CR without LF, which is how a damaged file usually shows. Works on bytes: the delimiter, quote, CR
 * and LF never occur inside a UTF-8 multi-byte sequence, so no decoding is needed to find the cells.
 */
export function parseCsv(buf: Buffer, delimiter: CsvDelimiter, onRow: (row: CsvRow) => void): void {
  const d = delimiter.charCodeAt(0)
  const n = buf.length
  // The bytes that end an unquoted cell: one table load per byte in the hot loop instead of four compares.
  const special = new Uint8Array(256)
  for (const c of [d, CR, LF, QUOTE]) special[c] = 1
  // Cell k spans bytes [starts[k], ends[k]); quoted[k] says whether "" must be undone. Reused across rows.
  let starts = new Int32Array(64)
  let ends = new Int32Array(64)
  let quoted = new Uint8Array(64)
  let cells = 0
  let i = 0
  let line = 1
  let rowLine = 1
  const push = (start: number, end: number, q: boolean): void => {
    if (cells === starts.length) {
      const grow = <T extends Int32Array | Uint8Array>(a: T, make: (len: number) => T): T => {
        const b = make(a.length * 2)
        b.set(a)
        return b
      }
      starts = grow(starts, (len) => new Int32Array(len))
      ends = grow(ends, (len) => new Int32Array(len))
      quoted = grow(quoted, (len) => new Uint8Array(len))
    }
    starts[cells] = start
    ends[cells] = end
    quoted[cells] = q ? 1 : 0
    cells += 1
  }
  const row: CsvRow = {
    get length() {
      return cells
    },
    get line() {
      return rowLine
    },
    cell(k) {
      if (k < 0 || k >= cells) return ''
      const text = buf.toString('utf8', starts[k], ends[k])
      return quoted[k] === 1 ? text.replace(/""/g, '"') : text
    },
  }
  while (i < n) {
    rowLine = line
    cells = 0
    for (;;) {
      if (buf[i] === QUOTE) {
        const start = i + 1
        let j = start
        for (;;) {
          const q = buf.indexOf(QUOTE, j)
          if (q === -1) throw new CsvSyntaxError(`line ${rowLine}: unterminated quoted field`)
          if (buf[q + 1] === QUOTE) {
            j = q + 2
            continue
          }
          for (let k = start; k < q; k++) if (buf[k] === LF) line += 1
          push(start, q, true)
          i = q + 1
          break
        }
        const c = buf[i]
        if (i < n && c !== d && c !== CR && c !== LF)
          throw new CsvSyntaxError(`line ${line}: text after a closing quote`)
      } else {
        const start = i
        while (i < n && special[buf[i] as number] === 0) i += 1
        if (buf[i] === QUOTE) throw new CsvSyntaxError(`line ${line}: quote inside an unquoted field`)
        push(start, i, false)
      }
      if (i >= n) break
      const c = buf[i]
      if (c === d) {
        i += 1
        continue
      }
      if (c === CR) {
        if (buf[i + 1] !== LF) throw new CsvSyntaxError(`line ${line}: CR without LF`)
        i += 2
      } else {
        i += 1
      }
      line += 1
      break
    }
    onRow(row)
  }
}
