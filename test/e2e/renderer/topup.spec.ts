/**
 * "Comprar DePix" in Chromium against the real sandbox: buy R$ 500,00 → the QR and its copia e cola with the
 * expiry countdown → Sandbox tools pay it → paid with the Liquid txid → in the list → an export that verifies.
 * Then a deposit made outside the app is found by reconciliation and imported (marked as such), and a MED on a
 * paid one raises the alert. Arkade addresses are refused with their own message, nothing sent.
 */
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import type { Page } from '@playwright/test'
import { verifyExport } from '../../../src/main/records/verify'
import { expect, onToday, test, type TestApp } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    // The DePix leaves as soon as the Pix is paid: "paid" is one status read away, no wall-clock wait.
    sandbox: { depositSendSeconds: 0 },
  }),
})

const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('button', { name, exact: true })

async function buy(app: TestApp, digits: string): Promise<string> {
  const { page } = app
  await nav(page, 'Comprar DePix').click()
  await expect(page.getByRole('heading', { level: 2, name: 'Comprar DePix' })).toBeVisible()
  await page.getByLabel('Valor da compra (R$)').fill(digits)
  await page.getByLabel('Endereço Liquid da tesouraria (destino do DePix)').fill(refundAddressFor(app))
  await expect(page.getByTestId('depixAddress-ok')).toBeVisible()
  await page.getByLabel('CPF/CNPJ do pagador', { exact: true }).fill(CPF)
  await page.getByRole('button', { name: 'Revisar compra' }).click()
  await page.getByRole('button', { name: 'Gerar QR da compra' }).click()
  const detail = page.getByTestId('deposit-detail')
  await expect(detail).toBeVisible()
  return (await detail.getAttribute('data-local-id')) as string
}

async function sandboxAction(page: Page, localId: string, button: string): Promise<void> {
  await nav(page, 'Ferramentas do Sandbox').click()
  await page.getByLabel('Compra', { exact: true }).selectOption(localId)
  await page.getByRole('button', { name: button }).click()
}

async function openDeposit(page: Page, localId: string): Promise<void> {
  await nav(page, 'Compras de DePix').click()
  await page.locator(`[data-testid="deposit-row"][data-local-id="${localId}"]`).getByRole('button').click()
  await expect(page.getByTestId('deposit-detail')).toHaveAttribute('data-local-id', localId)
}

test('buy R$ 500,00: QR and copia e cola, paid in the sandbox, txid shown, listed and exported verified', async ({
  app,
}) => {
  const { page } = app
  const localId = await buy(app, '50000')
  await expect(page.getByTestId('deposit-amount')).toHaveText('R$ 500,00')
  await expect(
    page.getByTestId('deposit-detail').getByRole('definition').getByTestId('deposit-status'),
  ).toHaveText('Aguardando o Pix')
  await expect(page.getByTestId('deposit-qr-image')).toBeVisible()
  const copyPaste = await page.getByTestId('deposit-copy-paste').inputValue()
  expect(copyPaste.startsWith('000201')).toBe(true)
  expect(copyPaste).toContain('500.00')
  await expect(page.getByTestId('countdown')).toHaveAttribute('data-state', 'running')
  // One POST /deposit, one record.
  expect(app.ctx.ledger.deposits.query({}).total).toBe(1)

  await sandboxAction(page, localId, 'Pagar este QR')
  await openDeposit(page, localId)
  await page.getByTestId('deposit-refresh').click()
  await expect(
    page.getByTestId('deposit-detail').getByRole('definition').getByTestId('deposit-status'),
  ).toHaveText('DePix recebido')
  const txid = app.ctx.ledger.deposits.get(localId)!.blockchainTxId!
  expect(txid).toMatch(/^[0-9a-f]{64}$/)
  await expect(page.getByTestId('deposit-txid')).toHaveText(txid)
  await expect(page.getByTestId('deposit-qr')).toHaveCount(0)
  await expect(page.getByTestId('deposit-timeline').locator('li')).not.toHaveCount(0)

  await nav(page, 'Compras de DePix').click()
  const row = page.locator(`[data-testid="deposit-row"][data-local-id="${localId}"]`)
  await expect(row).toContainText('DePix recebido')
  await expect(row).toContainText('R$ 500,00')
  await expect(page.getByTestId('deposit-totals').locator('[data-meaning="paid"]')).toContainText('R$ 500,00')

  const dir = path.join(app.dataDir, 'export')
  app.nextDirectory(dir)
  await page.getByTestId('deposit-export').click()
  await expect(page.getByTestId('deposit-export-done')).toBeVisible()
  const exported = (await page.getByTestId('deposit-export-done').textContent()) ?? ''
  const manifest = /Manifesto: (.+)$/.exec(exported)?.[1]
  expect(manifest).toBeTruthy()
  const v = await verifyExport(manifest!)
  expect(v.problems).toEqual([])
  expect(v.manifest?.recordKind).toBe('deposit')
  expect(v.manifest?.rowCount).toBe(1)
  expect(v.manifest?.meaningTotals?.paid.depositCents).toBe(50_000)

  // The offline review opens the deposit export and lists it as a top-up, with its totals.
  await nav(page, 'Revisão offline').click()
  app.nextDirectory(path.dirname(manifest!))
  await page.getByRole('button', { name: 'Abrir pasta de exportação…' }).click()
  await expect(page.locator('.page-review')).toHaveAttribute('data-verdict', 'verified')
  const reviewed = page.getByTestId('deposit-review')
  await expect(reviewed.getByTestId('deposit-row')).toHaveCount(1)
  await expect(reviewed.getByTestId('deposit-row')).toContainText('DePix recebido')
  await expect(reviewed.getByTestId('deposit-totals').locator('[data-meaning="paid"]')).toContainText(
    'R$ 500,00',
  )
})

test('a QR rewritten in the ledger file with another amount: the service refutes it, nothing to pay', async ({
  app,
}) => {
  const { page } = app
  const localId = await buy(app, '50000')
  await expect(page.getByTestId('deposit-qr-image')).toBeVisible()
  const genuine = await page.getByTestId('deposit-copy-paste').inputValue()
  // Another process edits the desk's file (issue #24): payload and create answer now charge R$ 50,00 elsewhere.
  const forged = genuine.replace('5406500.00', '540550.00')
  const db = new DatabaseSync(path.join(app.dataDir, 'ledger.sqlite'))
  db.exec('PRAGMA busy_timeout = 5000')
  db.prepare(
    "UPDATE deposits SET qr_copy_paste = ?, create_response = json_set(create_response, '$.qrCopyPaste', ?) WHERE local_id = ?",
  ).run(forged, forged, localId)
  db.close()
  await openDeposit(page, localId)
  const alert = page.getByTestId('deposit-qr-alert')
  await expect(alert).toHaveAttribute('data-alert', 'mismatch')
  await expect(alert).toHaveClass(/alert-error/)
  await expect(alert).toContainText('Não pague este código Pix')
  await expect(alert).toContainText('valor do código')
  await expect(page.getByTestId('deposit-qr-image')).toHaveCount(0)
  await expect(page.getByTestId('deposit-copy-paste')).toHaveCount(0)
  await expect(page.getByText(forged)).toHaveCount(0)
})

test('an outside deposit is found by reconciliation and imported; a MED raises the alert', async ({
  app,
}) => {
  const { page } = app
  await nav(page, 'Ferramentas do Sandbox').click()
  await page.getByLabel('Valor em centavos').fill('30000')
  await page.getByRole('button', { name: 'Criar compra fora do aplicativo' }).click()
  await expect(page.getByTestId('sandbox-outside-made')).toBeVisible()
  const qrId = /: (.+)$/.exec((await page.getByTestId('sandbox-outside-made').textContent()) ?? '')?.[1]
  expect(qrId).toBeTruthy()

  await nav(page, 'Compras de DePix').click()
  await expect(page.getByText('Nenhuma compra de DePix neste perfil.')).toBeVisible()
  await page.getByTestId('reconcile-run').click()
  const found = page.locator(`[data-qr-id="${qrId}"]`)
  await expect(found).toBeVisible()
  await found.getByRole('button', { name: 'Importar para acompanhar' }).click()
  await expect(found).toHaveCount(0)
  const row = page.getByTestId('deposit-row')
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('feita fora do aplicativo')
  await expect(row).toContainText('R$ 300,00')
  const imported = app.ctx.ledger.deposits.findByRemoteId(app.ctx.runtime().profile.id, qrId!)
  expect(imported?.origin).toBe('imported')

  // Ours, paid, then reversed by a MED.
  const localId = await buy(app, '20000')
  await sandboxAction(page, localId, 'Pagar este QR')
  await page.getByRole('button', { name: 'Registrar MED (devolução ao pagador)' }).click()
  await openDeposit(page, localId)
  await page.getByTestId('deposit-refresh').click()
  await expect(page.getByTestId('deposit-med-alert')).toContainText('R$ 200,00')
  await expect(
    page.getByTestId('deposit-detail').getByRole('definition').getByTestId('deposit-status'),
  ).toHaveText('Devolvido ao pagador (MED)')
  await nav(page, 'Compras de DePix').click()
  await expect(
    page
      .locator(`[data-testid="deposit-row"][data-local-id="${localId}"]`)
      .getByTestId('deposit-needs-action'),
  ).toBeVisible()
  // And on "Hoje", next to the payments that need action, with principal and date; the line opens the record.
  await page.getByTestId('nav-today').click()
  const med = page.getByTestId('today-deposit-attention').locator(`[data-local-id="${localId}"]`)
  await expect(med).toContainText('Devolvida por MED em')
  await expect(med).toContainText('R$ 200,00')
  await med.click()
  await expect(page.getByTestId('deposit-detail')).toHaveAttribute('data-local-id', localId)
})

test('an Arkade address is refused with its own message and nothing is sent', async ({ app }) => {
  const { page } = app
  await nav(page, 'Comprar DePix').click()
  await page.getByLabel('Valor da compra (R$)').fill('50000')
  await page.getByLabel('Endereço Liquid da tesouraria (destino do DePix)').fill('ark1qexampleaddress')
  await expect(page.getByTestId('depixAddress-check')).toContainText('Endereços Arkade não servem aqui')
  await page.getByRole('button', { name: 'Revisar compra' }).click()
  await expect(page.getByTestId('depixAddress-error')).toContainText('Endereços Arkade não servem aqui')
  await expect(page.getByLabel('Valor da compra (R$)')).toHaveValue('R$ 500,00')
  expect(app.ctx.ledger.deposits.query({}).total).toBe(0)
})

test("the payer's EUID on the form shows its daily limit, what was used today and when it resets", async ({
  app,
}) => {
  const { page } = app
  app.sandbox.control.registerEndUser({ euid: 'EU-TESTE-1', taxNumber: CPF, maxDailyInCents: 300_000 })
  await nav(page, 'Comprar DePix').click()
  await page.getByLabel('EUID do pagador (em vez do CPF/CNPJ)').fill('EU-TESTE-1')
  await page.getByRole('button', { name: 'Consultar limite' }).click()
  const info = page.getByTestId('user-info')
  await expect(info).toContainText('R$ 3.000,00')
  await expect(info).toContainText('Usado hoje')
  await expect(info).toContainText('Renova em')
})
