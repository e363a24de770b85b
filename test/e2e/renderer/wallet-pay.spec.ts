/**
 * "Pagar a onda com a carteira" (issue #28) in the browser against the real app context and embedded sandbox: a
 * 3-line run, approved, one wave created; the wave panel offers paying it from the wallet, and main re-reads each
 * payment and refuses by name — the Sandbox service's deposit addresses are mainnet-format while the Sandbox
 * treasury is on the regtest chain (docs/WALLET.md, "Paying from the wallet"). Nothing is kept; the sandbox's own
 * funding route still works afterwards.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBRL } from '../../../src/shared/money'
import { expect, test } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: {
    language: 'pt-BR',
    sandbox: { rateLimits: { withdraw: 600 } },
    beforeOpen: null,
    trackerAutoStart: true,
    startPage: 'today',
  },
})

const HEADER =
  'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Categoria;Centro de custo;Endereço de devolução'

test('the wave panel offers paying from the wallet; a deposit address of another network is refused in pt-BR', async ({
  app,
}) => {
  test.setTimeout(120_000)
  const { page } = app
  const refund = refundAddressFor(app)
  const lines = [HEADER]
  let total = 0
  for (let i = 0; i < 3; i++) {
    lines.push(`Fornecedor ${i};w${i}@example.com;${CPF};${30 + i},00;Serviços;Obras;${refund}`)
    total += (30 + i) * 100
  }
  const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-e2e-'))
  const file = join(dir, 'onda-carteira.csv')
  writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`)
  try {
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('run-file').setInputFiles(file)
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    await expect(page.getByTestId('wallet-pay')).toHaveCount(0)
    const approve = page.getByTestId('approve-form')
    await approve
      .getByLabel('Total a receber por Pix (R$), conforme o seu controle')
      .fill(formatBRL(total).replace('R$ ', ''))
    await approve.getByRole('button', { name: 'Aprovar lote' }).click()
    await expect(detail).toHaveAttribute('data-state', 'approved')
    const panel = page.getByTestId('wallet-pay')
    await expect(panel).toContainText('Nenhum pagamento desta execução está aguardando depósito.')

    await page.getByLabel('Pagamentos nesta onda').fill('3')
    await page.getByRole('button', { name: 'Criar onda' }).click()
    await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 60_000 })
    await panel.getByRole('button', { name: 'Pagar a onda com a carteira' }).click()
    await expect(panel.getByRole('alert')).toContainText('não está aguardando depósito')
    await expect(panel.getByTestId('wallet-pay-review')).toHaveCount(0)
    expect(await app.ctx.router.handle('walletPay:list', {})).toEqual({ ok: true, data: [] })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
