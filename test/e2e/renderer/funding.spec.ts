/**
 * The funding page: exact instructions (address, 8-decimal amount, QR, URI, copy buttons), the countdown, the ±5%
 * rule, "marked as sent", live status through `withdrawal:changed`, and a funding problem that hides everything
 * payable.
 */
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import type { Page } from '@playwright/test'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { centsToDePix, formatDePix } from '../../../src/shared/money'
import { expect, test, type TestApp } from '../support/app-fixture'
import {
  CONFIDENTIAL_PREFIX,
  CPF,
  expectNoSeriousAxeViolations,
  expectRefundAccepted,
  fillForm,
  networkOf,
  refundAddressFor,
} from './withdrawal-steps'

/** Creates a R$ 100,00 payout through the UI and lands on its funding page. */
async function createWithdrawal(app: TestApp): Promise<string> {
  const { page } = app
  await fillForm(page, {
    pixKey: 'fulano@example.com',
    taxNumber: CPF,
    amountDigits: '10000',
    refundAddress: refundAddressFor(app),
  })
  await expectRefundAccepted(page)
  await page.getByRole('button', { name: 'Revisar' }).click()
  await page.getByRole('button', { name: 'Criar pagamento no perfil Sandbox' }).click()
  await expect(page.getByTestId('deposit-address')).toBeVisible()
  return app.ctx.ledger.query({}).rows[0]!.localId
}

async function countdownText(page: Page): Promise<string> {
  return (await page.getByRole('timer').textContent()) ?? ''
}

test('instructions: checked address, exact amount, QR, URI, copy, countdown and the ±5% rule', async ({
  app,
}) => {
  const { page } = app
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
  const localId = await createWithdrawal(app)
  const record = app.ctx.ledger.get(localId)!
  const amount = centsToDePix(record.depositAmountCents!)

  await expect(page.getByTestId('deposit-address')).toHaveText(record.depositAddress!)
  expect(record.depositAddress!.startsWith(CONFIDENTIAL_PREFIX[networkOf(app)])).toBe(true)
  // Shown in the display form; the copy button copies the wallet form and says so.
  await expect(page.getByTestId('depix-amount')).toHaveText(formatDePix(record.depositAmountCents!))
  expect(amount).toMatch(/^\d+\.\d{8}$/)
  await expect(page.getByTestId('copy-note')).toHaveText(`Copia ${amount}, o valor que a carteira aceita.`)
  await expect(page.getByTestId('funding-uri')).toContainText(`amount=`)

  await page.getByRole('button', { name: 'Copiar valor' }).click()
  await expect(page.getByRole('button', { name: 'Copiado' })).toBeVisible()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(amount)
  await page.getByRole('button', { name: 'Copiar endereço' }).click()
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(record.depositAddress)
  await page.getByRole('button', { name: 'Copiar link' }).click()
  const uri = await page.evaluate(() => navigator.clipboard.readText())
  expect(uri.startsWith('liquidnetwork:') || uri.startsWith('liquidtestnet:')).toBe(true)
  await expect(page.getByTestId('funding-uri')).toHaveText(uri)

  // The QR is an <img> of an SVG data URI, never SVG markup in the page.
  const qr = page.getByTestId('funding-qr')
  await expect(qr).toHaveAttribute('alt', /QR code/)
  expect(await qr.evaluate((img: HTMLImageElement) => img.naturalWidth > 0)).toBe(true)
  await expect(page.locator('main svg')).toHaveCount(0)

  // Ticks every second.
  const first = await countdownText(page)
  await expect.poll(() => countdownText(page), { timeout: 4000 }).not.toBe(first)

  const rule = page.getByTestId('tolerance-rule')
  const tol = Math.floor((record.depositAmountCents! * 500) / 10_000)
  await expect(rule).toContainText(`entre ${formatDePix(record.depositAmountCents! - tol)}`)
  await expect(rule).toContainText(formatDePix(record.depositAmountCents! + tol))
  await expect(rule).not.toContainText(centsToDePix(record.depositAmountCents!))
  await expect(rule).toContainText('devolvido integralmente')
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('funding-pt-BR')

  await page.getByLabel('Idioma').selectOption('en')
  await expect(page.getByRole('heading', { level: 2, name: 'Send DePix for the withdrawal' })).toBeVisible()
  await expect(rule).toContainText('returned in full')
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('funding-en')
})

test('marked as sent: the txid is checked, then recorded in the ledger', async ({ app }) => {
  const { page } = app
  const localId = await createWithdrawal(app)
  const txId = page.getByLabel('ID da transação Liquid (opcional)')
  await txId.fill('not-a-txid')
  await page.getByRole('button', { name: 'Marquei como enviado' }).click()
  await expect(page.getByText('O ID da transação tem 64 caracteres hexadecimais')).toBeVisible()
  await expect(txId).toHaveAttribute('aria-invalid', 'true')
  expect(app.ctx.ledger.get(localId)!.fundedAt).toBeNull()

  const hex = 'ab'.repeat(32)
  await txId.fill(hex)
  await page.getByRole('button', { name: 'Marquei como enviado' }).click()
  await expect(page.getByTestId('marked-funded')).toContainText(hex)
  const stored = app.ctx.ledger.get(localId)!
  expect(stored.fundedAt).not.toBeNull()
  expect(stored.fundingTxId).toBe(hex)
})

test('status follows the service; once funded the address is no longer offered', async ({ app }) => {
  const { page } = app
  const localId = await createWithdrawal(app)
  const r = app.ctx.ledger.get(localId)!
  app.sandbox.control.fundWithdrawal(r.remoteId!, r.depositAmountCents!)
  await page.getByRole('button', { name: 'Consultar agora' }).click()
  await expect(page.getByTestId('funding-status')).toHaveAttribute('data-status', 'sending')
  await expect(page.getByTestId('deposit-address')).toHaveCount(0)
  await expect(page.getByTestId('funding-problem')).toHaveAttribute('data-problem', 'not_awaiting_funding')

  // A change main pushes (tracker, another window) reloads the page without a click.
  app.sandbox.control.settlePayout(r.remoteId!, 'sent')
  await app.ctx.runtime().withdrawals.refresh(localId)
  await expect(page.getByTestId('funding-status')).toHaveAttribute('data-status', 'sent')
  await expect(page.getByTestId('receipt')).toBeVisible()
})

test('a deposit address main refused: loud alert, nothing payable shown', async ({ app }) => {
  const { page } = app
  const localId = await createWithdrawal(app)
  const flagged = app.ctx.ledger.setFlags(localId, ['deposit_address_invalid'], 'e2e')
  await app.bridge.emit('withdrawal:changed', flagged)
  const problem = page.getByTestId('funding-problem')
  await expect(problem).toHaveAttribute('data-problem', 'deposit_address_invalid')
  await expect(problem).toHaveClass(/alert-error/)
  await expect(problem).toContainText('Não envie DePix para este pagamento')
  await expect(page.getByTestId('deposit-address')).toHaveCount(0)
  await expect(page.getByTestId('funding-qr')).toHaveCount(0)
  await expect(page.getByTestId('funding-uri')).toHaveCount(0)
  await expect(page.getByText(flagged.depositAddress!)).toHaveCount(0)
  await expectNoSeriousAxeViolations(page)
  await app.screenshot('funding-problem-pt-BR')
})

test('a deposit address rewritten in the ledger file: the service refutes it, red alert, nothing payable', async ({
  app,
}) => {
  const { page } = app
  const localId = await createWithdrawal(app)
  const theirs = generateLiquidAddress('liquid').address
  // Another process edits the desk's file (issue #24): the record now names someone else's wallet.
  const db = new DatabaseSync(join(app.dataDir, 'ledger.sqlite'))
  db.exec('PRAGMA busy_timeout = 5000')
  db.prepare('UPDATE withdrawals SET deposit_address = ? WHERE local_id = ?').run(theirs, localId)
  db.close()
  // The page asks main again (as on any change): main reads the record, asks the service, and they disagree.
  await app.bridge.emit('withdrawal:changed', app.ctx.ledger.get(localId)!)
  const problem = page.getByTestId('funding-problem')
  await expect(problem).toHaveAttribute('data-problem', 'funding_mismatch')
  await expect(problem).toHaveClass(/alert-error/)
  await expect(problem).toContainText('não confere com o que o serviço informa')
  await expect(page.getByTestId('funding-alert-fields')).toHaveText(
    'O que não confere: endereço de depósito.',
  )
  await expect(page.getByTestId('deposit-address')).toHaveCount(0)
  await expect(page.getByTestId('funding-qr')).toHaveCount(0)
  await expect(page.getByText(theirs.slice(0, 8))).toHaveCount(0)
  await expectNoSeriousAxeViolations(page)
})

test('the countdown says expired once the deadline passes', async ({ app }) => {
  const { page } = app
  await createWithdrawal(app)
  await page.clock.install()
  await page.clock.fastForward('31:00')
  await expect(page.getByTestId('countdown')).toHaveAttribute('data-state', 'expired', { timeout: 5000 })
  await expect(page.getByTestId('countdown')).toContainText('Expirado: não envie.')
})
