/**
 * The HTML report of an export, opened from disk in Chromium the way an auditor opens it: no app, no network.
 * Every request other than the file itself is aborted and recorded; the report must make none, must not trip
 * its own CSP (the inline style and script are allowed by hash), must show the right totals, and must sort.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { expect, test, type Locator, type Page } from '@playwright/test'
import { importRecords } from '../../../src/main/ledger/sqlite/import'
import { openLedger } from '../../../src/main/ledger/sqlite/index'
import { exportRecords, generateSigningKeyPair, keyFingerprint } from '../../../src/main/records/index'
import { formatAmount, saoPauloDay } from '../../../src/main/records/format'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { statusInWords } from '../../../src/shared/status-words'

const SCREENS_DIR = resolve(__dirname, '../../../test-results/screens')
const STATUSES = ['sent', 'sent', 'sent', 'expired', 'refunded', 'unsent'] as const

/** Records two hours apart over São Paulo days (crossing UTC midnight), mixed statuses, a receiver that is markup. */
function records(n: number): WithdrawalRecord[] {
  return Array.from({ length: n }, (_, i) => {
    const status = STATUSES[i % STATUSES.length] ?? 'sent'
    const createdAt = new Date(Date.parse('2025-05-10T13:00:00.000Z') + i * 2 * 3_600_000).toISOString()
    const payout = 1_000 + ((i * 7_919) % 50_000)
    const refund = status === 'refunded' ? { txId: `tx${i}`, reason: 'invalid_pix_key' } : null
    return {
      localId: `local-${String(i).padStart(3, '0')}`,
      profile: 'producao',
      operator: i % 2 === 0 ? 'ana' : 'bruno',
      createdAt,
      updatedAt: createdAt,
      localState: 'created',
      request: { pixKey: `pessoa${i}@example.com`, payoutAmountInCents: payout },
      pixKey: `pessoa${i}@example.com`,
      amountKind: 'payout',
      amountCents: payout,
      createResponse: { withdrawalId: `w-${i}` },
      remoteId: `w-${i}`,
      remoteStatus: status,
      remoteStatusAt: createdAt,
      remoteCheckedAt: createdAt,
      lastRemote: { id: `w-${i}`, status },
      depositAddress: null,
      depositAmountCents: payout + 100,
      payoutAmountCents: payout,
      expiration: null,
      fundedAt: null,
      fundingTxId: null,
      refund,
      receiverName: i === 3 ? '<img src=x onerror=alert(1)>' : `Pessoa ${i}`,
      error: null,
      requestId: null,
      flags: [],
    }
  })
}

let dir = ''
let fingerprint = ''
const small = records(36)
const large = records(1234)
const urls = { small: '', large: '' }

async function exportHtml(name: string, recs: WithdrawalRecord[]): Promise<string> {
  const file = join(dir, `${name}.sqlite`)
  importRecords(file, recs)
  const ledger = openLedger(file)
  try {
    const res = await exportRecords(ledger, {
      dir: join(dir, name),
      formats: ['html'],
      signer,
      appVersion: '9.9.9-e2e',
      profile: { name: 'Produção', network: 'liquid' },
      now: () => new Date('2025-05-20T12:00:00.000Z'),
    })
    return pathToFileURL(res.files.find((f) => f.endsWith('.html')) ?? '').href
  } finally {
    ledger.close()
  }
}

const signer = generateSigningKeyPair()

test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'html-report-'))
  fingerprint = keyFingerprint(signer.publicKeyPem)
  urls.small = await exportHtml('small', small)
  urls.large = await exportHtml('large', large)
})

/** Aborts and records every request but the report itself; records console errors, CSP reports, dialogs. */
async function openOffline(page: Page, url: string): Promise<{ requests: string[]; problems: string[] }> {
  const requests: string[] = []
  const problems: string[] = []
  page.on('request', (r) => {
    if (r.url() !== url) requests.push(r.url())
  })
  page.on('console', (m) => {
    if (m.type() === 'error' || /Content Security Policy/i.test(m.text())) problems.push(m.text())
  })
  page.on('pageerror', (e) => problems.push(e.message))
  page.on('dialog', (d) => {
    problems.push(`dialog: ${d.message()}`)
    void d.dismiss()
  })
  await page.route('**/*', (route) => (route.request().url() === url ? route.continue() : route.abort()))
  await page.goto(url)
  return { requests, problems }
}

const visibleRows = (page: Page): Locator => page.locator('#records tbody:not([hidden]) tr')

test.afterAll(() => rmSync(dir, { recursive: true, force: true }))

test('the HTML report opens offline, shows the manifest facts and the right totals, and sorts', async ({
  page,
}) => {
  const recs = small
  const { requests, problems } = await openOffline(page, urls.small)

  const facts = page.locator('#facts')
  await expect(facts).toContainText('9.9.9-e2e')
  await expect(facts).toContainText('Produção')
  await expect(facts).toContainText('liquid')
  await expect(facts).toContainText('36')
  await expect(facts).toContainText(fingerprint)
  await expect(facts).toContainText('nenhum (todos os registros)')

  // Totals by status, computed here independently from the records.
  const expected = new Map<string, { count: number; deposit: number; payout: number }>()
  for (const r of recs) {
    const key = `${statusInWords(r.remoteStatus ?? '', false, 'pt-BR')}|${r.refund ? 'sim' : 'não'}`
    const t = expected.get(key) ?? { count: 0, deposit: 0, payout: 0 }
    t.count += 1
    t.deposit += r.depositAmountCents ?? 0
    t.payout += r.payoutAmountCents ?? 0
    expected.set(key, t)
  }
  const statusRows = await page
    .locator('#totals-status tbody tr')
    .evaluateAll((rows) =>
      rows.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent ?? '')),
    )
  expect(statusRows).toHaveLength(expected.size)
  for (const [status, refunded, count, deposit, payout] of statusRows) {
    const t = expected.get(`${status}|${refunded}`)
    expect(t, `${status} ${refunded}`).toBeDefined()
    expect([count, deposit, payout]).toEqual([
      String(t?.count),
      formatAmount(t?.deposit ?? 0, 'pt-BR'),
      formatAmount(t?.payout ?? 0, 'pt-BR'),
    ])
  }
  // No grand amount across statuses: paid money apart from pending and returned money.
  const sumPayout = recs.reduce((s, r) => s + (r.payoutAmountCents ?? 0), 0)
  await expect(page.locator('#totals-status tfoot')).not.toContainText(formatAmount(sumPayout, 'pt-BR'))
  const paid = recs.filter((r) => r.remoteStatus === 'sent' && !r.refund)
  const paidPayout = paid.reduce((s, r) => s + (r.payoutAmountCents ?? 0), 0)
  expect(paidPayout).toBeLessThan(sumPayout)
  const paidRow = page.locator('#totals-meaning tr[data-meaning="paid"]')
  await expect(paidRow).toContainText('Pago')
  await expect(paidRow.locator('td').nth(0)).toHaveText(String(paid.length))
  await expect(paidRow.locator('td').nth(2)).toHaveText(formatAmount(paidPayout, 'pt-BR'))

  // Totals by São Paulo day.
  const days = new Map<string, number>()
  for (const r of recs) {
    const d = saoPauloDay(r.createdAt) ?? ''
    days.set(d, (days.get(d) ?? 0) + 1)
  }
  const dayRows = await page
    .locator('#totals-day tbody tr')
    .evaluateAll((rows) =>
      rows.map((tr) => Array.from((tr as HTMLTableRowElement).cells, (c) => c.textContent ?? '')),
    )
  expect(dayRows.map((r) => [r[0], r[1]])).toEqual(
    [...days].map(([d, n]) => [`${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}`, String(n)]),
  )

  // Every record is a row; markup in a value is text.
  const body = page.locator('#records tbody tr')
  await expect(body).toHaveCount(36)
  await expect(page.locator('#records')).toContainText('<img src=x onerror=alert(1)>')
  await expect(page.locator('#records img')).toHaveCount(0)
  await expect(page.locator('#pager')).toBeHidden()

  // Sorting: payout ascending, then descending; then created-at ascending.
  const payoutHeader = page.getByRole('button', { name: 'Valor do Pix (R$)' })
  const payoutIndex = await page
    .locator('#records thead th')
    .evaluateAll((ths) => ths.findIndex((th) => th.textContent?.startsWith('Valor do Pix')))
  const column = (i: number): Promise<string[]> =>
    body.evaluateAll(
      (rows, k) => rows.map((tr) => (tr as HTMLTableRowElement).cells[k]?.getAttribute('data-v') ?? ''),
      i,
    )
  const payouts = recs.map((r) => r.payoutAmountCents ?? 0)
  await payoutHeader.click()
  expect((await column(payoutIndex)).map(Number)).toEqual([...payouts].sort((a, b) => a - b))
  await expect(page.locator('#records thead th').nth(payoutIndex)).toHaveAttribute('aria-sort', 'ascending')
  await payoutHeader.click()
  expect((await column(payoutIndex)).map(Number)).toEqual([...payouts].sort((a, b) => b - a))
  await expect(page.locator('#records thead th').nth(payoutIndex)).toHaveAttribute('aria-sort', 'descending')
  await page.getByRole('button', { name: 'Criado em' }).click()
  expect(await column(0)).toEqual(recs.map((r) => r.createdAt))

  await payoutHeader.click()
  mkdirSync(SCREENS_DIR, { recursive: true })
  await page.screenshot({ path: join(SCREENS_DIR, 'html-report.png'), fullPage: true })

  expect(requests).toEqual([])
  expect(problems).toEqual([])
})

test('a large report is paged; sorting orders every page; without JavaScript every row shows', async ({
  browser,
}) => {
  const page = await browser.newPage()
  const { requests, problems } = await openOffline(page, urls.large)
  const info = page.locator('#page-info')
  await expect(info).toHaveText('Página 1 de 3 (registros 1–500 de 1234)')
  await expect(visibleRows(page)).toHaveCount(500)
  await page.getByRole('button', { name: 'Próxima' }).click()
  await expect(info).toHaveText('Página 2 de 3 (registros 501–1000 de 1234)')
  await expect(visibleRows(page).first()).toContainText('pessoa733@example.com') // newest first: 1233 − 500

  const payouts = large.map((r) => r.payoutAmountCents ?? 0).sort((a, b) => a - b)
  await page.getByRole('button', { name: 'Valor do Pix (R$)' }).click()
  await expect(info).toHaveText('Página 1 de 3 (registros 1–500 de 1234)')
  const firstPage = await visibleRows(page).evaluateAll((rows) =>
    rows.map((tr) => Number((tr as HTMLTableRowElement).cells[5]?.getAttribute('data-v'))),
  )
  expect(firstPage).toEqual(payouts.slice(0, 500))
  await page.getByRole('button', { name: 'Última' }).click()
  await expect(info).toHaveText('Página 3 de 3 (registros 1001–1234 de 1234)')
  const lastPage = await visibleRows(page).evaluateAll((rows) =>
    rows.map((tr) => Number((tr as HTMLTableRowElement).cells[5]?.getAttribute('data-v'))),
  )
  expect(lastPage).toEqual(payouts.slice(1000))
  expect(requests).toEqual([])
  expect(problems).toEqual([])
  await page.close()

  const context = await browser.newContext({ javaScriptEnabled: false })
  const noJs = await context.newPage()
  await noJs.goto(urls.large)
  // The pages keep their `hidden` attribute; the <noscript> style shows them anyway.
  const shown = await noJs
    .locator('#records tr.rec')
    .evaluateAll((rows) => rows.filter((tr) => tr.getClientRects().length > 0).length)
  expect(shown).toBe(1234)
  await expect(noJs.locator('#pager')).toBeHidden()
  // Playwright's text engine skips <noscript>; the DOM has the note, laid out.
  const note = await noJs.evaluate(() => {
    const p = document.querySelector('noscript + p, noscript p')
    return p && p.getClientRects().length > 0 ? p.textContent : null
  })
  expect(note).toMatch(/^JavaScript desligado/)
  await context.close()
})
