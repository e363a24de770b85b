/**
 * report.html: one self-contained file an auditor opens in any browser with no network. No external file, no
 * link, no image; CSS and the script are inline and allowed by hash (report-assets.ts). Every value is
 * HTML-escaped. Without JavaScript the whole table still reads, unsorted.
 *
 * Layout: facts of the manifest, totals by meaning (paid, open, returned… and fees: shared/money-totals.ts), by
 * status and what was paid per São Paulo day, then every record (the CSV's main
 * columns; cells carry `data-v` sort keys: ISO time or integer cents). Rows are written as they stream; the head
 * needs the totals, so the exporter writes rows to a scratch file and assembles head + rows + tail at the end.
 */
import type { StatusTotal } from '../../shared/withdrawal-record'
import type { Column } from './columns'
import { formatAmount, formatDateTime, formatDay, type ExportLocale } from './format'
import type { ExportFilter } from './manifest'
import { WITHDRAWAL_KIND, type RecordsKind } from './kinds'
import { CSS, NOSCRIPT_CSS, REPORT_CSP, SCRIPT } from './report-assets'
import { MEANINGS, meaningTotals, type MeaningGroup, type MeaningTotals } from '../../shared/money-totals'
import { MEANING_WORDS } from '../../shared/status-words'
import { sumTotals, type DayTotal } from './totals'

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
}
const HTML_SPECIAL = /[&<>"']/

/** `&<>"'` as entities. */
export function escapeHtml(s: string): string {
  // Most cells need nothing: a test is cheaper than a replace that finds nothing.
  return HTML_SPECIAL.test(s) ? s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c) : s
}

/** The report's words; the pt-BR set is the shape every language has. */
const PT_TEXTS = {
  title: 'Tesouraria DePix — relatório de pagamentos',
  facts: 'Exportação',
  appVersion: 'Versão do app',
  profile: 'Perfil',
  network: 'Rede',
  filter: 'Filtro',
  noFilter: 'nenhum (todos os registros)',
  exportedAt: 'Exportado em',
  rowCount: 'Registros',
  range: 'Criados entre',
  signer: 'Chave de assinatura (impressão digital)',
  byMeaning: 'Totais por resultado',
  meaning: 'Resultado',
  feesPaid: 'Tarifas pagas (R$)',
  feesWithheld: 'Tarifas retidas nas devoluções (DePix)',
  notRecorded: 'não registrado nesta exportação',
  meaningNote:
    'Só "Pago" é dinheiro que chegou ao favorecido. Em aberto, devolvido, expirado e situação não reconhecida ' +
    'nunca entram no valor pago.',
  byStatus: 'Totais por situação',
  byDay: 'Pagos por dia de criação (horário de Brasília)',
  records: 'Registros',
  status: 'Situação',
  refund: 'Com devolução',
  day: 'Dia',
  count: 'Quantidade',
  deposit: 'Depósitos (DePix)',
  payout: 'Valor do Pix (R$)',
  paidCount: 'Pagos',
  paidPayout: 'Valor pago (R$)',
  total: 'Total',
  yes: 'sim',
  no: 'não',
  timeNote: 'Datas e horas no horário de Brasília (America/Sao_Paulo).',
  verifyNote:
    'Este relatório faz parte de uma exportação assinada. A integridade de todos os arquivos é conferida com ' +
    'manifest.json (npm run verify-export -- manifest.json); compare a impressão digital acima com a exibida ' +
    'nas Configurações do app.',
  pager: 'Página {page} de {pages} (registros {from}–{to} de {total})',
  first: 'Primeira',
  prev: 'Anterior',
  next: 'Próxima',
  last: 'Última',
  noscript: 'JavaScript desligado: todos os registros aparecem numa só página, sem ordenação.',
  labels: {} as Readonly<Record<string, string>>,
}
type Texts = typeof PT_TEXTS

const TEXTS: Readonly<Record<ExportLocale, Texts>> = {
  'pt-BR': PT_TEXTS,
  en: {
    title: 'Tesouraria DePix — withdrawal report',
    facts: 'Export',
    appVersion: 'App version',
    profile: 'Profile',
    network: 'Network',
    filter: 'Filter',
    noFilter: 'none (all records)',
    exportedAt: 'Exported at',
    rowCount: 'Records',
    range: 'Created between',
    signer: 'Signing key (fingerprint)',
    byMeaning: 'Totals by outcome',
    meaning: 'Outcome',
    feesPaid: 'Fees paid (R$)',
    feesWithheld: 'Fees withheld on returns (DePix)',
    notRecorded: 'not recorded in this export',
    meaningNote:
      'Only "Paid" is money that reached the payee. Open, returned, expired and unrecognised statuses are never ' +
      'counted as paid.',
    byStatus: 'Totals by status',
    byDay: 'Paid by day created (São Paulo time)',
    records: 'Records',
    status: 'Status',
    refund: 'With refund',
    day: 'Day',
    count: 'Count',
    deposit: 'Deposits (DePix)',
    payout: 'Payout (R$)',
    paidCount: 'Paid',
    paidPayout: 'Amount paid (R$)',
    total: 'Total',
    yes: 'yes',
    no: 'no',
    timeNote: 'Times are ISO 8601 UTC; days are São Paulo calendar days.',
    verifyNote:
      'This report is part of a signed export. Check every file against manifest.json ' +
      '(npm run verify-export -- manifest.json) and compare the fingerprint above with the one in the app Settings.',
    pager: 'Page {page} of {pages} (records {from}–{to} of {total})',
    first: 'First',
    prev: 'Previous',
    next: 'Next',
    last: 'Last',
    noscript: 'JavaScript is off: every record is shown on one page, unsorted.',
    labels: {
      created_at: 'Created at',
      status: 'Status',
      pix_key: 'Pix key',
      receiver_name: 'Payee',
      deposit_amount: 'Deposit (DePix)',
      payout_amount: 'Payout (R$)',
      invoice: 'Invoice',
      category: 'Category',
      remote_id: 'Withdrawal ID',
      operator: 'Operator',
    },
  },
}

/** What a deposit report ("compras de DePix") says differently: there is no payout and no fee. */
const DEPOSIT_TEXTS: Readonly<Record<ExportLocale, Partial<Texts>>> = {
  'pt-BR': {
    title: 'Tesouraria DePix — relatório de compras de DePix',
    meaningNote:
      'Só "Pago" é DePix que chegou à tesouraria. Pix recebido com DePix a caminho, QR em aberto, devolvido por ' +
      'MED, expirado e situação não reconhecida nunca entram no valor recebido.',
    byDay: 'Compras por dia de criação (horário de Brasília)',
    deposit: 'Valor (R$)',
    paidCount: 'Com DePix recebido',
    paidPayout: 'Valor recebido (R$)',
  },
  en: {
    title: 'Tesouraria DePix — top-up report',
    meaningNote:
      'Only "Paid" is DePix that reached the treasury. A Pix received with its DePix on the way, an open QR, a MED ' +
      'reversal, an expired QR and unrecognised statuses are never counted as received.',
    byDay: 'Top-ups by day created (São Paulo time)',
    deposit: 'Amount (R$)',
    paidCount: 'DePix received',
    paidPayout: 'Amount received (R$)',
    labels: {
      created_at: 'Created at',
      status: 'Status',
      amount: 'Amount (R$)',
      payer_name: 'Payer',
      blockchain_tx_id: 'DePix Liquid transaction',
      remote_id: 'Top-up ID',
      operator: 'Operator',
    },
  },
}

export interface ReportFacts {
  appVersion: string
  profile: { name: string; network: string }
  filter: ExportFilter
  exportedAt: string
  rowCount: number
  createdAtRange: { first: string | null; last: string | null }
  signerFingerprint: string
}

const FILTER_WORDS: Readonly<Record<ExportLocale, Readonly<Record<string, string>>>> = {
  'pt-BR': {
    profile: 'perfil',
    status: 'situação',
    from: 'criado a partir de',
    to: 'criado antes de',
    text: 'texto',
    sort: 'ordem',
  },
  en: {
    profile: 'profile',
    status: 'status',
    from: 'created from',
    to: 'created before',
    text: 'text',
    sort: 'order',
  },
}

/** The filter in words, with the manifest's own values (the exact filter is in manifest.json). */
function describeFilter(f: ExportFilter, locale: ExportLocale, kind: RecordsKind): string {
  const w = FILTER_WORDS[locale]
  const parts: string[] = []
  if (f.profile !== undefined) parts.push(`${w.profile}: ${f.profile}`)
  if (f.statuses !== undefined && f.statuses.length > 0)
    parts.push(`${w.status}: ${f.statuses.map((s) => kind.statusCodeWords(s, false, locale)).join(', ')}`)
  if (f.from !== undefined) parts.push(`${w.from} ${formatDateTime(f.from, locale)}`)
  if (f.to !== undefined) parts.push(`${w.to} ${formatDateTime(f.to, locale)}`)
  if (f.text !== undefined && f.text !== '') parts.push(`${w.text}: "${f.text}"`)
  if (f.sort !== undefined) parts.push(`${w.sort}: ${f.sort.field} ${f.sort.dir}`)
  return parts.length > 0 ? parts.join('; ') : TEXTS[locale].noFilter
}

const num = (s: string, v?: string | number): string =>
  `<td class="n"${v === undefined ? '' : ` data-v="${escapeHtml(String(v))}"`}>${escapeHtml(s)}</td>`

const sumCount = (d: DayTotal): number => MEANINGS.reduce((n, k) => n + d.totals[k].count, 0)

function columnLabel(c: Pick<Column<never>, 'id' | 'pt'>, locale: ExportLocale, t: Texts): string {
  return locale === 'pt-BR' ? c.pt : (t.labels[c.id] ?? c.id)
}

/** The report's head for a record kind (withdrawals by default): facts, totals, then the records table's head. */
export function reportHead(
  facts: ReportFacts,
  totals: readonly StatusTotal[],
  days: readonly DayTotal[],
  locale: ExportLocale,
  kind: RecordsKind = WITHDRAWAL_KIND as unknown as RecordsKind,
): string {
  const t: Texts = kind.id === 'deposit' ? { ...TEXTS[locale], ...DEPOSIT_TEXTS[locale] } : TEXTS[locale]
  // A kind without a payout (deposits) has no payout column and no fees: only the amount is shown.
  const pay = kind.hasPayout
  const e = escapeHtml
  const fact = (k: string, v: string): string => `<dt>${e(k)}</dt><dd>${e(v)}</dd>`
  const range =
    facts.createdAtRange.first === null
      ? '—'
      : `${formatDateTime(facts.createdAtRange.first, locale)} — ${formatDateTime(facts.createdAtRange.last, locale)}`
  const sum = sumTotals(totals)
  const meaning = meaningTotals(totals, kind.id)
  const amounts = (g: Pick<MeaningGroup, 'count' | 'depositCents' | 'payoutCents'>): string =>
    `${num(String(g.count))}${num(formatAmount(g.depositCents, locale))}` +
    (pay ? num(formatAmount(g.payoutCents, locale)) : '')
  const meaningRows = MEANINGS.filter((k) => k !== 'other' || meaning.other.count > 0)
    .map(
      (k) =>
        `<tr data-meaning="${k}"><th scope="row">${e(MEANING_WORDS[locale][k])}</th>${amounts(meaning[k])}</tr>`,
    )
    .join('\n')
  const withheld = meaning.feesWithheldCents
  const feeRows = !pay
    ? ''
    : `<tr id="fees-paid"><th scope="row" colspan="3">${e(t.feesPaid)}</th>` +
      `${num(formatAmount(meaning.feesPaidCents, locale), meaning.feesPaidCents)}</tr>\n` +
      `<tr id="fees-withheld"><th scope="row" colspan="3">${e(t.feesWithheld)}</th>` +
      (withheld === null
        ? `<td class="n">${e(t.notRecorded)}</td>`
        : num(formatAmount(withheld, locale), withheld)) +
      '</tr>'
  const statusRows = totals
    .map(
      (s) =>
        `<tr><td>${e(kind.statusCodeWords(s.status, false, locale))}</td><td>${s.hasRefund ? t.yes : t.no}</td>` +
        `${amounts(s)}</tr>`,
    )
    .join('\n')
  // What was paid (a day's or the whole export's): the count, then the payout and fees, or the amount.
  const paid = (m: MeaningTotals): string =>
    num(String(m.paid.count)) +
    (pay
      ? `${num(formatAmount(m.paid.payoutCents, locale))}${num(formatAmount(m.feesPaidCents, locale))}`
      : num(formatAmount(m.paid.depositCents, locale)))
  const dayRows = days
    .map(
      (d) =>
        `<tr><td>${e(d.day === '' ? '?' : formatDay(d.day, locale))}</td>${num(String(sumCount(d)))}` +
        `${paid(d.totals)}</tr>`,
    )
    .join('\n')
  const dayFoot = `${num(String(sum.count))}${paid(meaning)}`
  const th = (label: string): string => `<th scope="col" class="n">${e(label)}</th>`
  const headers = kind.htmlColumns
    .map((c) => {
      const type = c.kind === 'amount' ? 'num' : c.kind === 'date' ? 'iso' : 'text'
      const cls = c.kind === 'amount' ? ' class="n"' : ''
      return `<th scope="col" data-type="${type}"${cls}><button type="button">${e(columnLabel(c, locale, t))}</button></th>`
    })
    .join('')
  return `<!doctype html>
<html lang="${locale}">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${REPORT_CSP}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(t.title)}</title>
<style>${CSS}</style>
</head>
<body>
<h1>${e(t.title)}</h1>
<section id="facts" aria-label="${e(t.facts)}">
<dl class="facts">
${fact(t.appVersion, facts.appVersion)}
${fact(t.profile, facts.profile.name)}
${fact(t.network, facts.profile.network)}
${fact(t.filter, describeFilter(facts.filter, locale, kind))}
${fact(t.exportedAt, `${formatDateTime(facts.exportedAt, locale)} (${facts.exportedAt})`)}
${fact(t.rowCount, String(facts.rowCount))}
${fact(t.range, range)}
${fact(t.signer, facts.signerFingerprint)}
</dl>
<p class="note">${e(t.timeNote)} ${e(t.verifyNote)}</p>
</section>
<h2>${e(t.byMeaning)}</h2>
<table id="totals-meaning">
<thead><tr><th scope="col">${e(t.meaning)}</th>${th(t.count)}${th(t.deposit)}${pay ? th(t.payout) : ''}</tr></thead>
<tbody>
${meaningRows}
</tbody>
<tfoot>
${feeRows}
</tfoot>
</table>
<p class="note">${e(t.meaningNote)}</p>
<h2>${e(t.byStatus)}</h2>
<table id="totals-status">
<thead><tr><th scope="col">${e(t.status)}</th><th scope="col">${e(t.refund)}</th>${th(t.count)}${th(t.deposit)}${pay ? th(t.payout) : ''}</tr></thead>
<tbody>
${statusRows}
</tbody>
<tfoot><tr><td colspan="2">${e(t.total)}</td>${num(String(sum.count))}<td></td>${pay ? '<td></td>' : ''}</tr></tfoot>
</table>
<h2>${e(t.byDay)}</h2>
<table id="totals-day">
<thead><tr><th scope="col">${e(t.day)}</th>${th(t.count)}${th(t.paidCount)}${th(t.paidPayout)}${pay ? th(t.feesPaid) : ''}</tr></thead>
<tbody>
${dayRows}
</tbody>
<tfoot><tr><td>${e(t.total)}</td>${dayFoot}</tr></tfoot>
</table>
<h2>${e(t.records)}</h2>
<noscript><style>${NOSCRIPT_CSS}</style><p class="note">${e(t.noscript)}</p></noscript>
<nav id="pager" hidden aria-label="${e(t.records)}" data-label="${e(t.pager)}">
<button type="button" data-go="first">${e(t.first)}</button><button type="button" data-go="prev">${e(t.prev)}</button>
<span id="page-info" aria-live="polite"></span>
<button type="button" data-go="next">${e(t.next)}</button><button type="button" data-go="last">${e(t.last)}</button>
</nav>
<table id="records">
<thead><tr>${headers}</tr></thead>
<tbody>
`
}

/** Every record row starts with this, and nothing else in the file does: the verifier counts rows by it. */
export const ROW_START = '<tr class="rec">'

/** Between pages (see report-assets.ts): every REPORT_PAGE_ROWS rows a new, hidden <tbody>. */
export const PAGE_BREAK = '</tbody>\n<tbody hidden>\n'

// Record rows (`<tr class="rec">`, one `<td>` per HTML_COLUMNS entry; amounts `class="n"` and dates `class="d"`
// with a `data-v` sort key) are written with the CSV's line (layout.ts).

export const REPORT_TAIL = `</tbody>
</table>
<script>${SCRIPT}</script>
</body>
</html>
`
