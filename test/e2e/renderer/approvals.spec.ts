/**
 * Four-eyes approval and the team status in the renderer (issue #16), on the real main: a throwaway PostgreSQL
 * cluster, one embedded sandbox, and two app contexts on them as two analysts (test/e2e/support/team-desks.ts).
 * The page is desk A (bruno); desk B (ana) is driven through its IPC router, as a colleague at another computer.
 * Live changes reach the page through LISTEN/NOTIFY → main's `approval:changed`; every POST /withdraw is counted
 * at the sandbox.
 */
import type { Page } from '@playwright/test'
import type { ApprovalView } from '../../../src/shared/channels-team'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { test as plain } from '../support/app-fixture'
import { DESK_A, DESK_B, expect, postsAt, statusOf, test, type Colleague } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { cpf, expectNoSeriousAxe, REFUND_ADDRESS, rpc } from './records-helpers'
import { foreignWords } from './rendered-language'
import { fillForm, refundAddressFor } from './withdrawal-steps'

const draft = (pixKey: string, cents: number) =>
  ({
    pixKey,
    taxNumber: cpf('529982247'),
    amount: { kind: 'payout', cents },
    refundAddress: REFUND_ADDRESS,
  }) as const

async function openApprovals(page: Page): Promise<void> {
  await page.getByTestId('nav-approvals').click()
  await expect(page.getByRole('heading', { level: 2, name: /Aprovações|Approvals/ })).toBeVisible()
}

const card = (page: Page, pixKey: string): ReturnType<Page['locator']> =>
  page.getByTestId('approval-card').filter({ hasText: pixKey })

async function expectPtBR(page: Page): Promise<void> {
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
}

/** Desk B's queue as its main lists it. */
const queueOf = async (b: Colleague): Promise<ApprovalView[]> => b.ok<ApprovalView[]>('approvals:list')

plain.describe('on this computer’s ledger', () => {
  plain('no Aprovações entry and no team line when the profile has no team ledger', async ({ app }) => {
    const { page } = app
    await expect(page.getByTestId('nav-newWithdrawal')).toBeVisible()
    await expect(page.getByTestId('nav-approvals')).toHaveCount(0)
    await expect(page.getByTestId('team-status')).toHaveCount(0)
  })
})

test.describe('team ledger, two desks', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  test('above the limit: "Pedir aprovação", nothing POSTed; my request has no decide buttons; approved elsewhere; sent elsewhere', async ({
    app,
    colleague,
  }) => {
    const { page } = app
    // Desk A opened first: it leads the tracking, and says so; desk B follows.
    await expect(page.getByTestId('team-status')).toHaveText(
      `Livro-caixa da equipe — conectado como ${DESK_A} · este computador acompanha as situações dos pagamentos`,
    )
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader')
    expect(await statusOf(colleague.ctx)).toMatchObject({ identity: DESK_B, leader: false, connected: true })
    await expect(page.getByTestId('nav-approvals')).toBeVisible()
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    const posts0 = postsAt(app)

    // Below the limit: the ordinary create is offered.
    await fillForm(page, {
      pixKey: 'pequeno@example.com',
      taxNumber: cpf('529982247'),
      kind: 'payout',
      amountDigits: '50000',
      refundAddress: refundAddressFor(app),
    })
    await page.getByRole('button', { name: 'Revisar' }).click()
    await expect(page.getByRole('button', { name: /Criar pagamento no perfil/ })).toBeVisible()
    await expect(page.getByRole('button', { name: 'Pedir aprovação' })).toHaveCount(0)
    await page.getByRole('button', { name: 'Voltar' }).click()

    // Above it: "Pedir aprovação", why (the team's limit as main reads it), a note for the approver.
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
    await page.getByRole('button', { name: 'Pedir aprovação' }).click()
    await expect(page.getByTestId('approval-requested')).toContainText('R$ 2.500,00')
    await expect(page.getByTestId('approval-next')).toContainText(`outro analista da equipe (não ${DESK_A})`)
    // Nothing reached the service; nothing is in the ledger; the request is on the server for desk B.
    expect(postsAt(app)).toBe(posts0)
    expect(app.bridge.calls.some((c) => c.channel === 'withdrawals:create')).toBe(false)
    expect((await rpc(app, 'withdrawals:list', {})).total).toBe(0)
    const asked = (await queueOf(colleague)).find((a) => a.pixKey === 'fornecedor@example.com')
    expect(asked).toMatchObject({ state: 'pending', requestedBy: DESK_A, mine: false, amountCents: 250_000 })
    expect(asked?.note).toBe('NF 123, vencimento hoje')

    // My own request: it waits for someone else, no Aprovar/Recusar, the badge counts nothing for me.
    await page.getByRole('button', { name: 'Ver Aprovações' }).click()
    const mine = card(page, 'fornecedor@example.com')
    await expect(mine).toContainText('Aguardando aprovação de outro analista')
    await expect(mine).toContainText(`${DESK_A} (você)`)
    await expect(mine).toContainText('529.982.247-25')
    await expect(mine.getByRole('button', { name: 'Aprovar' })).toHaveCount(0)
    await expect(mine.getByRole('button', { name: 'Recusar' })).toHaveCount(0)
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    // Forcing the call past the missing button: main (the database) refuses, in pt-BR.
    const forced = (await page.evaluate(
      (id) =>
        (
          window as unknown as { treasury: { invoke: (c: string, i: unknown) => Promise<unknown> } }
        ).treasury.invoke('approvals:approve', { id }),
      asked!.id,
    )) as { ok: boolean; error: { code: string; userMessage: { 'pt-BR': string } } }
    expect(forced).toMatchObject({ ok: false, error: { code: 'approval_self' } })
    expect(forced.error.userMessage['pt-BR']).toMatch(/outro analista/)
    await expectPtBR(page)
    await expectNoSeriousAxe(page)

    // Desk B approves through its router: the page hears it live (LISTEN/NOTIFY), banner and badge.
    await colleague.ok('approvals:approve', { id: asked!.id })
    await expect(page.getByTestId('approval-toast')).toContainText(
      `${DESK_B} aprovou o pagamento de R$ 2.500,00 para fornecedor@example.com`,
    )
    await expect(mine).toContainText('Aprovado')
    await expect(page.getByTestId('approvals-badge')).toContainText('1')
    expect(postsAt(app)).toBe(posts0)

    // Desk B sends it (one POST). No approval event follows a send, but the payment's record reaches this desk
    // (LISTEN/NOTIFY): the card leaves the queue live, and the badge with it.
    const sent = await colleague.ok<WithdrawalRecord>('approvals:send', { id: asked!.id })
    expect(sent.localId).toBe(asked!.localId)
    expect(postsAt(app)).toBe(posts0 + 1)
    await expect(mine).toHaveCount(0)
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    // A send forced past the missing card: main refuses it, in pt-BR; nothing more is POSTed.
    const again = (await page.evaluate(
      (id) =>
        (
          window as unknown as { treasury: { invoke: (c: string, i: unknown) => Promise<unknown> } }
        ).treasury.invoke('approvals:send', { id }),
      asked!.id,
    )) as { ok: boolean; error: { code: string; userMessage: { 'pt-BR': string } } }
    expect(again).toMatchObject({ ok: false, error: { code: 'approval_not_sendable' } })
    expect(again.error.userMessage['pt-BR']).toBe(
      'Este pagamento aprovado já foi enviado; ele não é enviado de novo.',
    )
    await expectPtBR(page)
    expect(postsAt(app)).toBe(posts0 + 1)
  })

  test('desk B’s request: banner and badge live, approved here through the dialog, sent once, detail page of the record', async ({
    app,
    colleague,
  }) => {
    const { page } = app
    await expect(page.getByTestId('team-status')).toBeVisible()
    const posts0 = postsAt(app)
    const asked = await colleague.request(draft('aluguel@example.com', 320_000), 'Aluguel de novembro')
    await expect(page.getByTestId('approval-toast')).toContainText(
      `${DESK_B} pediu aprovação de um pagamento de R$ 3.200,00 para aluguel@example.com.`,
    )
    await expect(page.getByTestId('approvals-badge')).toContainText('1')
    await page.getByTestId('approval-toast').getByRole('button', { name: 'Abrir Aprovações' }).click()
    await expect(page.getByTestId('approval-toast')).toHaveCount(0)

    const item = card(page, 'aluguel@example.com')
    await expect(item).toContainText('Aguardando aprovação')
    await expect(item).toContainText('Aluguel de novembro')
    await item.getByRole('button', { name: 'Aprovar' }).click()
    const dialog = page.getByTestId('decide-dialog')
    await expect(dialog).toContainText('Aprovar este pagamento?')
    await expect(dialog.getByTestId('approval-amount')).toHaveText('R$ 3.200,00')
    await expect(dialog.getByTestId('approval-pix-key')).toHaveText('aluguel@example.com')
    // Where a failed payout returns the deposit (issue #24): labelled, whole, in the approver's view.
    const refund = dialog.getByTestId('approval-refund-address')
    await expect(dialog).toContainText('Endereço de devolução')
    expect((await refund.locator('code').innerText()).replace(/\s+/g, '')).toBe(REFUND_ADDRESS)
    await expectNoSeriousAxe(page)
    await dialog.getByRole('button', { name: 'Aprovar pagamento' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(item).toContainText('Aprovado')
    // My own decision, echoed by the server, raises no banner here; desk B hears it.
    await expect(page.getByTestId('approval-toast')).toHaveCount(0)
    await expect
      .poll(() =>
        colleague.events.some(
          (e) => e.event === 'approval:changed' && (e.payload as ApprovalView).decidedBy === DESK_A,
        ),
      )
      .toBe(true)
    expect((await queueOf(colleague)).find((a) => a.id === asked.id)?.state).toBe('approved')
    expect(postsAt(app)).toBe(posts0)

    await item.getByRole('button', { name: 'Enviar pagamento aprovado' }).click()
    await expect(page.locator('#detail-title')).toContainText('R$ 3.200,00')
    await expect(page.locator('[data-local-id]')).toHaveAttribute('data-local-id', asked.localId)
    expect(postsAt(app)).toBe(posts0 + 1)
    // The real record, on both desks: the approval's local id, the stored body.
    const here = await rpc(app, 'withdrawals:list', {})
    expect(here.rows.map((r) => [r.localId, r.pixKey])).toEqual([[asked.localId, 'aluguel@example.com']])
    await expect
      .poll(
        async () => (await colleague.ok<{ rows: WithdrawalRecord[] }>('withdrawals:list', {})).rows.length,
      )
      .toBe(1)
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    // A second send, forced past the UI: refused by main, no POST.
    const again = await colleague.call('approvals:send', { id: asked.id })
    expect(again).toMatchObject({ ok: false, error: { code: 'approval_not_sendable' } })
    expect(postsAt(app)).toBe(posts0 + 1)
    await expectPtBR(page)
  })

  test('rejecting needs a reason; the requester’s desk gets the reason; notes are text, never markup', async ({
    app,
    colleague,
  }) => {
    const { page } = app
    const hostile = '<img src=x onerror="window.pwned=1"><b>NF</b>'
    const asked = await colleague.request(draft('consultoria@example.com', 150_000), hostile)
    await openApprovals(page)
    const item = card(page, 'consultoria@example.com')
    await expect(item).toContainText(hostile)
    await expect(item.locator('img, b')).toHaveCount(0)
    expect(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned)).toBeUndefined()

    await item.getByRole('button', { name: 'Recusar' }).click()
    const dialog = page.getByTestId('decide-dialog')
    await expect(dialog.getByTestId('approval-amount')).toHaveText('R$ 1.500,00')
    await expect(dialog.getByTestId('approval-pix-key')).toHaveText('consultoria@example.com')
    // Blank and spaces-only are both "no reason": nothing reaches main, the request stays pending.
    await dialog.getByRole('button', { name: 'Recusar pagamento' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('Escreva o motivo da recusa.')
    await dialog.getByLabel('Motivo da recusa (obrigatório)').fill('   ')
    await dialog.getByRole('button', { name: 'Recusar pagamento' }).click()
    await expect(dialog.getByRole('alert')).toHaveText('Escreva o motivo da recusa.')
    expect(app.bridge.calls.filter((c) => c.channel === 'approvals:reject')).toHaveLength(0)
    expect((await queueOf(colleague)).find((a) => a.id === asked.id)?.state).toBe('pending')
    await expectNoSeriousAxe(page)

    await dialog.getByLabel('Motivo da recusa (obrigatório)').fill('  Valor acima do contrato ')
    await dialog.getByRole('button', { name: 'Recusar pagamento' }).click()
    await expect(dialog).toHaveCount(0)
    await expect(item).toContainText('Recusado')
    await expect(item.getByTestId('approval-decision-note')).toHaveText('Valor acima do contrato')
    await expect(item.getByRole('button')).toHaveCount(0)
    await expectPtBR(page)
    // Desk B hears the decision with its reason; the rejected request can never be sent.
    await expect
      .poll(() => {
        const e = colleague.events.findLast((x) => x.event === 'approval:changed')?.payload as
          ApprovalView | undefined
        return e ? [e.state, e.decidedBy, e.decisionNote, e.mine] : null
      })
      .toEqual(['rejected', DESK_A, 'Valor acima do contrato', true])
    expect(await colleague.call('approvals:send', { id: asked.id })).toMatchObject({
      ok: false,
      error: { code: 'approval_not_sendable' },
    })
  })

  test('the connection refused: the amber line says desconectado and why, in the connection test’s words', async ({
    app,
    team,
  }) => {
    const { page } = app
    await expect(page.getByTestId('team-status')).toHaveAttribute('data-state', 'leader')
    // The owner changes desk A's password on the server; the profile re-opens (as after saving settings).
    await team.cluster.admin(`ALTER ROLE ${DESK_A} PASSWORD 'changed-by-owner'`)
    await rpc(app, 'profiles:select', { id: 'sandbox' })
    const line = page.getByTestId('team-status')
    await expect(line).toHaveAttribute('data-state', 'disconnected')
    await expect(line).toHaveText(
      'Livro-caixa da equipe — desconectado · Usuário do banco ou senha incorretos.',
    )
    await expectPtBR(page)
    await expectNoSeriousAxe(page)
    await app.screenshot('approvals-disconnected-pt-BR')
    // Nothing of the team is offered while disconnected: the queue says why instead.
    await openApprovals(page)
    await expect(page.getByTestId('approval-error')).toContainText('Usuário do banco ou senha incorretos')
  })
})

test.describe('team ledger, refusals and notifications', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')
  test.use({ recordNotifications: true })

  test('the limit lowered after the review: the create is refused, the fresh review asks for approval, nothing POSTed', async ({
    app,
    team,
  }) => {
    const { page } = app
    await expect(page.getByTestId('team-status')).toBeVisible()
    const posts0 = postsAt(app)
    await fillForm(page, {
      pixKey: 'limite@example.com',
      taxNumber: cpf('529982247'),
      kind: 'payout',
      amountDigits: '50000',
      refundAddress: refundAddressFor(app),
    })
    await page.getByRole('button', { name: 'Revisar' }).click()
    const create = page.getByRole('button', { name: /Criar pagamento no perfil/ })
    await expect(create).toBeVisible()
    // The owner lowers the team's limit to R$ 100,00 while the analyst reads the review.
    await (await team.owner()).query('UPDATE ledger.team_settings SET approval_above_cents = 10000')
    await create.click()
    await expect(page.getByRole('button', { name: 'Pedir aprovação' })).toBeVisible()
    // Main's refusal, and the limit the fresh review names is the server's new one (asked again, not pushed).
    await expect(page.getByRole('alert').filter({ hasText: 'acima do limite da equipe' })).toBeVisible()
    await expect(page.getByTestId('approval-needed')).toContainText('acima de R$ 100,00')
    await expectPtBR(page)
    expect(postsAt(app)).toBe(posts0)
    expect((await rpc(app, 'withdrawals:list', {})).total).toBe(0)
  })

  test('another analyst asks: a desktop notification (masked key, no note); its click opens Aprovações', async ({
    app,
    colleague,
  }) => {
    const { page } = app
    await expect(page.getByTestId('team-status')).toBeVisible()
    await colleague.request(draft('energia.sede@example.com', 180_000), 'conta de luz da sede')
    await expect
      .poll(() => app.notifications.map((n) => [n.title, n.body]))
      .toEqual([
        ['Pedido de aprovação', `${DESK_B} pediu aprovação de R$ 1.800,00 para ene${'*'.repeat(12)}om`],
      ])
    await expect(page.getByRole('heading', { level: 2, name: 'Aprovações' })).toHaveCount(0)
    app.notifications[0]!.click()
    await expect(page.getByRole('heading', { level: 2, name: 'Aprovações' })).toBeVisible()
    await expect(card(page, 'energia.sede@example.com')).toContainText('Aguardando aprovação')
    await expect(page.getByTestId('approval-toast')).toHaveCount(0)
    // Desk A's own decision tells nobody here (only the requester's desk would be told).
    await card(page, 'energia.sede@example.com').getByRole('button', { name: 'Aprovar' }).click()
    await page.getByTestId('decide-dialog').getByRole('button', { name: 'Aprovar pagamento' }).click()
    await expect(card(page, 'energia.sede@example.com')).toContainText('Aprovado')
    // Once the server's echo went round (desk B heard it), still only the one notification here.
    await expect
      .poll(() =>
        colleague.events.some(
          (e) => e.event === 'approval:changed' && (e.payload as ApprovalView).state === 'approved',
        ),
      )
      .toBe(true)
    await page.waitForTimeout(300)
    expect(app.notifications).toHaveLength(1)
  })
})

test.describe('in English', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')
  test.use({
    appOptions: { language: 'en', sandbox: {}, beforeOpen: null, trackerAutoStart: true, startPage: 'today' },
  })

  test('the queue, the dialog and the team line speak English only', async ({ app, colleague }) => {
    const { page } = app
    await expect(page.getByTestId('team-status')).toHaveText(
      `Team ledger — connected as ${DESK_A} · this computer tracks withdrawal statuses`,
    )
    await colleague.request(draft('rent@example.com', 320_000), 'November')
    await expect(page.getByTestId('approval-toast')).toContainText(`${DESK_B} requested approval`)
    await openApprovals(page)
    const item = card(page, 'rent@example.com')
    await expect(item).toContainText('Awaiting approval')
    await expect(item).toContainText('R$3,200.00')
    expect(await foreignWords(page, 'en')).toEqual([])
    await item.getByRole('button', { name: 'Reject' }).click()
    await expect(page.getByTestId('decide-dialog')).toContainText('Reject this withdrawal?')
    expect(await foreignWords(page, 'en')).toEqual([])
    await expectNoSeriousAxe(page)
    await app.screenshot('approvals-reject-en')
  })
})
