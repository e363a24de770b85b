import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, dirname, join, relative } from 'node:path'
import AxeBuilder from '@axe-core/playwright'
import type { Page } from '@playwright/test'
import { expect, test } from '../support/app-fixture'

const REFUND =
  'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew5'

async function seriousA11yViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze()
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`)
}

async function openExport(page: Page, name = 'Exportar registros'): Promise<void> {
  await page.getByRole('navigation').getByRole('button', { name }).click()
  await expect(page.getByRole('heading', { level: 2, name })).toBeVisible()
}

/** Marks, in the page, whether the progress bar was ever shown: an export of a few rows is over in a blink. */
async function watchProgress(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { __sawProgress: boolean }
    w.__sawProgress = false
    new MutationObserver(() => {
      if (document.querySelector('[data-testid="export-progress"] progress')) w.__sawProgress = true
    }).observe(document.body, { childList: true, subtree: true })
  })
}

let tmp: string
test.beforeEach(() => {
  tmp = mkdtempSync(join(tmpdir(), 'treasury-export-'))
})
test.afterEach(() => rmSync(tmp, { recursive: true, force: true }))

test('exports CSV, JSON and HTML with a signed manifest into the chosen folder', async ({ app }) => {
  const { page } = app
  for (const cents of [10_000, 25_050]) {
    const draft = {
      pixKey: '+5561988887777',
      taxNumber: '529.982.247-25',
      amount: { kind: 'deposit' as const, cents },
      refundAddress: REFUND,
    }
    const q = await app.ctx.router.handle('withdrawals:quote', { draft })
    if (!q.ok) throw new Error('quote failed')
    const { intent } = q.data as { intent: { id: string } }
    const r = await app.ctx.router.handle('withdrawals:create', { draft, intentId: intent.id })
    expect(r.ok).toBe(true)
  }
  await openExport(page)
  await expect(page.getByTestId('match-count')).toHaveText('2 registros correspondem ao filtro.')
  const key = await app.ctx.router.handle('records:publicKey', undefined)
  if (!key.ok) throw new Error('no signing key')
  await expect(page.getByTestId('export-signing')).toContainText(
    (key.data as { fingerprint: string }).fingerprint,
  )
  for (const name of ['CSV (planilha)', 'JSON (dados', 'HTML (relatório'])
    await expect(page.getByLabel(name)).toBeChecked()
  expect(await seriousA11yViolations(page)).toEqual([])
  await app.screenshot('export-pt-BR')

  app.nextDirectory(tmp)
  await watchProgress(page)
  await page.getByRole('button', { name: 'Exportar…' }).click()
  const result = page.getByTestId('export-result')
  await expect(result).toContainText('Exportação concluída: 2 registros.')
  expect(await page.evaluate(() => (window as unknown as { __sawProgress: boolean }).__sawProgress)).toBe(
    true,
  )
  await expect(result.getByRole('heading')).toBeFocused()

  // Main writes a new folder inside the chosen one, so a second export never overwrites the first.
  const manifestPath = (await page.getByTestId('manifest-path').textContent()) ?? ''
  expect(basename(manifestPath)).toBe('manifest.json')
  const folder = dirname(manifestPath)
  expect(relative(tmp, folder).startsWith('..')).toBe(false)
  const written = readdirSync(folder)
  expect(written).toContain('manifest.json')
  const listed = await page.getByTestId('export-files').locator('li').allTextContents()
  expect(listed.length).toBeGreaterThanOrEqual(3)
  for (const file of listed) expect(written).toContain(basename(file))
  for (const ext of ['.csv', '.json', '.html']) expect(written.some((f) => f.endsWith(ext))).toBe(true)
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { rowCount?: number }
  expect(manifest.rowCount).toBe(2)

  // The renderer holds only main's one-use token for the folder, never a path.
  const chose = app.bridge.calls.find((c) => c.channel === 'dialog:chooseFolder')
  expect(chose?.input).toEqual({ purpose: 'export' })
  const sent = app.bridge.calls.find((c) => c.channel === 'records:export')?.input as Record<string, unknown>
  expect(sent).toEqual({
    folder: (chose?.result as { data: { token: string } }).data.token,
    formats: ['csv', 'json', 'html'],
    filter: { profile: 'sandbox' },
    csvDelimiter: ';',
    locale: 'pt-BR',
  })
  expect(await seriousA11yViolations(page)).toEqual([])
  await app.screenshot('export-done-pt-BR')

  await result.getByRole('button', { name: 'Abrir a revisão offline' }).click()
  await expect(page.getByRole('navigation').getByRole('button', { name: 'Revisão offline' })).toHaveAttribute(
    'aria-current',
    'page',
  )
})

test('filter and format choices reach main as São Paulo days; a cancelled dialog writes nothing', async ({
  app,
}) => {
  const { page } = app
  await openExport(page)

  await page.getByLabel('CSV (planilha)').uncheck()
  await page.getByLabel('JSON (dados').uncheck()
  await page.getByLabel('HTML (relatório').uncheck()
  await page.getByRole('button', { name: 'Exportar…' }).click()
  await expect(page.getByText('Escolha pelo menos um formato.')).toBeVisible()
  await page.getByRole('textbox', { name: 'De (dia)' }).fill('10/03/2025')
  await page.getByRole('textbox', { name: 'Até (dia, inclusive)' }).fill('01/03/2025')
  await page.getByLabel('CSV (planilha)').check()
  await page.getByRole('button', { name: 'Exportar…' }).click()
  await expect(page.getByText('O último dia não pode ser anterior ao primeiro.')).toBeVisible()
  await expect(page.getByRole('textbox', { name: 'Até (dia, inclusive)' })).toHaveAttribute(
    'aria-invalid',
    'true',
  )
  expect(app.bridge.calls.some((c) => c.channel === 'records:export')).toBe(false)

  await page.getByRole('textbox', { name: 'Até (dia, inclusive)' }).fill('31/03/2025')
  await page.getByRole('checkbox', { name: 'Pago', exact: true }).check()
  await page.getByLabel('Resultado desconhecido').check()
  await page.getByLabel('Vírgula ( , )').check()
  await page.getByLabel('ISO (1234.56 · 2025-12-31)').check()
  await page.getByLabel('Texto').fill('  maria ')
  // No folder queued: the dialog "is cancelled", and nothing is asked of records:export.
  await page.getByRole('button', { name: 'Exportar…' }).click()
  await expect(page.getByText('Exportação cancelada')).toBeVisible()
  expect(app.bridge.calls.filter((c) => c.channel === 'dialog:chooseFolder')).toHaveLength(1)
  expect(app.bridge.calls.some((c) => c.channel === 'records:export')).toBe(false)
  expect(readdirSync(tmp)).toEqual([])

  const chosen = mkdtempSync(join(tmpdir(), 'treasury-export-chosen-'))
  try {
    app.nextDirectory(chosen)
    await page.getByRole('button', { name: 'Exportar…' }).click()
    await expect(page.getByTestId('export-result')).toBeVisible()
    expect(readdirSync(chosen)).toHaveLength(1)
  } finally {
    rmSync(chosen, { recursive: true, force: true })
  }
  const sent = app.bridge.calls.find((c) => c.channel === 'records:export')?.input
  expect(sent).toEqual({
    folder: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    formats: ['csv'],
    filter: {
      profile: 'sandbox',
      statuses: ['sent', 'outcome_unknown'],
      from: '2025-03-10T00:00:00-03:00',
      to: '2025-04-01T00:00:00-03:00',
      text: 'maria',
    },
    csvDelimiter: ',',
    locale: 'en',
  })
  expect(readdirSync(tmp)).toEqual([])
  expect(await seriousA11yViolations(page)).toEqual([])
})

test('the export page in English', async ({ app }) => {
  const { page } = app
  await page.locator('.topbar select').selectOption('en')
  await openExport(page, 'Export records')
  await expect(page.getByLabel('CSV (spreadsheet)')).toBeChecked()
  app.nextDirectory(tmp)
  await page.getByRole('button', { name: 'Export…' }).click()
  await expect(page.getByTestId('export-result')).toContainText('Export finished, with no records.')
  const manifestPath = (await page.getByTestId('manifest-path').textContent()) ?? ''
  expect(dirname(dirname(manifestPath))).toBe(tmp)
  expect(existsSync(manifestPath)).toBe(true)
  expect(await seriousA11yViolations(page)).toEqual([])
  await app.screenshot('export-en')
})
