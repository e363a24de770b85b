/**
 * CSV as Excel and LibreOffice write it: UTF-8 with or without BOM, or Excel's plain Windows-1252 CSV, `;` (pt-BR Excel) or `,`, CRLF or LF, quoted
 * cells with doubled quotes and line breaks inside, trailing empty columns, blank lines. The delimiter is the one
 * of the two that appears most in the header line outside quotes. Bounds: at most RUN_MAX_ROWS data lines (one
 * more and the file is refused without reading on), MAX_COLUMNS per line and MAX_CELL_CHARS per cell, so a hostile
 * file costs one linear pass at worst.
 */
import { RUN_MAX_ROWS } from '../../../shared/run'
import { MAX_CELL_CHARS, MAX_COLUMNS, type Grid, type GridLine } from './grid'

/**
 * True when the bytes hold at least one well-formed UTF-8 multi-byte sequence: a file that is not valid UTF-8 but
 * has some is a damaged or mixed UTF-8 file, not Windows-1252 (whose accented letters are single bytes followed
 * by ASCII), and reading it either way would be a guess.
 */
function hasUtf8Sequences(b: Uint8Array): boolean {
  for (let i = 0; i < b.length; i++) {
    const c = b[i] as number
    const n = c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : 0
    if (n === 0) continue
    let ok = i + n < b.length
    for (let k = 1; ok && k <= n; k++) ok = ((b[i + k] as number) & 0xc0) === 0x80
    if (ok) return true
  }
  return false
}

/**
 * Decodes the bytes as UTF-8 (BOM dropped), or else as Windows-1252 — what Excel's plain "CSV (separado por
 * vírgulas)" writes on a pt-BR Windows (issue #26) — or names why not: a file neither reads as is refused whole.
 */
export function decodeText(
  bytes: Uint8Array,
):
  | { ok: true; text: string; encoding: 'utf-8' | 'windows-1252' }
  | { ok: false; code: 'not_utf8' | 'utf16' | 'binary' } {
  if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
    return { ok: false, code: 'utf16' }
  }
  let text: string
  let encoding: 'utf-8' | 'windows-1252' = 'utf-8'
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes)
  } catch {
    if (hasUtf8Sequences(bytes)) return { ok: false, code: 'not_utf8' }
    text = new TextDecoder('windows-1252').decode(bytes)
    encoding = 'windows-1252'
    // The five bytes Windows-1252 leaves undefined come out as C1 controls: then it is some other encoding.
    if (/[\u0080-\u009f]/.test(text)) return { ok: false, code: 'not_utf8' }
  }
  // A NUL never appears in a text spreadsheet; it means a binary file (or UTF-16 without its BOM).
  if (text.includes('\u0000')) return { ok: false, code: 'binary' }
  return { ok: true, text, encoding }
}

function pickDelimiter(text: string): ';' | ',' {
  let semi = 0
  let comma = 0
  let quoted = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (c === '"') quoted = !quoted
    else if (!quoted && (c === '\n' || c === '\r')) break
    else if (!quoted && c === ';') semi++
    else if (!quoted && c === ',') comma++
  }
  return semi >= comma && semi > 0 ? ';' : ','
}

/** Parses `text` into lines of text cells; blank lines are skipped but keep their numbers. */
export function parseCsv(text: string): Grid {
  const delimiter = pickDelimiter(text)
  const lines: GridLine[] = []
  let cells: string[] = []
  let cell = ''
  let quoted = false
  let wasQuoted = false
  let line = 1
  let startLine = 1
  const endCell = (): Grid | null => {
    if (cell.length > MAX_CELL_CHARS) return { ok: false, code: 'cell_too_long', line: startLine }
    cells.push(cell)
    cell = ''
    wasQuoted = false
    if (cells.length > MAX_COLUMNS) return { ok: false, code: 'too_many_columns', line: startLine }
    return null
  }
  const endLine = (): Grid | null => {
    const bad = endCell()
    if (bad) return bad
    if (cells.some((c) => c.trim() !== '')) {
      lines.push({ line: startLine, cells: cells.map((t) => ({ text: t })) })
      // Header + RUN_MAX_ROWS data lines; the next one refuses the file.
      if (lines.length > RUN_MAX_ROWS + 1) return { ok: false, code: 'too_many_rows', line: startLine }
    }
    cells = []
    return null
  }
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          cell += '"'
          i++
        } else quoted = false
      } else {
        if (c === '\n') line++
        else if (c === '\r' && text[i + 1] !== '\n') line++
        cell += c
        if (cell.length > MAX_CELL_CHARS) return { ok: false, code: 'cell_too_long', line: startLine }
      }
      continue
    }
    if (c === '"' && cell === '' && !wasQuoted) {
      quoted = true
      wasQuoted = true
    } else if (c === delimiter) {
      const bad = endCell()
      if (bad) return bad
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++
      const bad = endLine()
      if (bad) return bad
      line++
      startLine = line
    } else {
      // Text after a closing quote (`"a"b`) is kept as Excel does: appended to the cell.
      cell += c
      if (cell.length > MAX_CELL_CHARS) return { ok: false, code: 'cell_too_long', line: startLine }
    }
  }
  if (quoted) return { ok: false, code: 'unclosed_quote', line: startLine }
  const bad = endLine()
  if (bad) return bad
  return { ok: true, lines }
}
