/**
 * Issue #15's "quit mid-wave → restart → resume with no duplicate POST (counted at the sandbox)", in the browser
 * against the real app context: a 30-row run approved by its total, one wave of all 30, the app quit and started
 * again (the fixture's `restart()`: the context closes as on quit, a new one opens the same files against the same
 * running sandbox) while the wave is being created. After the restart the run is paused where it stopped and sends
 * nothing until "Retomar"; resuming creates only the rows that were never sent.
 *
 * Pace: the sandbox allows 20 POST /withdraw a minute (the Sandbox profile's limiter follows it). The client spends
 * its full bucket (20) at once, then gets one token every 3 s, so the restart lands with 20–29 rows created.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBRL } from '../../../src/shared/money'
import { expect, onToday, test } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

const ROWS = 30
const LIMIT = 20

test.use({
  appOptions: onToday({
    sandbox: { rateLimits: { withdraw: LIMIT } },
  }),
})

test('quit mid-wave → restart → paused where it stopped → resume sends only the rows never sent', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const { page, sandbox } = app
  expect(app.ctx.runtime().client.allowance().withdraw.limitPerMinute).toBe(LIMIT)

  const refund = refundAddressFor(app)
  const lines = ['Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução']
  let payouts = 0
  for (let i = 0; i < ROWS; i++) {
    lines.push(`Fornecedor ${i};r${i}@example.com;${CPF};${20 + i},00;${refund}`)
    payouts += (20 + i) * 100
  }
  const dir = mkdtempSync(join(tmpdir(), 'runs-restart-e2e-'))
  const file = join(dir, 'lote-reinicio.csv')
  writeFileSync(file, `${lines.join('\r\n')}\r\n`)
  const posts = (): number => sandbox.control.requestCounts()['POST /api/withdraw'] ?? 0
  const keysAtSandbox = (): string[] => sandbox.control.state().withdrawals.map((w) => w.pixKey)
  const detail = page.getByTestId('run-detail')
  const report = page.getByTestId('run-report')

  try {
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('run-file').setInputFiles(file)
    await expect(page.getByTestId('import-result')).toContainText(`${ROWS} de ${ROWS} linhas aceitas.`)
    const approve = page.getByTestId('approve-form')
    await approve
      .getByLabel('Total a receber por Pix (R$), conforme o seu controle')
      .fill(formatBRL(payouts).replace('R$ ', ''))
    await approve.getByRole('button', { name: 'Aprovar lote' }).click()
    await expect(detail).toHaveAttribute('data-state', 'approved')
    await page.getByLabel('Pagamentos nesta onda').fill(String(ROWS))
    await page.getByRole('button', { name: 'Criar onda' }).click()
    await expect(detail).toHaveAttribute('data-state', 'creating')

    // Past the first bucket, while the wave waits for tokens: some rows created, not all.
    await expect
      .poll(async () => Number(await page.getByTestId('progress-created').getAttribute('data-done')), {
        timeout: 60_000,
        intervals: [200],
      })
      .toBeGreaterThan(LIMIT)
    const runId = app.ctx.ledger.runs.list()[0]?.runId as string
    expect(runId).toBeTruthy()

    await app.restart()

    // Counted after the quit: a POST in flight at the quit was waited for, so nothing more can arrive.
    const sentBefore = posts()
    const keysBefore = keysAtSandbox()
    expect(sentBefore).toBeGreaterThan(LIMIT)
    expect(sentBefore).toBeLessThan(ROWS)
    expect(new Set(keysBefore).size).toBe(sentBefore)
    const createdBefore = new Map(
      app.ctx.ledger.runs
        .rows(runId)
        .filter((r) => r.localId !== null)
        .map((r) => [r.idx, r.localId as string]),
    )
    expect(createdBefore.size).toBe(sentBefore)

    // The new app: the run is paused where it stopped; the created rows are created, the rest wait in the wave.
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('runs-list').getByRole('button', { name: 'lote-reinicio.csv' }).click()
    await expect(detail).toHaveAttribute('data-state', 'paused')
    await expect(detail.getByRole('heading', { level: 3, name: /Pausado/ })).toBeVisible()
    await expect(page.getByTestId('progress-created')).toHaveAttribute('data-done', String(sentBefore))
    await expect(report.locator('[data-outcome="created"]')).toHaveText(String(sentBefore))
    await expect(report.locator('[data-outcome="queued"]')).toHaveText(String(ROWS - sentBefore))
    // The quit waited for the create in flight, so no row is left sending or with an unknown outcome.
    await expect(report.locator('[data-outcome="in_flight"]')).toHaveCount(0)
    await expect(report.locator('[data-outcome="outcome_unknown"]')).toHaveCount(0)
    const audit = app.ctx.ledger.audit({ subject: runId, limit: 500 }).rows.map((e) => e.action)
    expect(audit).toContain('run.interrupted')

    // Nothing is sent until the operator resumes (longer than one token's 3 s).
    await page.waitForTimeout(4_000)
    expect(posts()).toBe(sentBefore)
    await expect(detail).toHaveAttribute('data-state', 'paused')

    await detail.getByRole('button', { name: 'Retomar' }).click()
    await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 90_000 })
    await expect(page.getByTestId('progress-created')).toHaveAttribute('data-done', String(ROWS))
    await expect(report.locator('[data-outcome="created"]')).toHaveText(String(ROWS))

    // At the sandbox: one POST per row, every Pix key once, the rows sent before the quit not sent again.
    expect(posts()).toBe(ROWS)
    const keysAfter = keysAtSandbox()
    expect(keysAfter).toHaveLength(ROWS)
    expect(new Set(keysAfter).size).toBe(ROWS)
    expect(keysAfter.slice(0, sentBefore)).toEqual(keysBefore)
    const rowsAfter = app.ctx.ledger.runs.rows(runId)
    for (const [idx, localId] of createdBefore) {
      expect(rowsAfter.find((r) => r.idx === idx)?.localId).toBe(localId)
    }
    expect(new Set(rowsAfter.map((r) => r.localId)).size).toBe(ROWS)
    // The ledger agrees: one record per row, each created with the id the sandbox gave it.
    const records = [...app.ctx.ledger.iterate({ runId })]
    expect(records).toHaveLength(ROWS)
    expect(records.every((r) => r.localState === 'created')).toBe(true)
    expect(new Set(records.map((r) => r.remoteId)).size).toBe(ROWS)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
