/**
 * Screens that say the truth (issue #26): a payment created yesterday and paid today is in "Pagos hoje" and in
 * Totais → Hoje (both by the day the Pix was paid), not in today's created count; the list filter says which date
 * it ranges on and finds it by payment date, not by creation date. A refused top-up says why, in pt-BR. A run whose
 * 20 payments were all created and its wave declared funded, none paid yet, reads "Em processamento · 0 de 20
 * pagos" in the list, on its page and on Hoje — never "Concluído".
 */
import { randomUUID } from 'node:crypto'
import type { Page } from '@playwright/test'
import { openDb } from '../../../src/main/ledger/sqlite/db'
import { migrate } from '../../../src/main/ledger/sqlite/migrations'
import { writeRecord } from '../../../src/main/ledger/sqlite/record-write'
import { calendarDayOf } from '../../../src/shared/calendar-day'
import { SANDBOX_PROFILE_ID } from '../../../src/shared/profile'
import { expect, test } from '../support/app-fixture'
import type { RunDetailView } from '../../../src/shared/channels-runs'
import { expectNoSeriousAxe, REFUND_ADDRESS, rpc } from './records-helpers'
import { CPF, refundAddressFor } from './withdrawal-steps'

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

test.describe('a run with 0 of 20 paid', () => {
  test.use({
    appOptions: {
      language: 'pt-BR',
      sandbox: { rateLimits: { withdraw: 600 } },
      beforeOpen: null,
      // Nothing is funded in the sandbox: the rows stay created and unpaid however long the test takes.
      trackerAutoStart: false,
      startPage: 'today',
    },
  })

  test('created and declared funded, none paid: "Em processamento · 0 de 20 pagos" everywhere, never "Concluído"', async ({
    app,
  }) => {
    test.setTimeout(120_000)
    const { page } = app
    const refund = refundAddressFor(app)
    const lines = ['Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução']
    for (let i = 1; i <= 20; i++)
      lines.push(`Fornecedor ${i};folha${i}@example.com;${CPF};${10 + i},00;${refund}`)
    const contentBase64 = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8').toString('base64')
    const imported = await rpc(app, 'runs:import', { name: 'folha-zero.csv', contentBase64 })
    expect(imported.issues).toEqual([])
    const runId = imported.runId!
    const draft = await rpc(app, 'runs:get', { runId })
    await rpc(app, 'runs:approve', { runId, confirmPayoutCents: draft.summary.payoutCents })
    await rpc(app, 'runs:startWave', { runId, size: 20 })
    await expect
      .poll(async () => (await rpc(app, 'runs:get', { runId })).run.state, { timeout: 60_000 })
      .toBe('awaiting_funding')
    const done: RunDetailView = await rpc(app, 'runs:markWaveFunded', { runId, wave: 1 })
    // Main's word for "every row was handled": the screens must not read it as paid.
    expect(done.run.state).toBe('completed')
    expect(done.progress).toMatchObject({ total: 20, paid: 0, created: 20 })

    // Hoje: still in "Lotes em andamento", as processing, 0 of 20 paid.
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('nav-today').click()
    const today = page.getByTestId('today-runs')
    const line = today.locator(`[data-run-id="${runId}"]`)
    await expect(line).toContainText('folha-zero.csv')
    await expect(line).toContainText('Em processamento')
    await expect(line).toContainText('0 de 20 pagos')
    await expect(today).not.toContainText('Concluído')

    // The runs list and the run's page.
    await line.click()
    const heading = page.getByTestId('run-heading')
    await expect(heading).toContainText('folha-zero.csv')
    await expect(page.getByTestId('run-settlement')).toHaveText('Em processamento')
    await expect(heading).toContainText('0 de 20 pagos')
    const listed = page.getByTestId('runs-list').locator('tbody tr').filter({ hasText: 'folha-zero.csv' })
    await expect(listed.getByTestId('run-state')).toHaveText('Em processamento')
    await expect(listed).toContainText('0 de 20 pagos')
    await expect(page.getByTestId('runs-list')).not.toContainText('Concluído')
    await expect(heading).not.toContainText('Concluído')
    await expectNoSeriousAxe(page)
    await app.screenshot('dates-run-zero-of-twenty-pt-BR')
  })
})
