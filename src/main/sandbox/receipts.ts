/**
 * GET /receipts/<id>: the sandbox's stand-in for the payment receipt a real payout links to. A small HTML page
 * built from the withdrawal, served without a token (a receipt link is meant to be opened on its own), with the
 * same strict headers a careful receipt host would send. Only sent payouts have one; anything else is 404.
 */
import type { ServerResponse } from 'node:http'
import type { WithdrawalView } from './types'
import type { Withdrawals } from './withdrawals'

export const RECEIPT_PREFIX = '/receipts/'

const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`)

const brl = (cents: number): string => {
  const reais = Math.trunc(cents / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, '.')
  return `R$ ${reais},${String(cents % 100).padStart(2, '0')}`
}

export function receiptHtml(v: WithdrawalView): string {
  const rows: Array<[string, string]> = [
    ['Valor', brl(v.payoutAmountInCents)],
    ['Favorecido', v.receiverName ?? ''],
    ['CPF/CNPJ', v.receiverTaxNumber ?? ''],
    ['Data', v.transferDate ?? ''],
    ['ID da transação (E2E)', v.centralBankId ?? ''],
    ['Pagamento', v.id],
  ]
  const body = rows
    .map(([k, val]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(val)}</td></tr>`)
    .join('')
  return (
    '<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Comprovante Pix (Sandbox)</title></head>' +
    `<body><h1>Comprovante de Pix — Sandbox</h1><table>${body}</table>` +
    '<p>Documento de teste emitido pelo sandbox: não comprova pagamento real.</p></body></html>'
  )
}

export function handleReceipt(
  withdrawals: Withdrawals,
  method: string,
  path: string,
  res: ServerResponse,
): void {
  const id = path.slice(RECEIPT_PREFIX.length)
  const v = method === 'GET' && /^[0-9a-f-]{1,64}$/.test(id) ? withdrawals.receipt(id) : undefined
  const text = v === undefined ? 'Not found' : receiptHtml(v)
  res.statusCode = v === undefined ? 404 : 200
  res.setHeader('Content-Type', v === undefined ? 'text/plain; charset=utf-8' : 'text/html; charset=utf-8')
  res.setHeader('Content-Length', Buffer.byteLength(text))
  res.setHeader('Content-Security-Policy', "default-src 'none'")
  res.setHeader('X-Content-Type-Options', 'nosniff')
  res.end(text)
}
