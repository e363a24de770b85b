/**
 * Payment runs in the Aprovações queue (issue #16, t16runq), on the real main: a throwaway PostgreSQL cluster, the
 * embedded sandbox, desk A (bruno) is the page, desk B (ana) a colleague driven through its router
 * (support/team-desks.ts). Desk B imports a run of three R$ 400,00 rows (its total is above the team's R$ 1.000,00
 * limit) and asks for its approval. Desk A, already on Aprovações, sees it arrive live (LISTEN depix_runs →
 * `run:changed`) with its count and the nav badge, and a desktop notification (amount and count only); "Abrir
 * lote" opens the run's screen, where desk A sees the rows' refund address marked as not registered by the team
 * and approves it; the run then leaves the queue and the badge.
 */
import type { Page } from '@playwright/test'
import type { RunDetailView } from '../../../src/shared/channels-runs'
import { formatBRL } from '../../../src/shared/money'
import { DESK_B, expect, postsAt, test } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { expectNoSeriousAxe } from './records-helpers'
import { foreignWords } from './rendered-language'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: {
    language: 'pt-BR',
    sandbox: {},
    beforeOpen: null,
    trackerAutoStart: true,
    startPage: 'today',
  },
  recordNotifications: true,
})

const HEADER = 'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução'
const KEYS = ['fila1@example.com', 'fila2@example.com', 'fila3@example.com']
const ROW_CENTS = 40_000

/** pt-BR words only, and no raw code (`wait_mine`, `approval_self`…) outside "Detalhes técnicos". */
async function expectPtBR(page: Page): Promise<void> {
  expect(await foreignWords(page, 'pt-BR')).toEqual([])
  const prose = await page.evaluate(() => {
    const root = document.body.cloneNode(true) as HTMLElement
    for (const el of root.querySelectorAll('[data-technical], code, .mono, script, style')) el.remove()
    return root.innerText || root.textContent || ''
  })
  expect(prose.match(/\b[a-z]+(?:_[a-z]+)+\b/g) ?? []).toEqual([])
}

test.describe('payment runs in the approvals queue, two desks', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  test('a run asked on desk B appears live in desk A’s queue with the count and a notification; Abrir lote opens it; approved, it leaves', async ({
    app,
    colleague,
  }) => {
    test.setTimeout(120_000)
    const { page } = app
    await expect(page.getByTestId('team-status')).toBeVisible()
    const refund = refundAddressFor(app)
    const total = KEYS.length * ROW_CENTS
    const lines = [HEADER, ...KEYS.map((k, i) => `Fornecedor ${i + 1};${k};${CPF};400,00;${refund}`)]
    const contentBase64 = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8').toString('base64')

    await page.getByTestId('nav-approvals').click()
    await expect(page.getByRole('heading', { level: 2, name: 'Aprovações' })).toBeVisible()
    await expect(page.getByTestId('approvals-empty')).toBeVisible()
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)

    // Desk B imports the run and asks (the first approval of a run above the limit asks for another analyst's).
    const imported = await colleague.ok<{ runId: string }>('runs:import', {
      name: 'folha-obras.csv',
      contentBase64,
    })
    const runId = imported.runId
    const asked = await colleague.ok<RunDetailView>('runs:approve', { runId, confirmPayoutCents: total })
    expect(asked.approval).toMatchObject({ requestedBy: DESK_B, mine: true })
    const posts0 = postsAt(app)

    // Live on desk A: the card, the count on the page and the nav badge.
    const card = page.getByTestId('run-approval-card')
    await expect(card).toHaveCount(1)
    await expect(card).toHaveAttribute('data-run-id', runId)
    await expect(card.getByTestId('run-approval-name')).toHaveText('folha-obras.csv')
    await expect(card.getByTestId('run-approval-rows')).toHaveText('3')
    await expect(card.getByTestId('run-approval-total')).toHaveText('R$ 1.200,00')
    await expect(card).toContainText(DESK_B)
    await expect(card.getByTestId('run-approval-hint')).toContainText('Abra o lote para conferir as linhas')
    await expect(page.getByTestId('approvals-count')).toHaveText('1 pedido(s) precisam de você')
    await expect(page.getByTestId('approvals-badge')).toContainText('1')
    await expect(page.getByTestId('approvals-empty')).toHaveCount(0)
    await expectPtBR(page)
    await expectNoSeriousAxe(page)

    // The desktop notification: amount and count only (no key, no file name).
    await expect
      .poll(() => app.notifications.map((n) => [n.title, n.body]))
      .toEqual([
        ['Lote aguardando aprovação', `${DESK_B} pediu aprovação de um lote de 3 pagamentos (R$ 1.200,00)`],
      ])

    // Abrir lote: the run's own screen, where it is approved; the queue decides nothing.
    await card.getByRole('button', { name: 'Abrir lote' }).click()
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    await expect(page.getByTestId('run-approval-asked')).toContainText(
      `${DESK_B} pediu a aprovação deste lote`,
    )
    expect(postsAt(app)).toBe(posts0)
    // The rows' refund address is not one the team registered: marked beside it, as on a single approval.
    const refunds = page.getByTestId('run-refund-addresses')
    await expect(refunds.locator(`tr[data-refund-address="${refund}"]`)).toContainText('2, 3, 4')
    await expect(
      refunds.locator(`tr[data-refund-address="${refund}"]`).getByTestId('run-refund-unregistered'),
    ).toContainText('Não é um endereço cadastrado da equipe')
    const form = page.getByTestId('approve-form')
    // The control total is brought by the approver: the form does not print it (issue #26).
    await expect(form).not.toContainText('1.200,00')
    await expect(form).not.toContainText(formatBRL(asked.summary.depositCents).replace('R$ ', ''))
    const field = form.getByLabel('Total a receber por Pix (R$), conforme o seu controle')
    // The DePix to send (fees included) is not the control total: refused, nothing approved.
    await field.fill(formatBRL(asked.summary.depositCents).replace('R$ ', ''))
    await form.getByRole('button', { name: 'Aprovar lote' }).click()
    await expect(page.getByRole('alert')).toContainText('não confere com o total a receber por Pix')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    await field.fill(formatBRL(total).replace('R$ ', ''))
    await form.getByRole('button', { name: 'Aprovar lote' }).click()
    await expect(detail).toHaveAttribute('data-state', 'approved')

    // Approved: out of the queue and the badge, on both desks; nothing sent by approving.
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    expect(await colleague.ok<unknown[]>('approvals:runs')).toEqual([])
    await page.getByTestId('nav-approvals').click()
    await expect(page.getByTestId('approvals-empty')).toBeVisible()
    await expect(page.getByTestId('run-approval-card')).toHaveCount(0)
    expect(postsAt(app)).toBe(posts0)

    // The notification's click opens the run too (from any page); desk A's own approval told desk A nothing.
    expect(app.notifications).toHaveLength(1)
    app.notifications[0]!.click()
    await expect(page.getByTestId('run-detail')).toHaveAttribute('data-state', 'approved')
    await expectPtBR(page)
  })

  test('a run rejected on desk A needs a reason; the reason is audited and shown on both desks', async ({
    app,
    colleague,
  }) => {
    test.setTimeout(120_000)
    const { page } = app
    await expect(page.getByTestId('team-status')).toBeVisible()
    const refund = refundAddressFor(app)
    const lines = [HEADER, ...KEYS.map((k, i) => `Recusa ${i + 1};recusa-${k};${CPF};400,00;${refund}`)]
    const contentBase64 = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8').toString('base64')
    const { runId } = await colleague.ok<{ runId: string }>('runs:import', {
      name: 'folha-recusa.csv',
      contentBase64,
    })
    await colleague.ok<RunDetailView>('runs:approve', { runId, confirmPayoutCents: KEYS.length * ROW_CENTS })

    await page.getByTestId('nav-approvals').click()
    const card = page.locator(`[data-testid="run-approval-card"][data-run-id="${runId}"]`)
    await card.getByRole('button', { name: 'Abrir lote' }).click()
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    await page.getByTestId('run-reject-open').click()
    const reject = page.getByTestId('run-reject')
    await reject.getByRole('button', { name: 'Recusar', exact: true }).click()
    await expect(reject.getByRole('alert')).toHaveText('Escreva o motivo da recusa.')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    await expectNoSeriousAxe(page)
    await reject.getByLabel('Motivo da recusa (obrigatório)').fill('NF 4512 ainda não chegou')
    await reject.getByRole('button', { name: 'Recusar', exact: true }).click()
    await expect(detail).toHaveAttribute('data-state', 'cancelled')
    await expect(page.getByTestId('run-rejected')).toHaveText(
      /^Recusado por .+\. Motivo: NF 4512 ainda não chegou$/,
    )
    // The requester's desk reads who rejected it and why.
    const seen = await colleague.ok<RunDetailView>('runs:get', { runId })
    expect(seen.approval).toMatchObject({ rejectedReason: 'NF 4512 ainda não chegou' })
    expect(seen.approval?.rejectedBy).not.toBe(DESK_B)
    await expectPtBR(page)
  })
})
