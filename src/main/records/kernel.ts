/**
 * The CSV reading of the verifier (`csvReader`): the parser, and its pass over a CSV file (header, row shapes,
 * totals). csv.ts and format.ts export its functions under their usual names; docs/RECORDS.md has the rules.
 */

export type KernelLocale = 'pt-BR' | 'en'
export type KernelDelimiter = ';' | ','

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

  /** Inverse of `neutralise` (csv.ts): one ' goes at each place it may have been put in. */
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
