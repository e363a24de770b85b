/**
 * The header line: which column is which. Headers are matched without case, accents, spaces or punctuation, in
 * either language and with a few aliases a finance team types; trailing empty headers (Excel's habit) are
 * ignored. An unknown or repeated header refuses the file: a misspelt amount column must never be skipped.
 */
import { RUN_COLUMNS, RUN_HEADERS, type RunColumn, type RunIssue } from '../../../shared/run'
import { cellIsBlank, type Cell, type GridLine } from './grid'
import { issue } from './issues'

export function headerKey(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
}

const ALIASES: Readonly<Record<string, RunColumn>> = (() => {
  const out: Record<string, RunColumn> = {}
  for (const lang of ['pt-BR', 'en'] as const) {
    for (const col of RUN_COLUMNS) out[headerKey(RUN_HEADERS[lang][col])] = col
  }
  const extra: Array<[string, RunColumn]> = [
    ['favorecidoid', 'payee'],
    ['codigodofavorecido', 'payee'],
    ['payeeid', 'payee'],
    ['nome', 'payee'],
    ['name', 'payee'],
    ['chave', 'pixKey'],
    ['tipodechave', 'pixKeyType'],
    ['tipo', 'pixKeyType'],
    ['keytype', 'pixKeyType'],
    ['cpf', 'taxNumber'],
    ['cnpj', 'taxNumber'],
    ['valordopix', 'payoutBrl'],
    ['valorpix', 'payoutBrl'],
    ['valor', 'payoutBrl'],
    ['payout', 'payoutBrl'],
    ['payoutamount', 'payoutBrl'],
    ['depix', 'depositDepix'],
    ['valordodeposito', 'depositDepix'],
    ['depositamount', 'depositDepix'],
    ['notafiscal', 'invoice'],
    ['nfe', 'invoice'],
    ['centrodecustos', 'costCentre'],
    ['costcenter', 'costCentre'],
    ['obs', 'note'],
    ['observacoes', 'note'],
    ['enderecodedevolucao', 'refundAddress'],
  ]
  for (const [k, v] of extra) out[k] ??= v
  return out
})()

export interface ColumnMap {
  /** Column index → field. */
  index: ReadonlyMap<number, RunColumn>
  /** Field → the header text as the file has it (for messages). */
  header: Readonly<Partial<Record<RunColumn, string>>>
}

function headerText(c: Cell | undefined): string {
  return c !== undefined && 'text' in c ? c.text.trim() : ''
}

export function mapColumns(
  header: GridLine,
): { ok: true; map: ColumnMap } | { ok: false; issues: RunIssue[] } {
  const index = new Map<number, RunColumn>()
  const names: Partial<Record<RunColumn, string>> = {}
  const issues: RunIssue[] = []
  header.cells.forEach((c, i) => {
    if (cellIsBlank(c)) return
    const text = headerText(c)
    const col = ALIASES[headerKey(text)]
    if (col === undefined) {
      issues.push(issue(header.line, text || `#${i + 1}`, null, 'unknown_column'))
      return
    }
    if (names[col] !== undefined) {
      issues.push(issue(header.line, text, col, 'repeated_column'))
      return
    }
    index.set(i, col)
    names[col] = text
  })
  if (names.pixKey === undefined && names.payee === undefined) {
    issues.push(issue(header.line, null, null, 'missing_pix_key_column'))
  }
  if (names.payoutBrl === undefined && names.depositDepix === undefined) {
    issues.push(issue(header.line, null, null, 'missing_amount_column'))
  }
  return issues.length > 0 ? { ok: false, issues } : { ok: true, map: { index, header: names } }
}
