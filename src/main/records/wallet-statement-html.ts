/**
 * Issue #27: the treasury wallet's statement as `wallet-statement.html`, for people (wallet-statement.ts has the
 * file it is rendered from): one static page with a CSP, no script, every text escaped.
 */
import { createHash } from 'node:crypto'
import { formatDateTime, type ExportLocale } from './format'
import { escapeHtml } from './html'
import { brl, WORDS, type WalletStatementFile } from './wallet-statement'

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
  const balance = (label: string, at: string, units: string, c: number): string =>
    row([
      td(label),
      td(when(at)),
      ...Array.from({ length: 5 }, () => td('')),
      td(units, true),
      td(brl(c, locale), true),
    ])
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
    balance(w.opening, f.period.from, f.openingUnits, f.openingCents),
    ...f.lines.map((l, i) =>
      row([
        td(String(i + 1)),
        td(when(l.at)),
        td(String(l.height), true),
        code(l.txid),
        td(w.meaning[l.meaning] ?? l.meaning),
        td(l.localId ?? ''),
        td(l.label ?? ''),
        td(l.depixUnits, true),
        td(brl(l.depixCents, locale), true),
      ]),
    ),
    balance(w.closing, f.period.to, f.closingUnits, f.closingCents),
    '</tbody></table>',
    f.pendingTxids.length > 0
      ? `<h2>${e(w.pending)}</h2><ul>${f.pendingTxids.map((t) => `<li><code>${e(t)}</code></li>`).join('')}</ul>`
      : '',
    `<h2>${e(w.reconciliation)}</h2>`,
    pairs(w.pairs.payments, f.reconciliation.payments),
    pairs(w.pairs.topups, f.reconciliation.topups),
    pairs(w.pairs.refunds, f.reconciliation.refunds),
    '</body></html>',
    '',
  ].join('\n')
}
