/**
 * Import of a run file: bytes (at most RUN_FILE_MAX_BYTES) → grid (CSV or XLSX, by content, not by name) → header
 * → validated rows and problems. A file the app reads from disk goes through the size-capped safe read of the
 * records module (no links followed, no FIFOs, size checked before a byte is read). A file whose hidden sheets,
 * rows or columns hold something, or whose amount cells have a custom number format, is refused whole with one
 * sentence naming them (issue #24): an approver reads the spreadsheet, and must read what is paid.
 */
import { RUN_FILE_MAX_BYTES, type RunIssue } from '../../../shared/run'
import { readRegularFile } from '../../records/safe-read'
import { mapColumns, type ColumnMap } from './columns'
import { decodeText, parseCsv } from './csv'
import type { Grid, GridLine } from './grid'
import { issue } from './issues'
import { validateLines, type ValidateCtx, type Validated } from './validate'
import { columnLetters, plainAmountFormat } from './number-format'
import { readXlsx, type XlsxOptions } from './xlsx'

export type ImportResult = Validated & { kind: 'csv' | 'xlsx' | null }

function refused(
  code: Parameters<typeof issue>[3],
  line = 0,
  kind: ImportResult['kind'] = null,
  cells: readonly string[] = [],
): ImportResult {
  const base = issue(line, null, null, code)
  // Messages of a file's hidden parts and custom formats name them: `{cells}` is the list.
  const list = cells.join(', ')
  const message = {
    'pt-BR': base.message['pt-BR'].replace('{cells}', list),
    en: base.message.en.replace('{cells}', list),
  }
  return { rows: [], issues: [{ ...base, message }], lines: 0, kind }
}

/** Amount cells (number cells of the amount columns) whose format could show another number: cell refs. */
function customAmountFormats(lines: readonly GridLine[], map: ColumnMap): string[] {
  const out: string[] = []
  for (const [i, field] of map.index) {
    if (field !== 'payoutBrl' && field !== 'depositDepix') continue
    for (const l of lines) {
      const c = l.cells[i]
      if (c && 'number' in c && c.format !== undefined && !plainAmountFormat(c.format, c.number)) {
        out.push(`${columnLetters(i)}${l.line}`)
      }
    }
  }
  return out
}

const isZip = (b: Uint8Array): boolean => b[0] === 0x50 && b[1] === 0x4b && b[2] === 0x03 && b[3] === 0x04
const isOle = (b: Uint8Array): boolean => b[0] === 0xd0 && b[1] === 0xcf && b[2] === 0x11 && b[3] === 0xe0

export async function readGrid(
  bytes: Uint8Array,
  o: XlsxOptions = {},
): Promise<{ kind: 'csv' | 'xlsx' | null; grid: Grid }> {
  if (bytes.length > RUN_FILE_MAX_BYTES)
    return { kind: null, grid: { ok: false, code: 'file_too_large', line: 0 } }
  if (bytes.length === 0) return { kind: null, grid: { ok: false, code: 'file_empty', line: 0 } }
  if (isZip(bytes)) return { kind: 'xlsx', grid: await readXlsx(bytes, o) }
  // An .xls, or an .xlsx encrypted with a password (Office wraps those in the same OLE container).
  if (isOle(bytes)) return { kind: null, grid: { ok: false, code: 'old_xls', line: 0 } }
  const text = decodeText(bytes)
  if (!text.ok) return { kind: 'csv', grid: { ok: false, code: text.code, line: 0 } }
  return { kind: 'csv', grid: parseCsv(text.text) }
}

export async function importRunFile(
  bytes: Uint8Array,
  ctx: ValidateCtx,
  o: XlsxOptions = {},
): Promise<ImportResult> {
  const { kind, grid } = await readGrid(bytes, o)
  if (!grid.ok) return refused(grid.code, grid.line, kind, grid.cells)
  const [header, ...data] = grid.lines
  if (!header) return refused('file_empty', 0, kind)
  const mapped = mapColumns(header)
  if (!mapped.ok) return { rows: [], issues: mapped.issues, lines: data.length, kind }
  if (data.length === 0) return refused('no_rows', header.line, kind)
  const formats = customAmountFormats(data, mapped.map)
  if (formats.length > 0) {
    const first = formats.length > 20 ? [...formats.slice(0, 20), '…'] : formats
    return refused('amount_custom_format', 0, kind, first)
  }
  return { ...validateLines(data, mapped.map, ctx), kind }
}

/** Reads `path` with the safe read (regular file only, ≤ 10 MB) and imports it. */
export async function importRunPath(
  path: string,
  ctx: ValidateCtx,
  o: XlsxOptions = {},
): Promise<ImportResult> {
  const read = await readRegularFile(path, { maxBytes: RUN_FILE_MAX_BYTES })
  if ('refused' in read) {
    return refused(read.refused.kind === 'size' ? 'file_too_large' : 'file_unreadable')
  }
  return importRunFile(read.buf, ctx, o)
}

export type { PayeeLike, PayeeLookup, ValidateCtx } from './validate'
export { NO_PAYEES } from './validate'
export type RunImportIssue = RunIssue
