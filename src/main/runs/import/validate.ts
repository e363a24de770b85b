/**
 * Validation before anything moves: every line of the grid becomes either a good row (a `WithdrawalDraft` the
 * single-payment schema accepts, a Liquid-checked refund address, the payee matched in the book, and any likely
 * duplicate named) or a list of problems, each with its line, column and reason in pt-BR and English. Good rows
 * are kept whatever the other lines say.
 */
import { DUPLICATE_WINDOW_MS } from '../../withdrawals/create'
import { parsePixKey, type PixKeyType } from '../../../shared/pix-key'
import { type PaymentReferences } from '../../../shared/payment-references'
import type { ImportedRow, PayeeMatch, RunColumn, RunIssue } from '../../../shared/run'
import { withdrawalDraftSchema, type WithdrawalDraft } from '../../../shared/withdrawal'
import { visibleText } from '../../../shared/visible-text'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import {
  checkLiquidAddress,
  formatLiquidMessage,
  type LiquidAddressCheck,
  type LiquidNetwork,
} from '../../liquid'
import {
  brlCents,
  cellText,
  depixCents,
  pixKeyText,
  pixKeyType,
  taxNumberText,
  type CellValue,
} from './cells'
import type { ColumnMap } from './columns'
import type { Cell, GridLine } from './grid'
import { issue } from './issues'

/** What the importer needs of a payee book entry (issue #14's book is wired to this at merge). */
export interface PayeeLike {
  id: string
  name: string
  pixKey: string
  pixKeyType?: PixKeyType
  taxNumber?: string
  euid?: string
}

export interface PayeeLookup {
  byId(id: string): PayeeLike | null
  byName(name: string): PayeeLike[]
}

export const NO_PAYEES: PayeeLookup = { byId: () => null, byName: () => [] }

export interface ValidateCtx {
  payees: PayeeLookup
  network: LiquidNetwork
  profile: string
  /** The profile's `defaultRefundAddress`, used for a blank refund cell. */
  defaultRefundAddress: string | null
  /** The ledger's duplicate guard query (the one `create` runs). */
  findRecentSimilar: (q: {
    pixKey: string
    amountKind: 'deposit' | 'payout'
    amountCents: number
    sinceIso: string
    profile: string
  }) => WithdrawalRecord[]
  now: () => number
}

export interface Validated {
  rows: ImportedRow[]
  issues: RunIssue[]
  /** Data lines read (good and bad). */
  lines: number
}

const REFERENCE_COLUMNS = ['invoice', 'costCentre', 'category', 'note'] as const

/** Draft field path → the column it came from. */
function columnOfPath(path: string, amountColumn: RunColumn, keyFromBook: boolean): RunColumn | null {
  const head = path.split('.')[0]
  if (head === 'amount') return amountColumn
  if (head === 'references') {
    const f = path.split('.')[1]
    return (REFERENCE_COLUMNS as readonly string[]).includes(f ?? '') ? (f as RunColumn) : null
  }
  if (head === 'pixKey' && keyFromBook) return 'payee'
  if (head === 'pixKey' || head === 'pixKeyType' || head === 'taxNumber' || head === 'euid') return head
  if (head === 'refundAddress') return 'refundAddress'
  return null
}

class LineReader {
  readonly issues: RunIssue[] = []
  constructor(
    private readonly l: GridLine,
    private readonly map: ColumnMap,
    private readonly byField: ReadonlyMap<RunColumn, number>,
  ) {}
  has(field: RunColumn): boolean {
    return this.byField.has(field)
  }
  cell(field: RunColumn): Cell | undefined {
    const i = this.byField.get(field)
    return i === undefined ? undefined : this.l.cells[i]
  }
  add(field: RunColumn | null, code: Parameters<typeof issue>[3]): void {
    const column = field ? (this.map.header[field] ?? field) : null
    const base = issue(this.l.line, column, field, code)
    if (code !== 'hidden_characters') {
      this.issues.push(base)
      return
    }
    // Named in the sentence itself: the cell's text may not be shown safely, so where it is must be said.
    const where = {
      'pt-BR': `Linha ${this.l.line}, coluna "${visibleText(column ?? '')}": `,
      en: `Line ${this.l.line}, column "${visibleText(column ?? '')}": `,
    }
    this.issues.push({
      ...base,
      message: { 'pt-BR': where['pt-BR'] + base.message['pt-BR'], en: where.en + base.message.en },
    })
  }
  read<T>(field: RunColumn, f: (c: Cell | undefined) => CellValue<T>, blank: T): T {
    const v = f(this.cell(field))
    if (v.ok) return v.value
    this.add(field, v.code)
    return blank
  }
}

function matchPayee(text: string, payees: PayeeLookup): { match: PayeeMatch; payee: PayeeLike | null } {
  if (text === '') return { match: { kind: 'blank', payeeId: null, name: null }, payee: null }
  const byId = payees.byId(text)
  if (byId) return { match: { kind: 'id', payeeId: byId.id, name: byId.name }, payee: byId }
  const named = payees.byName(text)
  if (named.length === 1) {
    const p = named[0] as PayeeLike
    return { match: { kind: 'name', payeeId: p.id, name: p.name }, payee: p }
  }
  return {
    match: { kind: named.length > 1 ? 'ambiguous' : 'none', payeeId: null, name: text },
    payee: null,
  }
}

export function canonicalKey(key: string, type?: PixKeyType): string {
  const p = parsePixKey(key, type)
  return p.ok ? p.key : key.trim()
}

export function validateLines(lines: readonly GridLine[], map: ColumnMap, ctx: ValidateCtx): Validated {
  const byField = new Map<RunColumn, number>()
  for (const [i, f] of map.index) byField.set(f, i)
  const liquidChecks = new Map<string, LiquidAddressCheck>()
  const issues: RunIssue[] = []
  const rows: ImportedRow[] = []
  for (const l of lines) {
    const r = new LineReader(l, map, byField)
    const row = readLine(r, l.line, ctx, liquidChecks)
    issues.push(...r.issues)
    if (row && r.issues.length === 0) rows.push(row)
  }
  markDuplicates(rows, ctx)
  return { rows, issues, lines: lines.length }
}

function readLine(
  r: LineReader,
  line: number,
  ctx: ValidateCtx,
  liquidChecks: Map<string, LiquidAddressCheck>,
): ImportedRow | null {
  const payeeText = r.read('payee', cellText, '')
  const { match, payee } = matchPayee(payeeText, ctx.payees)
  let keyType = r.read('pixKeyType', pixKeyType, undefined)
  let pixKey = r.read('pixKey', (c) => pixKeyText(c, keyType), '')
  let taxNumber = r.read('taxNumber', taxNumberText, '')
  let euid = r.read('euid', cellText, '')
  const warnings: RunIssue[] = []
  const keyFromBook = pixKey === '' && payee !== null
  if (payee) {
    if (pixKey === '') {
      pixKey = payee.pixKey
      keyType ??= payee.pixKeyType
    } else if (canonicalKey(pixKey, keyType) !== canonicalKey(payee.pixKey, payee.pixKeyType)) {
      warnings.push(issue(line, null, 'pixKey', 'payee_key_differs'))
    }
    if (taxNumber === '' && euid === '') {
      taxNumber = payee.taxNumber ?? ''
      euid = payee.euid ?? ''
    }
  } else if (pixKey === '' && match.kind === 'ambiguous') r.add('payee', 'payee_ambiguous')
  else if (pixKey === '' && match.kind === 'none') r.add('payee', 'payee_not_found')

  const payout = r.read('payoutBrl', brlCents, null)
  const deposit = r.read('depositDepix', depixCents, null)
  const amountColumn: RunColumn = deposit !== null && payout === null ? 'depositDepix' : 'payoutBrl'
  if (payout !== null && deposit !== null) {
    r.add('payoutBrl', 'amount_both')
    r.add('depositDepix', 'amount_both')
  } else if (
    payout === null &&
    deposit === null &&
    !r.issues.some((i) => i.field === 'payoutBrl' || i.field === 'depositDepix')
  ) {
    r.add(r.has('payoutBrl') ? 'payoutBrl' : 'depositDepix', 'amount_missing')
  }

  const refundCell = r.read('refundAddress', cellText, '')
  const refundFromProfile = refundCell === ''
  const refundAddress = refundFromProfile ? (ctx.defaultRefundAddress ?? '') : refundCell
  if (refundAddress === '') r.add('refundAddress', 'refund_address_missing')

  const references: PaymentReferences = {}
  for (const f of REFERENCE_COLUMNS) {
    const v = r.read(f, cellText, '')
    if (v !== '') references[f] = v
  }
  if (r.issues.length > 0) return null

  const draft: WithdrawalDraft = {
    pixKey,
    ...(keyType ? { pixKeyType: keyType } : {}),
    ...(taxNumber ? { taxNumber } : {}),
    ...(euid ? { euid } : {}),
    amount:
      deposit !== null ? { kind: 'deposit', cents: deposit } : { kind: 'payout', cents: payout as number },
    refundAddress,
    ...(Object.keys(references).length > 0 ? { references } : {}),
  }
  const parsed = withdrawalDraftSchema.safeParse(draft)
  if (!parsed.success) {
    const seen = new Set<string>()
    for (const iss of parsed.error.issues) {
      const path = iss.path.map(String).join('.')
      if (seen.has(path)) continue
      seen.add(path)
      const col = columnOfPath(path, amountColumn, keyFromBook)
      r.add(col, iss.message as Parameters<typeof issue>[3])
    }
    return null
  }
  let check = liquidChecks.get(refundAddress)
  if (check === undefined) {
    check = checkLiquidAddress(refundAddress, ctx.network)
    liquidChecks.set(refundAddress, check)
  }
  if (!check.ok) {
    const networks = check.actualNetwork ? { expected: ctx.network, actual: check.actualNetwork } : undefined
    const base = issue(line, null, 'refundAddress', 'refund_address_liquid')
    r.issues.push({
      ...base,
      column: refundFromProfile ? null : base.column,
      message: {
        'pt-BR': `${base.message['pt-BR']} ${formatLiquidMessage(check.reason, 'pt-BR', networks)}`,
        en: `${base.message.en} ${formatLiquidMessage(check.reason, 'en', networks)}`,
      },
    })
    return null
  }
  return { line, draft: parsed.data, payee: match, refundFromProfile, duplicate: null, warnings }
}

/** Same Pix key and amount: within the file, and in the ledger's recent past (the create's own guard query). */
function markDuplicates(rows: ImportedRow[], ctx: ValidateCtx): void {
  const groups = new Map<string, ImportedRow[]>()
  const sinceIso = new Date(ctx.now() - DUPLICATE_WINDOW_MS).toISOString()
  const ledgerCache = new Map<string, string[]>()
  for (const row of rows) {
    const key = canonicalKey(row.draft.pixKey, row.draft.pixKeyType)
    const k = `${key.toLowerCase()}|${row.draft.amount.kind}|${row.draft.amount.cents}`
    const g = groups.get(k) ?? []
    g.push(row)
    groups.set(k, g)
    let ledger = ledgerCache.get(k)
    if (ledger === undefined) {
      ledger = ctx
        .findRecentSimilar({
          pixKey: key,
          amountKind: row.draft.amount.kind,
          amountCents: row.draft.amount.cents,
          sinceIso,
          profile: ctx.profile,
        })
        .map((w) => w.localId)
      ledgerCache.set(k, ledger)
    }
    if (ledger.length > 0) row.duplicate = { lines: [], ledger }
  }
  for (const g of groups.values()) {
    if (g.length < 2) continue
    for (const row of g) {
      row.duplicate = {
        lines: g.filter((o) => o !== row).map((o) => o.line),
        ledger: row.duplicate?.ledger ?? [],
      }
    }
  }
}
