/**
 * The ledger's integrity in the real renderer: a ledger edited with plain SQL before the app starts shows the
 * alert banner on every page; Settings lists the backups and restores one only after a second, explicit click.
 */
import { DatabaseSync } from 'node:sqlite'
import { openLedger } from '../../../src/main/ledger/sqlite'
import { expect, test } from '../support/app-fixture'

function seedOne(file: string): string {
  const l = openLedger(file)
  const r = l.insertSubmitting(
    {
      profile: 'sandbox',
      pixKey: 'maria@example.com',
      amountKind: 'payout',
      amountCents: 1000,
      request: { pixKey: 'maria@example.com', payoutAmountInCents: 1000 },
    },
    'ana',
  )
  l.markRejected(r.localId, {
    kind: 'business',
    status: 520,
    messageCode: 'INVALID_PARAMETER',
    denialCode: null,
    requestId: 'req',
    message: 'x',
  })
  l.close()
  return r.localId
}

test.describe('a ledger edited outside the app', () => {
  test.use({
    appOptions: {
      language: 'pt-BR',
      sandbox: {},
      trackerAutoStart: false,
      startPage: 'newWithdrawal',
      beforeOpen: (file) => {
        const id = seedOne(file)
        const db = new DatabaseSync(file)
        db.exec(`UPDATE withdrawals SET pix_key = 'mallory@example.com' WHERE local_id = '${id}'`)
        db.close()
      },
    },
  })

  test('shows the integrity alert on every page', async ({ app }) => {
    const banner = app.page.getByTestId('integrity-banner')
    // The start-up check runs on its worker (issue #30) while the app is already usable: the banner comes when it
    // ends, later on a loaded machine.
    await expect(banner).toBeVisible({ timeout: 30_000 })
    await expect(banner).toContainText('não confere')
    await expect(banner).toContainText('differs from the state')
    await app.page.getByRole('navigation').getByRole('button', { name: 'Configurações' }).click()
    await expect(banner).toBeVisible()
  })
})

test.describe('backups in Settings', () => {
  test.use({
    appOptions: {
      language: 'pt-BR',
      sandbox: {},
      trackerAutoStart: false,
      startPage: 'newWithdrawal',
      beforeOpen: (file) => void seedOne(file),
    },
  })

  test('lists the daily backup and restores it after confirmation', async ({ app }) => {
    const { page } = app
    await expect(page.getByTestId('integrity-banner')).toHaveCount(0)
    await expect.poll(() => app.ctx.ledger.backups().length).toBe(1)
    await page.getByRole('navigation').getByRole('button', { name: 'Configurações' }).click()
    await page.getByRole('tab', { name: 'Segurança e limites' }).click()
    const section = page.getByTestId('backups-section')
    await expect(section.getByRole('cell', { name: 'diário' })).toBeVisible()
    await section.getByRole('button', { name: 'Restaurar…' }).click()
    await expect(section).toContainText('O atual é guardado antes como backup')
    expect(app.ctx.ledger.backups().map((b) => b.reason)).toEqual(['daily']) // nothing happened yet
    await section.getByRole('button', { name: 'Sim, restaurar' }).click()
    await expect
      .poll(() =>
        app.ctx.ledger
          .backups()
          .map((b) => b.reason)
          .sort(),
      )
      .toEqual(['daily', 'restore'])
    expect(app.ctx.ledger.audit({ limit: 1 }).rows[0]?.action).toBe('ledger.restored')
  })
})
