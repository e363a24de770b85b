/**
 * "Pagar a onda com a carteira" (issue #28) in the browser against the real app context and the embedded sandbox
 * with its Liquid chain: the 50-row run in two waves of 25; each wave funded by ONE transaction built in the
 * app (LWK on its worker thread), carried to the signer and back — the first wave as a file (save dialog, then the
 * signed PSET loaded from a file), the second as base64 text — signed outside by LWK's software Signer from the
 * sandbox mnemonic (as an external wallet would), checked and broadcast. The
 * sandbox service sees each payment funded only when a block has the transaction (its own observation of its
 * chain, paying the lq1 deposit address's regtest twin), then pays it. 0 funded twice, 0 missed.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { formatBRL } from '../../../src/shared/money'
import { signAsExternalWallet } from '../../support/sandbox-treasury'
import { expect, onToday, test } from '../support/app-fixture'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    sandbox: { rateLimits: { withdraw: 600 }, autoSettleSeconds: 1 },
  }),
})

const HEADER =
  'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Categoria;Centro de custo;Endereço de devolução'
const ROWS = 50
const WAVES = [25, 25] as const

test('a 50-row run, each wave funded by one transaction signed outside through export/import, paid by the service seeing its chain', async ({
  app,
}) => {
  test.setTimeout(600_000)
  const { page } = app
  const sandbox = app.sandbox
  const refund = refundAddressFor(app)
  const lines = [HEADER]
  let total = 0
  for (let i = 0; i < ROWS; i++) {
    lines.push(`Fornecedor ${i};w${i}@example.com;${CPF};${30 + i},00;Serviços;Obras;${refund}`)
    total += (30 + i) * 100
  }
  const dir = mkdtempSync(join(tmpdir(), 'wallet-pay-e2e-'))
  const file = join(dir, 'onda-carteira.csv')
  writeFileSync(file, `\uFEFF${lines.join('\r\n')}\r\n`)
  const txids: string[] = []
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

    let funded = 0
    for (const [w, size] of WAVES.entries()) {
      await page.getByLabel('Pagamentos nesta onda').fill(String(size))
      await page.getByRole('button', { name: 'Criar onda' }).click()
      await expect(detail).toHaveAttribute('data-state', 'awaiting_funding', { timeout: 60_000 })
      await panel.getByRole('button', { name: 'Pagar a onda com a carteira' }).click()
      // While building, the panel says how far it is: each payment checked with the service, then LWK building
      // and blinding the transaction (seconds for 25 outputs), with about how long that takes.
      const building = panel.getByTestId('wallet-pay-building')
      await expect(building).toContainText(`de ${size}.`)
      await expect(building).toHaveAttribute('data-phase', 'building', { timeout: 60_000 })
      await expect(building).toContainText(`uma transação com ${size} pagamentos`)
      // The review: one line per payment of the wave, each the service's own lq1 deposit address.
      const review = panel.getByTestId('wallet-pay-review')
      await expect(review.locator('tbody tr')).toHaveCount(size, { timeout: 120_000 })
      await expect(review).toContainText('lq1')
      const pset = panel.getByTestId('wallet-pay-pset')
      await expect(pset).not.toHaveValue('')
      if (w === 0) {
        // A blinded PSET is far beyond one QR code: the panel says so and points to the file.
        await panel.getByTestId('wallet-pay-show-qr').click()
        await expect(panel.getByTestId('wallet-pay-qr-too-large')).toContainText('não cabe em um QR code')
        // To the signer as a file (the save dialog answers with the test's path), back signed as a file.
        const out = join(dir, 'onda-1.pset')
        app.nextSavePath(out)
        await panel.getByTestId('wallet-pay-save').click()
        await expect(panel.getByTestId('wallet-pay-saved')).toBeVisible()
        expect(readFileSync(out, 'utf8').trim()).toBe(await pset.inputValue())
        const back = join(dir, 'onda-1-assinada.pset')
        writeFileSync(back, signAsExternalWallet(readFileSync(out, 'utf8').trim()))
        app.nextFile(back)
        await panel.getByRole('button', { name: 'Carregar PSET assinada de arquivo' }).click()
      } else {
        // Signed outside the app from the copied base64, as an external wallet would, and pasted back.
        await panel.getByTestId('wallet-pay-signed').fill(signAsExternalWallet(await pset.inputValue()))
        await panel.getByRole('button', { name: 'Carregar PSET assinada', exact: true }).click()
      }
      await panel.getByTestId('wallet-pay-broadcast').click()
      await expect(panel.getByTestId('wallet-pay-recorded')).toBeVisible({ timeout: 30_000 })
      const listed = (await app.ctx.router.handle('walletPay:list', {})) as {
        ok: true
        data: Array<{ txid: string; state: string; lines: Array<{ localId: string }> }>
      }
      const attempt = listed.data[0]
      expect(attempt).toMatchObject({ state: 'recorded' })
      expect(attempt?.lines).toHaveLength(size)
      txids.push(attempt?.txid as string)
      await expect(panel.getByTestId('wallet-pay-recorded')).toContainText(attempt?.txid as string)
      // The wave is funded in the app with that transaction; the service does not know yet (no block).
      await expect(detail).toHaveAttribute('data-state', w === WAVES.length - 1 ? 'completed' : 'approved')
      funded += size
      await expect(page.getByTestId('progress-funded')).toHaveAttribute('data-done', String(funded))
      const waiting = sandbox.control.state().withdrawals.filter((x) => x.status === 'unsent')
      expect(waiting).toHaveLength(size)
      expect(waiting.every((x) => x.blockchainTxID === undefined)).toBe(true)
      // A block: the service sees each deposit on its chain and starts paying.
      sandbox.control.advanceClock(61)
      sandbox.liquid.mineDue()
      // The service reads its chain on its own schedule: on a loaded machine a block's deposits arrive over seconds.
      await expect
        .poll(() => sandbox.control.state().withdrawals.filter((x) => x.blockchainTxID === txids[w]).length, {
          timeout: 30_000,
        })
        .toBe(size)
    }

    // The service settles each funded payout; the tracker follows every one to paid.
    sandbox.control.advanceClock(5)
    await expect
      .poll(async () => Number(await page.getByTestId('progress-paid').getAttribute('data-done')), {
        timeout: 120_000,
        intervals: [1000],
      })
      .toBe(ROWS)

    // 0 funded twice, 0 missed: two transactions, every payment in exactly one, each funded by its own wave's.
    expect(new Set(txids).size).toBe(WAVES.length)
    const all = sandbox.control.state().withdrawals
    expect(all).toHaveLength(ROWS)
    expect(all.every((x) => x.status === 'sent')).toBe(true)
    const byTx = new Map(txids.map((t) => [t, all.filter((x) => x.blockchainTxID === t).length]))
    expect([...byTx.values()]).toEqual([...WAVES])
    const attempts = (await app.ctx.router.handle('walletPay:list', {})) as {
      ok: true
      data: Array<{ state: string; lines: Array<{ localId: string }> }>
    }
    expect(attempts.data.map((a) => a.state)).toEqual(['recorded', 'recorded'])
    const paidIds = attempts.data.flatMap((a) => a.lines.map((l) => l.localId))
    expect(new Set(paidIds).size).toBe(ROWS)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
})
