/**
 * The whole road of a withdrawal through the real app: form → review → create → funding instructions → funded
 * through the Sandbox tools → paid (or refunded), every step checked against what the ledger and sandbox hold.
 */
import { formatDePix } from '../../../src/shared/money'
import { expect, test } from '../support/app-fixture'
import { expectVisibleFocus, tabTo } from './keyboard'
import {
  CONFIDENTIAL_PREFIX,
  CPF,
  CPF_MASKED,
  expectRefundAccepted,
  fillForm,
  networkOf,
  refundAddressFor,
  reviewedRequest,
} from './withdrawal-steps'

test('first run: BRL payout → review → create → funding page → fund and settle in the Sandbox tools → sent', async ({
  app,
}) => {
  const { page } = app
  await expect(page.getByRole('heading', { level: 2, name: 'Novo pagamento' })).toBeVisible()
  const refundAddress = refundAddressFor(app)

  await fillForm(page, {
    pixKey: 'Fulano@Example.com',
    taxNumber: CPF,
    kind: 'payout',
    amountDigits: '12345',
    refundAddress,
  })
  // Live feedback while typing: canonical key, masked CPF, the amount as it will be sent, the checked address.
  await expect(page.getByTestId('pix-canonical')).toHaveText('fulano@example.com')
  await expect(page.getByLabel('CPF ou CNPJ do favorecido')).toHaveValue(CPF_MASKED)
  await expect(page.getByText('CPF válido.')).toBeVisible()
  await expect(page.locator('#amountCents')).toHaveValue('R$ 123,45')
  await expectRefundAccepted(page)

  await page.getByRole('button', { name: 'Revisar' }).click()
  await expect(page.getByRole('heading', { name: 'Revise antes de criar' })).toBeVisible()
  const request = await reviewedRequest(page)
  expect(request).toEqual({
    pixKey: 'fulano@example.com',
    taxNumber: CPF,
    payoutAmountInCents: 12_345,
    refundAddress,
  })
  await expect(page.getByTestId('review-payout')).toHaveText('R$ 123,45')
  await expect(page.getByTestId('review-fee')).toContainText('R$ 1,')
  await app.screenshot('new-withdrawal-review-pt-BR')

  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  await expect(page.getByRole('heading', { level: 2, name: 'Enviar DePix para o pagamento' })).toBeVisible()

  const rows = app.ctx.ledger.query({}).rows
  expect(rows).toHaveLength(1)
  const record = rows[0]!
  expect(record.localState).toBe('created')
  expect(record.request).toEqual(request)

  const address = page.getByTestId('deposit-address')
  await expect(address).toHaveText(record.depositAddress!)
  expect(record.depositAddress!.startsWith(CONFIDENTIAL_PREFIX[networkOf(app)])).toBe(true)
  await expect(page.getByTestId('depix-amount')).toHaveText(formatDePix(record.depositAmountCents!))
  await expect(page.getByTestId('depix-amount')).toHaveText(/^\d{1,3}(\.\d{3})*,\d{8} DePix$/)
  const qr = page.getByTestId('funding-qr')
  await expect(qr).toHaveAttribute('src', /^data:image\/svg\+xml;base64,/)
  expect(await qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth > 0)).toBe(true)
  await expect(page.getByTestId('funding-uri')).toContainText(record.depositAddress!)
  // The sandbox's addresses are real mainnet addresses that belong to nobody: the page says not to pay them.
  await expect(page.getByTestId('sandbox-address-warning')).toBeVisible()
  await expect(page.getByTestId('countdown')).toHaveAttribute('data-state', 'running')
  await expect(page.getByTestId('funding-status')).toHaveAttribute('data-status', 'unsent')

  await page.getByRole('navigation').getByRole('button', { name: 'Ferramentas do Sandbox' }).click()
  await expect(page.getByLabel(/Pagamento \(os 50 mais recentes\)/)).toHaveValue(record.localId)
  await page.getByRole('button', { name: 'Depositar o valor exato' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sending')
  await page.getByRole('button', { name: 'Pix pago' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sent')

  await page.getByRole('button', { name: 'Abrir página de envio' }).click()
  await expect(page.getByTestId('funding-status')).toHaveAttribute('data-status', 'sent')
  // Paid: nothing is payable any more, and the receipt is shown.
  await expect(page.getByTestId('deposit-address')).toHaveCount(0)
  const receipt = page.getByTestId('receipt')
  await expect(receipt).toContainText('Maria da Silva Sandbox')
  await expect(receipt).toContainText('R$ 123,45')
  expect(app.ctx.ledger.get(record.localId)?.remoteStatus).toBe('sent')
  await app.screenshot('funding-sent-pt-BR')
})

test('invalid Pix key: the payout fails and the withdrawal ends refunded, the refund shown', async ({
  app,
}) => {
  const { page } = app
  const refundAddress = refundAddressFor(app)
  await fillForm(page, { pixKey: CPF, taxNumber: CPF, kind: 'deposit', amountDigits: '5000', refundAddress })
  await expectRefundAccepted(page)
  await page.getByRole('button', { name: 'Revisar' }).click()
  expect(await reviewedRequest(page)).toMatchObject({ depositAmountInCents: 5_000 })
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  await expect(page.getByTestId('deposit-address')).toBeVisible()
  const localId = app.ctx.ledger.query({}).rows[0]!.localId

  await page.getByRole('navigation').getByRole('button', { name: 'Ferramentas do Sandbox' }).click()
  await page.getByRole('button', { name: 'Depositar o valor exato' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sending')
  await page.getByRole('button', { name: 'Falhar: chave Pix inválida' }).click()
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'refunded')

  await page.getByRole('button', { name: 'Abrir página de envio' }).click()
  await expect(page.getByTestId('funding-status')).toHaveAttribute('data-status', 'refunded')
  const refund = page.getByTestId('refund')
  // The reason in words, its code only in the markup; the refund's amounts in R$ (1 DePix = R$ 1,00).
  await expect(refund.locator('[data-reason="invalid_pix_key"]')).toHaveText(/^Chave Pix inválida/)
  await expect(refund).not.toContainText('invalid_pix_key')
  await expect(refund).toContainText('Tarifa retidaR$ 1,00')
  await expect(refund).not.toContainText('00000000')
  const stored = app.ctx.ledger.get(localId)!
  expect(stored.refund).not.toBeNull()
  await expect(refund).toContainText(String(stored.refund!['txId']))
  await app.screenshot('funding-refunded-pt-BR')
})

test('keyboard only: the same journey with Tab, Shift+Tab, Enter, Space and arrows', async ({ app }) => {
  const { page } = app
  const kb = page.keyboard
  const refundAddress = refundAddressFor(app)

  await tabTo(page, page.locator('#pixKey'))
  await kb.type('fulano@example.com')
  await tabTo(page, page.locator('#taxNumber'))
  await kb.type(CPF)
  await expect(page.locator('#taxNumber')).toHaveValue(CPF_MASKED)
  await tabTo(page, page.getByRole('radio', { name: 'BRL a receber' }))
  await expectVisibleFocus(page)
  // Arrows move within the radio group: there and back.
  await kb.press('ArrowRight')
  await expect(page.getByRole('radio', { name: 'DePix a enviar' })).toBeChecked()
  await kb.press('ArrowLeft')
  await expect(page.getByRole('radio', { name: 'BRL a receber' })).toBeChecked()
  await tabTo(page, page.locator('#amountCents'))
  await kb.type('12345')
  await expect(page.locator('#amountCents')).toHaveValue('R$ 123,45')
  await tabTo(page, page.locator('#refundAddress'))
  await kb.type(refundAddress)
  await expectRefundAccepted(page)
  // Shift+Tab back to the amount: still there.
  await tabTo(page, page.locator('#amountCents'), true)
  await expect(page.locator('#amountCents')).toHaveValue('R$ 123,45')
  await tabTo(page, page.getByRole('button', { name: 'Revisar' }))
  await kb.press('Enter')

  const heading = page.getByRole('heading', { name: 'Revise antes de criar' })
  await expect(heading).toBeFocused()
  expect(await reviewedRequest(page)).toMatchObject({ payoutAmountInCents: 12_345 })
  const create = page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' })
  await tabTo(page, create)
  await expectVisibleFocus(page)
  await kb.press('Space')
  await expect(page.getByTestId('deposit-address')).toBeVisible()
  const localId = app.ctx.ledger.query({}).rows[0]!.localId

  await tabTo(
    page,
    page.getByRole('navigation').getByRole('button', { name: 'Ferramentas do Sandbox' }),
    true,
  )
  await kb.press('Enter')
  const picker = page.getByLabel(/Pagamento \(os 50 mais recentes\)/)
  await expect(picker).toHaveValue(localId)
  await tabTo(page, page.getByRole('button', { name: 'Depositar o valor exato' }))
  await kb.press('Enter')
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sending')
  await tabTo(page, page.getByRole('button', { name: 'Pix pago' }))
  await kb.press('Space')
  await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sent')
  await tabTo(page, page.getByRole('button', { name: 'Abrir página de envio' }))
  await kb.press('Enter')
  await expect(page.getByTestId('funding-status')).toHaveAttribute('data-status', 'sent')
  await expect(page.getByTestId('receipt')).toContainText('R$ 123,45')
})
