/**
 * A payment run in the browser, against the real app context and the embedded sandbox: a 50-line spreadsheet
 * with 5 bad lines → the problems listed by line → 45 approved by typing the total → two waves created through
 * the single payment's create, each funded with the Sandbox tools from its funding sheet → every row paid or
 * refunded as the sandbox decides. One POST per row, counted at the sandbox.
 *
 * Speed: the sandbox's create allowance is raised to 600/min (the Sandbox profile's own limiter follows it), and the sandbox settles a funded payout by itself after 1 s, so the run takes seconds.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBRL } from '../../../src/shared/money'
import { expect, onToday, test } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    sandbox: { rateLimits: { withdraw: 600 }, autoSettleSeconds: 1 },
  }),
})

const HEADER =
  'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Categoria;Centro de custo;Endereço de devolução'
const BAD_LINES = [7, 15, 23, 31, 49]

test('50 lines with 5 bad → 45 approved → two waves funded in the sandbox → paid or refunded', async ({
  app,
}) => {
  test.setTimeout(180_000)
  const { page, ctx, sandbox } = app
  // The Sandbox profile's limiter follows the embedded sandbox's raised allowance.
  expect(ctx.runtime().client.allowance().withdraw.limitPerMinute).toBe(600)

  const refund = refundAddressFor(app)
  const lines = [HEADER]
  let payouts = 0
  for (let line = 2; line <= 51; line++) {
    const i = line - 2
    const reais = 20 + i
    if (line === 7) lines.push(`Sem chave;;${CPF};10,00;Serviços;Obras;${refund}`)
    else if (line === 15) lines.push(`Valor ruim;f${i}@example.com;${CPF};12.50;Serviços;Obras;${refund}`)
    else if (line === 23) lines.push(`CPF ruim;f${i}@example.com;123;10,00;Serviços;Obras;${refund}`)
    else if (line === 31) lines.push(`Fórmula;f${i}@example.com;${CPF};10,00;=SOMA(A1);Obras;${refund}`)
    else if (line === 49) lines.push(`Acima;f${i}@example.com;${CPF};7.000,00;Serviços;Obras;${refund}`)
    else {
      lines.push(
        `Fornecedor ${i};f${i}@example.com;${CPF};${reais},00;${i % 2 ? 'Serviços' : 'Materiais'};Obras;${refund}`,
      )
      payouts += reais * 100
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'runs-e2e-'))
  const file = join(dir, 'lote-novembro.csv')
  writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`)
  const posts = (): number => sandbox.control.requestCounts()['POST /api/withdraw'] ?? 0

  try {
    await page.getByTestId('nav-runs').click()
    await expect(page.getByRole('heading', { level: 2, name: 'Lotes de pagamentos' })).toBeVisible()
    await page.getByTestId('run-file').setInputFiles(file)

    // The problems, one per bad line, in pt-BR; the good lines became a run in review.
    const issues = page.getByTestId('import-issues').locator('tbody tr')
    await expect(issues).toHaveCount(5)
    expect(await issues.evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-line'))))).toEqual(
      BAD_LINES,
    )
    await expect(page.getByTestId('import-result')).toContainText('45 de 50 linhas aceitas.')
    await expect(page.getByTestId('import-issues')).toContainText('vírgula decimal')
    await expect(page.getByTestId('import-issues')).toContainText('é uma fórmula de planilha')
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    await expect(page.getByTestId('run-count')).toHaveText('45')
    // Issue #24: the approver sees where a failed payout returns the deposit — one address, every kept line.
    const refunds = page.getByTestId('run-refund-addresses')
    await expect(refunds).toContainText('Endereço de devolução')
    await expect(refunds.locator('tbody tr')).toHaveCount(1)
    expect((await refunds.locator('tbody tr code').innerText()).replace(/\s+/g, '')).toBe(refund)
    expect(posts()).toBe(0)

    // Approve by typing the total DePix to send (a wrong total is refused first).
    const approve = page.getByTestId('approve-form')
    await approve.getByLabel('Total a receber por Pix (R$), conforme o seu controle').fill('1,00')
    await approve.getByRole('button', { name: 'Aprovar lote' }).click()
    await expect(page.getByRole('alert')).toContainText('não confere com o total')
    await approve
      .getByLabel('Total a receber por Pix (R$), conforme o seu controle')
      .fill(formatBRL(payouts).replace('R$ ', ''))
    await approve.getByRole('button', { name: 'Aprovar lote' }).click()
    await expect(detail).toHaveAttribute('data-state', 'approved')
    await expect(page.getByTestId('wave-proposal')).toHaveAttribute('data-size', '45')
    expect(posts()).toBe(0)

    for (const [wave, size] of [
      [1, 20],
      [2, 25],
    ] as const) {
      await page.getByLabel('Pagamentos nesta onda').fill(String(size))
      await page.getByRole('button', { name: 'Criar onda' }).click()
      await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 60_000 })
      const sheet = page.getByTestId('funding-sheet')
      await expect(sheet.getByRole('heading', { name: `Depósito da onda ${wave}` })).toBeVisible()
      await expect(sheet.getByTestId('sheet-lines').locator('tbody tr')).toHaveCount(size)
      // Issue #26: the wave's deadline counts down, and the DePix total says what it is worth in R$.
      await expect(sheet.getByTestId('sheet-countdown')).toHaveAttribute('data-state', 'running')
      await expect(sheet.getByTestId('sheet-total')).toContainText('equivale a R$')
      expect(posts()).toBe(wave === 1 ? 20 : 45)
      await sheet.getByRole('button', { name: 'Sandbox: depositar a onda inteira' }).click()
      await sheet.getByRole('button', { name: 'Onda depositada' }).click()
      await expect(detail).toHaveAttribute('data-state', wave === 1 ? 'approved' : 'completed')
    }
    // The waves as a table: each with its size, deposited, and when (issue #26: no bullet lists).
    const waves = page.getByTestId('run-waves')
    await expect(waves.locator('tbody tr')).toHaveCount(2)
    await expect(waves.locator('tr[data-wave="1"] td[data-col="planned"]')).toHaveText('20')
    await expect(waves.locator('tr[data-wave="2"] td[data-col="planned"]')).toHaveText('25')
    await expect(waves.locator('td[data-col="deposit"]')).toHaveText(['Depositada', 'Depositada'])
    await expect(waves.locator('tr[data-wave="2"] td[data-col="fundedAt"]')).toHaveText(
      /^\d\d\/\d\d\/\d{4} \d\d:\d\d$/,
    )

    // The tracker follows every withdrawal to its end; the sandbox pays the valid keys after 1 s.
    await expect
      .poll(
        async () => {
          const paid = Number(await page.getByTestId('progress-paid').getAttribute('data-done'))
          const returned = Number(await page.getByTestId('progress-returned').getAttribute('data-done'))
          return paid + returned
        },
        { timeout: 120_000, intervals: [1000] },
      )
      .toBe(45)
    await expect(page.getByTestId('progress-created')).toHaveAttribute('data-done', '45')
    expect(posts()).toBe(45)
    const withdrawals = sandbox.control.state().withdrawals
    expect(new Set(withdrawals.map((w) => w.pixKey)).size).toBe(45)

    // One payment outside the run, then the list narrowed to the run from its report: 45 of the ledger's 46.
    const draft = {
      pixKey: 'avulso@example.com',
      taxNumber: CPF,
      amount: { kind: 'payout' as const, cents: 1_500 },
      refundAddress: refund,
    }
    const quote = (await ctx.router.handle('withdrawals:quote', { draft })) as {
      ok: boolean
      data: { intent: { id: string } }
    }
    expect(quote.ok).toBe(true)
    const single = await ctx.router.handle('withdrawals:create', { draft, intentId: quote.data.intent.id })
    expect((single as { ok: boolean }).ok).toBe(true)
    await page.getByRole('button', { name: 'Ver os pagamentos do lote' }).click()
    await expect(page.getByTestId('run-filter')).toContainText('lote-novembro')
    await expect(page.getByTestId('records-count')).toContainText('45')
    await page.getByRole('button', { name: 'Mostrar todos os pagamentos' }).click()
    await expect(page.getByTestId('run-filter')).toHaveCount(0)
    await expect(page.getByTestId('records-count')).toContainText('46')
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
