/**
 * Caixa (issue #27) in Chromium against the real app context and the embedded sandbox's Liquid chain: the Sandbox
 * treasury wallet shows its starting R$ 50.000,00 on Hoje and on Caixa, scanned by LWK over loopback; a top-up
 * arriving on the chain shows as "a confirmar", then confirmed once the sandbox clock passes a block.
 */
import type { Page } from '@playwright/test'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { SANDBOX_DEPIX, sandboxTreasury } from '../../../src/main/sandbox/chain'
import { regtestTwin } from '../../../src/main/sandbox/chain/keys'
import { formatBRL } from '../../../src/shared/money'
import { payFromSandboxTreasury } from '../../support/sandbox-treasury'
import { createWithdrawal, openNav, rpc } from './records-helpers'
import { expectNoSeriousAxeViolations } from './withdrawal-steps'
import { expect, onToday, test } from '../support/app-fixture'

test.use({
  appOptions: onToday({
    // The wallet's schedule scans the active profile at start.
    trackerAutoStart: true,
  }),
})

const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('button', { name, exact: true })

/** Refresh until the page shows `text` (a scan runs at most every 5 s). */
async function refreshUntil(page: Page, testId: string, text: string): Promise<void> {
  await expect(async () => {
    await page.getByTestId('caixa-refresh').click()
    await expect(page.getByTestId(testId)).toHaveText(text, { timeout: 1_000 })
  }).toPass({ timeout: 20_000, intervals: [500, 1_000, 2_000] })
}

test('the Sandbox treasury on Hoje and Caixa; a top-up arrives pending, then confirmed', async ({ app }) => {
  const { page } = app
  await expect(page.getByTestId('today-caixa-depix')).toHaveText('R$ 50.000,00')
  await expect(page.getByTestId('today-caixa').getByTestId('wallet-age')).toContainText(
    'Última leitura da rede:',
  )

  await nav(page, 'Caixa').click()
  await expect(page.getByRole('heading', { level: 2, name: 'Caixa' })).toBeVisible()
  await expect(page.getByTestId('caixa-depix-confirmed')).toHaveText('R$ 50.000,00')
  await expect(page.getByTestId('caixa-lbtc')).toContainText('0,01000000 L-BTC')
  await expect(page.getByTestId('caixa-movement')).toHaveCount(1)
  await expectNoSeriousAxeViolations(page)
  // No descriptor form on the Sandbox profile, and no key anywhere on the page.
  await expect(page.getByTestId('wallet-descriptor')).toHaveCount(0)
  await expect(page.locator('body')).not.toContainText('tpub')

  app.sandbox.liquid.faucet.send([
    { address: sandboxTreasury().firstAddress, asset: SANDBOX_DEPIX, units: 123_456_000_000n },
  ])
  await refreshUntil(page, 'caixa-depix-pending', 'R$ 1.234,56')
  await expect(page.getByTestId('caixa-movement')).toHaveCount(2)
  await expect(page.getByTestId('caixa-movement').first()).toContainText('a confirmar')

  app.sandbox.control.advanceClock(61)
  await refreshUntil(page, 'caixa-depix-confirmed', 'R$ 51.234,56')
  await expect(page.getByTestId('caixa-depix-pending')).toHaveText('R$ 0,00')
})

test('what the treasury can fund: payments waiting for deposit against the confirmed DePix', async ({
  app,
}) => {
  const { page } = app
  const refundAddress = generateLiquidAddress('liquid').address
  // Nine payments of R$ 6.000,00 (the most per payment) waiting for their deposit, three per CPF (the sandbox caps
  // R$ 20.000,00 a day per CPF): R$ 54.000,00 and the fees, above the R$ 50.000,00 held.
  const cpfs = ['52998224725', '11144477735', '39053344705']
  for (let i = 0; i < 9; i++) {
    const draft = {
      pixKey: `fulano${i}@example.com`,
      taxNumber: cpfs[i % 3],
      amount: { kind: 'payout', cents: 600_000 },
      refundAddress,
    }
    const quoted = await app.ctx.router.handle('withdrawals:quote', { draft })
    if (!(quoted as { ok: boolean }).ok) throw new Error(JSON.stringify(quoted))
    const quote = quoted as {
      ok: true
      data: { intent: { id: string } }
    }
    expect(
      (await app.ctx.router.handle('withdrawals:create', { draft, intentId: quote.data.intent.id })).ok,
    ).toBe(true)
  }
  const listed = (await app.ctx.router.handle('withdrawals:list', { statuses: ['unsent'], limit: 1 })) as {
    ok: true
    data: { totals: Array<{ depositCents: number }> }
  }
  const totalCents = listed.data.totals.reduce((n, x) => n + x.depositCents, 0)
  expect(totalCents).toBeGreaterThan(5_400_000)
  await nav(page, 'Caixa').click()
  await expect(page.getByTestId('caixa-depix-confirmed')).toHaveText('R$ 50.000,00')
  await expect(page.getByTestId('wallet-awaiting')).toHaveText(
    `9 pagamento(s) aguardando depósito, ${formatBRL(totalCents)} no total: falta ${formatBRL(totalCents - 5_000_000)} no saldo confirmado.`,
  )
  await expect(page.getByTestId('wallet-lbtc-low')).toHaveCount(0)
})

test('a payment funded from the treasury wallet is seen funded with its txid, without "Marquei como enviado"', async ({
  app,
}) => {
  const { page } = app
  const created = await createWithdrawal(app, { pixKey: 'paga.pela.carteira@example.com', cents: 12_345 })
  expect(created.depositAddress).toMatch(/^lq1/)
  // The treasury pays the exact deposit (an external wallet would; issue #28 builds it in the app).
  const txid = await payFromSandboxTreasury(
    app.sandbox,
    created.depositAddress as string,
    BigInt(created.depositAmountCents as number) * 1_000_000n,
  )
  app.sandbox.control.advanceClock(61) // a block confirms it; the service sees it on its chain
  app.sandbox.liquid.mineDue()
  const seen = await rpc(app, 'withdrawals:refresh', { localId: created.localId })
  expect(seen.remoteStatus).toBe('sending')
  expect(app.bridge.calls.filter((c) => c.channel === 'withdrawals:markFunded')).toHaveLength(0)

  await openNav(page, /^Pagamentos$/)
  await page.locator(`tbody tr[data-local-id="${created.localId}"]`).click()
  await expect(page.getByTestId('payout-info')).toContainText(txid)

  // And in Caixa: the DePix left the treasury in that transaction.
  await nav(page, 'Caixa').click()
  await refreshUntil(
    page,
    'caixa-depix-confirmed',
    formatBRL(5_000_000 - (created.depositAmountCents as number)),
  )
  const row = page.getByTestId('caixa-movement').first()
  await expect(row).toContainText(txid.slice(0, 10))
  await expect(row.getByTestId('caixa-movement-meaning')).toHaveText('Pagamento (depósito enviado)')
  // The starting funding is nothing the ledger knows.
  await expect(page.getByTestId('caixa-movement').last().getByTestId('caixa-movement-meaning')).toHaveText(
    'Sem correspondência no livro-caixa',
  )

  // An unmatched movement gets a label: audited (who, when), shown with it; a refused one keeps the text typed.
  const funding = page.getByTestId('caixa-movement').last()
  await funding.getByRole('button', { name: 'Rotular' }).click()
  const field = funding.getByLabel('Rótulo desta movimentação')
  await field.fill('x'.repeat(10) + '\u202e')
  await funding.getByRole('button', { name: 'Guardar rótulo' }).click()
  await expect(funding.getByRole('alert')).toContainText('caracteres visíveis')
  await expect(field).toHaveValue('x'.repeat(10) + '\u202e')
  await field.fill('Aporte inicial dos sócios')
  await funding.getByRole('button', { name: 'Guardar rótulo' }).click()
  await expect(funding.getByTestId('caixa-movement-label')).toContainText('Aporte inicial dos sócios')
  await expect(funding.getByTestId('caixa-movement-label')).toContainText(
    /por e2e em \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/,
  )
  const audit = app.ctx.ledger.audit({ limit: 5 }).rows.find((e) => e.action === 'wallet.movement.labelled')
  expect(audit?.details['label']).toBe('Aporte inicial dos sócios')

  // A matched movement opens its record.
  await row.getByRole('button', { name: 'Abrir registro' }).click()
  await expect(page.getByTestId('payout-info')).toContainText(txid)
})

/** Pagamentos → the record → its funding page. */
async function openFunding(page: Page, localId: string): Promise<void> {
  await openNav(page, /^Pagamentos$/)
  await page.locator(`tbody tr[data-local-id="${localId}"]`).click()
  await page.getByTestId('funding-link').getByRole('button').click()
  await expect(page.locator(`.funding-page[data-local-id="${localId}"]`)).toBeVisible()
}

test('funding seen, not declared: the treasury pays → funded with its txid, no click; another wallet pays → manual mark', async ({
  app,
}) => {
  const { page } = app
  const paid = await createWithdrawal(app, { pixKey: 'vista.pela.carteira@example.com', cents: 23_456 })
  await openFunding(page, paid.localId)
  await expect(page.getByRole('button', { name: 'Marquei como enviado' })).toBeVisible()

  // The treasury pays the exact deposit, as Jade or Blockstream App would; the next scheduled scan sees it.
  const txid = await payFromSandboxTreasury(
    app.sandbox,
    paid.depositAddress as string,
    BigInt(paid.depositAmountCents as number) * 1_000_000n,
  )
  // The scheduled scan, on demand (at most one every 5 s: retried until one runs).
  const seen = page.getByTestId('funding-seen')
  await expect(async () => {
    await rpc(app, 'wallet:scan', {})
    await expect(seen).toContainText('Depósito enviado pela carteira da tesouraria', { timeout: 1_000 })
  }).toPass({ timeout: 20_000, intervals: [500, 1_000, 2_000] })
  await expect(seen.getByTestId('funding-seen-txid')).toHaveText(txid)
  await expect(seen).toContainText('Visto na rede, ainda a confirmar')
  await expect(page.getByRole('button', { name: 'Marquei como enviado' })).toHaveCount(0)
  expect(app.bridge.calls.filter((c) => c.channel === 'withdrawals:markFunded')).toHaveLength(0)
  expect(app.ctx.ledger.get(paid.localId)?.fundingTxId).toBe(txid)
  await expectNoSeriousAxeViolations(page)

  // Another wallet (the sandbox faucet) pays the second one: not the treasury's, so not seen and not in Caixa.
  const other = await createWithdrawal(app, { pixKey: 'outra.carteira@example.com', cents: 34_567 })
  const otherTx = app.sandbox.liquid.faucet.send([
    {
      address: regtestTwin(other.depositAddress as string),
      asset: SANDBOX_DEPIX,
      units: BigInt(other.depositAmountCents as number) * 1_000_000n,
    },
  ])
  // The person marks it sent by hand, as before.
  await openFunding(page, other.localId)
  await expect(page.getByTestId('funding-seen')).toHaveCount(0)
  await page.getByRole('button', { name: 'Marquei como enviado' }).click()
  await expect(page.getByTestId('marked-funded')).toContainText('Marcado como enviado em')
  expect(app.ctx.ledger.get(other.localId)?.fundedAt).not.toBeNull()

  app.sandbox.control.advanceClock(61)
  app.sandbox.liquid.mineDue()
  await nav(page, 'Caixa').click()
  await refreshUntil(
    page,
    'caixa-depix-confirmed',
    formatBRL(5_000_000 - (paid.depositAmountCents as number)),
  )
  await expect(page.getByTestId('caixa-movement').first()).toContainText(txid.slice(0, 10))
  await expect(page.getByTestId('caixa-movements')).not.toContainText(otherTx.slice(0, 10))
  // The wallet never attached a transaction to the payment it did not pay.
  expect(app.ctx.ledger.get(other.localId)?.fundingTxId).toBeNull()
})

test('a top-up arrives and a refund returns to the treasury: Caixa rises and each movement is matched', async ({
  app,
}) => {
  const { page } = app
  await nav(page, 'Caixa').click()
  await expect(page.getByTestId('caixa-depix-confirmed')).toHaveText('R$ 50.000,00')

  // A top-up ("Comprar DePix") delivered to an address proposed from the treasury wallet.
  const delivery = await rpc(app, 'wallet:proposeAddress', {})
  const topupDraft = { amountCents: 80_000, depixAddress: delivery!.address, endUserTaxNumber: '52998224725' }
  const q = await rpc(app, 'deposits:quote', { draft: topupDraft })
  const topup = await rpc(app, 'deposits:create', { draft: topupDraft, intentId: q.intent.id })
  app.sandbox.control.payDeposit(topup.remoteId as string)
  app.sandbox.control.advanceClock(120)
  app.sandbox.liquid.mineDue()
  const delivered = await rpc(app, 'deposits:refresh', { localId: topup.localId })
  const topupTx = delivered.blockchainTxId as string
  expect(topupTx).toMatch(/^[0-9a-f]{64}$/)

  // A payment whose refund address is the treasury's, funded from it; the Pix fails, the DePix comes back.
  const refundTo = await rpc(app, 'wallet:proposeAddress', {})
  const draft = {
    pixKey: 'chave.invalida@example.com',
    taxNumber: '11144477735',
    amount: { kind: 'payout' as const, cents: 30_000 },
    refundAddress: refundTo!.address,
  }
  const wq = await rpc(app, 'withdrawals:quote', { draft })
  const payment = await rpc(app, 'withdrawals:create', {
    draft,
    intentId: wq.intent.id,
    confirmedDuplicates: wq.duplicates.map((d) => d.localId),
  })
  await payFromSandboxTreasury(
    app.sandbox,
    payment.depositAddress as string,
    BigInt(payment.depositAmountCents as number) * 1_000_000n,
  )
  app.sandbox.control.advanceClock(61)
  app.sandbox.liquid.mineDue()
  expect((await rpc(app, 'withdrawals:refresh', { localId: payment.localId })).remoteStatus).toBe('sending')
  app.sandbox.control.settlePayout(payment.remoteId as string, 'invalid_pix_key')
  app.sandbox.control.advanceClock(61)
  app.sandbox.liquid.mineDue()
  const refunded = await rpc(app, 'withdrawals:refresh', { localId: payment.localId })
  const refundTx = (refunded.refund as { txId?: string } | null)?.txId as string
  expect(refundTx).toMatch(/^[0-9a-f]{64}$/)

  // Caixa: the balance the wallet reads, higher than before the top-up's R$ 800,00 less the payment's deposit.
  let confirmedCents = 0
  await expect(async () => {
    await page.getByTestId('caixa-refresh').click()
    const v = await rpc(app, 'wallet:get', {})
    if (v.state !== 'ready') throw new Error('no wallet')
    expect(v.movements.find((m) => m.txid === refundTx)?.height ?? null).not.toBeNull()
    confirmedCents = v.depix.confirmedCents
    await expect(page.getByTestId('caixa-depix-confirmed')).toHaveText(formatBRL(confirmedCents), {
      timeout: 1_000,
    })
  }).toPass({ timeout: 30_000, intervals: [500, 1_000, 2_000] })
  expect(confirmedCents).toBeGreaterThan(5_000_000 + 80_000 - (payment.depositAmountCents as number))
  const row = (txid: string) => page.getByTestId('caixa-movement').filter({ hasText: txid.slice(0, 10) })
  await expect(row(topupTx).getByTestId('caixa-movement-meaning')).toHaveText('Compra de DePix recebida')
  await expect(row(refundTx).getByTestId('caixa-movement-meaning')).toHaveText('Devolução recebida')
  await expectNoSeriousAxeViolations(page)
})

test('Esplora down, then answering garbage: Caixa keeps the last-known balance and says since when; back, it reads again', async ({
  app,
}) => {
  const { page } = app
  await nav(page, 'Caixa').click()
  await expect(page.getByTestId('caixa-depix-confirmed')).toHaveText('R$ 50.000,00')
  await expect(page.getByTestId('wallet-age')).toContainText('Última leitura da rede:')
  // R$ 100,00 arrive and confirm while the treasury's Esplora is down: nothing new can be read.
  app.sandbox.liquid.faucet.send([
    { address: sandboxTreasury().firstAddress, asset: SANDBOX_DEPIX, units: 10_000_000_000n },
  ])
  app.sandbox.control.advanceClock(61)
  app.sandbox.liquid.mineDue()
  app.sandbox.liquid.esploraFault = { kind: 'down' }
  const stale = page.getByTestId('wallet-stale')
  await expect(async () => {
    await page.getByTestId('caixa-refresh').click()
    await expect(stale).toContainText('servidor fora do ar ou sem conexão', { timeout: 1_000 })
  }).toPass({ timeout: 20_000, intervals: [500, 1_000, 2_000] })
  await expect(stale).toContainText(
    /O saldo mostrado é o último conhecido, de \d{2}\/\d{2}\/\d{4} \d{2}:\d{2}/,
  )
  await expect(page.getByTestId('caixa-depix-confirmed')).toHaveText('R$ 50.000,00')
  await expect(page.getByTestId('wallet-age')).toHaveCount(0)

  app.sandbox.liquid.esploraFault = { kind: 'garbage' }
  await expect(async () => {
    await page.getByTestId('caixa-refresh').click()
    await expect(stale).toContainText('resposta inválida do servidor', { timeout: 1_000 })
  }).toPass({ timeout: 20_000, intervals: [500, 1_000, 2_000] })
  await expect(page.getByTestId('caixa-depix-confirmed')).toHaveText('R$ 50.000,00')
  await expectNoSeriousAxeViolations(page)

  app.sandbox.liquid.esploraFault = null
  await refreshUntil(page, 'caixa-depix-confirmed', 'R$ 50.100,00')
  await expect(stale).toHaveCount(0)
  await expect(page.getByTestId('wallet-age')).toContainText('Última leitura da rede:')
})
