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
import { formatAmount, formatDateTime, parseAmount, type ExportLocale } from './format'
import { CSV_COLUMNS, NO_EXTRAS, type ColumnKind, type CsvAt, type RowExtras } from './columns'
import type { StatusTotal, WithdrawalRecord } from '../../shared/withdrawal-record'
import { TotalsAccumulator } from './totals'

/** The header is the columns' (columns.ts); exported here with the rest of the CSV's shape. */
export { csvHeader } from './columns'

export type CsvDelimiter = ';' | ','
export const BOM = '\uFEFF'
export const CRLF = '\r\n'

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

/** Inverse of `neutralise`: one ' goes at each place it may have been put in. */
const NEUTRALISED_AT = /(^|[;,\t\r\n])'/g

export function unneutralise(cell: string): string {
  return cell.indexOf("'") === -1 ? cell : cell.replace(NEUTRALISED_AT, '$1')
}

/** One parsed CSV row: cells are decoded only when asked for (the verifier reads 4 of 36 columns). */
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
 * Reads RFC 4180 bytes (UTF-8, after the BOM). Accepts CRLF or LF line ends and a missing final line end;
 * refuses a quote inside an unquoted field, text after a closing quote, an unterminated quote, or a CR without
 * LF, which is how a damaged file usually shows. Works on bytes: the delimiter, quote, CR and LF never occur inside a UTF-8 multi-byte sequence, so no
 * decoding is needed to find the cells. Calls `onRow` per row; a syntax error throws CsvSyntaxError.
 *
 * Resumable (a file streamed in chunks): unless `final`, a row that reaches the end of `buf` is left for the
 * next call, which gets it back first with more bytes. Returns where that row starts and the line it starts on.
 */
export function parseCsv(
  buf: Buffer,
  delimiter: CsvDelimiter,
  onRow: (row: CsvRow) => void,
  o: { final?: boolean; line?: number } = {},
): { consumed: number; line: number } {
  const final = o.final ?? true
  const d = delimiter.charCodeAt(0)
  const n = buf.length
  // The bytes that end an unquoted cell: one table load per byte in the hot loop instead of four compares.
  const special = new Uint8Array(256)
  for (const c of [d, CR, LF, QUOTE]) special[c] = 1
  // Cell k spans bytes [starts[k], ends[k]); quoted[k] says whether it holds a "" to undo. Reused across rows.
  let starts = new Int32Array(64)
  let ends = new Int32Array(64)
  let quoted = new Uint8Array(64)
  let cells = 0
  let i = 0
  let line = o.line ?? 1
  let rowLine = line
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
    const rowStart = i
    rowLine = line
    cells = 0
    // Set when the row runs to the end of `buf` before its line end: left for the next call.
    let more = false
    for (;;) {
      if (buf[i] === QUOTE) {
        // One pass over the cell's bytes: cells are short, where a call to indexOf per quote costs more.
        const start = i + 1
        let q = start
        let doubled = false
        for (;;) {
          while (q < n && buf[q] !== QUOTE) if (buf[q++] === LF) line += 1
          if (q >= n || (q + 1 >= n && !final)) break
          if (buf[q + 1] !== QUOTE) break
          doubled = true
          q += 2
        }
        if (q >= n || (q + 1 >= n && !final)) {
          if (!final) more = true
          else throw new CsvSyntaxError(`line ${rowLine}: unterminated quoted field`)
          break
        }
        push(start, q, doubled)
        i = q + 1
        const c = buf[i]
        if (i < n && c !== d && c !== CR && c !== LF)
          throw new CsvSyntaxError(`line ${line}: text after a closing quote`)
      } else {
        const start = i
        while (i < n && special[buf[i] as number] === 0) i += 1
        if (buf[i] === QUOTE) throw new CsvSyntaxError(`line ${line}: quote inside an unquoted field`)
        push(start, i, false)
      }
      if (i >= n || (!final && buf[i] === CR && i + 1 >= n)) {
        more = !final
        break
      }
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
    if (more) return { consumed: rowStart, line: rowLine }
    onRow(row)
  }
  return { consumed: n, line }
}

/** What `checkCsvRows` needs to know about the file (plain data). */
export interface CsvCheckSpec {
  delimiter: CsvDelimiter
  locale: ExportLocale
  /** The expected header cells. */
  header: string[]
  /** Columns read from each row. */
  at: CsvAt
  /** How many malformed rows are described (the rest are counted). */
  maxListed: number
}

/** What `checkCsvRows` found; verify.ts turns it into problems. */
export interface CsvCheck {
  /** 1-based column where the header first differs from the expected one; null when it matches. */
  headerMismatch: number | null
  /** The reason the file is not CSV (parsing stopped there), else null. */
  syntaxError: string | null
  dataRows: number
  malformed: number
  /** `line N: why` of the first `maxListed` malformed rows. */
  listed: string[]
  /** Of the well-formed rows, as the manifest's totals are made (TotalsAccumulator: escaped, sorted). */
  totals: StatusTotal[]
}

/**
 * The verifier's pass over a CSV file (after its BOM): header, row shapes, and totals. Streamed: `take` gets
 * the bytes not consumed before plus the next ones and returns how many it consumed (whole rows; all when
 * `final`); `result` says what was found.
 */
export function checkCsvRows(spec: CsvCheckSpec): {
  take(buf: Buffer, final: boolean): number
  result(): CsvCheck
} {
  const { header, at, locale } = spec
  // The `refunded` column as cellFormat writes a bool.
  const [yes, no] = YES_NO[locale]
  const out: CsvCheck = {
    headerMismatch: null,
    syntaxError: null,
    dataRows: 0,
    malformed: 0,
    listed: [],
    totals: [],
  }
  const acc = new TotalsAccumulator()
  const onRow = (row: CsvRow): void => {
    if (row.line === 1) {
      const i = header.findIndex((h, k) => row.cell(k) !== h)
      if (i >= 0 || row.length !== header.length) {
        out.headerMismatch = i >= 0 ? i + 1 : Math.min(row.length, header.length) + 1
      }
      return
    }
    out.dataRows += 1
    const problem = (why: string): void => {
      out.malformed += 1
      if (out.listed.length < spec.maxListed) out.listed.push(`line ${row.line}: ${why}`)
    }
    if (row.length !== header.length) return problem(`${row.length} fields, expected ${header.length}`)
    const deposit = parseAmount(row.cell(at.deposit), locale)
    const payout = parseAmount(row.cell(at.payout), locale)
    const refundedCell = row.cell(at.refunded)
    const refunded = refundedCell === yes ? true : refundedCell === no ? false : undefined
    if (deposit === undefined || payout === undefined) return problem('an amount cell is not an amount')
    if (refunded === undefined) return problem('refunded is neither yes nor no')
    const status = unneutralise(row.cell(at.status))
    acc.addGroup({
      status,
      hasRefund: refunded,
      count: 1,
      depositCents: deposit ?? 0,
      payoutCents: payout ?? 0,
    })
  }
  let line = 1
  return {
    take(buf, final) {
      if (out.syntaxError !== null) return buf.length
      try {
        const r = parseCsv(buf, spec.delimiter, onRow, { final, line })
        line = r.line
        return r.consumed
      } catch (e) {
        if (!(e instanceof CsvSyntaxError)) throw e
        out.syntaxError = e.message
        return buf.length
      }
    },
    result() {
      out.totals = acc.result()
      return out
    },
  }
}
