/**
 * Screens and layout (issue #13): the production marker on every page, the lead sentence, the list at small
 * sizes, the "Hoje" home page, and finished records that say what happened without wrong signals.
 */
import type { Page } from '@playwright/test'
import { expect, test } from '../support/app-fixture'
import { addLiveProfile, createWithdrawal, fundAndSettle, rpc, seedLedger } from './records-helpers'
import { fillForm, refundAddressFor } from './withdrawal-steps'

async function nav(page: Page, id: string): Promise<void> {
  await page.getByTestId(`nav-${id}`).click()
}

test.describe('production marker', () => {
  test('a live profile: red banner with "dinheiro real" on every page, the review names the profile', async ({
    app,
  }) => {
    const { page } = app
    // The sandbox stands in for the live API (loopback http is allowed for a live profile).
    const profile = await addLiveProfile(app)
    await expect(page.getByTestId('sandbox-banner')).toBeVisible()
    await expect(page.getByTestId('live-banner')).toHaveCount(0)
    await rpc(app, 'profiles:select', { id: profile.id })
    await app.bridge.emit('profile:changed', null)

    const banner = page.getByTestId('live-banner')
    for (const id of ['today', 'newWithdrawal', 'withdrawals', 'records', 'review', 'settings']) {
      await nav(page, id)
      await expect(banner).toBeVisible()
      await expect(banner).toContainText('Perfil de produção — dinheiro real')
      await expect(banner).toContainText('Empresa Real')
      await expect(page.getByTestId('sandbox-banner')).toHaveCount(0)
      await expect(page.getByTestId('active-profile')).toContainText('Empresa Real')
    }
    // Colour, not only words: a dark red background with white text.
    const colors = await banner.evaluate((el) => {
      const s = getComputedStyle(el)
      return { bg: s.backgroundColor, fg: s.color }
    })
    expect(colors).toEqual({ bg: 'rgb(143, 16, 20)', fg: 'rgb(255, 255, 255)' })
    // Version and platform are in the sidebar footer, not the top bar.
    await expect(page.locator('.topbar')).not.toContainText('0.0.0-e2e')
    await expect(page.getByTestId('app-info')).toContainText('0.0.0-e2e')

    // The review card says which profile and that money is real; the create button names the profile.
    await nav(page, 'newWithdrawal')
    await fillForm(page, {
      pixKey: 'fornecedor@example.com',
      taxNumber: '52998224725',
      kind: 'payout',
      amountDigits: '10000',
      refundAddress: refundAddressFor(app),
    })
    await page.getByRole('button', { name: 'Revisar' }).click()
    await expect(page.getByTestId('review-profile')).toContainText('Perfil Empresa Real (produção)')
    await expect(page.getByTestId('review-profile')).toContainText('dinheiro real')
    await expect(page.getByRole('button', { name: 'Criar pagamento no perfil Empresa Real' })).toBeVisible()
    await expect(page.getByTestId('lead-sentence')).toContainText('Pagar R$ 100,00 a fornecedor@example.com')
    // The request JSON is kept for support, collapsed.
    await expect(page.getByTestId('request-json')).toBeHidden()
    await page.getByTestId('technical-details').locator('summary').click()
    await expect(page.getByTestId('request-json')).toBeVisible()
    await app.screenshot('layout-live-review-pt-BR')
  })
})

test.describe('list', () => {
  test.use({
    appOptions: {
      language: 'pt-BR',
      sandbox: {},
      beforeOpen: (file) => seedLedger(file, 60),
      trackerAutoStart: false,
      startPage: 'today',
    },
  })

  test('≥ 8 rows on the first screen at 1024×700, no horizontal scroll at 1280×800, chips filter', async ({
    app,
  }) => {
    const { page } = app
    await page.setViewportSize({ width: 1024, height: 700 })
    await nav(page, 'withdrawals')
    const rows = page.locator('tbody tr.vtable-row:not(.vtable-loading)')
    await expect(rows.first()).toBeVisible()
    const fullyVisible = await rows.evaluateAll(
      (els) =>
        els.filter((el) => {
          const r = el.getBoundingClientRect()
          return r.top >= 0 && r.bottom <= window.innerHeight
        }).length,
    )
    const heights = await rows.evaluateAll((els) =>
      els.slice(0, 3).map((el) => el.getBoundingClientRect().height),
    )
    expect(heights, 'row height').toEqual([40, 40, 40])
    expect(fullyVisible).toBeGreaterThanOrEqual(8)
    // Payee and amount first; no ids in the list. At 1024 px the NF and centro de custo share a column.
    const headers = await page.locator('.vtable-table thead th').allInnerTexts()
    expect(headers.map((h) => h.replace(/[↕▲▼]/g, '').trim())).toEqual([
      'Favorecido',
      'Valor',
      'Situação',
      'NF\nC. custo',
      'Lote',
      'Prazo',
      'Criado em',
    ])
    const headerHeights = await page
      .locator('.vtable-table thead th')
      .evaluateAll((ths) => ths.map((th) => th.getBoundingClientRect().height))
    expect(new Set(headerHeights), 'header height').toEqual(new Set([44]))

    await page.setViewportSize({ width: 1280, height: 800 })
    const overflow = await page.evaluate(() => {
      const scroll = document.querySelector('[data-testid="records-scroll"]') as HTMLElement
      return {
        page: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        table: scroll.scrollWidth - scroll.clientWidth,
      }
    })
    expect(overflow).toEqual({ page: 0, table: 0 })
    // Amounts are not cut: each amount cell shows its whole text.
    const cut = await page
      .locator('td[data-col="amount"]')
      .evaluateAll((tds) => tds.filter((td) => td.scrollWidth > td.clientWidth).length)
    expect(cut).toBe(0)

    // Chips: one choice at a time; "Pagos" shows only paid records.
    const chips = page.getByTestId('status-chips')
    await chips.getByRole('radio', { name: 'Pagos' }).click()
    await expect(chips.getByRole('radio', { name: 'Pagos' })).toHaveAttribute('aria-checked', 'true')
    await expect(page.getByTestId('records-count')).toHaveText('24 registros')
    await expect(page.locator('tbody tr.vtable-row [data-category]').first()).toHaveAttribute(
      'data-category',
      'paid',
    )
    await chips.getByRole('radio', { name: 'Todos' }).click()
    await expect(page.getByTestId('records-count')).toHaveText('60 registros')
    await app.screenshot('layout-list-pt-BR-1024')
  })
})

test('needs action: an unknown outcome shows up under the chip and on Hoje; each Hoje line opens its record', async ({
  app,
}) => {
  const { page } = app
  const paid = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'paga@example.com', cents: 12_345 }),
    'sent',
  )
  const waiting = await createWithdrawal(app, { pixKey: 'espera@example.com', cents: 50_000 })
  // An unknown outcome, as after a timeout on POST /withdraw.
  app.ctx.ledger.insertSubmitting(
    {
      localId: 'unknown-1',
      profile: paid.profile,
      pixKey: 'incerto@example.com',
      amountKind: 'payout',
      amountCents: 7_000,
      request: { pixKey: 'incerto@example.com', payoutAmountInCents: 7_000 },
    },
    'e2e',
  )
  app.ctx.ledger.markOutcomeUnknown('unknown-1', null, 'timeout')

  await nav(page, 'today')
  await expect(page.getByTestId('today-attention')).toContainText('incerto@example.com')
  await expect(page.getByTestId('today-attention')).not.toContainText('espera@example.com')
  await expect(page.getByTestId('today-awaiting')).toContainText('espera@example.com')
  await expect(page.getByTestId('today-awaiting').getByTestId('today-countdown')).toHaveText(
    /^faltam \d\d:\d\d:\d\d$/,
  )
  await expect(page.getByTestId('today-paid')).toContainText('R$ 123,45')
  await expect(page.getByTestId('today-paid-day')).toHaveText('R$ 123,45')

  // A line opens its record: an awaiting one its funding page, a paid one its detail.
  await page.getByTestId('today-awaiting').locator(`[data-local-id="${waiting.localId}"]`).click()
  await expect(page.getByTestId('deposit-address')).toBeVisible()
  await nav(page, 'today')
  await page.getByTestId('today-paid').locator(`[data-local-id="${paid.localId}"]`).click()
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(/^R\$ 123,45 para /)

  await nav(page, 'withdrawals')
  await page.getByTestId('status-chips').getByRole('radio', { name: 'Precisa de ação' }).click()
  await expect(page.getByTestId('records-count')).toHaveText('1 registro')
  await expect(page.locator('tbody tr.vtable-row').first()).toContainText('incerto@example.com')
})

test('finished records say what happened: paid without a warning, refunded without a payout', async ({
  app,
}) => {
  const { page } = app
  const created = await createWithdrawal(app, { pixKey: 'paga@example.com', cents: 12_345 })
  // The funding page, open while the payment is paid: it ends with the receipt and no yellow warning.
  await nav(page, 'today')
  await page.getByTestId('today-awaiting').locator(`[data-local-id="${created.localId}"]`).click()
  await expect(page.getByTestId('lead-sentence')).toContainText('Pagar R$ 123,45 a paga@example.com')
  await expect(page.getByTestId('lead-deadline')).toContainText('faltam')
  // At 1024×700 the deadline is above the fold, and the address reads as a few lines of groups, not a column.
  await page.setViewportSize({ width: 1024, height: 700 })
  await page.evaluate(() => window.scrollTo(0, 0))
  const deadline = await page.getByTestId('lead-deadline').boundingBox()
  expect(deadline!.y + deadline!.height).toBeLessThanOrEqual(700)
  // Issue #26: the address and the whole QR are above the fold too.
  const addressTop = await page.getByTestId('deposit-address').boundingBox()
  expect(addressTop!.y + addressTop!.height).toBeLessThanOrEqual(700)
  const qr = await page.getByTestId('funding-qr').boundingBox()
  expect(qr!.y + qr!.height).toBeLessThanOrEqual(700)
  const address = page.getByTestId('deposit-address')
  await expect(address).toHaveText(created.depositAddress!)
  const box = await address.boundingBox()
  expect(box!.width).toBeGreaterThan(350)
  expect(box!.height).toBeLessThan(110)
  await app.screenshot('layout-funding-pt-BR-1024')
  const paid = await fundAndSettle(app, created, 'sent')
  await app.bridge.emit('withdrawal:changed', paid)
  await expect(page.getByTestId('funding-status')).toHaveAttribute('data-status', 'sent')
  await expect(page.getByTestId('remote-outcome')).toBeVisible()
  await expect(page.locator('.alert-warn')).toHaveCount(0)
  const name = String(paid.lastRemote?.['receiverName'])
  await expect(page.getByTestId('lead-sentence')).toHaveText(`Pago: R$ 123,45 a ${name}.`)

  const refunded = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'errada@example.com', cents: 20_000 }),
    'invalid_pix_key',
  )
  const open = async (localId: string): Promise<void> => {
    await nav(page, 'withdrawals')
    await page.locator(`tr[data-local-id="${localId}"]`).click()
  }

  await open(paid.localId)
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(`R$ 123,45 para ${name}`)
  await expect(page.getByTestId('lead-sentence')).toHaveText(`Pago: R$ 123,45 a ${name}.`)
  // Ids are under "Detalhes técnicos", collapsed but there.
  await expect(page.getByTestId('remote-id')).toBeHidden()
  await expect(page.getByTestId('remote-id')).toHaveText(paid.remoteId!)

  await open(refunded.localId)
  await expect(page.getByRole('heading', { level: 2 })).toHaveText(
    'R$ 200,00 para errada@example.com (529.982.247-25)',
  )
  await expect(page.getByTestId('lead-sentence')).toContainText(
    'Devolvido: nada foi pago a errada@example.com',
  )
  const summary = page.getByTestId('record-summary')
  await expect(summary).not.toContainText('ainda não')
  await expect(summary).not.toContainText('Pagamento Pix')
  await expect(page.getByTestId('lead-payout')).toHaveCount(0)
  await expect(page.getByTestId('detail-payout')).toHaveCount(0)
})
