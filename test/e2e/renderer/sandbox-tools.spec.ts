/**
 * Sandbox tools: funding off by more than 5% (over and under) returns the token in full; a processor failure
 * refunds too; maintenance switches on and off and new withdrawals are refused meanwhile.
 */
import type { Page } from '@playwright/test'
import { expect, test, type TestApp } from '../support/app-fixture'
import {
  CPF,
  expectNoSeriousAxeViolations,
  expectRefundAccepted,
  fillForm,
  refundAddressFor,
} from './withdrawal-steps'

async function createThroughUi(app: TestApp, amountDigits: string): Promise<string> {
  const { page } = app
  await page.getByRole('navigation').getByRole('button', { name: 'Novo pagamento' }).click()
  await fillForm(page, {
    pixKey: 'fulano@example.com',
    taxNumber: CPF,
    amountDigits,
    refundAddress: refundAddressFor(app),
  })
  await expectRefundAccepted(page)
  await page.getByRole('button', { name: 'Revisar' }).click()
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  await expect(page.getByTestId('deposit-address')).toBeVisible()
  return app.ctx.ledger.query({ sort: { field: 'createdAt', dir: 'desc' } }).rows[0]!.localId
}

async function openTools(page: Page): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name: 'Ferramentas do Sandbox' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Ferramentas do Sandbox' })).toBeVisible()
}

test('funding beyond ±5% either way is returned in full; a processor failure is refunded', async ({
  app,
}) => {
  const { page } = app
  const over = await createThroughUi(app, '10000')
  const under = await createThroughUi(app, '20000')
  const failing = await createThroughUi(app, '30000')
  await openTools(page)
  const picker = page.getByLabel(/Pagamento \(os 50 mais recentes\)/)
  await expect(picker.locator('option')).toHaveCount(3)

  await picker.selectOption(over)
  await page.getByRole('button', { name: 'Depositar mais de 5% acima' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'refunded')
  expect(app.ctx.ledger.get(over)!.refund).not.toBeNull()

  await picker.selectOption(under)
  await page.getByRole('button', { name: 'Depositar mais de 5% abaixo' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'refunded')

  await picker.selectOption(failing)
  await page.getByRole('button', { name: 'Depositar o valor exato' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sending')
  await page.getByRole('button', { name: 'Falhar: erro do processador' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'refunded')
  await expect(page.getByText('Última ação: Falhar: erro do processador.')).toBeVisible()

  // "Only created" and "all" both list them; a refused action shows its error.
  await page.getByLabel('Somente pagamentos criados no serviço').uncheck()
  await expect(picker.locator('option')).toHaveCount(3)
  await page.getByRole('button', { name: 'Pix pago' }).click()
  await expect(page.locator('[data-error-code]')).toBeVisible()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'refunded')

  await page.getByRole('button', { name: 'Abrir página de envio' }).click()
  await expect(page.getByTestId('refund').locator('[data-reason="processor_failure"]')).toHaveText(
    'Falha do serviço ou do processador bancário (sem tarifa)',
  )
})

test('maintenance on refuses new withdrawals with its message; off lets them through', async ({ app }) => {
  const { page } = app
  await openTools(page)
  await page.getByRole('button', { name: 'Ligar manutenção', exact: true }).click()
  await expect(page.getByTestId('maintenance-state')).toContainText('Manutenção LIGADA')
  await page.getByRole('navigation').getByRole('button', { name: 'Novo pagamento' }).click()
  await fillForm(page, {
    pixKey: 'fulano@example.com',
    taxNumber: CPF,
    amountDigits: '1000',
    refundAddress: refundAddressFor(app),
  })
  await expectRefundAccepted(page)
  await page.getByRole('button', { name: 'Revisar' }).click()
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  const notice = page.locator('[data-error-code="maintenance"]')
  await expect(notice).toContainText('manutenção')
  await expect(notice).toContainText('Tente novamente após')
  await expect(notice.getByTestId('request-id')).toHaveText(/\S+/)

  await openTools(page)
  await page.getByRole('button', { name: 'Desligar manutenção' }).click()
  await expect(page.getByTestId('maintenance-state')).toContainText('Manutenção desligada')
  // What was typed survived the visit to another page.
  await page.getByRole('navigation').getByRole('button', { name: 'Novo pagamento' }).click()
  await expect(page.locator('#amountCents')).toHaveValue('R$ 10,00')
  await page.getByRole('button', { name: 'Revisar' }).click()
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  await expect(page.getByTestId('deposit-address')).toBeVisible()
})

test('axe and screenshots of the Sandbox tools in pt-BR and en', async ({ app }) => {
  const { page } = app
  await createThroughUi(app, '4200')
  await openTools(page)
  await page.getByRole('button', { name: 'Depositar o valor exato' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sending')
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('sandbox-tools-pt-BR')
  await page.getByLabel('Idioma').selectOption('en')
  await expect(page.getByRole('heading', { level: 2, name: 'Sandbox tools' })).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('sandbox-tools-en')
})
