/**
 * The payee book as CSV, out and in.
 *
 * Out: the same CSV as the records exports (records/csv.ts): UTF-8 with BOM, CRLF, every cell quoted and
 * neutralised against formula injection, `;` + Portuguese headers or `,` + English ones. Documents are written
 * whole (the file is the book itself, to be imported again); keys as `type:key`, separated by ` | `.
 *
 * In: the file is hostile until checked. It is read through records/safe-read.ts (regular file, no link
 * followed, never blocking, at most PAYEES_CSV_MAX_BYTES), must be UTF-8 and RFC 4180 (the records reader), and
 * holds at most PAYEES_CSV_MAX_ROWS rows. Headers are matched in either language, in any order, accents and
 * case aside; unknown columns are ignored and named. Each row is validated like the form (shared/payee.ts) and
 * the valid ones are kept in one transaction; a refused row is listed with its line and, per field, a stable
 * code the screen words in pt-BR or English. A file that is not readable CSV imports nothing.
 */
import { isUtf8 } from 'node:buffer'
import { basename } from 'node:path'
import { PIX_KEY_TYPES, type PixKeyType } from '../../shared/pix-key'
import { normalizeTaxId } from '../../shared/tax-id'
import type { Payee } from '../../shared/payee'
import { BOM, csvLine, CsvSyntaxError, parseCsv, unneutralise, type CsvDelimiter } from '../records/csv'
import { readRegularFile } from '../records/safe-read'
import type { PayeeOutcome } from '../ledger/payee-store'

export const PAYEES_CSV_MAX_BYTES = 1 << 20
export const PAYEES_CSV_MAX_ROWS = 5000

const COLUMNS = ['name', 'taxNumber', 'pixKeys', 'euid', 'notes'] as const
type Column = (typeof COLUMNS)[number]

export const PAYEE_CSV_HEADERS: Readonly<Record<'pt-BR' | 'en', readonly string[]>> = {
  'pt-BR': ['Nome', 'CPF/CNPJ', 'Chaves Pix', 'EUID', 'Observações'],
  en: ['name', 'tax_number', 'pix_keys', 'euid', 'notes'],
}

/** Header names accepted on import, folded (lower case, no accents, `_` and `-` as spaces). */
const ALIASES: Readonly<Record<Column, readonly string[]>> = {
  name: ['nome', 'name', 'favorecido', 'payee', 'razao social'],
  taxNumber: ['cpf/cnpj', 'cpf cnpj', 'cpf', 'cnpj', 'documento', 'tax number', 'taxnumber'],
  pixKeys: ['chaves pix', 'chave pix', 'chaves', 'chave', 'pix keys', 'pix key', 'pixkeys', 'pixkey'],
  euid: ['euid'],
  notes: ['observacoes', 'observacao', 'obs', 'notas', 'notes', 'note'],
}

/** Key types by their code or a Portuguese name, for `type:key` cells. */
const TYPE_NAMES: Readonly<Record<string, PixKeyType>> = {
  ...Object.fromEntries(PIX_KEY_TYPES.map((t) => [t, t])),
  'e-mail': 'email',
  telefone: 'phone',
  celular: 'phone',
  aleatoria: 'evp',
  'chave aleatoria': 'evp',
}

const KEY_SEPARATOR = ' | '

function fold(s: string): string {
  return s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[_-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

export function payeesCsv(payees: Iterable<Payee>, locale: 'pt-BR' | 'en', delimiter: CsvDelimiter): string {
  let out = BOM + csvLine(PAYEE_CSV_HEADERS[locale], delimiter)
  for (const p of payees) {
    out += csvLine(
      [
        p.name,
        p.taxNumber,
        p.pixKeys.map((k) => `${k.type}:${k.key}`).join(KEY_SEPARATOR),
        p.euid ?? '',
        p.notes ?? '',
      ],
      delimiter,
    )
  }
  return out
}

/** `type:key` entries separated by `|`; an entry without a known type prefix is a key whose type is detected. */
export function parseKeysCell(cell: string): Array<{ key: string; type?: PixKeyType }> {
  return cell
    .split('|')
    .map((part) => part.trim())
    .filter((part) => part !== '')
    .map((part) => {
      const colon = part.indexOf(':')
      const type = colon > 0 ? TYPE_NAMES[fold(part.slice(0, colon))] : undefined
      return type ? { key: part.slice(colon + 1).trim(), type } : { key: part }
    })
}

export interface ImportProblem {
  /** Field path as the form names it ("taxNumber", "pixKeys.0.key"), or "_row". */
  field: string
  /** A code of shared/payee.ts (`payeeMessages`). */
  code: string
}

export interface PayeeImportResult {
  /** The file's own name (never its folder). */
  fileName: string
  imported: Array<{ line: number; id: string; name: string }>
  rejected: Array<{ line: number; name: string; problems: ImportProblem[] }>
  /** Header cells that named no known column. */
  ignoredColumns: string[]
}

/** Why a whole file was refused: nothing was imported. `detail` is English, for "Detalhes técnicos". */
export class PayeeImportError extends Error {
  override readonly name = 'PayeeImportError'
  constructor(
    readonly code:
      | 'import_unreadable'
      | 'import_too_large'
      | 'import_not_utf8'
      | 'import_not_csv'
      | 'import_no_header'
      | 'import_missing_columns'
      | 'import_too_many_rows',
    message: string,
    readonly detail: string = message,
    readonly missing: readonly string[] = [],
  ) {
    super(message)
  }
}

interface ParsedFile {
  columns: Map<Column, number>
  ignored: string[]
  rows: Array<{ line: number; cells: string[] }>
}

function delimiterOf(firstLine: string): CsvDelimiter {
  // The header holds no quoted separators of ours; whichever separator it uses more is the file's.
  const count = (c: string): number => firstLine.split(c).length - 1
  return count(';') >= count(',') && count(';') > 0 ? ';' : ','
}

export function parsePayeesCsv(buf: Buffer): ParsedFile {
  if (!isUtf8(buf)) {
    throw new PayeeImportError('import_not_utf8', 'The file is not UTF-8 text.')
  }
  const bom = Buffer.from(BOM, 'utf8')
  const body = buf.subarray(0, bom.length).equals(bom) ? buf.subarray(bom.length) : buf
  const text = body.toString('utf8')
  const firstLine = text.slice(0, Math.max(0, text.search(/\r?\n|$/)))
  const delimiter = delimiterOf(firstLine)
  const all: Array<{ line: number; cells: string[] }> = []
  try {
    parseCsv(body, delimiter, (row) => {
      if (all.length > PAYEES_CSV_MAX_ROWS) {
        throw new PayeeImportError(
          'import_too_many_rows',
          `More than ${PAYEES_CSV_MAX_ROWS} rows.`,
          `more than ${PAYEES_CSV_MAX_ROWS} data rows`,
        )
      }
      const cells: string[] = []
      for (let i = 0; i < row.length; i++) cells.push(unneutralise(row.cell(i)))
      all.push({ line: row.line, cells })
    })
  } catch (e) {
    if (e instanceof CsvSyntaxError) throw new PayeeImportError('import_not_csv', 'Not valid CSV.', e.message)
    throw e
  }
  const header = all.shift()
  if (!header || header.cells.every((c) => c.trim() === '')) {
    throw new PayeeImportError('import_no_header', 'The file has no header line.')
  }
  const columns = new Map<Column, number>()
  const ignored: string[] = []
  header.cells.forEach((cell, i) => {
    const f = fold(cell)
    const col = COLUMNS.find((c) => ALIASES[c].includes(f))
    if (col && !columns.has(col)) columns.set(col, i)
    else if (cell.trim() !== '') ignored.push(cell.trim().slice(0, 60))
  })
  const missing = (['name', 'taxNumber', 'pixKeys'] as const).filter((c) => !columns.has(c))
  if (missing.length > 0) {
    throw new PayeeImportError(
      'import_missing_columns',
      `Missing columns: ${missing.join(', ')}.`,
      `missing columns: ${missing.join(', ')}`,
      missing,
    )
  }
  // Blank lines (every cell empty) are spacing, not rows.
  const rows = all.filter((r) => r.cells.some((c) => c.trim() !== ''))
  return { columns, ignored: ignored.slice(0, 20), rows }
}

function inputOf(columns: Map<Column, number>, cells: readonly string[]): Record<string, unknown> {
  const at = (c: Column): string | undefined => {
    const i = columns.get(c)
    return i === undefined ? undefined : cells[i]
  }
  const euid = at('euid')?.trim()
  const notes = at('notes')?.trim()
  return {
    name: at('name') ?? '',
    taxNumber: at('taxNumber') ?? '',
    pixKeys: parseKeysCell(at('pixKeys') ?? ''),
    ...(euid ? { euid } : {}),
    ...(notes ? { notes } : {}),
  }
}

/** Reads `path` (hostile), validates every row, keeps the valid ones. Throws PayeeImportError for the file. */
export async function importPayeesCsv(
  /** A desk's book (synchronous) or any PayeeStore (a team's): either keeps the valid rows in one transaction. */
  book: {
    createMany(
      inputs: readonly unknown[],
      operator: string,
      via: string,
    ): PayeeOutcome[] | Promise<PayeeOutcome[]>
  },
  path: string,
  operator: string,
): Promise<PayeeImportResult> {
  const got = await readRegularFile(path, { maxBytes: PAYEES_CSV_MAX_BYTES })
  if ('refused' in got) {
    const { kind, detail } = got.refused
    throw kind === 'size'
      ? new PayeeImportError('import_too_large', 'The file is too large.', detail)
      : new PayeeImportError('import_unreadable', 'The file could not be read.', detail)
  }
  const parsed = parsePayeesCsv(got.buf)
  const fileName = basename(path)
  const result: PayeeImportResult = { fileName, imported: [], rejected: [], ignoredColumns: parsed.ignored }
  // A document twice in the file: the later line is refused here, so the message says where the first is.
  const firstLine = new Map<string, number>()
  const candidates: Array<{ line: number; input: Record<string, unknown> }> = []
  for (const row of parsed.rows) {
    const input = inputOf(parsed.columns, row.cells)
    const doc = normalizeTaxId(String(input.taxNumber))
    if (doc !== null && firstLine.has(doc)) {
      result.rejected.push({
        line: row.line,
        name: String(input.name).slice(0, 120),
        problems: [{ field: 'taxNumber', code: 'payee_repeated_in_file' }],
      })
      continue
    }
    if (doc !== null) firstLine.set(doc, row.line)
    candidates.push({ line: row.line, input })
  }
  const outcomes = await book.createMany(
    candidates.map((c) => c.input),
    operator,
    'import',
  )
  outcomes.forEach((o, i) => {
    const c = candidates[i] as (typeof candidates)[number]
    if (o.ok) result.imported.push({ line: c.line, id: o.payee.id, name: o.payee.name })
    else {
      const problems = Object.entries(o.error.fields).map(([field, code]) => ({ field, code }))
      result.rejected.push({
        line: c.line,
        name: String(c.input.name).slice(0, 120),
        problems: problems.length > 0 ? problems : [{ field: '_row', code: o.error.code }],
      })
    }
  })
  result.rejected.sort((a, b) => a.line - b.line)
  return result
}
