/**
 * Revisão offline → "Conferir com o livro-caixa deste computador": an export of this app's ledger matches (green);
 * an export of another ledger, and one of a copy of this ledger that went further than it (this ledger behind,
 * as after a restore), do not — each with its own clear message and the technical details below.
 */
import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import { exportRecords, generateSigningKeyPair } from '../../../src/main/records'
import { expect, test, type TestApp } from '../support/app-fixture'
import { createWithdrawal, expectNoSeriousAxe, openNav, rpc, setLanguage } from './records-helpers'

const GREEN = 'rgb(231, 245, 234)'

let parent = ''
test.beforeEach(() => {
  parent = mkdtempSync(join(tmpdir(), 'treasury-ledger-check-'))
})
test.afterEach(() => rmSync(parent, { recursive: true, force: true }))

async function exportOf(ledger: Ledger, name: string): Promise<string> {
  const dir = join(parent, name)
  mkdirSync(dir)
  const made = await exportRecords(ledger, {
    dir,
    formats: ['json'],
    signer: generateSigningKeyPair(),
    appVersion: '0.0.0-other',
    profile: { name: 'Sandbox', network: 'liquid' },
  })
  return made.folder
}

async function openAndCheck(app: TestApp, folder: string): Promise<void> {
  app.nextDirectory(folder)
  await app.page.getByRole('button', { name: /Abrir (outra )?pasta/ }).click()
  // This folder's review, not the one before it (the check is per review opened).
  await expect(app.page.getByTestId('review-manifest')).toContainText(folder)
  await app.page.getByRole('button', { name: 'Conferir com o livro-caixa deste computador' }).click()
}

test('an export of this ledger matches; another ledger’s, or one beyond this ledger, does not', async ({
  app,
}) => {
  const { page } = app
  await createWithdrawal(app, { pixKey: 'conferir.livro@example.com', cents: 2_500 })
  const token = await app.folderToken('export', parent)
  const own = dirname((await rpc(app, 'records:export', { folder: token, formats: ['json'] })).manifestPath)

  await openNav(page, 'Revisão offline')
  await openAndCheck(app, own)
  const result = page.getByTestId('ledger-check')
  await expect(result).toHaveAttribute('data-verdict', 'match')
  await expect(result).toContainText('Confere com o livro-caixa deste computador.')
  await expect(result).toHaveCSS('background-color', GREEN)
  await expectNoSeriousAxe(page)
  await app.screenshot('review-ledger-match-pt-BR')

  // Another ledger file, its own records and history.
  const otherFile = join(parent, 'other', 'ledger.sqlite')
  mkdirSync(dirname(otherFile))
  const other = openLedger(otherFile)
  other.insertSubmitting(
    {
      profile: 'sandbox',
      pixKey: 'outro.livro@example.com',
      amountKind: 'payout',
      amountCents: 700,
      request: { pixKey: 'outro.livro@example.com', payoutAmountInCents: 700 },
    },
    'outra pessoa',
  )
  const otherExport = await exportOf(other, 'other-export').finally(() => other.close())
  await openAndCheck(app, otherExport)
  await expect(result).toHaveAttribute('data-verdict', 'different_history')
  await expect(result).toContainText('NÃO confere: o histórico da exportação é outro.')
  await expect(result).toContainText('veio de outro livro-caixa')
  await expect(result).not.toHaveCSS('background-color', GREEN)
  await result.getByText('Detalhes técnicos').click()
  await expect(result.getByTestId('ledger-check-problems')).toContainText("is not this ledger's")
  await expectNoSeriousAxe(page)
  await app.screenshot('review-ledger-other-pt-BR')

  // A copy of this ledger (a backup) that went on after it: the export goes beyond this ledger.
  const backup = app.ctx.ledger.backup('manual')
  const copyFile = join(parent, 'copy', 'ledger.sqlite')
  mkdirSync(dirname(copyFile))
  copyFileSync(join(app.dataDir, 'backups', backup.name), copyFile)
  const copy = openLedger(copyFile)
  copy.setFlags(copy.query({ limit: 1 }).rows[0]!.localId, ['payee_mismatch'], 'outra pessoa')
  copy.setFlags(copy.query({ limit: 1 }).rows[0]!.localId, [], 'outra pessoa')
  const ahead = await exportOf(copy, 'ahead-export').finally(() => copy.close())
  await openAndCheck(app, ahead)
  await expect(result).toHaveAttribute('data-verdict', 'not_in_ledger')
  await expect(result).toContainText('NÃO confere: a exportação vai além deste livro-caixa.')
  await expect(result).toContainText('substituído por uma cópia mais antiga')

  await setLanguage(page, 'en')
  await expect(result).toContainText('Does NOT match: the export goes beyond this ledger.')
  await expectNoSeriousAxe(page)
  await app.screenshot('review-ledger-ahead-en')
})
