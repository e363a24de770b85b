/**
 * Approvals with the keyboard only (issue #26), on two desks of a real team ledger (support/team-desks.ts): desk B
 * asks, desk A (the page) approves using Tab, Shift+Tab, Enter, Space and Escape. The focus is visible at every
 * stop and lands where the next step is: in the dialog when it opens, back on the "Recusar" button when Escape
 * closes it, on the card (which now says "Aprovado") when the decision closes it, and on the run's heading when
 * "Abrir lote" opens a run.
 */
import type { RunDetailView } from '../../../src/shared/channels-runs'
import { onToday } from '../support/app-fixture'
import { DESK_B, expect, postsAt, test } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { expectVisibleFocus, tabTo } from './keyboard'
import { cpf, REFUND_ADDRESS } from './records-helpers'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({ appOptions: onToday() })

test.describe('keyboard journeys on a team', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  test('a payment asked on desk B, approved on desk A by keyboard; Escape cancels a rejection', async ({
    app,
    colleague,
  }) => {
    test.setTimeout(120_000)
    const { page } = app
    const kb = page.keyboard
    await expect(page.getByTestId('team-status')).toBeVisible()
    const posts0 = postsAt(app)
    await colleague.request(
      {
        pixKey: 'aluguel@example.com',
        taxNumber: cpf('529982247'),
        amount: { kind: 'payout', cents: 320_000 },
        refundAddress: REFUND_ADDRESS,
      },
      'Aluguel de novembro',
    )
    await expect(page.getByTestId('approvals-badge')).toContainText('1')

    await tabTo(page, page.getByTestId('nav-approvals'))
    await expectVisibleFocus(page)
    await kb.press('Enter')
    const item = page.getByTestId('approval-card').filter({ hasText: 'aluguel@example.com' })
    await expect(item).toContainText('Aguardando aprovação')

    // Recusar, then Escape: nothing decided, the focus is back on the button that opened the dialog.
    const reject = item.getByRole('button', { name: 'Recusar' })
    await tabTo(page, reject)
    await expectVisibleFocus(page)
    await kb.press('Enter')
    const dialog = page.getByTestId('decide-dialog')
    await expect(dialog).toBeVisible()
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
    await kb.press('Escape')
    await expect(dialog).toHaveCount(0)
    await expect(reject).toBeFocused()
    await expect(item).toContainText('Aguardando aprovação')

    // Aprovar (Shift+Tab back to it), the dialog's own button with Space.
    await tabTo(page, item.getByRole('button', { name: 'Aprovar', exact: true }), true)
    await expectVisibleFocus(page)
    await kb.press('Enter')
    await expect(dialog).toContainText('Aprovar este pagamento?')
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true)
    await tabTo(page, dialog.getByRole('button', { name: 'Aprovar pagamento' }))
    await expectVisibleFocus(page)
    await kb.press('Space')
    await expect(dialog).toHaveCount(0)
    await expect(item).toContainText('Aprovado')
    // The focus is on the card that now says "Aprovado"; one Tab reaches what is next: sending it.
    await expect(item.getByRole('heading', { level: 3 })).toBeFocused()
    await expectVisibleFocus(page)
    await kb.press('Tab')
    await expect(item.getByRole('button', { name: 'Enviar pagamento aprovado' })).toBeFocused()
    await expectVisibleFocus(page)
    expect(postsAt(app)).toBe(posts0)
  })

  test('a run asked on desk B: Abrir lote, control total and Enter on desk A, by keyboard', async ({
    app,
    colleague,
  }) => {
    test.setTimeout(120_000)
    const { page } = app
    const kb = page.keyboard
    await expect(page.getByTestId('team-status')).toBeVisible()
    const refund = refundAddressFor(app)
    const keys = ['obra1@example.com', 'obra2@example.com', 'obra3@example.com']
    const lines = [
      'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução',
      ...keys.map((k, i) => `Empreiteira ${i + 1};${k};${CPF};400,00;${refund}`),
    ]
    const contentBase64 = Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8').toString('base64')
    const { runId } = await colleague.ok<{ runId: string }>('runs:import', {
      name: 'folha-teclado.csv',
      contentBase64,
    })
    await colleague.ok<RunDetailView>('runs:approve', { runId, confirmPayoutCents: 120_000 })
    const posts0 = postsAt(app)

    await tabTo(page, page.getByTestId('nav-approvals'))
    await kb.press('Enter')
    const card = page.locator(`[data-testid="run-approval-card"][data-run-id="${runId}"]`)
    const open = card.getByRole('button', { name: 'Abrir lote' })
    await tabTo(page, open)
    await expectVisibleFocus(page)
    await kb.press('Enter')
    const detail = page.getByTestId('run-detail')
    await expect(detail).toHaveAttribute('data-state', 'draft')
    await expect(page.getByTestId('run-approval-asked')).toContainText(
      `${DESK_B} pediu a aprovação deste lote`,
    )
    // The run opened from the queue has the focus, so the review is read from its top.
    await expect(page.getByTestId('run-heading')).toBeFocused()
    await expectVisibleFocus(page)
    await tabTo(page, page.getByTestId('run-approve-total'))
    await expectVisibleFocus(page)
    await kb.type('1.200,00')
    await kb.press('Enter')
    await expect(detail).toHaveAttribute('data-state', 'approved')
    await expect(page.getByTestId('run-approved')).toBeFocused()
    await expectVisibleFocus(page)
    await expect(page.getByTestId('approvals-badge')).toHaveCount(0)
    expect(postsAt(app)).toBe(posts0)
  })
})
