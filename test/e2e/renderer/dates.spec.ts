/**
 * Dates that mean what they say (issue #26): a payment created yesterday and paid today is in "Pagos hoje" and in
 * Totais → Hoje (both by the day the Pix was paid), not in today's created count; the list filter says which date
 * it ranges on and finds it by payment date, not by creation date. And a refused top-up says why, in pt-BR.
 */
import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { openDb } from '../../../src/main/ledger/sqlite/db'
import { migrate } from '../../../src/main/ledger/sqlite/migrations'
import { writeRecord } from '../../../src/main/ledger/sqlite/record-write'
import { calendarDayOf } from '../../../src/shared/calendar-day'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import { expect, test } from '../support/app-fixture'
import { expectNoSeriousAxe, REFUND_ADDRESS } from './records-helpers'
import { refundAddressFor } from './withdrawal-steps'

const DAY_MS = 86_400_000

/** One payment created a day ago and paid a second ago (first "sent" in its history), straight into the file. */
function seedCreatedYesterdayPaidToday(file: string): void {
  const db = openDb(file)
  migrate(db.raw)
  const createdAt = new Date(Date.now() - DAY_MS).toISOString()
  const paidAt = new Date(Date.now() - 1000).toISOString()
  const localId = randomUUID()
  const pixKey = 'ontem@example.com'
  const remoteId = 'seed-yesterday'
  db.tx(() => {
    writeRecord(
      db,
      paidAt,
      null,
      {
        localId,
        profile: SANDBOX_PROFILE_ID,
        operator: 'seed',
        createdAt,
        updatedAt: paidAt,
        localState: 'created',
        request: { pixKey, payoutAmountInCents: 25_000, refundAddress: REFUND_ADDRESS },
        pixKey,
        amountKind: 'payout',
        amountCents: 25_000,
        createResponse: { withdrawalId: remoteId },
        remoteId,
        remoteStatus: 'sent',
        remoteStatusAt: paidAt,
        remoteCheckedAt: paidAt,
        lastRemote: { id: remoteId, status: 'sent', pixKey },
        depositAddress: null,
        depositAmountCents: 25_250,
        payoutAmountCents: 25_000,
        expiration: null,
        fundedAt: createdAt,
        fundingTxId: null,
        refund: null,
        receiverName: 'Fornecedora Ontem Ltda',
        error: null,
        requestId: null,
        flags: [],
      },
      { operator: 'seed', action: 'withdrawal.imported' },
    )
    const observe = db.raw.prepare(
      `INSERT INTO observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
       VALUES (?, ?, ?, ?, NULL, NULL, 1)`,
    )
    observe.run(localId, createdAt, 'unsent', JSON.stringify({ status: 'unsent' }))
    observe.run(localId, paidAt, 'sent', JSON.stringify({ status: 'sent' }))
  })
  db.close()
}

/** dd/mm/aaaa of today in São Paulo, as typed in the filter. */
function todayTyped(): string {
  const [y, m, d] = calendarDayOf(Date.now()).split('-')
  return `${d}/${m}/${y}`
}

async function nav(page: Page, id: string): Promise<void> {
  await page.getByTestId(`nav-${id}`).click()
}

test.describe('paid today, created yesterday', () => {
  test.use({
    appOptions: {
      language: 'pt-BR',
      sandbox: {},
      beforeOpen: seedCreatedYesterdayPaidToday,
      // The seeded remote id is not the sandbox's: nothing should poll it.
      trackerAutoStart: false,
      startPage: 'today',
    },
  })

  test('Pagos hoje and Totais → Hoje agree, each row says which date it counts by; the list finds it by paid date', async ({
    app,
  }) => {
    const { page } = app
    const paid = page.getByTestId('today-paid')
    await expect(paid).toContainText('R$ 250,00')
    await expect(paid.locator('.today-count')).toHaveText('1')
    await expect(page.getByTestId('today-paid-day')).toHaveText('R$ 250,00')
    await expect(page.getByTestId('today-paid-count-day')).toHaveText('1')
    await expect(page.getByTestId('today-fees-day')).toHaveText('R$ 2,50')
    await expect(page.locator('[data-total="paid"] th')).toContainText('pela data do pagamento')
    await expect(page.locator('[data-total="open"] th')).toContainText('pela data de criação')
    await expectNoSeriousAxe(page)
    await app.screenshot('dates-today-pt-BR')

    // The list: today by creation date has nothing; by payment date it has the payment.
    await nav(page, 'withdrawals')
    await expect(page.getByTestId('records-count')).toHaveText('1 registro')
    const from = page.getByRole('textbox', { name: /^De/ })
    const to = page.getByRole('textbox', { name: /^Até/ })
    await from.fill(todayTyped())
    await to.fill(todayTyped())
    await expect(page.getByTestId('records-count')).toHaveText('Nenhum registro')
    await page.getByTestId('date-basis').selectOption('paid')
    await expect(page.getByTestId('records-count')).toHaveText('1 registro')
    await page.getByTestId('totals-details').locator('summary').click()
    await expect(page.getByTestId('totals-period')).toContainText('pela data em que o Pix foi pago')
    await page.getByTestId('date-basis').selectOption('created')
    await expect(page.getByTestId('totals-period')).toContainText('pela data de criação')
  })
})

test.describe('a refused top-up', () => {
  test.use({
    appOptions: {
      language: 'pt-BR',
      sandbox: {},
      beforeOpen: null,
      trackerAutoStart: true,
      startPage: 'today',
    },
  })

  test('shows the service’s reason in pt-BR from its code; the raw answer only under Detalhes técnicos', async ({
    app,
  }) => {
    const { page } = app
    const navTo = (name: string) => page.getByRole('navigation').getByRole('button', { name, exact: true })
    await navTo('Comprar DePix').click()
    // Not "(opcional)": the service may refuse a top-up whose payer is not identified.
    await expect(page.locator('label[for="deposit-tax"]')).toHaveText('CPF/CNPJ do pagador')
    await expect(page.getByLabel('CPF/CNPJ do pagador', { exact: true })).toHaveAccessibleDescription(
      /pode recusar a compra sem essa identificação/,
    )
    await page.getByLabel('Valor da compra (R$)').fill('30000')
    await page.getByLabel('Endereço Liquid da tesouraria (destino do DePix)').fill(refundAddressFor(app))
    await page.getByRole('button', { name: 'Revisar compra' }).click()
    await page.getByRole('button', { name: 'Gerar QR da compra' }).click()
    await expect(page.getByRole('alert').first()).toBeVisible()

    const [rejected] = app.ctx.ledger.deposits.query({}).rows
    expect(rejected?.localState).toBe('rejected')
    await navTo('Compras de DePix').click()
    await page
      .locator(`[data-testid="deposit-row"][data-local-id="${rejected!.localId}"]`)
      .getByRole('button')
      .click()
    const refusal = page.getByTestId('deposit-refusal')
    await expect(refusal).toContainText('O serviço recusou esta compra')
    await expect(refusal).toContainText('O pagador precisa ser identificado (CPF/CNPJ ou EUID).')
    // The service's own (English) words are kept for support, collapsed.
    await expect(refusal).not.toContainText('endUserTaxNumber')
    await expect(page.getByTestId('deposit-error-raw')).toBeHidden()
    await page.locator('details[data-technical] > summary').click()
    await expect(page.getByTestId('deposit-error-raw')).toContainText('IDENTIFICATION_REQUIRED')
    await expectNoSeriousAxe(page)
    await app.screenshot('dates-topup-refused-pt-BR')
  })
})
