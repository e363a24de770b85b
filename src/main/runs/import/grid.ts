/**
 * What a spreadsheet reader hands to validation: lines of cells, numbered as the spreadsheet numbers them, or the
 * reason the whole file is refused. CSV cells are always text; an XLSX cell may be a number (kept as the decimal
 * string of its value, never a float used for money) or refused on its own (a formula, a date, an error).
 */
import type { RunMessageCode } from '../../../shared/run'

/** `format`: the number format of an XLSX number cell, when not General (what the person sees depends on it). */
export type Cell = { text: string } | { number: string; format?: string } | { refused: RunMessageCode }

export interface GridLine {
  /** 1-based, header included: what the operator sees in the spreadsheet's margin. */
  line: number
  cells: Cell[]
}

/** A refused file; `cells`: what the sentence names (sheet names, row numbers, column letters or cell refs). */
export type Grid =
  { ok: true; lines: GridLine[] } | { ok: false; code: RunMessageCode; line: number; cells?: string[] }

/** Data lines beyond RUN_MAX_ROWS are not read: one more than allowed is enough to refuse the file. */
export const MAX_COLUMNS = 40
export const MAX_CELL_CHARS = 1000

export function cellIsBlank(c: Cell | undefined): boolean {
  return c === undefined || ('text' in c && c.text.trim() === '')
}
