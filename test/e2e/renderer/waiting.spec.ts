/**
 * A profile switch while a create's POST is held by the sandbox: main waits for the answer and the renderer says
 * why ("Aguardando o pagamento que está sendo criado…"); the banner goes when the wait is over and the record is
 * created.
 */
import { expect, test } from '../support/app-fixture'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { REFUND_ADDRESS, rpc } from './records-helpers'

test('switching profile during a create shows why it waits, then the record is created', async ({ app }) => {
  const { page } = app
  const sb = app.sandbox
  const live = sb.control.createCredential({ label: 'other' })
  const other = await rpc(app, 'profiles:addLive', {
    name: 'Outro',
    baseUrl: sb.baseUrl,
    network: 'liquid',
    auth: { kind: 'client_credentials', clientId: live.clientId, clientSecret: live.clientSecret },
  })
  await rpc(app, 'session:signIn')
  sb.control.injectFault({ kind: 'slow', delayMs: 3_000, endpoint: 'withdraw' })
  const draft = {
    pixKey: 'fulano@example.com',
    taxNumber: '52998224725',
    amount: { kind: 'payout' as const, cents: 3_100 },
    refundAddress: REFUND_ADDRESS,
  }
  const q = await rpc(app, 'withdrawals:quote', { draft })
  const created = rpc(app, 'withdrawals:create', { draft, intentId: q.intent.id })
  await expect.poll(() => app.ctx.runtime().withdrawals.creating()).toBe(1)
  const switched = rpc(app, 'profiles:select', { id: other.id })

  const banner = page.getByTestId('waiting-banner')
  await expect(banner).toHaveText(/Aguardando o pagamento que está sendo criado antes de trocar de perfil/)
  const rec: WithdrawalRecord = await created
  await switched
  await expect(banner).toHaveCount(0)
  expect(rec.localState).toBe('created')
  expect(rec.remoteId).toBe(sb.control.state().withdrawals[0]?.id)
})
