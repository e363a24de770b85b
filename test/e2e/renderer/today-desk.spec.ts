/**
 * Issue #26 on the real main and the embedded sandbox: a refund marked reconciled on Hoje (audited, it leaves the
 * list); the top bar's profile switcher; a live payment above the desk's confirmation limit (set in
 * Configurações) is created only once its amount is typed again, and main refuses it without.
 */
import type { Page } from '@playwright/test'
import { expect, test } from '../support/app-fixture'
import { addLiveProfile, createWithdrawal, expectNoSeriousAxe, fundAndSettle, rpc } from './records-helpers'
import { fillForm, refundAddressFor } from './withdrawal-steps'

async function nav(page: Page, id: string): Promise<void> {
  await page.getByTestId(`nav-${id}`).click()
}

test('Devoluções a conciliar: marked reconciled, audited, and gone from the list', async ({ app }) => {
  const { page } = app
  const refunded = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'devolvida@example.com', cents: 20_000 }),
    'invalid_pix_key',
  )
  const kept = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'outra-devolvida@example.com', cents: 30_000 }),
    'invalid_pix_key',
  )
  await nav(page, 'withdrawals')
  await nav(page, 'today')
  const returns = page.getByTestId('today-returns')
  await expect(returns.locator(`[data-local-id="${refunded.localId}"]`)).toBeVisible()
  await expect(returns.locator('.today-count')).toHaveText('2')
  await expectNoSeriousAxe(page)
  const line = returns.locator('li', { has: page.locator(`[data-local-id="${refunded.localId}"]`) })
  await line.getByRole('button', { name: /^Marcar como conciliada a devolução de / }).click()
  await expect(returns.locator(`[data-local-id="${refunded.localId}"]`)).toHaveCount(0)
  await expect(returns.locator(`[data-local-id="${kept.localId}"]`)).toBeVisible()
  await expect(returns.locator('.today-count')).toHaveText('1')
  const audit = await app.ctx.runtime().withdrawals.store.audit({ subject: refunded.localId })
  expect(audit.rows.filter((e) => e.action === 'refund.reconciled')).toHaveLength(1)
  // Still a refund everywhere else.
  await nav(page, 'withdrawals')
  await expect(page.locator(`tr[data-local-id="${refunded.localId}"]`)).toBeVisible()
})

test('profile switcher in the top bar; a live payment above the desk limit needs its amount typed', async ({
  app,
}) => {
  const { page } = app
  // The sandbox stands in for the live API (loopback http is allowed for a live profile).
  const live = await addLiveProfile(app)
  await app.bridge.emit('profile:changed', null)
  const switcher = page.getByTestId('profile-switcher')
  await expect(switcher).toBeVisible()
  await switcher.selectOption(live.id)
  await expect(page.getByTestId('live-banner')).toBeVisible()
  await expect(page.getByTestId('active-profile')).toContainText('Empresa Real')
  expect(app.ctx.runtime().profile.id).toBe(live.id)
  await rpc(app, 'session:signIn')

  // The desk's limit, in Configurações → Segurança e limites: R$ 50,00 here (default R$ 10.000,00).
  await nav(page, 'settings')
  await page.getByRole('tab', { name: 'Segurança e limites' }).click()
  const limit = page.getByTestId('desk-limit')
  await expect(limit).toContainText('Padrão: R$ 10.000,00')
  await limit.getByLabel('Pedir para digitar o valor acima de (R$)').fill('abc')
  await limit.getByRole('button', { name: 'Salvar limite' }).click()
  await expect(limit.getByRole('alert')).toContainText('Digite um valor em reais')
  await limit.getByLabel('Pedir para digitar o valor acima de (R$)').fill('50,00')
  await limit.getByRole('button', { name: 'Salvar limite' }).click()
  await expect(limit).toContainText('Salvo: pagamentos acima de R$ 50,00 pedem o valor.')
  expect((await rpc(app, 'settings:get')).liveConfirmAboveCents).toBe(5_000)

  await nav(page, 'newWithdrawal')
  await fillForm(page, {
    pixKey: 'grande@example.com',
    taxNumber: '52998224725',
    kind: 'payout',
    amountDigits: '10000',
    refundAddress: refundAddressFor(app),
  })
  await page.getByRole('button', { name: 'Revisar' }).click()
  const confirm = page.getByTestId('desk-confirmation')
  await expect(confirm).toContainText('passa do limite de confirmação deste computador (R$ 50,00)')
  const create = page.getByRole('button', { name: 'Criar pagamento no perfil Empresa Real' })
  await expect(create).toBeDisabled()
  await expectNoSeriousAxe(page)
  // Main refuses a create without the typed amount, whatever the screen does.
  const draft = {
    pixKey: 'grande@example.com',
    taxNumber: '52998224725',
    amount: { kind: 'payout' as const, cents: 10_000 },
    refundAddress: refundAddressFor(app),
  }
  const review = await rpc(app, 'withdrawals:quote', { draft })
  const refused = (await app.ctx.router.handle('withdrawals:create', {
    draft,
    intentId: review.intent.id,
  })) as {
    ok: boolean
    error?: { code: string }
  }
  expect(refused).toMatchObject({ ok: false, error: { code: 'amount_confirmation_required' } })

  await page.getByTestId('desk-confirmation-amount').fill('99,99')
  await expect(confirm).toContainText('não é o valor informado')
  await expect(create).toBeDisabled()
  await page.getByTestId('desk-confirmation-amount').fill('100,00')
  await expect(create).toBeEnabled()
  await create.click()
  await expect(page.getByTestId('lead-sentence')).toContainText('R$ 100,00')

  // And back to the Sandbox from the top bar.
  await switcher.selectOption('sandbox')
  await expect(page.getByTestId('sandbox-banner')).toBeVisible()
})
