/**
 * The text kernels of the records module:
 * - `recordsKernel`: timestamps in São Paulo time, the CSV cell rules (formula neutralisation, RFC 4180 quoting),
 *   HTML escaping, and the assembly of one CSV line and one report row (exports);
 * - `csvReaderKernel`: the CSV parser and the verifier's pass over a CSV file.
 * Each is one closure holding its caches (São Paulo offsets per day and hour, formatted hours).
 *
 * format.ts, csv.ts and html.ts export these functions under their usual names; docs/RECORDS.md has the rules.
 */

export type KernelLocale = 'pt-BR' | 'en'
export type KernelDelimiter = ';' | ','

/** How one record's inputs (`rowPlan` in layout.ts) become a CSV line and a report row. Plain data. */
export interface RowLayout {
  locale: KernelLocale
  delimiter: KernelDelimiter
  /** Inputs that are raw timestamps (or ''), formatted by `formatDateTime`; every other CSV cell is final text. */
  dates: number[]
  /** Number of CSV cells (the first inputs); 0 when no CSV is written. */
  csvCells: number
  /** The report's columns; empty when no report is written. `raw`: the input holding the `data-v` sort key. */
  report: Array<{ cell: number; kind: 'date' | 'amount' | 'text'; raw: number }>
  pageRows: number
  rowStart: string
  pageBreak: string
}

export interface RowFormatter {
  /** Record `index` (0-based, export order): its CSV line and report row ('' for a format not written). */
  (inputs: readonly string[], index: number): [csv: string, html: string]
}

function recordsKernel() {
  // ---- timestamps -------------------------------------------------------------------------------------------

  const HOUR_MS = 3_600_000
  const DAY_MS = 24 * HOUR_MS
  /** The largest time value of a Date (ECMAScript: 8.64e15 ms either side of the epoch). */
  const MAX_TIME = 8.64e15
  /** Per UTC day: its offset when the same at its first and last hour, else NaN (then asked per hour). */
  const offsetByDay = new Map<number, number>()
  const offsetByHour = new Map<number, number>()
  let offsetFormat: Intl.DateTimeFormat | undefined
  let lastDay = NaN
  let lastDayOffset = 0

  /** The offset at the start of UTC hour `hour` (hours since the epoch), from the tz database. */
  function hourOffset(hour: number): number {
    const cached = offsetByHour.get(hour)
    if (cached !== undefined) return cached
    offsetFormat ??= new Intl.DateTimeFormat('en-US', {
      timeZone: 'America/Sao_Paulo',
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    const p: Record<string, number> = {}
    for (const part of offsetFormat.formatToParts(new Date(hour * HOUR_MS))) p[part.type] = Number(part.value)
    const asUtc = Date.UTC(
      p.year ?? 1970,
      (p.month ?? 1) - 1,
      p.day ?? 1,
      p.hour ?? 0,
      p.minute ?? 0,
      p.second ?? 0,
    )
    const offset = asUtc - hour * HOUR_MS
    if (offsetByHour.size > 100_000) offsetByHour.clear()
    offsetByHour.set(hour, offset)
    return offset
  }

  /**
   * UTC offset of São Paulo at `t`, in ms. Intl is slow (µs per call) and 100k records carry several dates
   * each, so offsets are cached: São Paulo's offset has only ever changed on whole hours since 1914 (DST ended
   * in 2019; the tz database knows the old rules), so one per UTC hour is exact; and no two of its changes are
   * less than a day apart, so a day whose first and last hours agree has that offset throughout (asked twice
   * per day, not 24 times).
   */
  function saoPauloOffsetMs(t: number): number {
    const day = Math.floor(t / DAY_MS)
    // A record's dates are usually minutes apart: the last answer is the likeliest.
    if (day === lastDay && !Number.isNaN(lastDayOffset)) return lastDayOffset
    let offset = offsetByDay.get(day)
    if (offset === undefined) {
      offset = NaN
      // At the ends of the Date range, only per hour (Intl refuses instants beyond them).
      if (Math.abs(day * DAY_MS) < MAX_TIME - DAY_MS) {
        const first = hourOffset(day * 24)
        if (first === hourOffset(day * 24 + 23)) offset = first
      }
      if (offsetByDay.size > 100_000) offsetByDay.clear()
      offsetByDay.set(day, offset)
    }
    lastDay = day
    lastDayOffset = offset
    return Number.isNaN(offset) ? hourOffset(Math.floor(t / HOUR_MS)) : offset
  }

  const pad2 = (n: number): string => (n < 10 ? `0${n}` : String(n))
  const pad4 = (n: number): string => String(n).padStart(4, '0')

  const STORED_ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/
  const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
  const isLeap = (y: number): boolean => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0
  const digitsAt = (s: string, from: number, len: number): number => {
    let v = 0
    for (let i = from; i < from + len; i++) v = v * 10 + s.charCodeAt(i) - 48
    return v
  }

  /** Date.parse for the ledger's own `toISOString()` form, several times faster (an export reads 600k dates). */
  function parseStoredIso(s: string): number {
    const y = digitsAt(s, 0, 4)
    const mo = digitsAt(s, 5, 2)
    const d = digitsAt(s, 8, 2)
    const h = digitsAt(s, 11, 2)
    const mi = digitsAt(s, 14, 2)
    const se = digitsAt(s, 17, 2)
    // Date.UTC (and V8's Date.parse) would roll "2025-02-30" over to March: an impossible date is not a date.
    const days = mo === 2 && isLeap(y) ? 29 : (DAYS_IN_MONTH[mo - 1] ?? 0)
    if (d < 1 || d > days || h > 23 || mi > 59 || se > 59) return NaN
    if (y < 100) return Date.parse(s)
    return Date.UTC(y, mo - 1, d, h, mi, se, digitsAt(s, 20, 3))
  }

  /** Date.parse for the ledger's own `toISOString()` form; NaN when it is not that form or not a real date. */
  function parseIso(value: string): number {
    return STORED_ISO.test(value) ? parseStoredIso(value) : Date.parse(value)
  }

  /** `formatDateTime` without the per-hour cache. */
  function formatInstant(value: string, stored: boolean, locale: KernelLocale): string {
    const t = stored ? parseStoredIso(value) : Date.parse(value)
    if (Number.isNaN(t)) return value
    if (locale === 'en') return new Date(t).toISOString()
    const offset = saoPauloOffsetMs(t)
    if (stored && offset % HOUR_MS === 0) {
      // Same calendar day after the shift (21 hours of 24): reuse the string's own digits, no Date object.
      const h = digitsAt(value, 11, 2) + offset / HOUR_MS
      if (h >= 0 && h <= 23) {
        return `${value.slice(8, 10)}/${value.slice(5, 7)}/${value.slice(0, 4)} ${pad2(h)}${value.slice(13, 19)}`
      }
    }
    const d = new Date(t + offset)
    return (
      `${pad2(d.getUTCDate())}/${pad2(d.getUTCMonth() + 1)}/${pad4(d.getUTCFullYear())} ` +
      `${pad2(d.getUTCHours())}:${pad2(d.getUTCMinutes())}:${pad2(d.getUTCSeconds())}`
    )
  }

  /**
   * pt-BR "dd/mm/aaaa hh" in São Paulo of a stored timestamp's UTC hour, cached per hour (an export formats
   * 600k timestamps, a few per hour): with a whole-hour offset the minutes and seconds are the stored ones, so
   * the rest of the cell is copied. Null when that does not hold (an offset that is not whole hours, before
   * 1914) or the hour is not a date: the long way then decides.
   */
  const hourHeads = new Map<number, string | null>()
  let lastHourKey = -1
  let lastHourHead: string | null = null

  function hourHead(stored: string): string | null {
    // Every digit counts (not only valid dates): "2025-13-…" must not share an entry with a real hour.
    const key =
      digitsAt(stored, 0, 4) * 1_000_000 +
      digitsAt(stored, 5, 2) * 10_000 +
      digitsAt(stored, 8, 2) * 100 +
      digitsAt(stored, 11, 2)
    if (key === lastHourKey) return lastHourHead
    let head = hourHeads.get(key)
    if (head === undefined) {
      const hourStart = `${stored.slice(0, 13)}:00:00.000Z`
      const t = parseStoredIso(hourStart)
      head =
        Number.isNaN(t) || saoPauloOffsetMs(t) % HOUR_MS !== 0
          ? null
          : formatInstant(hourStart, true, 'pt-BR').slice(0, 13)
      if (hourHeads.size > 100_000) hourHeads.clear()
      hourHeads.set(key, head)
    }
    lastHourKey = key
    lastHourHead = head
    return head
  }

  /**
   * A timestamp for a cell; '' for null. Values that do not parse as dates (the API's fields are "not shown"
   * beyond ISO 8601) are written as received rather than guessed.
   */
  function formatDateTime(value: string | null | undefined, locale: KernelLocale): string {
    if (value === null || value === undefined || value === '') return ''
    const stored = STORED_ISO.test(value)
    if (locale === 'en' && stored) return value
    if (stored && digitsAt(value, 14, 2) <= 59 && digitsAt(value, 17, 2) <= 59) {
      const head = hourHead(value)
      if (head !== null) return head + value.slice(13, 19)
    }
    return formatInstant(value, stored, locale)
  }

  // ---- CSV cells (rules: csv.ts) ------------------------------------------------------------------------------

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

  function neutralise(text: string): string {
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

  function csvCell(text: string): string {
    return `"${quote(neutralise(text))}"`
  }

  /** The CSV line of the first `n` cells. */
  function csvLine(cells: readonly string[], delimiter: KernelDelimiter, n = cells.length): string {
    const out = new Array<string>(n)
    // csvCell, inlined without its quotes, which the join puts in: this runs for every cell of an export.
    for (let i = 0; i < n; i++) out[i] = quote(neutralise(cells[i] ?? ''))
    // join builds one flat string; `+=` would build a tree of 70 pieces that every later reader must walk.
    return `"${out.join(`"${delimiter}"`)}"\r\n`
  }

  // ---- HTML --------------------------------------------------------------------------------------------------

  const ESCAPES: Readonly<Record<string, string>> = {
    '&': '&amp;',
    '<': '&lt;',
    '>': '&gt;',
    '"': '&quot;',
    "'": '&#39;',
  }
  const HTML_SPECIAL = /[&<>"']/

  function escapeHtml(s: string): string {
    // Most cells need nothing: a test is cheaper than a replace that finds nothing.
    return HTML_SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c) : s
  }

  // ---- rows ---------------------------------------------------------------------------------------------------

  function rowFormatter(layout: RowLayout): RowFormatter {
    const { locale, delimiter, dates, csvCells, report, pageRows, rowStart, pageBreak } = layout
    const cells: string[] = []
    const parts: string[] = []
    return (inputs, index) => {
      cells.length = 0
      for (let i = 0; i < inputs.length; i++) cells.push(inputs[i] ?? '')
      for (const i of dates) cells[i] = formatDateTime(inputs[i], locale)
      const csv = csvCells > 0 ? csvLine(cells, delimiter, csvCells) : ''
      if (report.length === 0) return [csv, '']
      // Pieces joined once: one flat string rather than a tree of 40 concatenations.
      parts.length = 0
      parts.push(index > 0 && index % pageRows === 0 ? pageBreak + rowStart : rowStart)
      for (const c of report) {
        const text = escapeHtml(cells[c.cell] ?? '')
        if (c.kind === 'amount')
          parts.push('<td class="n" data-v="', inputs[c.raw] ?? '', '">', text, '</td>')
        else if (c.kind === 'date')
          parts.push('<td class="d" data-v="', escapeHtml(inputs[c.raw] ?? ''), '">', text, '</td>')
        else parts.push('<td>', text, '</td>')
      }
      parts.push('</tr>\n')
      return [csv, parts.join('')]
    }
  }

  return {
    formatDateTime,
    saoPauloOffsetMs,
    parseIso,
    neutralise,
    csvCell,
    csvLine,
    escapeHtml,
    rowFormatter,
  }
}

/** The main thread's instance (format.ts, csv.ts, html.ts and the exporter share its caches). */
export const kernel = recordsKernel()

/** One parsed CSV row: cells are decoded only when asked for (the verifier reads 4 of 36 columns). */
export interface CsvRow {
  readonly length: number
  /** 1-based line number where the row starts. */
  readonly line: number
  cell(i: number): string
}

/** What `checkCsvRows` needs to know about the file (plain data). */
export interface CsvCheckSpec {
  delimiter: KernelDelimiter
  locale: KernelLocale
  /** The expected header cells. */
  header: string[]
  /** Columns read from each row. */
  at: { status: number; refunded: number; deposit: number; payout: number }
  /** The yes and no of the `refunded` column. */
  yesNo: [string, string]
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
  /** Per status and refund, unsorted, of the well-formed rows. */
  totals: Array<{
    status: string
    hasRefund: boolean
    count: number
    depositCents: number
    payoutCents: number
  }>
}

/**
 * The CSV reading of the verifier (verify.ts).
 */
function csvReaderKernel() {
  const QUOTE = 0x22
  const CR = 0x0d
  const LF = 0x0a

  /**
   * Accepts CRLF or LF line ends and a missing final line end; refuses a quote inside an unquoted field, text
   * after a closing quote, an unterminated quote, or a CR without LF, which is how a damaged file usually shows.
   * Works on bytes: the delimiter, quote, CR and LF never occur inside a UTF-8 multi-byte sequence, so no
   * decoding is needed to find the cells. Calls `onRow` per row; a syntax error throws `syntaxError(message)`.
   *
   * Resumable (a file streamed in chunks): unless `final`, a row that reaches the end of `buf` is left for the
   * next call, which gets it back first with more bytes. Returns where that row starts and the line it starts on.
   */
  function parseCsv(
    buf: Buffer,
    delimiter: KernelDelimiter,
    onRow: (row: CsvRow) => void,
    syntaxError: (message: string) => Error,
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
            else throw syntaxError(`line ${rowLine}: unterminated quoted field`)
            break
          }
          push(start, q, doubled)
          i = q + 1
          const c = buf[i]
          if (i < n && c !== d && c !== CR && c !== LF)
            throw syntaxError(`line ${line}: text after a closing quote`)
        } else {
          const start = i
          while (i < n && special[buf[i] as number] === 0) i += 1
          if (buf[i] === QUOTE) throw syntaxError(`line ${line}: quote inside an unquoted field`)
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
          if (buf[i + 1] !== LF) throw syntaxError(`line ${line}: CR without LF`)
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

  /**
   * Inverse of formatAmount (format.ts): pt-BR `-1.234,56` (groups of three after the first one to three
   * digits), en `-1234.56`. One pass over the characters: it runs for two cells of every CSV row.
   */
  function parseAmount(cell: string, locale: KernelLocale): number | null | undefined {
    if (cell === '') return null
    const pt = locale === 'pt-BR'
    const n = cell.length
    const from = cell.charCodeAt(0) === 0x2d ? 1 : 0
    // `,dd` / `.dd` at the end, at least one digit before.
    if (n - from < 4 || cell.charCodeAt(n - 3) !== (pt ? 0x2c : 0x2e)) return undefined
    let v = 0
    // Digits since the start or the last group dot; whether a dot was seen (pt-BR).
    let run = 0
    let grouped = false
    for (let k = from; k < n; k++) {
      if (k === n - 3) continue
      const c = cell.charCodeAt(k)
      if (c >= 0x30 && c <= 0x39) {
        v = v * 10 + (c - 0x30)
        if (k < n - 3) run += 1
      } else if (pt && c === 0x2e && k < n - 3 && run > 0 && run <= 3 && (!grouped || run === 3)) {
        grouped = true
        run = 0
      } else return undefined
    }
    if (run === 0 || (pt && (grouped ? run !== 3 : run > 3)) || !Number.isSafeInteger(v)) return undefined
    return from === 1 ? -v : v
  }

  /** Inverse of `neutralise` (recordsKernel): one ' goes at each place it may have been put in. */
  const NEUTRALISED_AT = /(^|[;,\t\r\n])'/g

  function unneutralise(cell: string): string {
    return cell.indexOf("'") === -1 ? cell : cell.replace(NEUTRALISED_AT, '$1')
  }

  class SyntaxStop extends Error {}

  /**
   * The verifier's pass over a CSV file (after its BOM): header, row shapes, and totals. Streamed: `take` gets
   * the bytes not consumed before plus the next ones and returns how many it consumed (whole rows; all when
   * `final`); `result` says what was found.
   */
  function checkCsvRows(spec: CsvCheckSpec): {
    take(buf: Buffer, final: boolean): number
    result(): CsvCheck
  } {
    const { header, at, locale } = spec
    const [yes, no] = spec.yesNo
    const out: CsvCheck = {
      headerMismatch: null,
      syntaxError: null,
      dataRows: 0,
      malformed: 0,
      listed: [],
      totals: [],
    }
    const groups = new Map<string, CsvCheck['totals'][number]>()
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
      const key = `${refunded ? 1 : 0}:${status}`
      let t = groups.get(key)
      if (!t) {
        t = { status, hasRefund: refunded, count: 0, depositCents: 0, payoutCents: 0 }
        groups.set(key, t)
      }
      t.count += 1
      t.depositCents += deposit ?? 0
      t.payoutCents += payout ?? 0
    }
    let line = 1
    return {
      take(buf, final) {
        if (out.syntaxError !== null) return buf.length
        try {
          const r = parseCsv(buf, spec.delimiter, onRow, (message) => new SyntaxStop(message), {
            final,
            line,
          })
          line = r.line
          return r.consumed
        } catch (e) {
          if (!(e instanceof SyntaxStop)) throw e
          out.syntaxError = e.message
          return buf.length
        }
      },
      result() {
        out.totals = [...groups.values()]
        return out
      },
    }
  }

  return { parseCsv, parseAmount, unneutralise, checkCsvRows }
}

/** The main thread's instance. */
export const csvReader = csvReaderKernel()
