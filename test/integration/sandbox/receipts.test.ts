/** The sandbox serves the receipt its sent payouts link to (docs/SANDBOX.md), and only those. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { Sandbox } from '../../../src/main/sandbox'
import { receiptHtml } from '../../../src/main/sandbox/receipts'
import { call, CPF_A, login, roomySandbox } from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox()
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

async function created(): Promise<{ withdrawalId: string; depositAmountInCents: number }> {
  const body = { pixKey: 'maria@example.com', taxNumber: CPF_A, payoutAmountInCents: 5_000 }
  const r = await call(sb.baseUrl, 'POST', '/api/withdraw', { token, body })
  return r.body.response
}

describe('GET /receipts/<id>', () => {
  it('serves an HTML receipt on the sandbox origin for a sent payout, with strict headers and no token', async () => {
    const w = await created()
    // Not sent yet: no receipt.
    expect((await fetch(`${sb.baseUrl}/receipts/${w.withdrawalId}`)).status).toBe(404)
    sb.control.fundWithdrawal(w.withdrawalId, w.depositAmountInCents)
    sb.control.settlePayout(w.withdrawalId, 'sent')
    const s = await call(sb.baseUrl, 'GET', `/api/withdraw-status?id=${w.withdrawalId}`, { token })
    const url = s.body.response.receiptUrl as string
    expect(url).toBe(`${sb.baseUrl}/receipts/${w.withdrawalId}`)
    const r = await fetch(url)
    expect(r.status).toBe(200)
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(r.headers.get('content-security-policy')).toBe("default-src 'none'")
    const html = await r.text()
    expect(html.startsWith('<!doctype html>')).toBe(true)
    expect(html).toContain('R$ 50,00')
    expect(html).toContain(w.withdrawalId)
    expect(html).not.toContain(CPF_A)
  })

  it('answers 404 for unknown ids, odd paths and other methods', async () => {
    for (const path of [
      '/receipts/',
      '/receipts/../api/withdraw',
      '/receipts/nope',
      '/receipts/%3Cscript%3E',
    ]) {
      expect((await fetch(`${sb.baseUrl}${path}`)).status).toBe(404)
    }
    expect((await fetch(`${sb.baseUrl}/receipts/abc`, { method: 'POST' })).status).toBe(404)
  })

  it('escapes what it prints', () => {
    const html = receiptHtml({
      id: 'x',
      pixKey: 'k',
      status: 'sent',
      expiration: '',
      depositAddress: '',
      depositAmountInCents: 1,
      payoutAmountInCents: 1,
      receiverName: '<script>alert(1)</script>',
    } as never)
    expect(html).not.toContain('<script>')
    expect(html).toContain('&#60;script&#62;')
  })
})
