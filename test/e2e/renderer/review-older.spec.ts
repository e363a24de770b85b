/**
 * Revisão offline → "Comparar com uma exportação anterior": two exports of this app's ledger with payments
 * between them (the older one's head an earlier export's entry: proven through the anchors); the newer one open,
 * compared with the older → proven (green). A tampered copy of the older one → refused (red), the problem under "Detalhes técnicos"; the older one compared with the newer (the wrong way
 * round) → amber. Folders only through the (fake) dialog, as the page gets them. Both languages.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { expect, test, type TestApp } from '../support/app-fixture'
import { foreignWords } from './rendered-language'
import {
  createWithdrawal,
  expectNoSeriousAxe,
  fundAndSettle,
  openNav,
  rpc,
  setLanguage,
} from './records-helpers'

const GREEN = 'rgb(231, 245, 234)'

let parent = ''
test.beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'treasury-older-check-'))
})
test.afterEach(() => rmSync(parent, { recursive: true, force: true }))

async function exportNow(app: TestApp): Promise<string> {
  const token = await app.folderToken('export', parent)
  return dirname((await rpc(app, 'records:export', { folder: token, formats: ['json'] })).manifestPath)
}

async function openReview(app: TestApp, folder: string): Promise<void> {
  app.nextDirectory(folder)
  await app.page.getByRole('button', { name: /Abrir (outra )?pasta|Open (another|export) folder/ }).click()
  await expect(app.page.getByTestId('review-manifest')).toContainText(folder)
}

async function compareWith(app: TestApp, folder: string): Promise<void> {
  app.nextDirectory(folder)
  await app.page
    .getByRole('button', { name: /Comparar com uma exportação anterior|Compare with an earlier export/ })
    .click()
}

test('newer export compared with the older: proven; a tampered older: refused; the wrong way round: amber', async ({
  app,
}) => {
  const { page } = app
  const first = await createWithdrawal(app, { pixKey: 'anterior.um@example.com', cents: 12_345 })
  // Two exports in a row: the older one's head is then the first one's `records.exported` entry, about no record,
  // which only the newer export's anchors.jsonl carries (issue #12).
  await exportNow(app)
  const older = await exportNow(app)
  // Payments between the two exports: one settled, one new.
  await fundAndSettle(app, first, 'sent')
  await createWithdrawal(app, { pixKey: 'anterior.dois@example.com', cents: 67_890 })
  const newer = await exportNow(app)

  await openNav(page, 'Revisão offline')
  await openReview(app, newer)
  await compareWith(app, older)
  const result = page.getByTestId('older-check')
  await expect(result).toHaveAttribute('data-verdict', 'extends')
  await expect(result).toContainText('Comprovado: o histórico só cresceu desde a exportação anterior.')
  await expect(result).toContainText('Registros presentes nas duas: 1;')
  await expect(result).toHaveCSS('background-color', GREEN)
  await expect(page.getByTestId('older-check-facts')).toContainText('Sandbox')
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
  await expectNoSeriousAxe(page)
  await app.screenshot('review-older-proven-pt-BR')

  // A tampered copy of the older export: one byte of its records changed.
  const tampered = join(parent, 'tampered')
  cpSync(older, tampered, { recursive: true })
  const json = join(tampered, 'records.json')
  writeFileSync(json, readFileSync(json, 'utf8').replace('anterior.um@', 'anterior.Um@'))
  await compareWith(app, tampered)
  await expect(result).toHaveAttribute('data-verdict', 'older_not_intact')
  await expect(result).toContainText('NÃO confere: a exportação anterior não passou na verificação.')
  await expect(result).not.toHaveCSS('background-color', GREEN)
  await expect(result).toHaveClass(/alert-error/)
  await expect(page.getByTestId('older-check-problems')).toBeHidden()
  await result.locator('summary', { hasText: 'Detalhes técnicos' }).click()
  await expect(page.getByTestId('older-check-problems')).toContainText('records.json [hash]')
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
  await app.screenshot('review-older-tampered-pt-BR')

  // The wrong way round: the older one open, the newer chosen as "earlier".
  await openReview(app, older)
  await expect(result).toHaveCount(0) // a new review starts with no comparison
  await compareWith(app, newer)
  await expect(result).toHaveAttribute('data-verdict', 'older_is_newer')
  await expect(result).toHaveClass(/alert-warn/)
  await expect(result).toContainText('a exportação escolhida como anterior é mais recente que esta')

  await setLanguage(page, 'en')
  await expect(result).toContainText('Cannot prove it: the export chosen as earlier is newer than this one.')
  expect(await foreignWords(page, 'en')).toEqual([])
  await expectNoSeriousAxe(page)
  await app.screenshot('review-older-wrong-way-en')

  // A cancelled dialog says so and changes nothing.
  await page.getByRole('button', { name: 'Compare with an earlier export…' }).click()
  await expect(page.getByRole('status').filter({ hasText: 'No folder chosen.' })).toBeVisible()
  await expect(result).toHaveAttribute('data-verdict', 'older_is_newer')
})
