/**
 * What the screens suite (screens.spec.ts) seeds on the desk: paid, refunded, awaiting and payee-mismatch payments,
 * a run in review (one row's refund address not the profile's default), a run with its first wave created, a top-up
 * waiting for its Pix and one the service refused.
 */
import { expect, type TestApp } from '../support/app-fixture'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { addLiveProfile, cpf, createWithdrawal, fundAndSettle, REFUND_ADDRESS, rpc } from './records-helpers'
import { CPF, refundAddressFor } from './withdrawal-steps'

export interface Seeded {
  paid: WithdrawalRecord
  refunded: WithdrawalRecord
  awaiting: WithdrawalRecord
  /** Paid to a holder other than the book's entry: "Favorecido diferente do cadastro". */
  mismatch: WithdrawalRecord
  /** A spreadsheet imported as a run, in review. */
  runId: string
  /** A run approved and its first wave created: its payments are in Pagamentos with their Lote. */
  waveRunId: string
  /** A top-up (Comprar DePix) waiting for its Pix, and one the service refused (no payer identified). */
  topUp: string
  refusedTopUp: string
}

export const WAVE_RUN = 'folha-novembro.csv'

export async function seed(app: TestApp): Promise<Seeded> {
  const paid = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'fornecedor@example.com', cents: 123_456 }),
    'sent',
  )
  const refunded = await fundAndSettle(
    app,
    await createWithdrawal(app, { pixKey: 'chave.errada@example.com', cents: 15_000 }),
    'invalid_pix_key',
  )
  const awaiting = await createWithdrawal(app, { pixKey: 'aguardando@example.com', cents: 98_765 })
  // The payee book has someone to show.
  const payee = await rpc(app, 'payees:create', {
    name: 'Fornecedora Exemplo Ltda',
    taxNumber: '11.222.333/0001-81',
    pixKeys: [{ key: 'fornecedor@example.com' }, { key: '+5561988887777' }],
    notes: 'Vencimento dia 10',
  })
  // Paid from the book, but the service reports another holder of the key.
  const draft = {
    pixKey: '+5561988887777',
    taxNumber: '11.222.333/0001-81',
    amount: { kind: 'payout' as const, cents: 456_789 },
    refundAddress: REFUND_ADDRESS,
    references: { invoice: 'NF-e 4471', costCentre: 'ADM-01', category: 'Serviços' },
    payeeId: payee.id,
  }
  const quote = await rpc(app, 'withdrawals:quote', { draft })
  const created = await rpc(app, 'withdrawals:create', {
    draft,
    intentId: quote.intent.id,
    confirmedDuplicates: quote.duplicates.map((d) => d.localId),
  })
  const mismatch = await fundAndSettle(app, created, 'sent')
  // A run in review: names, CPF/CNPJ, R$ and the references of three lines; the second returns its deposit to an
  // address that is not the profile's default refund address (marked in the review).
  await rpc(app, 'profiles:setDefaultRefundAddress', { address: REFUND_ADDRESS })
  const lines = [
    'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Categoria;Centro de custo;Endereço de devolução',
    `Papelaria Central Ltda;papelaria@example.com;${cpf('529982247')};150,00;Materiais;ADM-01;${REFUND_ADDRESS}`,
    `Transportes Rápidos;(11) 98765-4321;${cpf('111444777')};1.250,00;Frete;OPS-02;${refundAddressFor(app)}`,
    `Limpeza Total;limpeza@example.com;${cpf('123456789')};980,40;Serviços;ADM-01;${REFUND_ADDRESS}`,
  ]
  const contentBase64 = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8').toString('base64')
  const run = await rpc(app, 'runs:import', { name: 'folha-dezembro.csv', contentBase64 })
  expect(run.issues).toEqual([])
  // A run whose first wave is created: two payments with their NF and centro de custo, waiting for the deposit.
  const waveLines = [
    'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Nota fiscal;Centro de custo;Endereço de devolução',
    `Gráfica Aurora Ltda;grafica@example.com;${cpf('529982247')};2.340,00;NF-e 10293;MKT-03;${REFUND_ADDRESS}`,
    `Consultoria Horizonte;horizonte@example.com;${cpf('111444777')};5.600,00;NF-e 88;ADM-01;${REFUND_ADDRESS}`,
  ]
  const waveRun = await rpc(app, 'runs:import', {
    name: WAVE_RUN,
    contentBase64: Buffer.from(`\uFEFF${waveLines.join('\r\n')}\r\n`, 'utf8').toString('base64'),
  })
  expect(waveRun.issues).toEqual([])
  const waveRunId = waveRun.runId!
  await rpc(app, 'runs:approve', { runId: waveRunId, confirmPayoutCents: 794_000 })
  await rpc(app, 'runs:startWave', { runId: waveRunId })
  await expect
    .poll(async () => (await rpc(app, 'runs:get', { runId: waveRunId })).run.state, { timeout: 60_000 })
    .toBe('awaiting_funding')
  // Top-ups: one waiting for the company's Pix (its QR), one refused by the service for lack of the payer's
  // CPF/CNPJ (its reason in words).
  const topUpDraft = { amountCents: 250_000, depixAddress: REFUND_ADDRESS, endUserTaxNumber: CPF }
  const topUpQuote = await rpc(app, 'deposits:quote', { draft: topUpDraft })
  const topUp = await rpc(app, 'deposits:create', { draft: topUpDraft, intentId: topUpQuote.intent.id })
  const refusedDraft = { amountCents: 30_000, depixAddress: REFUND_ADDRESS }
  const refusedQuote = await rpc(app, 'deposits:quote', { draft: refusedDraft })
  // The refusal is an answer, not a failure of the call: the record is kept, refused, with the service's code.
  await app.ctx.router.handle('deposits:create', { draft: refusedDraft, intentId: refusedQuote.intent.id })
  const refused = app.ctx.ledger.deposits.query({}).rows.find((d) => d.localState === 'rejected')
  if (!refused) throw new Error('the refused top-up was not recorded')
  return {
    paid,
    refunded,
    awaiting,
    mismatch,
    runId: run.runId!,
    waveRunId,
    topUp: topUp.localId,
    refusedTopUp: refused.localId,
  }
}

/**
 * The desk switched to a live profile (the sandbox stands in for the live API, as in today-desk.spec.ts) with a
 * confirmation limit of R$ 50,00: a payment above it asks for its amount typed again.
 */
export async function seedLive(app: TestApp): Promise<void> {
  const { page } = app
  const live = await addLiveProfile(app)
  await app.bridge.emit('profile:changed', null)
  await page.getByTestId('profile-switcher').selectOption(live.id)
  await expect(page.getByTestId('live-banner')).toBeVisible()
  await rpc(app, 'session:signIn')
  await rpc(app, 'settings:update', { liveConfirmAboveCents: 5_000 })
}
