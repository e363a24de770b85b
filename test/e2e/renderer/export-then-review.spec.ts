/**
 * The auditor's road in one run, all through the UI: export from the app, review that folder offline, then review a
 * tampered copy and see the failure named.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, test } from '../support/app-fixture'
import { createWithdrawal, fundAndSettle, openNav } from './records-helpers'

test('export from the app → offline review verifies it → a tampered copy fails, naming file and check', async ({
  app,
}) => {
  const { page } = app
  const parent = mkdtempSync(join(tmpdir(), 'export-review-'))
  try {
    await fundAndSettle(
      app,
      await createWithdrawal(app, { pixKey: 'auditoria@example.com', cents: 25_000 }),
      'sent',
    )
    await createWithdrawal(app, { pixKey: 'pendente@example.com', cents: 1_500 })

    await openNav(page, 'Exportar registros')
    app.nextDirectory(parent)
    await page.getByRole('button', { name: 'Exportar…' }).click()
    const manifestPath = (await page.getByTestId('manifest-path').textContent()) ?? ''
    expect(manifestPath.endsWith('manifest.json')).toBe(true)
    const folder = dirname(manifestPath)

    await openNav(page, 'Revisão offline')
    app.nextDirectory(folder)
    await page.getByRole('button', { name: 'Abrir pasta de exportação…' }).click()
    await expect(page.getByTestId('review-verified')).toContainText('Verificação OK')
    await expect(page.getByTestId('records-count')).toHaveText('2 registros')

    const tampered = join(parent, 'tampered')
    cpSync(folder, tampered, { recursive: true })
    const jsonPath = join(tampered, 'records.json')
    writeFileSync(
      jsonPath,
      readFileSync(jsonPath, 'utf8').replace('auditoria@example.com', 'auditorIa@example.com'),
    )
    app.nextDirectory(tampered)
    await page.getByRole('button', { name: 'Abrir outra pasta…' }).click()
    await expect(page.getByTestId('review-failed-banner')).toContainText('VERIFICAÇÃO FALHOU')
    const problem = page
      .getByTestId('review-problems')
      .locator('tr[data-check="hash"]')
      .filter({ hasText: 'records.json' })
    await expect(problem).toHaveCount(1)
  } finally {
    rmSync(parent, { recursive: true, force: true })
  }
})
