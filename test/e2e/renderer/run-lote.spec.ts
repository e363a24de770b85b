/**
 * The "Lote" of a run's payment (issue #26) in the browser: after a two-line run is paid, Pagamentos shows each
 * payment's run (its name, the spreadsheet line under it) in a column of its own, a payment made alone shows a
 * dash there; the payee is the name typed in the spreadsheet, not the key (names first); the payment's detail
 * names the run and opens it. At 1024×700, in both languages, nothing clipped
 * without its full value on hover and no serious axe finding.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBRL } from '../../../src/shared/money'
import { expect, onToday, test } from '../support/app-fixture'
import { clippedText } from './clipping'
import { createWithdrawal, expectNoSeriousAxe, setLanguage } from './records-helpers'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    sandbox: { rateLimits: { withdraw: 600 }, autoSettleSeconds: 1 },
  }),
})

test('a run’s payments show their Lote in Pagamentos and on the detail; a payment made alone does not', async ({
  app,
}) => {
  test.setTimeout(120_000)
  const { page } = app
  const refund = refundAddressFor(app)
  const alone = await createWithdrawal(app, { pixKey: 'avulso@example.com', cents: 4_200 })
  const lines = ['Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução']
  lines.push(`Fornecedora Alfa;alfa@example.com;${CPF};30,00;${refund}`)
  lines.push(`Fornecedora Beta;beta@example.com;${CPF};31,00;${refund}`)
  const dir = mkdtempSync(join(tmpdir(), 'run-lote-e2e-'))
  const file = join(dir, 'folha-novembro.csv')
  writeFileSync(file, `${lines.join('\r\n')}\r\n`)
  try {
    await page.setViewportSize({ width: 1024, height: 700 })
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('run-file').setInputFiles(file)
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    const approve = page.getByTestId('approve-form')
    await approve
      .getByLabel('Total a receber por Pix (R$), conforme o seu controle')
      .fill(formatBRL(6_100).replace('R$ ', ''))
    await approve.getByRole('button', { name: 'Aprovar lote' }).click()
    await page.getByRole('button', { name: 'Criar onda' }).click()
    await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 30_000 })

    // Pagamentos: the Lote column, the run's name and the row's line; a dash for the payment made alone.
    await page.getByTestId('nav-withdrawals').click()
    const table = page.getByTestId('records-table')
    await expect(table.locator('th', { hasText: 'Lote' })).toBeVisible()
    const rows = table.locator('tbody tr[data-local-id]')
    await expect(rows).toHaveCount(3)
    const beta = rows.filter({ hasText: 'Fornecedora Beta' })
    const lote = beta.locator('td[data-col="run"]')
    // The run is named after the imported file.
    const shownName = 'folha-novembro.csv'
    await expect(lote.locator('.cell-text').first()).toHaveText(shownName)
    await expect(lote.locator('.cell-text').nth(1)).toHaveText('linha 3')
    await expect(lote.locator('[title]')).toHaveAttribute('title', `${shownName} · linha 3`)
    await expect(rows.filter({ hasText: 'Fornecedora Alfa' }).locator('td[data-col="run"]')).toContainText(
      'linha 2',
    )
    await expect(page.locator(`tr[data-local-id="${alone.localId}"] td[data-col="run"]`)).toHaveText('—')
    expect(await clippedText(page)).toEqual([])
    await expectNoSeriousAxe(page)
    await app.screenshot('withdrawals-lote-pt-BR-1024x700')

    // Names first: the spreadsheet's name, the key on the second line.
    await expect(beta.locator('td[data-col="payee"] .payee-main')).toHaveText('Fornecedora Beta')
    await expect(beta.locator('td[data-col="payee"] .payee-key')).toContainText('beta@example.com')

    // Hoje names them the same way.
    await page.getByTestId('nav-today').click()
    await expect(page.getByTestId('today-awaiting')).toContainText('Fornecedora Beta')
    await expect(page.getByTestId('today-awaiting')).toContainText('Fornecedora Alfa')
    await page.getByTestId('nav-withdrawals').click()

    // The detail is titled by that name, names the run and opens it.
    await beta.click()
    await expect(page.locator('#detail-title')).toHaveText('R$ 31,00 para Fornecedora Beta')
    await expect(page.getByTestId('lead-sentence')).toContainText('Fornecedora Beta')
    await expect(page.getByTestId('detail-run')).toContainText(`${shownName} · linha 3`)
    await setLanguage(page, 'en')
    await expect(page.getByTestId('detail-run')).toContainText(`${shownName} · line 3`)
    await setLanguage(page, 'pt-BR')
    await page.getByTestId('detail-run').getByRole('button', { name: 'Abrir o lote' }).click()
    await expect(page.getByTestId('run-detail')).toBeVisible()
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
