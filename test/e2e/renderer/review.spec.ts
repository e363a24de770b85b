import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { exportRecords, generateSigningKeyPair, keyFingerprint } from '../../../src/main/records'
import { expect, test, type TestApp } from '../support/app-fixture'
import {
  createWithdrawal,
  expectNoSeriousAxe,
  fundAndSettle,
  openNav,
  rpc,
  setLanguage,
} from './records-helpers'

/** Three real withdrawals (paid, refunded, awaiting deposit) exported through records:export and the folder dialog. */
async function exportFolder(app: TestApp, parent: string): Promise<string> {
  await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'rev.paga@example.com', cents: 10_000 }),
    'sent',
  )
  await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'rev.reembolso@example.com', cents: 3_000 }),
    'invalid_pix_key',
  )
  await createWithdrawal(app, { pixKey: 'rev.espera@example.com', cents: 4_500 })
  const folder = await app.folderToken('export', parent)
  const result = await rpc(app, 'records:export', { folder, formats: ['csv', 'json', 'html'] })
  expect(result.rowCount).toBe(3)
  return dirname(result.manifestPath)
}

/** The .alert-ok and .alert-warn backgrounds: the --success-bg and --attention-bg design tokens (styles.css). */
const GREEN = 'rgb(231, 245, 234)'
const AMBER = 'rgb(255, 243, 214)'

let parent = ''
test.beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'treasury-review-'))
})
test.afterEach(() => rmSync(parent, { recursive: true, force: true }))

test('a verified export: verdict, signer fingerprint, manifest facts, the same table with filters and totals', async ({
  app,
}) => {
  const { page } = app
  const folder = await exportFolder(app, parent)
  const { fingerprint } = await rpc(app, 'records:publicKey')

  await openNav(page, 'Revisão offline')
  await expect(page.getByRole('heading', { level: 2, name: 'Revisão offline' })).toBeVisible()
  await expectNoSeriousAxe(page)

  // Cancelling the folder dialog changes nothing.
  await page.getByRole('button', { name: 'Abrir pasta de exportação…' }).click()
  await expect(page.getByText('Nenhuma pasta escolhida.')).toBeVisible()

  app.nextDirectory(folder)
  await page.getByRole('button', { name: 'Abrir pasta de exportação…' }).click()
  const verified = page.getByTestId('review-verified')
  await expect(verified).toContainText('Verificação OK')
  await expect(verified.getByTestId('signer-fingerprint')).toHaveText(fingerprint)
  await expect(page.getByTestId('review-failed-banner')).toHaveCount(0)
  // Exported here: the expected signer is prefilled with this computer's key, and the page says so.
  const expectedSigner = page.getByLabel('Impressão digital esperada do signatário')
  await expect(expectedSigner).toHaveValue(fingerprint)
  await expect(verified.getByTestId('signer-this-computer')).toContainText(
    'chave de assinatura deste computador',
  )
  await expect(verified).toHaveCSS('background-color', GREEN)
  // No expected signer: amber, "signed by an unknown key", never green.
  await expectedSigner.fill('')
  await page.getByRole('button', { name: 'Comparar', exact: true }).click()
  const unknown = page.getByTestId('review-unknown-signer')
  await expect(unknown).toContainText('assinado por uma chave desconhecida')
  await expect(unknown).toHaveCSS('background-color', AMBER)
  await expect(page.getByTestId('review-verified')).toHaveCount(0)
  await expect(page.locator('.page-review')).toHaveAttribute('data-verdict', 'unknown_signer')
  await expectedSigner.fill(fingerprint.replace(/ /g, '').toUpperCase())
  await page.getByRole('button', { name: 'Comparar', exact: true }).click()
  await expect(verified).toContainText('Verificação OK')
  await expect(page.locator('.page-review')).toHaveAttribute('data-verdict', 'verified')

  const manifest = page.getByTestId('review-manifest')
  await expect(manifest).toContainText('0.0.0-e2e')
  await expect(manifest).toContainText('Sandbox')
  await expect(manifest.getByTestId('review-rows-read')).toHaveText('3')

  // The same records table, fed by review:list.
  await expect(page.getByTestId('records-count')).toHaveText('3 registros')
  await expect(page.getByTestId('total-all-count')).toHaveText('3')
  await expect(page.getByTestId('status-totals')).toContainText('Pago')
  await expect(page.getByTestId('status-totals')).toContainText('Devolvido')
  expect(app.bridge.calls.some((c) => c.channel === 'review:list')).toBe(true)
  await page.getByTestId('status-chips').getByRole('radio', { name: 'Devolvidos' }).click()
  await expect(page.getByTestId('records-count')).toHaveText('1 registro')
  await page.getByRole('button', { name: 'Limpar filtros' }).click()
  await page.getByLabel('Buscar').fill('rev.paga')
  await expect(page.getByTestId('records-count')).toHaveText('1 registro')

  // A row opens a read-only panel, not the live detail page.
  await page.locator('tbody tr.vtable-row').first().click()
  const panel = page.getByTestId('review-record-panel')
  await expect(panel).toContainText('rev.paga@example.com')
  await expect(panel).toContainText('Somente leitura')
  await expect(panel.getByRole('button', { name: 'Consultar agora' })).toHaveCount(0)
  await expect(page.locator('.page-detail')).toHaveCount(0)
  await page.getByLabel('Buscar').fill('')
  await expect(page.getByTestId('records-count')).toHaveText('3 registros')

  await expectNoSeriousAxe(page)
  await app.screenshot('review-verified-pt-BR')
  await setLanguage(page, 'en')
  await expect(verified).toContainText('Verification OK')
  await expectNoSeriousAxe(page)
  await app.screenshot('review-verified-en')

  await page.getByRole('button', { name: 'Close review' }).click()
  await expect(page.getByRole('button', { name: 'Open export folder…' })).toBeVisible()
  await expect(page.getByTestId('records-table')).toHaveCount(0)
})

test('a tampered export: every problem listed, a failure banner on the page, records still shown', async ({
  app,
}) => {
  const { page } = app
  const folder = await exportFolder(app, parent)
  const tampered = join(parent, 'tampered')
  cpSync(folder, tampered, { recursive: true })
  const csvPath = join(tampered, 'records.csv')
  const bytes = readFileSync(csvPath)
  const at = bytes.length - 5
  bytes[at] = (bytes[at] as number) ^ 0x01
  writeFileSync(csvPath, bytes)

  await openNav(page, 'Revisão offline')
  app.nextDirectory(tampered)
  await page.getByRole('button', { name: 'Abrir pasta de exportação…' }).click()

  await expect(page.getByTestId('review-failed-banner')).toContainText('VERIFICAÇÃO FALHOU')
  await expect(page.locator('.page-review')).toHaveAttribute('data-verdict', 'failed')
  const problems = page.getByTestId('review-problems')
  const row = problems.locator('tr[data-check="hash"]').filter({ hasText: 'records.csv' })
  await expect(row).toHaveCount(1)
  await expect(row).toContainText('conteúdo alterado (SHA-256 não confere)')
  await expect(page.getByTestId('review-verified')).toHaveCount(0)
  await expect(page.getByRole('heading', { name: 'Registros NÃO verificados' })).toBeVisible()
  await expect(page.getByText('Lidos do manifesto, que NÃO passou na verificação.')).toBeVisible()
  // Still shown for inspection.
  await expect(page.getByTestId('records-count')).toHaveText('3 registros')

  await expectNoSeriousAxe(page)
  await app.screenshot('review-failed-pt-BR')
  await setLanguage(page, 'en')
  await expect(page.getByTestId('review-failed-banner')).toContainText('VERIFICATION FAILED')
  await expect(row).toContainText('SHA-256 hash does not match')
  await expectNoSeriousAxe(page)
  await app.screenshot('review-failed-en')
})

test('an intact export signed by another key: amber "unknown key" until the expected fingerprint matches', async ({
  app,
}) => {
  const { page } = app
  await createWithdrawal(app, { pixKey: 'rev.outra@example.com', cents: 2_000 })
  const pair = generateSigningKeyPair()
  const stranger = keyFingerprint(pair.publicKeyPem)
  const made = await exportRecords(app.ctx.ledger, {
    dir: parent,
    formats: ['json'],
    signer: pair,
    appVersion: '0.0.0-other',
    profile: { name: 'Sandbox', network: 'liquid' },
  })
  const own = (await rpc(app, 'records:publicKey')).fingerprint

  await openNav(page, 'Revisão offline')
  app.nextDirectory(made.folder)
  await page.getByRole('button', { name: 'Abrir pasta de exportação…' }).click()
  const unknown = page.getByTestId('review-unknown-signer')
  await expect(unknown).toContainText('assinado por uma chave desconhecida')
  await expect(unknown).toHaveCSS('background-color', AMBER)
  await expect(unknown.getByTestId('signer-fingerprint')).toHaveText(stranger)
  await expect(page.getByTestId('review-verified')).toHaveCount(0)
  const expectedSigner = page.getByLabel('Impressão digital esperada do signatário')
  await expect(expectedSigner).toHaveValue('')
  await expect(page.getByTestId('records-count')).toHaveText('1 registro')
  await expectNoSeriousAxe(page)
  await app.screenshot('review-unknown-signer-pt-BR')

  // This computer's key is not the signer: still amber, and it says the fingerprint does not match.
  await expectedSigner.fill(own)
  await page.getByRole('button', { name: 'Comparar', exact: true }).click()
  await expect(unknown).toHaveAttribute('data-signer', 'mismatch')
  await expect(unknown).toContainText('NÃO é a da chave que assinou')
  await expect(unknown).toHaveCSS('background-color', AMBER)

  await expectedSigner.fill('zz')
  await page.getByRole('button', { name: 'Comparar', exact: true }).click()
  await expect(page.getByText('Uma impressão digital tem 32 dígitos hexadecimais')).toBeVisible()
  await expect(expectedSigner).toHaveAttribute('aria-invalid', 'true')

  await expectedSigner.fill(stranger)
  await page.getByRole('button', { name: 'Comparar', exact: true }).click()
  const verified = page.getByTestId('review-verified')
  await expect(verified).toContainText('Verificação OK')
  await expect(verified).toHaveCSS('background-color', GREEN)
  await expect(verified.getByTestId('signer-this-computer')).toHaveCount(0)

  await setLanguage(page, 'en')
  await page.getByLabel('Expected signer fingerprint').fill('')
  await page.getByRole('button', { name: 'Compare', exact: true }).click()
  await expect(page.getByTestId('review-unknown-signer')).toContainText('signed by an unknown key')
  await expectNoSeriousAxe(page)
  await app.screenshot('review-unknown-signer-en')
})
