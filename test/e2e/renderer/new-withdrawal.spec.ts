/**
 * Nova retirada: every refusal shows its own message and loses nothing typed; refusals from the service
 * (maintenance, compliance, business) show their message and request id; duplicates need an explicit
 * confirmation; Create never double-submits; an unknown outcome is explained and not retried.
 */
import type { Page } from '@playwright/test'
import { expect, test } from '../support/app-fixture'
import {
  CPF,
  CPF_MASKED,
  expectNoSeriousAxeViolations,
  expectRefundAccepted,
  fillForm,
  refundAddressFor,
  reviewedRequest,
  wrongNetworkAddress,
} from './withdrawal-steps'

const PIX = 'fulano@example.com'

function calls(app: { bridge: { calls: Array<{ channel: unknown; input: unknown }> } }, channel: string) {
  return app.bridge.calls.filter((c) => c.channel === channel)
}

async function expectKept(page: Page, v: { pixKey: string; tax: string; amount: string; refund: string }) {
  await expect(page.getByLabel('Chave Pix', { exact: true })).toHaveValue(v.pixKey)
  await expect(page.getByLabel('CPF ou CNPJ do favorecido')).toHaveValue(v.tax)
  await expect(page.locator('#amountCents')).toHaveValue(v.amount)
  await expect(page.getByLabel('Endereço Liquid para devolução')).toHaveValue(v.refund)
}

test('form refusals: each has its message, nothing typed is lost, nothing is quoted', async ({ app }) => {
  const { page } = app
  const refund = refundAddressFor(app)

  // Bad CPF: the check digits are judged as soon as 11 digits are there.
  await fillForm(page, { pixKey: PIX, taxNumber: '52998224724', amountDigits: '5000', refundAddress: refund })
  const tax = page.getByLabel('CPF ou CNPJ do favorecido')
  await expect(tax).toHaveValue('529.982.247-24')
  await expect(page.getByText('CPF/CNPJ inválido: confira os dígitos verificadores.')).toBeVisible()
  await expect(tax).toHaveAttribute('aria-invalid', 'true')
  await expect(tax).toHaveAttribute('aria-describedby', /taxNumber-error/)
  await page.getByRole('button', { name: 'Revisar' }).click()
  await expect(page.getByRole('heading', { name: 'Revise antes de criar' })).toHaveCount(0)
  await expectKept(page, { pixKey: PIX, tax: '529.982.247-24', amount: 'R$ 50,00', refund })
  await tax.fill(CPF)
  await expect(page.getByText('CPF válido.')).toBeVisible()

  // R$ 1,99 and R$ 6.000,01, live, each with its bound.
  const amount = page.locator('#amountCents')
  await amount.fill('')
  await amount.pressSequentially('199')
  await expect(amount).toHaveValue('R$ 1,99')
  await expect(page.getByText('O valor mínimo por pagamento é R$ 2,00.')).toBeVisible()
  await expect(amount).toHaveAttribute('aria-invalid', 'true')
  await amount.fill('')
  await amount.pressSequentially('600001')
  await expect(amount).toHaveValue('R$ 6.000,01')
  await expect(page.getByText('O valor máximo por pagamento é R$ 6.000,00.')).toBeVisible()
  await page.getByRole('button', { name: 'Revisar' }).click()
  await expectKept(page, { pixKey: PIX, tax: CPF_MASKED, amount: 'R$ 6.000,01', refund })
  await amount.fill('')
  await amount.pressSequentially('600000')
  await expect(page.getByText('O valor máximo por pagamento é R$ 6.000,00.')).toHaveCount(0)

  // No refund address.
  const refundInput = page.getByLabel('Endereço Liquid para devolução')
  await refundInput.fill('')
  await page.getByRole('button', { name: 'Revisar' }).click()
  await expect(page.getByText('Informe o endereço Liquid para devolução.')).toBeVisible()
  await expect(refundInput).toBeFocused()
  await expectKept(page, { pixKey: PIX, tax: CPF_MASKED, amount: 'R$ 6.000,00', refund: '' })

  // A real address of another network: main's liquid:check refuses it, naming both networks.
  const wrong = wrongNetworkAddress(app)
  await refundInput.fill(wrong.address)
  const check = page.getByTestId('refund-check')
  await expect(check).toHaveAttribute('data-reason', 'wrong_network')
  await expect(check).toContainText(wrong.network === 'testnet' ? 'Liquid Testnet' : 'Liquid')
  await expect(refundInput).toHaveAttribute('aria-invalid', 'true')
  await page.getByRole('button', { name: 'Revisar' }).click()
  await expect(page.getByRole('heading', { name: 'Revise antes de criar' })).toHaveCount(0)
  await expectKept(page, { pixKey: PIX, tax: CPF_MASKED, amount: 'R$ 6.000,00', refund: wrong.address })
  expect(calls(app, 'withdrawals:quote')).toHaveLength(0)
  await app.screenshot('new-withdrawal-refusals-pt-BR')

  // Both amounts are impossible by construction: one input, whose meaning follows the radio.
  await refundInput.fill(refund)
  await expectRefundAccepted(page)
  const amountGroup = page.getByRole('group', { name: 'Valor' })
  await expect(amountGroup.getByRole('textbox')).toHaveCount(1)
  await page.getByRole('radio', { name: 'DePix a enviar' }).check()
  await expect(amountGroup.getByRole('textbox')).toHaveCount(1)
  await expect(page.getByLabel('Valor em DePix que você envia (1 DePix = R$ 1,00)')).toHaveValue(
    'R$ 6.000,00',
  )
  await page.getByRole('button', { name: 'Revisar' }).click()
  const request = await reviewedRequest(page)
  expect(request['depositAmountInCents']).toBe(600_000)
  expect(Object.keys(request).filter((k) => /AmountInCents$/.test(k))).toEqual(['depositAmountInCents'])
  // Back: everything is still there.
  await page.getByRole('button', { name: 'Voltar e editar' }).click()
  await expectKept(page, { pixKey: PIX, tax: CPF_MASKED, amount: 'R$ 6.000,00', refund })
  await expect(page.getByRole('radio', { name: 'DePix a enviar' })).toBeChecked()
})

test('Pix key: type selector and live detection with the canonical key', async ({ app }) => {
  const { page } = app
  const key = page.getByLabel('Chave Pix', { exact: true })
  await key.fill('+55 (61) 98888-7777')
  await expect(page.getByText('Tipo detectado: Celular.')).toBeVisible()
  await expect(page.getByTestId('pix-canonical')).toHaveText('+5561988887777')
  await page.getByLabel('Tipo de chave').selectOption('email')
  await key.blur()
  await expect(page.getByText('E-mail inválido para chave Pix.')).toBeVisible()
  await expect(key).toHaveValue('+55 (61) 98888-7777')
  await page.getByLabel('Tipo de chave').selectOption('')
  await key.fill('(61) 98888-7777')
  await expect(page.getByText('Digite o celular com +55 e DDD (ex.: +55 61 98888-7777).')).toBeVisible()
  await key.fill('61988887777')
  await expect(
    page.getByText('CPF inválido. Se for um celular, digite com +55 (ex.: +55 61 98888-7777).'),
  ).toBeVisible()
})

async function createAndExpectRefusal(page: Page, code: string, text: string | RegExp): Promise<void> {
  await page.getByRole('button', { name: 'Revisar' }).click()
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  const notice = page.locator(`[data-error-code="${code}"]`)
  await expect(notice).toBeVisible()
  await expect(notice).toContainText(text)
  await expect(notice.getByTestId('request-id')).toHaveText(/\S+/)
}

test('service refusals: maintenance, compliance 422 and a 520 each show their message and request id', async ({
  app,
}) => {
  const { page } = app
  const refund = refundAddressFor(app)
  const kept = { pixKey: PIX, tax: CPF_MASKED, amount: 'R$ 50,00', refund }
  await fillForm(page, { pixKey: PIX, taxNumber: CPF, amountDigits: '5000', refundAddress: refund })
  await expectRefundAccepted(page)

  app.sandbox.control.setMaintenance(true)
  await createAndExpectRefusal(page, 'maintenance', 'manutenção')
  await expectKept(page, kept)
  await app.screenshot('new-withdrawal-maintenance-pt-BR')
  app.sandbox.control.setMaintenance(false)

  app.sandbox.control.complianceBlock(CPF)
  await createAndExpectRefusal(page, 'compliance', /compliance/i)
  await expect(page.locator('[data-error-code="compliance"]')).toContainText('COMPLIANCE_BLOCKED')
  await expectKept(page, kept)

  // A fresh CPF (no compliance hold) over the sandbox's daily cap per tax number: 520.
  app.sandbox.control.setOptions({ dailyCapPerTaxNumberCents: 1_000 })
  await page.getByLabel('CPF ou CNPJ do favorecido').fill('11144477735')
  await createAndExpectRefusal(page, 'business', /./)
  await expect(page.locator('[data-error-code="business"]')).toContainText('Daily withdrawal limit')
  await expectKept(page, { ...kept, tax: '111.444.777-35' })

  const rejected = app.ctx.ledger.query({}).rows
  expect(rejected.map((r) => r.localState)).toEqual(['rejected', 'rejected', 'rejected'])
  expect(rejected.every((r) => r.requestId !== null)).toBe(true)
})

test('duplicates must be confirmed, and Create never sends twice', async ({ app }) => {
  const { page } = app
  const refund = refundAddressFor(app)
  const input = { pixKey: PIX, taxNumber: CPF, amountDigits: '2500', refundAddress: refund }
  await fillForm(page, input)
  await expectRefundAccepted(page)
  await page.getByRole('button', { name: 'Revisar' }).click()
  const create = page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' })
  // Two clicks in the same task: the second must find the first in flight.
  await create.evaluate((b: HTMLButtonElement) => {
    b.click()
    b.click()
  })
  await expect(page.getByTestId('deposit-address')).toBeVisible()
  expect(calls(app, 'withdrawals:create')).toHaveLength(1)

  await page.getByRole('button', { name: 'Novo pagamento' }).last().click()
  await fillForm(page, input)
  await expectRefundAccepted(page)
  await page.getByRole('button', { name: 'Revisar' }).click()
  const duplicates = page.getByTestId('duplicates')
  await expect(duplicates).toContainText('pagamentos parecidos')
  await expect(duplicates).toContainText(PIX)
  await expect(page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' })).toBeDisabled()
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('new-withdrawal-duplicate-pt-BR')
  await page.getByLabel('Confirmo que não é duplicada').check()
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  await expect(page.getByTestId('deposit-address')).toBeVisible()
  const creates = calls(app, 'withdrawals:create')
  expect(creates).toHaveLength(2)
  // Each create carries its own review's one-use intent; the second confirms exactly the record it showed.
  const [first, second] = creates.map((c) => c.input as { intentId: string; confirmedDuplicates?: string[] })
  expect(first!.intentId).toMatch(/\S/)
  expect(second!.intentId).not.toBe(first!.intentId)
  expect(first).not.toHaveProperty('confirmedDuplicates')
  const firstRecord = app.ctx.ledger.query({ sort: { field: 'createdAt', dir: 'asc' } }).rows[0]!
  expect(second!.confirmedDuplicates).toEqual([firstRecord.localId])
})

test('a similar withdrawal created elsewhere after the review: refused, the fresh review shows it', async ({
  app,
}) => {
  const { page } = app
  await fillForm(page, {
    pixKey: PIX,
    taxNumber: CPF,
    amountDigits: '2600',
    refundAddress: refundAddressFor(app),
  })
  await expectRefundAccepted(page)
  await page.getByRole('button', { name: 'Revisar' }).click()
  const req = await reviewedRequest(page)
  await expect(page.getByTestId('duplicates')).toHaveCount(0)
  // A second window creates the same withdrawal while this review is open.
  const kind = req['depositAmountInCents'] !== undefined ? 'deposit' : 'payout'
  const draft = {
    pixKey: req['pixKey'],
    taxNumber: req['taxNumber'],
    amount: { kind, cents: req[`${kind}AmountInCents`] },
    refundAddress: req['refundAddress'],
  }
  const q = await app.ctx.router.handle('withdrawals:quote', { draft })
  if (!q.ok) throw new Error('quote failed')
  const other = await app.ctx.router.handle('withdrawals:create', {
    draft,
    intentId: (q.data as { intent: { id: string } }).intent.id,
  })
  expect(other.ok).toBe(true)

  await page.getByRole('button', { name: 'Criar retirada' }).click()
  await expect(page.locator('[data-error-code="duplicate_since_review"]')).toContainText(
    'apareceu depois desta revisão',
  )
  const duplicates = page.getByTestId('duplicates')
  await expect(duplicates).toContainText(PIX)
  await expect(page.getByRole('button', { name: 'Criar retirada' })).toBeDisabled()
  expect(app.ctx.ledger.query({}).total).toBe(1)
  expect(app.sandbox.control.requestCounts()['POST /api/withdraw']).toBe(1)
})

test('unknown outcome: explained, not resent, linked to the record', async ({ app }) => {
  const { page } = app
  await fillForm(page, {
    pixKey: PIX,
    taxNumber: CPF,
    amountDigits: '3000',
    refundAddress: refundAddressFor(app),
  })
  await expectRefundAccepted(page)
  app.sandbox.control.injectFault({ kind: 'timeout_after_create', endpoint: 'withdraw', count: 1 })
  await page.getByRole('button', { name: 'Revisar' }).click()
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  const notice = page.getByTestId('outcome-unknown')
  await expect(notice).toContainText('Não sabemos se o pagamento foi criado')
  await expect(notice).toContainText('não reenvia nada automaticamente')
  const rows = app.ctx.ledger.query({}).rows
  expect(rows.map((r) => r.localState)).toEqual(['outcome_unknown'])
  expect(calls(app, 'withdrawals:create')).toHaveLength(1)
  await app.screenshot('new-withdrawal-unknown-pt-BR')
  await notice.getByRole('button', { name: 'Abrir o registro' }).click()
  await expect(page.locator(`[data-local-id="${rows[0]!.localId}"]`).first()).toBeAttached()
})

test('axe and screenshots of the form in pt-BR and en', async ({ app }) => {
  const { page } = app
  await fillForm(page, { pixKey: PIX, taxNumber: '5299822472', amountDigits: '150', refundAddress: 'lq1' })
  await page.getByRole('button', { name: 'Revisar' }).click()
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('new-withdrawal-pt-BR')
  await page.getByLabel('Idioma').selectOption('en')
  await expect(page.getByRole('heading', { level: 2, name: 'New withdrawal' })).toBeVisible()
  await expect(page.getByText('The minimum per withdrawal is R$2.00.')).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('new-withdrawal-en')
  await page.getByLabel('Liquid refund address').fill(refundAddressFor(app))
  await page.getByLabel('Payee CPF or CNPJ').fill(CPF)
  await page.locator('#amountCents').fill('')
  await page.locator('#amountCents').pressSequentially('12345')
  await expect(page.getByTestId('refund-check')).toContainText('Valid address')
  await page.getByRole('button', { name: 'Review', exact: true }).click()
  await expect(page.getByRole('heading', { name: 'Review before creating' })).toBeVisible()
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('new-withdrawal-review-en')
})
