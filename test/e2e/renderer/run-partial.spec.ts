/**
 * Issue #25 F8 in the browser: a run whose creates are refused for a passing cause (520 NETWORK_WALLET_UNAVAILABLE)
 * or cut before the service saw them (unknown outcome) ends "Parcialmente pago", never "Concluído"; the run page
 * resolves the unknown row ("Não foi criado"), sends both again in the next wave, and the run completes.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBRL } from '../../../src/shared/money'
import { expect, onToday, test } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    sandbox: { rateLimits: { withdraw: 600 } },
  }),
})

test('partially paid → resolved and retried from the run page → completed', async ({ app }) => {
  test.setTimeout(120_000)
  const { page, sandbox } = app
  const refund = refundAddressFor(app)
  const lines = ['Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução']
  let total = 0
  for (let i = 0; i < 3; i++) {
    lines.push(`Fornecedor ${i};parcial${i}@example.com;${CPF};${30 + i},00;${refund}`)
    total += (30 + i) * 100
  }
  const dir = mkdtempSync(join(tmpdir(), 'runs-partial-e2e-'))
  const file = join(dir, 'lote-parcial.csv')
  writeFileSync(file, `${lines.join('\r\n')}\r\n`)
  try {
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('run-file').setInputFiles(file)
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    const approve = page.getByTestId('approve-form')
    await approve
      .getByLabel('Total a receber por Pix (R$), conforme o seu controle')
      .fill(formatBRL(total).replace('R$ ', ''))
    await approve.getByRole('button', { name: 'Aprovar lote' }).click()
    await expect(detail).toHaveAttribute('data-state', 'approved')

    sandbox.control.injectFault({
      kind: 'refusal',
      status: 520,
      messageCode: 'NETWORK_WALLET_UNAVAILABLE',
      endpoint: 'withdraw',
    })
    sandbox.control.injectFault({ kind: 'reset', endpoint: 'withdraw' })
    await page.getByRole('button', { name: 'Criar onda' }).click()
    await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 30_000 })
    const sheet = page.getByTestId('funding-sheet')
    await sheet.getByRole('button', { name: 'Sandbox: depositar a onda inteira' }).click()
    await sheet.getByRole('button', { name: 'Onda depositada' }).click()
    await expect(detail).toHaveAttribute('data-state', 'partially_paid')
    await expect(page.getByText('Parcialmente pago').first()).toBeVisible()
    await expect(page.getByText('Concluído')).toHaveCount(0)

    // Line 2 was refused for a passing reason; line 3's outcome is unknown until resolved.
    const actions = page.getByRole('region', { name: 'Pagamentos a resolver' })
    await expect(actions.getByTestId('run-row-retry-2')).toBeVisible()
    await actions.getByTestId('run-row-unknown-3').getByRole('button', { name: 'Não foi criado' }).click()
    await expect(actions.getByTestId('run-row-retry-3')).toBeVisible()
    await actions.getByTestId('run-row-retry-2').getByRole('button').click()
    await expect(detail).toHaveAttribute('data-state', 'approved')
    await actions.getByTestId('run-row-retry-3').getByRole('button').click()
    await expect(page.getByRole('region', { name: 'Pagamentos a resolver' })).toHaveCount(0)

    await page.getByRole('button', { name: 'Criar onda' }).click()
    await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 30_000 })
    await sheet.getByRole('button', { name: 'Sandbox: depositar a onda inteira' }).click()
    await sheet.getByRole('button', { name: 'Onda depositada' }).click()
    await expect(detail).toHaveAttribute('data-state', 'completed')
    expect(sandbox.control.requestCounts()['POST /api/withdraw']).toBe(5)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
