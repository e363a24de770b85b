/**
 * Four-eyes approval and the team status in the renderer (issue #16). Main's team handlers are not merged yet:
 * the real app context sits behind the scripted stand-in of test/e2e/support/approvals-standin.ts (team
 * channels in memory, every other channel real, sending = a real create). The integrator points this spec at
 * the real main on a team-ledger profile once t16core lands.
 */
import type { Page } from '@playwright/test'
import { expect, test, type TestApp } from '../support/app-fixture'
import { approvalsStandIn, type ApprovalsStandIn } from '../support/approvals-standin'
import { cpf, expectNoSeriousAxe, REFUND_ADDRESS, rpc } from './records-helpers'
import { foreignWords } from './rendered-language'
import { fillForm, refundAddressFor } from './withdrawal-steps'

const ME = 'bruno'
const LIMIT_CENTS = 100_000 // R$ 1.000,00

function draft(
  pixKey: string,
  cents: number,
): {
  pixKey: string
  taxNumber: string
  amount: { kind: 'payout'; cents: number }
  refundAddress: string
} {
  return {
    pixKey,
    taxNumber: cpf('529982247'),
    amount: { kind: 'payout', cents },
    refundAddress: REFUND_ADDRESS,
  }
}

/** The real app behind the stand-in; the page reloads so it reads the team status afresh. */
async function onTeam(app: TestApp): Promise<ApprovalsStandIn> {
  const team = approvalsStandIn(app.ctx.router, (e, p) => app.bridge.emit(e, p), {
    identity: ME,
    approvalAboveCents: LIMIT_CENTS,
  })
  app.bridge.rebind(team.router)
  await app.page.reload()
  await expect(app.page.getByTestId('team-status')).toBeVisible()
  return team
}

async function openApprovals(page: Page): Promise<void> {
  await page.getByTestId('nav-approvals').click()
  await expect(page.getByRole('heading', { level: 2, name: /Aprovações|Approvals/ })).toBeVisible()
}

function card(page: Page, pixKey: string): ReturnType<Page['locator']> {
  return page.getByTestId('approval-card').filter({ hasText: pixKey })
}

async function expectPtBR(page: Page): Promise<void> {
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
}

test.describe('on this computer’s ledger', () => {
  test('no Aprovações entry and no team line when main says nothing of a team', async ({ app }) => {
    const { page } = app
    await expect(page.getByTestId('nav-newWithdrawal')).toBeVisible()
    await expect(page.getByTestId('nav-approvals')).toHaveCount(0)
    await expect(page.getByTestId('team-status')).toHaveCount(0)
  })
})

test.describe('team ledger', () => {
  test('above the limit the review asks for approval; my request waits without decide buttons', async ({
    app,
  }) => {
    const { page } = app
    const team = await onTeam(app)
    await expect(page.getByTestId('team-status')).toHaveText('Livro-caixa da equipe — conectado como bruno')
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'connected')
    await expect(page.getByTestId('nav-approvals')).toBeVisible()
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)

    // Below the limit: the ordinary create.
    await page.getByTestId('nav-newWithdrawal').click()
    const refund = refundAddressFor(app)
    await fillForm(page, {
      pixKey: 'pequeno@example.com',
      taxNumber: cpf('529982247'),
      kind: 'payout',
      amountDigits: '50000',
      refundAddress: refund,
    })
    await page.getByRole('button', { name: 'Revisar' }).click()
    await expect(page.getByRole('button', { name: /Criar pagamento no perfil/ })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Pedir aprovação' })).toHaveCount(0)
    await expect(page.getByTestId('approval-needed')).toHaveCount(0)
    await page.getByRole('button', { name: 'Voltar' }).click()

    // Above it: "Pedir aprovação", why, and a note for the approver.
    const amount = page.locator('#amountCents')
    await amount.fill('')
    await amount.pressSequentially('250000')
    await page.getByLabel('Chave Pix', { exact: true }).fill('fornecedor@example.com')
    await page.getByRole('button', { name: 'Revisar' }).click()
    await expect(page.getByRole('button', { name: 'Pedir aprovação' })).toBeVisible()
    await expect(page.getByRole('button', { name: /Criar pagamento/ })).toHaveCount(0)
    await expect(page.getByTestId('approval-needed')).toContainText(
      'A equipe exige a aprovação de outro analista para pagamentos acima de R$ 1.000,00',
    )
    await page.getByLabel('Observação para o aprovador (opcional)').fill('NF 123, vencimento hoje')
    await expectPtBR(page)
    await expectNoSeriousAxe(page)
    await app.screenshot('approvals-review-pt-BR')
    await page.getByRole('button', { name: 'Pedir aprovação' }).click()

    // The result says who acts next; nothing was created at the service.
    const done = page.getByTestId('approval-requested')
    await expect(done).toContainText('Aprovação pedida')
    await expect(done).toContainText('R$ 2.500,00')
    await expect(page.getByTestId('approval-next')).toContainText(
      'outro analista da equipe (não bruno) aprova ou recusa',
    )
    const quoted = app.bridge.calls.filter((c) => c.channel === 'withdrawals:quote').at(-1)
    const quoteIntent = (quoted?.result as { data: { intent: { id: string } } }).data.intent.id
    const asked = team.calls.find((c) => c.channel === 'approvals:request')?.input as {
      draft: { pixKey: string; amount: { cents: number } }
      intentId: string
      note: string
    }
    expect(asked.intentId).toBe(quoteIntent)
    expect(asked.draft.pixKey).toBe('fornecedor@example.com')
    expect(asked.draft.amount.cents).toBe(250_000)
    expect(asked.note).toBe('NF 123, vencimento hoje')
    expect(app.bridge.calls.some((c) => c.channel === 'withdrawals:create')).toBe(false)
    expect((await rpc(app, 'withdrawals:list', {})).total).toBe(0)

    // The queue: mine waits for someone else; no Aprovar/Recusar; the badge counts nothing for me.
    await page.getByRole('button', { name: 'Ver Aprovações' }).click()
    const mine = card(page, 'fornecedor@example.com')
    await expect(mine).toContainText('Aguardando aprovação de outro analista')
    await expect(mine).toContainText('bruno (você)')
    await expect(mine).toContainText('NF 123, vencimento hoje')
    await expect(mine).toContainText('529.982.247-25')
    await expect(mine.getByRole('button', { name: 'Aprovar' })).toHaveCount(0)
    await expect(mine.getByRole('button', { name: 'Recusar' })).toHaveCount(0)
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    await expectPtBR(page)
    await expectNoSeriousAxe(page)

    // Someone else rejects it: a banner, and the reason on the card.
    const id = (await rpcList(team))[0]!.id
    await team.decideAs('ana', id, 'rejected', 'Falta a nota fiscal')
    await expect(page.getByTestId('approval-toast')).toContainText('ana recusou o pagamento de R$ 2.500,00')
    await expect(mine).toContainText('Recusado')
    await expect(mine).toContainText('Motivo da recusa')
    await expect(mine.getByTestId('approval-decision-note')).toHaveText('Falta a nota fiscal')
  })

  test('another analyst’s request: banner, badge, approve with amount and key shown, send opens the payment', async ({
    app,
  }) => {
    const { page } = app
    const team = await onTeam(app)
    await team.requestFrom('ana', draft('aluguel@example.com', 320_000), 'Aluguel de novembro')
    await expect(page.getByTestId('approval-toast')).toContainText(
      'ana pediu aprovação de um pagamento de R$ 3.200,00 para aluguel@example.com.',
    )
    await expect(page.getByTestId('approvals-badge')).toContainText('1')
    await page.getByTestId('approval-toast').getByRole('button', { name: 'Abrir Aprovações' }).click()
    await expect(page.getByTestId('approval-toast')).toHaveCount(0)

    const item = card(page, 'aluguel@example.com')
    await expect(item).toContainText('Aguardando aprovação')
    await expect(item).toContainText('ana')
    await item.getByRole('button', { name: 'Aprovar' }).click()
    const dialog = page.getByTestId('decide-dialog')
    await expect(dialog).toContainText('Aprovar este pagamento?')
    await expect(dialog.getByTestId('approval-amount')).toHaveText('R$ 3.200,00')
    await expect(dialog.getByTestId('approval-pix-key')).toHaveText('aluguel@example.com')
    await expectNoSeriousAxe(page)
    await dialog.getByRole('button', { name: 'Aprovar pagamento' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(item).toContainText('Aprovado')
    // My own approval raises no banner here.
    await expect(page.getByTestId('approval-toast')).toHaveCount(0)
    const approved = team.calls.find((c) => c.channel === 'approvals:approve')?.input as {
      id: string
      note?: string
    }
    expect(approved.note).toBeUndefined()
    await expect(page.getByTestId('approvals-badge')).toContainText('1')

    await item.getByRole('button', { name: 'Enviar pagamento aprovado' }).click()
    await expect(page.locator('#detail-title')).toContainText('R$ 3.200,00')
    const list = await rpc(app, 'withdrawals:list', {})
    expect(list.total).toBe(1)
    expect(list.rows[0]!.pixKey).toBe('aluguel@example.com')
    await expect(page.locator('[data-local-id]')).toHaveAttribute('data-local-id', list.rows[0]!.localId)
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    expect(team.calls.filter((c) => c.channel === 'approvals:send')).toHaveLength(1)
  })

  test('rejecting needs a reason; the reason is kept', async ({ app }) => {
    const { page } = app
    const team = await onTeam(app)
    await team.requestFrom('ana', draft('consultoria@example.com', 150_000))
    await openApprovals(page)
    const item = card(page, 'consultoria@example.com')
    await item.getByRole('button', { name: 'Recusar' }).click()
    const dialog = page.getByTestId('decide-dialog')
    await expect(dialog.getByTestId('approval-amount')).toHaveText('R$ 1.500,00')
    await expect(dialog.getByTestId('approval-pix-key')).toHaveText('consultoria@example.com')
    // Blank and spaces-only are both "no reason": nothing reaches main.
    await dialog.getByRole('button', { name: 'Recusar pagamento' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('Escreva o motivo da recusa.')
    await dialog.getByLabel('Motivo da recusa (obrigatório)').fill('   ')
    await dialog.getByRole('button', { name: 'Recusar pagamento' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('Escreva o motivo da recusa.')
    expect(team.calls.filter((c) => c.channel === 'approvals:reject')).toHaveLength(0)
    await expectNoSeriousAxe(page)

    await dialog.getByLabel('Motivo da recusa (obrigatório)').fill('  Valor acima do contrato ')
    await dialog.getByRole('button', { name: 'Recusar pagamento' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(item).toContainText('Recusado')
    await expect(item.getByTestId('approval-decision-note')).toHaveText('Valor acima do contrato')
    await expect(item.getByRole('button')).toHaveCount(0)
    expect(team.calls.find((c) => c.channel === 'approvals:reject')?.input).toMatchObject({
      note: 'Valor acima do contrato',
    })
    await expectPtBR(page)
  })

  test('the limit was lowered after the review: the create is refused, the fresh review asks for approval', async ({
    app,
  }) => {
    const { page } = app
    const team = await onTeam(app)
    await page.getByTestId('nav-newWithdrawal').click()
    await fillForm(page, {
      pixKey: 'limite@example.com',
      taxNumber: cpf('529982247'),
      kind: 'payout',
      amountDigits: '50000',
      refundAddress: refundAddressFor(app),
    })
    await page.getByRole('button', { name: 'Revisar' }).click()
    await expect(page.getByRole('button', { name: /Criar pagamento no perfil/ })).toBeVisible()
    await team.setStatus({ approvalAboveCents: 10_000 })
    await page.getByRole('button', { name: /Criar pagamento no perfil/ }).click()
    await expect(page.getByRole('button', { name: 'Pedir aprovação' })).toBeVisible()
    await expect(page.getByTestId('approval-needed')).toContainText('acima de R$ 100,00')
    await expect(
      page.getByRole('alert').filter({ hasText: 'precisa da aprovação de outro analista' }),
    ).toBeVisible()
    await expectPtBR(page)
    expect((await rpc(app, 'withdrawals:list', {})).total).toBe(0)
  })

  test('notes are shown as typed, never as markup', async ({ app }) => {
    const { page } = app
    const team = await onTeam(app)
    await team.requestFrom(
      'ana',
      draft('markup@example.com', 150_000),
      '<img src=x onerror="window.pwned=1"><b>NF</b>',
    )
    await openApprovals(page)
    const item = card(page, 'markup@example.com')
    await expect(item).toContainText('<img src=x onerror="window.pwned=1"><b>NF</b>')
    await expect(item.locator('img, b')).toHaveCount(0)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()
  })

  test('a refusal from main shows its pt-BR sentence; the raw code only under Detalhes técnicos', async ({
    app,
  }) => {
    const { page } = app
    const team = await onTeam(app)
    await team.requestFrom('ana', draft('energia@example.com', 180_000))
    await openApprovals(page)
    team.refuseNext('approvals:approve', 'approval_decided')
    await card(page, 'energia@example.com').getByRole('button', { name: 'Aprovar' }).click()
    const dialog = page.getByTestId('decide-dialog')
    await dialog.getByRole('button', { name: 'Aprovar pagamento' }).click()
    const error = dialog.getByTestId('approval-error')
    await expect(error).toContainText('Outro analista já decidiu este pedido. A fila foi atualizada.')
    await expect(error.getByTestId('approval-error-details')).toContainText('approval_decided')
    await expect(error.getByTestId('approval-error-details').locator('code')).toBeHidden()
    await expectPtBR(page)
    // The queue was asked again after a "decided elsewhere" refusal.
    expect(team.calls.filter((c) => c.channel === 'approvals:list').length).toBeGreaterThanOrEqual(2)
    await dialog.getByRole('button', { name: 'Voltar' }).click()

    team.refuseNext('approvals:list', 'unavailable')
    await page.getByTestId('nav-newWithdrawal').click()
    await openApprovals(page)
    await expect(page.getByTestId('approval-error')).toContainText(
      'O livro-caixa da equipe está fora de alcance agora',
    )

    // Lost connection: amber "desconectado"; the leader line when this desk tracks the statuses.
    await team.setStatus({ connected: false })
    await expect(page.getByTestId('team-status')).toHaveText('Livro-caixa da equipe — desconectado')
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'disconnected')
    await team.setStatus({ connected: true, leader: true })
    await expect(page.getByTestId('team-status')).toContainText(
      'conectado como bruno · este computador acompanha as situações dos pagamentos',
    )
    await app.screenshot('approvals-queue-pt-BR')
  })
})

test.describe('in English', () => {
  test.use({
    appOptions: { language: 'en', sandbox: {}, beforeOpen: null, trackerAutoStart: true, startPage: 'today' },
  })

  test('the queue, the dialog and the team line speak English only', async ({ app }) => {
    const { page } = app
    const team = await onTeam(app)
    await team.requestFrom('ana', draft('rent@example.com', 320_000), 'November')
    await openApprovals(page)
    await expect(page.getByTestId('team-status')).toHaveText('Team ledger — connected as bruno')
    const item = card(page, 'rent@example.com')
    await expect(item).toContainText('Awaiting approval')
    await expect(item).toContainText('R$3,200.00')
    await expect(page.getByTestId('approval-toast')).toContainText('ana requested approval')
    expect(await foreignWords(page, 'en')).toEqual([])
    await item.getByRole('button', { name: 'Reject' }).click()
    await expect(page.getByTestId('decide-dialog')).toContainText('Reject this withdrawal?')
    expect(await foreignWords(page, 'en')).toEqual([])
    await expectNoSeriousAxe(page)
    await app.screenshot('approvals-reject-en')
  })
})

/** The stand-in's queue as main would list it (for ids the page does not show). */
async function rpcList(team: ApprovalsStandIn): Promise<Array<{ id: string }>> {
  const r = await team.router.handle('approvals:list', undefined)
  if (!r.ok) throw new Error(JSON.stringify(r.error))
  return r.data as Array<{ id: string }>
}
