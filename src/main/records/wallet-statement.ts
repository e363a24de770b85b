/**
 * Issue #27: the treasury wallet's statement in the signed export. `wallet-statement.json` (for machines and the
 * verifier), `wallet-statement.csv` and `wallet-statement.html` (for people, with the export's CSV and HTML), each
 * listed and hashed in the manifest like every member:
 * the period, the opening DePix balance, each confirmed movement with what it was (a payment's funding, a top-up's
 * delivery, a refund, or unmatched with its label), the closing balance, and the reconciliation (each funded
 * payment ↔ its on-chain outgoing, each delivered top-up and refund ↔ its incoming).
 *
 * The verifier checks the JSON's arithmetic on its own (closing = opening + every line, cents = units / 10⁶
 * truncated, reconciliation = the matched lines), beyond the hash and signature every member has.
 */
import { z } from 'zod'
import type { Statement } from '../wallet/statement'
import { BOM, csvLine, type CsvDelimiter } from './csv'
import { formatDateTime, type ExportLocale } from './format'

export const WALLET_STATEMENT_FILE = 'wallet-statement.json'
export const WALLET_STATEMENT_CSV = 'wallet-statement.csv'
export const WALLET_STATEMENT_HTML = 'wallet-statement.html'
export const WALLET_STATEMENT_SCHEMA = 'tesouraria-depix/wallet-statement'
const UNITS_PER_CENT = 1_000_000n

const units = z.string().regex(/^-?\d{1,30}$/)
const cents = z.number().int().refine(Number.isSafeInteger)
const txid = z.string().regex(/^[0-9a-f]{64}$/)
const iso = z.iso.datetime({ offset: true })
const pair = z.strictObject({ localId: z.string().min(1).max(100), txid, depixUnits: units })

export const walletStatementFileSchema = z.strictObject({
  schema: z.literal(WALLET_STATEMENT_SCHEMA),
  version: z.literal(1),
  /** the DePix asset id (display hex) the amounts are of */
  asset: z.string().regex(/^[0-9a-f]{64}$/),
  period: z.strictObject({ from: iso, to: iso }),
  openingUnits: units,
  openingCents: cents,
  closingUnits: units,
  closingCents: cents,
  lines: z
    .array(
      z.strictObject({
        txid,
        height: z.number().int().nonnegative(),
        at: iso,
        depixUnits: units,
        depixCents: cents,
        meaning: z.enum(['payment', 'topup', 'refund', 'other']),
        localId: z.string().min(1).max(100).nullable(),
        label: z.string().max(120).nullable(),
      }),
    )
    .max(1_000_000),
  pendingTxids: z.array(txid).max(100_000),
  reconciliation: z.strictObject({
    payments: z.array(pair),
    topups: z.array(pair),
    refunds: z.array(pair),
  }),
})
export type WalletStatementFile = z.infer<typeof walletStatementFileSchema>

export function walletStatementFile(s: Statement): WalletStatementFile {
  const pairs = (list: Statement['reconciliation']['payments']) =>
    list.map((p) => ({ localId: p.localId, txid: p.txid, depixUnits: p.depixUnits.toString() }))
  return {
    schema: WALLET_STATEMENT_SCHEMA,
    version: 1,
    asset: s.depixAsset,
    period: { from: new Date(s.from).toISOString(), to: new Date(s.to).toISOString() },
    openingUnits: s.openingUnits.toString(),
    openingCents: s.openingCents,
    closingUnits: s.closingUnits.toString(),
    closingCents: s.closingCents,
    lines: s.lines.map((l) => ({
      txid: l.txid,
      height: l.height,
      at: l.at,
      depixUnits: l.depixUnits.toString(),
      depixCents: l.depixCents,
      meaning: l.meaning,
      localId: l.localId,
      label: l.label,
    })),
    pendingTxids: [...s.pendingTxids],
    reconciliation: {
      payments: pairs(s.reconciliation.payments),
      topups: pairs(s.reconciliation.topups),
      refunds: pairs(s.reconciliation.refunds),
    },
  }
}

/** One line per movement, so a changed line is one changed line of text (and of hash). */
export function walletStatementJson(f: WalletStatementFile): string {
  const { lines, ...head } = f
  const body = lines.map((l) => `    ${JSON.stringify(l)}`).join(',\n')
  const headText = JSON.stringify({ ...head, lines: [] }, null, 2)
  return `${headText.replace('"lines": []', lines.length === 0 ? '"lines": []' : `"lines": [\n${body}\n  ]`)}\n`
}

/** The statement's words; the pt-BR set is the shape every language has. */
const PT_WORDS = {
  header: [
    'Linha',
    'Data',
    'Bloco',
    'Transação',
    'O que foi',
    'Registro',
    'Rótulo',
    'DePix (unidades)',
    'R$',
  ],
  opening: 'Saldo inicial',
  closing: 'Saldo final',
  title: 'Extrato da carteira da tesouraria',
  period: 'Período',
  pending: 'Transações ainda a confirmar (fora do período até confirmarem)',
  reconciliation: 'Conciliação',
  pairs: {
    payments: 'Pagamentos ↔ transação de saída',
    topups: 'Compras de DePix ↔ transação de entrada',
    refunds: 'Devoluções ↔ transação de entrada',
    record: 'Registro',
    tx: 'Transação',
    units: 'DePix (unidades)',
  },
  meaning: {
    payment: 'Pagamento (depósito enviado)',
    topup: 'Compra de DePix recebida',
    refund: 'Devolução recebida',
    other: 'Sem correspondência no livro-caixa',
  } as Readonly<Record<string, string>>,
}

export const WORDS: Readonly<Record<ExportLocale, typeof PT_WORDS>> = {
  'pt-BR': PT_WORDS,
  en: {
    header: [
      'Line',
      'Date',
      'Block',
      'Transaction',
      'What it was',
      'Record',
      'Label',
      'DePix (units)',
      'BRL',
    ],
    opening: 'Opening balance',
    closing: 'Closing balance',
    title: 'Treasury wallet statement',
    period: 'Period',
    pending: 'Transactions not yet confirmed (in no period until they are)',
    reconciliation: 'Reconciliation',
    pairs: {
      payments: 'Payments ↔ outgoing transaction',
      topups: 'DePix top-ups ↔ incoming transaction',
      refunds: 'Refunds ↔ incoming transaction',
      record: 'Record',
      tx: 'Transaction',
      units: 'DePix (units)',
    },
    meaning: {
      payment: 'Payment (deposit sent)',
      topup: 'DePix top-up received',
      refund: 'Refund received',
      other: 'Not in the ledger',
    },
  },
}

function brl(c: number, locale: ExportLocale): string {
  const sign = c < 0 ? '-' : ''
  const abs = Math.abs(c)
  const whole = Math.trunc(abs / 100).toString()
  const frac = (abs % 100).toString().padStart(2, '0')
  return locale === 'pt-BR' ? `${sign}${whole},${frac}` : `${sign}${whole}.${frac}`
}

/** The statement's table, as the CSV and the HTML page show it: the opening balance, each line, the closing one. */
export function statementRows(f: WalletStatementFile, locale: ExportLocale): string[][] {
  const w = WORDS[locale]
  const balance = (label: string, at: string, units: string, cents: number): string[] => [
    label,
    formatDateTime(at, locale),
    ...Array.from({ length: 5 }, () => ''),
    units,
    brl(cents, locale),
  ]
  return [
    balance(w.opening, f.period.from, f.openingUnits, f.openingCents),
    ...f.lines.map((l, i) => [
      String(i + 1),
      formatDateTime(l.at, locale),
      String(l.height),
      l.txid,
      w.meaning[l.meaning] ?? l.meaning,
      l.localId ?? '',
      l.label ?? '',
      l.depixUnits,
      brl(l.depixCents, locale),
    ]),
    balance(w.closing, f.period.to, f.closingUnits, f.closingCents),
  ]
}

export function walletStatementCsv(
  f: WalletStatementFile,
  delimiter: CsvDelimiter,
  locale: ExportLocale,
): string {
  // csvLine ends each line with CRLF.
  const lines = [WORDS[locale].header, ...statementRows(f, locale)].map((cells) => csvLine(cells, delimiter))
  return BOM + lines.join('')
}

/** Each reconciliation list and the meaning of the lines it pairs. */
export const RECONCILED = [
  ['payments', 'payment'],
  ['topups', 'topup'],
  ['refunds', 'refund'],
] as const

const truncCents = (u: bigint): number => Number(u / UNITS_PER_CENT)

/** What the verifier finds wrong in a wallet-statement.json (empty: it adds up). */
export function checkWalletStatement(buf: Buffer): string[] {
  let parsed: unknown
  try {
    parsed = JSON.parse(buf.toString('utf8'))
  } catch {
    return ['not valid JSON']
  }
  const r = walletStatementFileSchema.safeParse(parsed)
  if (!r.success) {
    const first = r.error.issues[0]
    return [`not a wallet statement: ${first ? `${first.path.join('.')}: ${first.message}` : 'invalid'}`]
  }
  const f = r.data
  const problems: string[] = []
  const from = Date.parse(f.period.from)
  const to = Date.parse(f.period.to)
  if (from > to) problems.push('the period ends before it starts')
  let sum = BigInt(f.openingUnits)
  if (truncCents(sum) !== f.openingCents)
    problems.push(`openingCents ${f.openingCents} is not openingUnits / 10^6`)
  let lastHeight = -1
  const matched = { payment: [] as string[], topup: [] as string[], refund: [] as string[] }
  f.lines.forEach((l, i) => {
    const u = BigInt(l.depixUnits)
    sum += u
    if (truncCents(u) !== l.depixCents) problems.push(`line ${i + 1}: depixCents is not depixUnits / 10^6`)
    const at = Date.parse(l.at)
    if (at < from || at >= to) problems.push(`line ${i + 1}: ${l.at} is outside the period`)
    if (l.height < lastHeight) problems.push(`line ${i + 1}: out of block order`)
    lastHeight = l.height
    if (l.meaning !== 'other') {
      if (l.localId === null) problems.push(`line ${i + 1}: a ${l.meaning} without its record`)
      else matched[l.meaning].push(`${l.localId} ${l.txid} ${l.depixUnits}`)
    } else if (l.localId !== null) problems.push(`line ${i + 1}: an unmatched movement names a record`)
  })
  if (sum !== BigInt(f.closingUnits)) {
    problems.push(`closingUnits ${f.closingUnits} is not opening + lines (${sum.toString()})`)
  }
  if (truncCents(BigInt(f.closingUnits)) !== f.closingCents) {
    problems.push(`closingCents ${f.closingCents} is not closingUnits / 10^6`)
  }
  for (const [list, meaning] of RECONCILED) {
    const pairs = f.reconciliation[list].map((p) => `${p.localId} ${p.txid} ${p.depixUnits}`)
    const lines = matched[meaning]
    if (pairs.length !== lines.length || pairs.some((x, i) => x !== lines[i]))
      problems.push(`reconciliation.${list} differs from the lines`)
  }
  return problems
}
