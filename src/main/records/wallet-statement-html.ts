/**
 * Issue #27: the treasury wallet's statement as `wallet-statement.html`, for people (wallet-statement.ts has the
 * file it is rendered from): one static page with a CSP, no script, every text escaped.
 */
import { createHash } from 'node:crypto'
import { formatDateTime, type ExportLocale } from './format'
import { escapeHtml } from './html'
import { RECONCILED, statementRows, WORDS, type WalletStatementFile } from './wallet-statement'

const HTML_CSS =
  'body{font:14px system-ui,sans-serif;margin:2rem;color:#111}table{border-collapse:collapse;margin:1rem 0}' +
  'th,td{border:1px solid #ccc;padding:4px 8px;text-align:left}' +
  'td.n{text-align:right;font-variant-numeric:tabular-nums}code{font-size:12px}'
const HTML_CSP =
  `default-src 'none'; style-src 'sha256-${createHash('sha256').update(HTML_CSS).digest('base64')}'; ` +
  `base-uri 'none'; form-action 'none'`

export function walletStatementHtml(f: WalletStatementFile, locale: ExportLocale): string {
  const w = WORDS[locale]
  const e = escapeHtml
  const td = (s: string, n = false): string => `<td${n ? ' class="n"' : ''}>${e(s)}</td>`
  const code = (s: string): string => `<td><code>${e(s)}</code></td>`
  const th = (s: string): string => `<th>${e(s)}</th>`
  const row = (cells: string[]): string => `<tr>${cells.join('')}</tr>`
  const when = (iso: string): string => formatDateTime(iso, locale)
  // Block, units and R$ right-aligned, the transaction as code; a balance row's empty cells plain.
  const cell = (s: string, i: number): string =>
    s === '' ? td(s) : i === 3 ? code(s) : td(s, i === 2 || i === 7 || i === 8)
  const pairs = (title: string, list: WalletStatementFile['reconciliation']['payments']): string =>
    `<h3>${e(title)}</h3><table><thead>${row([w.pairs.record, w.pairs.tx, w.pairs.units].map(th))}</thead><tbody>` +
    list.map((p) => row([td(p.localId), code(p.txid), td(p.depixUnits, true)])).join('') +
    '</tbody></table>'
  return [
    '<!doctype html>',
    `<html lang="${locale}"><head><meta charset="utf-8">`,
    `<meta http-equiv="Content-Security-Policy" content="${HTML_CSP}">`,
    '<meta name="referrer" content="no-referrer">',
    `<title>${e(w.title)}</title><style>${HTML_CSS}</style></head><body>`,
    `<h1>${e(w.title)}</h1>`,
    `<p>${e(w.period)}: ${e(when(f.period.from))} – ${e(when(f.period.to))}</p>`,
    `<table><thead>${row(w.header.map(th))}</thead><tbody>`,
    ...statementRows(f, locale).map((cells) => row(cells.map(cell))),
    '</tbody></table>',
    f.pendingTxids.length > 0
      ? `<h2>${e(w.pending)}</h2><ul>${f.pendingTxids.map((t) => `<li><code>${e(t)}</code></li>`).join('')}</ul>`
      : '',
    `<h2>${e(w.reconciliation)}</h2>`,
    ...RECONCILED.map(([list]) => pairs(w.pairs[list], f.reconciliation[list])),
    '</body></html>',
    '',
  ].join('\n')
}
