/**
 * Density of Lotes (issue #26): at 1024×700, once a run with a wave waiting for its deposit is opened from the list,
 * the run is the page's subject — its heading, the total to send with its deadline and the first line of the
 * wave's funding sheet (payee, address, amount) stand above the fold, the import and the list after it. "Voltar aos
 * lotes" brings the import and the list back to the top. Measured with bounding boxes against the viewport.
 */
import type { Locator } from '@playwright/test'
import { expect, onToday, test } from '../support/app-fixture'
import { cpf, REFUND_ADDRESS, rpc } from './records-helpers'

test.use({
  appOptions: onToday({
    trackerAutoStart: false,
  }),
})

const VIEWPORT = { width: 1024, height: 700 }
const RUN = 'folha-fornecedores.csv'

/** Top and bottom of an element in the page, whatever is scrolled (the page scrolled back to its top first). */
async function box(locator: Locator): Promise<{ top: number; bottom: number }> {
  const b = await locator.boundingBox()
  expect(b).not.toBeNull()
  return { top: b!.y, bottom: b!.y + b!.height }
}

test('an open run with a wave to fund: its funding sheet above the fold at 1024×700', async ({ app }) => {
  test.setTimeout(120_000)
  const { page } = app
  // Two other runs in the list (imported, in review) and the one whose first wave waits for its deposit.
  const header = 'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução'
  const csv = (lines: string[]): string =>
    Buffer.from(`\uFEFF${[header, ...lines].join('\r\n')}\r\n`, 'utf8').toString('base64')
  for (const name of ['folha-outubro.csv', 'folha-setembro.csv']) {
    await rpc(app, 'runs:import', {
      name,
      contentBase64: csv([
        `Papelaria Central;papelaria@example.com;${cpf('529982247')};150,00;${REFUND_ADDRESS}`,
      ]),
    })
  }
  const run = await rpc(app, 'runs:import', {
    name: RUN,
    contentBase64: csv([
      `Gráfica Aurora Ltda;grafica@example.com;${cpf('529982247')};2.340,00;${REFUND_ADDRESS}`,
      `Consultoria Horizonte;horizonte@example.com;${cpf('111444777')};5.600,00;${REFUND_ADDRESS}`,
    ]),
  })
  expect(run.issues).toEqual([])
  const runId = run.runId!
  await rpc(app, 'runs:approve', { runId, confirmPayoutCents: 794_000 })
  await rpc(app, 'runs:startWave', { runId })
  await expect
    .poll(async () => (await rpc(app, 'runs:get', { runId })).run.state, { timeout: 60_000 })
    .toBe('awaiting_funding')

  await page.setViewportSize(VIEWPORT)
  await page.getByTestId('nav-runs').click()
  const list = page.getByTestId('runs-list')
  await list.getByRole('button', { name: RUN }).click()
  const detail = page.getByTestId('run-detail')
  await expect(detail).toHaveAttribute('data-state', 'awaiting_funding')
  const sheet = page.getByTestId('funding-sheet')
  await expect(sheet.getByTestId('sheet-lines').locator('tbody tr')).toHaveCount(2)
  await page.evaluate(() => {
    window.scrollTo(0, 0)
    for (const el of document.querySelectorAll('*')) if (el.scrollTop > 0) el.scrollTop = 0
  })
  // What the analyst sends, without scrolling: the heading, the total and its deadline, the first line whole.
  const firstLine = sheet.getByTestId('sheet-lines').locator('tbody tr').first()
  for (const [what, locator] of [
    ['heading', page.getByTestId('run-heading')],
    ['total', sheet.getByTestId('sheet-total')],
    ['deadline', sheet.getByTestId('sheet-deadline')],
    ['first line', firstLine],
  ] as const) {
    expect((await box(locator)).bottom, `${what} bottom`).toBeLessThanOrEqual(VIEWPORT.height)
  }
  await expect(firstLine).toContainText('Gráfica Aurora Ltda')
  // The import and the list follow the run.
  expect((await box(page.getByTestId('run-file'))).top).toBeGreaterThan((await box(sheet)).bottom)
  expect((await box(list)).top).toBeGreaterThan((await box(sheet)).bottom)
  await app.screenshot('runs-fold-pt-BR-1024x700')

  // Back to the runs: the import and the list on top again, no run open.
  await page.getByTestId('runs-back').click()
  await expect(detail).toHaveCount(0)
  expect((await box(list)).top).toBeLessThan(VIEWPORT.height)
  await expect(list.getByRole('button', { name: RUN })).toBeVisible()
})
