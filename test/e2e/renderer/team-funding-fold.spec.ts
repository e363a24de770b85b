/**
 * Density on a team desk (issue #26): the Sandbox banner, the team status line, a colleague's approval pop-up and
 * the top bar all stand above the page, and still, at 1024×700, the funding page shows the deadline, the whole QR
 * and the deposit address without scrolling. Measured with bounding boxes against the viewport.
 */
import { onToday } from '../support/app-fixture'
import { expect, test } from '../support/team-desks'
import { TEAM_SKIP_REASON } from '../support/team-server'
import { cpf, REFUND_ADDRESS, rpc } from './records-helpers'

test.use({ appOptions: onToday() })

const VIEWPORT = { width: 1024, height: 700 }

test.describe('funding page on a team desk', () => {
  test.skip(TEAM_SKIP_REASON !== null, TEAM_SKIP_REASON ?? '')

  test('with the approval pop-up open, the deadline, QR and address are above the fold at 1024×700', async ({
    app,
    colleague,
  }) => {
    const { page } = app
    await page.setViewportSize(VIEWPORT)
    await expect(page.getByTestId('team-status')).toBeVisible()
    // Under the team's limit: created at once on this desk.
    const draft = {
      pixKey: 'aluguel.sala@example.com',
      taxNumber: cpf('529982247'),
      amount: { kind: 'payout' as const, cents: 45_000 },
      refundAddress: REFUND_ADDRESS,
    }
    const quote = await rpc(app, 'withdrawals:quote', { draft })
    const created = await rpc(app, 'withdrawals:create', {
      draft,
      intentId: quote.intent.id,
      confirmedDuplicates: quote.duplicates.map((d) => d.localId),
    })
    // A colleague asks for an approval: the pop-up stands over every page until it is dealt with.
    await colleague.request(
      {
        pixKey: 'consultoria@example.com',
        taxNumber: cpf('529982247'),
        amount: { kind: 'payout', cents: 250_000 },
        refundAddress: REFUND_ADDRESS,
      },
      'Consultoria',
    )
    await expect(page.getByTestId('approval-toast')).toBeVisible()

    await page.getByTestId('today-awaiting').locator(`[data-local-id="${created.localId}"]`).click()
    await expect(page.getByTestId('deposit-address')).toBeVisible()
    await expect(page.getByTestId('approval-toast')).toBeVisible()
    await page.evaluate(() => window.scrollTo(0, 0))
    for (const id of ['lead-deadline', 'funding-qr', 'deposit-address']) {
      const box = await page.getByTestId(id).boundingBox()
      expect(box, id).not.toBeNull()
      expect(box!.y + box!.height, `${id} bottom`).toBeLessThanOrEqual(VIEWPORT.height)
    }
    await app.screenshot('team-funding-pt-BR-1024x700')
  })
})
