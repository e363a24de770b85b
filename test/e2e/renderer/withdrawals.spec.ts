import { expect, test } from '../support/app-fixture'
import {
  createWithdrawal,
  expectNoSeriousAxe,
  fundAndSettle,
  openNav,
  seedLedger,
  setLanguage,
} from './records-helpers'

test.describe('Retiradas list', () => {
  test('filters, sorts and totals real records; a row opens its detail', async ({ app }) => {
    const { page } = app
    const paid = await createWithdrawal(app, { pixKey: 'ana.paga@example.com', cents: 15_000 })
    await fundAndSettle(app, paid, 'sent')
    const refunded = await createWithdrawal(app, { pixKey: 'bruno.reembolso@example.com', cents: 2_500 })
    await fundAndSettle(app, refunded, 'invalid_pix_key')
    await createWithdrawal(app, { pixKey: 'carla.espera@example.com', cents: 80_000 })
    await createWithdrawal(app, { pixKey: 'davi.deposito@example.com', cents: 5_000, kind: 'deposit' })

    await openNav(page, 'Pagamentos')
    await expect(page.getByRole('heading', { level: 2, name: 'Pagamentos' })).toBeVisible()
    await expect(page.getByTestId('records-count')).toHaveText('4 registros')
    const rows = page.locator('tbody tr.vtable-row:not(.vtable-loading)')
    await expect(rows).toHaveCount(4)

    // Totals by status, from main: one paid, one refunded, two awaiting deposit; grand total 4.
    const totals = page.getByTestId('status-totals')
    await expect(totals.locator('tr[data-status="sent"] [data-testid="total-count"]')).toHaveText('1')
    await expect(totals.locator('tr[data-status="refunded"] [data-testid="total-count"]')).toHaveText('1')
    await expect(totals.locator('tr[data-status="unsent"] [data-testid="total-count"]')).toHaveText('2')
    await expect(totals.getByTestId('total-all-count')).toHaveText('4')
    await expect(totals).toContainText('Pago')
    await expect(totals).toContainText('Devolvido')
    await expect(totals).toContainText('Aguardando depósito')
    // By meaning: only the paid one counts as paid; the pending and refunded ones are apart.
    const meaning = page.getByTestId('meaning-totals')
    await expect(meaning.locator('tr[data-meaning="paid"] td').first()).toHaveText('1')
    await expect(meaning.locator('tr[data-meaning="open"] td').first()).toHaveText('2')
    await expect(meaning.locator('tr[data-meaning="returned"] td').first()).toHaveText('1')

    // Default sort: newest first.
    const grid = page.getByTestId('records-scroll')
    const createdHeader = grid.getByRole('columnheader', { name: /Criado em/ })
    await expect(createdHeader).toHaveAttribute('aria-sort', 'descending')
    await expect(rows.first()).toContainText('davi.deposito@example.com')

    // Sort by amount: the first click sorts descending, the second ascending.
    const amountHeader = grid.getByRole('columnheader', { name: /^Valor/ })
    await amountHeader.getByRole('button').click()
    await expect(amountHeader).toHaveAttribute('aria-sort', 'descending')
    await expect(createdHeader).toHaveAttribute('aria-sort', 'none')
    await expect(rows.first()).toContainText('carla.espera@example.com')
    await expect(rows.first()).toContainText('R$ 800,00')
    await amountHeader.getByRole('button').click()
    await expect(amountHeader).toHaveAttribute('aria-sort', 'ascending')
    await expect(rows.first()).toContainText('bruno.reembolso@example.com')

    // Sort by status.
    const statusHeader = grid.getByRole('columnheader', { name: /^Situação/ })
    await statusHeader.getByRole('button').click()
    await expect(statusHeader).toHaveAttribute('aria-sort', 'ascending')

    // Status chips: only paid, then only refunded (one chip at a time).
    const chips = page.getByTestId('status-chips')
    await chips.getByRole('radio', { name: 'Pagos' }).click()
    await expect(page.getByTestId('records-count')).toHaveText('1 registro')
    await expect(rows).toHaveCount(1)
    await expect(rows.first()).toContainText('ana.paga@example.com')
    await expect(totals.getByTestId('total-all-count')).toHaveText('1')
    await chips.getByRole('radio', { name: 'Devolvidos' }).click()
    await expect(page.getByTestId('records-count')).toHaveText('1 registro')
    await expect(rows.first()).toContainText('bruno.reembolso@example.com')
    await page.getByRole('button', { name: 'Limpar filtros' }).click()
    await expect(page.getByTestId('records-count')).toHaveText('4 registros')

    // Text filter (debounced): part of a Pix key, case-insensitive.
    await page.getByLabel('Buscar').fill('CARLA')
    await expect(page.getByTestId('records-count')).toHaveText('1 registro')
    await expect(rows.first()).toContainText('carla.espera@example.com')
    await page.getByLabel('Buscar').fill('')
    await expect(page.getByTestId('records-count')).toHaveText('4 registros')

    // Date range in São Paulo days: today includes everything; from tomorrow, nothing.
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Sao_Paulo' }).format(new Date())
    const tomorrow = new Date(Date.parse(`${today}T12:00:00Z`) + 86_400_000).toISOString().slice(0, 10)
    // Typed as the analyst types them: dd/mm/aaaa.
    const br = (day: string): string => day.split('-').reverse().join('/')
    await page.getByRole('textbox', { name: 'De (dia)' }).fill(br(today))
    await page.getByRole('textbox', { name: 'Até (dia, inclusive)' }).fill(br(today))
    await expect(page.getByTestId('records-count')).toHaveText('4 registros')
    const listCall = app.bridge.calls.filter((c) => c.channel === 'withdrawals:list').at(-1)
    const input = listCall?.input as { from?: string; to?: string }
    // 00:00 in São Paulo is 03:00 UTC; the end is the start of the next day, exclusive.
    expect(input.from).toBe(`${today}T00:00:00-03:00`)
    expect(input.to).toBe(`${tomorrow}T00:00:00-03:00`)
    await page.getByRole('textbox', { name: 'Até (dia, inclusive)' }).fill(br(tomorrow))
    await page.getByRole('textbox', { name: 'De (dia)' }).fill(br(tomorrow))
    await expect(page.getByTestId('records-count')).toHaveText('Nenhum registro')
    await expect(page.getByText('Nenhum registro com estes filtros.')).toBeVisible()
    // An inverted range is explained and not applied.
    await page.getByRole('textbox', { name: 'Até (dia, inclusive)' }).fill(br(today))
    await expect(page.getByText('A data final é anterior à inicial')).toBeVisible()
    await expect(page.getByRole('textbox', { name: 'Até (dia, inclusive)' })).toHaveAttribute(
      'aria-invalid',
      'true',
    )
    await expect(page.getByTestId('records-count')).toHaveText('4 registros')
    await page.getByRole('button', { name: 'Limpar filtros' }).click()

    await expectNoSeriousAxe(page)
    await app.screenshot('list-pt-BR')

    // A visible row refreshes on withdrawal:changed (the status tracker or another window changed it).
    const waiting = page.locator('tr[data-local-id]').filter({ hasText: 'carla.espera@example.com' })
    await expect(waiting).toContainText('Aguardando depósito')
    const carla = (await app.ctx.router.handle('withdrawals:list', { text: 'carla' })) as {
      ok: true
      data: { rows: Array<{ localId: string; remoteId: string; depositAmountCents: number }> }
    }
    const c = carla.data.rows[0]
    if (!c) throw new Error('carla not found')
    app.sandbox.control.fundWithdrawal(c.remoteId, c.depositAmountCents)
    await app.ctx.router.handle('withdrawals:refresh', { localId: c.localId })
    await expect(waiting).toContainText('Pix em andamento')

    // Keyboard: the first row is the tab stop; Enter opens the detail.
    await setLanguage(page, 'en')
    await expect(page.getByRole('heading', { level: 2, name: 'Withdrawals' })).toBeVisible()
    await expect(page.getByTestId('records-count')).toHaveText('4 records')
    await expectNoSeriousAxe(page)
    await app.screenshot('list-en')
    const firstRow = page.locator('tbody tr[tabindex="0"]')
    await firstRow.focus()
    await page.keyboard.press('ArrowDown')
    await expect(page.locator('tbody tr[data-index="1"]')).toBeFocused()
    const localId = await page.locator('tbody tr[data-index="1"]').getAttribute('data-local-id')
    await page.keyboard.press('Enter')
    await expect(page.locator(`[data-local-id="${localId}"].page-detail`)).toBeVisible()

    // Back to the list: filters and sort are kept.
    await page.getByRole('button', { name: 'Back to Withdrawals' }).click()
    await expect(grid.getByRole('columnheader', { name: /Status/ })).toHaveAttribute('aria-sort', 'ascending')
    // Mouse: a click opens the detail too.
    await rows.filter({ hasText: 'ana.paga@example.com' }).click()
    await expect(page.locator(`[data-local-id="${paid.localId}"].page-detail`)).toBeVisible()
  })
})

test.describe('100,000 records', () => {
  test.use({
    appOptions: {
      language: 'pt-BR',
      sandbox: {},
      beforeOpen: (file) => seedLedger(file, 100_000),
      trackerAutoStart: false,
      startPage: 'newWithdrawal',
    },
  })

  test('keeps at most 100 row elements in the DOM while scrolling to the end', async ({ app }) => {
    test.setTimeout(180_000)
    const { page } = app
    await openNav(page, 'Pagamentos')
    await expect(page.getByTestId('records-count')).toHaveText('100.000 registros', { timeout: 30_000 })
    const scroller = page.getByTestId('records-scroll')
    const rowCount = (): Promise<number> => page.locator('tbody tr.vtable-row').count()
    const height = await scroller.evaluate((el) => el.scrollHeight)
    expect(height).toBeGreaterThan(100_000 * 39)

    let max = 0
    for (let i = 1; i <= 20; i++) {
      await scroller.evaluate((el, f) => el.scrollTo(0, el.scrollHeight * f), i / 20)
      await page.waitForTimeout(50)
      max = Math.max(max, await rowCount())
    }
    // At the very end: the last record loads (page fetched on demand) and is the 100,000th.
    const last = page.locator('tbody tr[aria-rowindex="100001"]')
    await expect(last).toHaveAttribute('data-local-id', /.+/, { timeout: 15_000 })
    await expect(last).toContainText('pessoa0@example.com')
    max = Math.max(max, await rowCount())
    expect(max).toBeLessThanOrEqual(100)
    expect(max).toBeGreaterThan(5)

    // Pages were fetched on demand, not all 100,000 rows.
    const calls = app.bridge.calls.filter((c) => c.channel === 'withdrawals:list')
    const fetched = calls.reduce((n, c) => n + ((c.input as { limit?: number }).limit ?? 0), 0)
    expect(fetched).toBeLessThan(20_000)

    // Keyboard: Home goes back to the first record.
    await last.focus()
    await page.keyboard.press('Home')
    await expect(page.locator('tbody tr[aria-rowindex="2"]')).toBeFocused()
    await expect(page.locator('tbody tr[aria-rowindex="2"]')).toContainText('pessoa99999@example.com')
    expect(await rowCount()).toBeLessThanOrEqual(100)

    // Totals over all 100,000.
    await expect(page.getByTestId('total-all-count')).toHaveText('100.000')
    await expectNoSeriousAxe(page)
    await app.screenshot('list-100k-pt-BR')
  })
})
