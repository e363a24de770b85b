/**
 * XLSX through exceljs, on a worker thread with memory and time limits: a hostile workbook (a zip bomb that lies
 * about its sizes, a shared-strings bomb, XML that takes forever) costs at most the worker, which is terminated,
 * never the main thread. The zip's directory is inspected first (zip-guard.ts), so the common bombs are refused
 * before anything is inflated.
 *
 * Decisions: formulas are refused, not read through their cached values (a payment amount must be the value a
 * person typed and sees, and a cached result can be stale or forged by whatever wrote the file); merged cells are
 * refused (which line does a merged amount belong to?); dates, booleans and error cells are refused per cell;
 * only the first worksheet is read.
 *
 * What a person does not see is not imported (issue #24): a workbook with hidden sheets, hidden rows holding
 * anything, or hidden columns holding anything is refused as a whole, naming them; a number cell's format is
 * passed on so that the amount columns can refuse a custom format (one that shows another number: index.ts).
 */
import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { RUN_MAX_ROWS } from '../../../shared/run'
import { MAX_CELL_CHARS, MAX_COLUMNS, type Grid } from './grid'
import { inspectZip } from './zip-guard'

export const XLSX_TIMEOUT_MS = 15_000
/** Heap of the worker: exceljs holds the whole workbook; 1,000 rows need a few MiB. */
export const XLSX_WORKER_HEAP_MB = 256

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads')
const post = (m) => parentPort.postMessage(m)
function cellOf(v) {
  if (v === null || v === undefined) return { text: '' }
  if (typeof v === 'string') return { text: v }
  if (typeof v === 'number') return Number.isFinite(v) ? { number: String(v) } : { refused: 'amount_format' }
  if (typeof v === 'boolean') return { refused: 'cell_boolean' }
  if (v instanceof Date) return { refused: 'cell_date' }
  if (typeof v === 'object') {
    if ('formula' in v || 'sharedFormula' in v) return { refused: 'formula' }
    if ('error' in v) return { refused: 'cell_error' }
    if (Array.isArray(v.richText)) return { text: v.richText.map((r) => String(r && r.text || '')).join('') }
    if ('text' in v) return cellOf(v.text)
  }
  return { refused: 'xlsx_unreadable' }
}
;(async () => {
  try {
    const ExcelJS = require(workerData.excelPath)
    const wb = new ExcelJS.Workbook()
    await wb.xlsx.load(Buffer.from(workerData.bytes))
    const hiddenSheets = wb.worksheets.filter((s) => s.state === 'hidden' || s.state === 'veryHidden')
    if (hiddenSheets.length > 0) {
      return post({ ok: false, code: 'hidden_sheets', line: 0, cells: hiddenSheets.map((s) => String(s.name)).slice(0, 10) })
    }
    const ws = wb.worksheets[0]
    if (!ws) return post({ ok: false, code: 'no_rows', line: 0 })
    const merges = Object.keys(ws._merges || {}).length || ((ws.model && ws.model.merges) || []).length
    if (merges > 0) return post({ ok: false, code: 'merged_cells', line: 0 })
    const lines = []
    let failure = null
    const hiddenRows = []
    const hiddenColumns = new Set()
    ws.eachRow({ includeEmpty: false }, (row, rowNumber) => {
      if (failure) return
      const filled = []
      for (let c = 1; c <= row.cellCount; c++) {
        const v = row.getCell(c).value
        if (v !== null && v !== undefined && String(v).trim() !== '') filled.push(c)
      }
      if (row.hidden && filled.length > 0) hiddenRows.push(rowNumber)
      for (const c of filled) if (ws.getColumn(c).hidden) hiddenColumns.add(c)
      if (row.cellCount > workerData.maxColumns) {
        failure = { ok: false, code: 'too_many_columns', line: rowNumber }
        return
      }
      const cells = []
      for (let c = 1; c <= row.cellCount; c++) {
        const x = row.getCell(c)
        const cell = cellOf(x.value)
        // The format decides what a person sees in a number cell: kept for the amount columns' check.
        if ('number' in cell && typeof x.numFmt === 'string' && x.numFmt !== '' && x.numFmt !== 'General') {
          cell.format = x.numFmt
        }
        if ('text' in cell && cell.text.length > workerData.maxCellChars) {
          failure = { ok: false, code: 'cell_too_long', line: rowNumber }
          return
        }
        cells.push(cell)
      }
      if (!cells.some((c) => !('text' in c) || c.text.trim() !== '')) return
      lines.push({ line: rowNumber, cells })
      if (lines.length > workerData.maxLines) failure = { ok: false, code: 'too_many_rows', line: rowNumber }
    })
    if (!failure && hiddenRows.length > 0) {
      failure = { ok: false, code: 'hidden_rows', line: hiddenRows[0], cells: hiddenRows.slice(0, 20).map(String) }
    }
    if (!failure && hiddenColumns.size > 0) {
      const letters = [...hiddenColumns].sort((a, b) => a - b).map((c) => ws.getColumn(c).letter)
      failure = { ok: false, code: 'hidden_columns', line: 0, cells: letters.slice(0, 20) }
    }
    post(failure || { ok: true, lines })
  } catch (e) {
    post({ ok: false, code: 'xlsx_unreadable', line: 0 })
  }
})()
`

let excelPath: string | null = null
function resolveExcel(): string {
  excelPath ??= createRequire(__filename).resolve('exceljs')
  return excelPath
}

export interface XlsxOptions {
  timeoutMs?: number
  heapMb?: number
}

/** Never throws and never outlives `timeoutMs`. */
export async function readXlsx(bytes: Uint8Array, o: XlsxOptions = {}): Promise<Grid> {
  const zip = inspectZip(bytes)
  if (!zip.ok) return { ok: false, code: zip.code, line: 0 }
  let worker: Worker
  try {
    worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: {
        bytes,
        excelPath: resolveExcel(),
        maxLines: RUN_MAX_ROWS + 1,
        maxColumns: MAX_COLUMNS,
        maxCellChars: MAX_CELL_CHARS,
      },
      resourceLimits: {
        maxOldGenerationSizeMb: o.heapMb ?? XLSX_WORKER_HEAP_MB,
        maxYoungGenerationSizeMb: 32,
      },
      stdout: true,
      stderr: true,
    })
  } catch {
    return { ok: false, code: 'xlsx_unreadable', line: 0 }
  }
  return new Promise<Grid>((resolve) => {
    let done = false
    const finish = (g: Grid): void => {
      if (done) return
      done = true
      clearTimeout(timer)
      void worker.terminate()
      resolve(g)
    }
    const timer = setTimeout(
      () => finish({ ok: false, code: 'xlsx_timeout', line: 0 }),
      o.timeoutMs ?? XLSX_TIMEOUT_MS,
    )
    worker.on('message', (m: Grid) => finish(m))
    worker.on('error', (e: NodeJS.ErrnoException) =>
      finish({
        ok: false,
        code: e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? 'xlsx_too_big' : 'xlsx_unreadable',
        line: 0,
      }),
    )
    worker.on('exit', () => finish({ ok: false, code: 'xlsx_unreadable', line: 0 }))
  })
}
