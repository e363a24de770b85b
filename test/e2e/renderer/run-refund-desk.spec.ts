/**
 * A run reviewed on a single desk (no four-eyes): the refund addresses of its rows are compared with what this
 * desk has registered — the profile's default refund address (Configurações) and its treasury wallet's addresses
 * (the Sandbox profile has a wallet) — and an address that is neither is marked beside the lines that use it, as
 * a team approver sees the team's unregistered ones (issue #26).
 */
import { expect, onToday, test } from '../support/app-fixture'
import { expectNoSeriousAxe, rpc, setLanguage } from './records-helpers'
import { CPF, refundAddressFor } from './withdrawal-steps'

test.use({
  appOptions: onToday({
    trackerAutoStart: false,
  }),
})

test('a desk run in review marks the rows whose refund address is not the profile’s default', async ({
  app,
}) => {
  const { page } = app
  const registered = refundAddressFor(app)
  const other = refundAddressFor(app)
  await rpc(app, 'profiles:setDefaultRefundAddress', { address: registered })
  const proposed = await rpc(app, 'wallet:proposeAddress', {})
  if (!proposed) throw new Error('the Sandbox profile has no treasury wallet')
  const wallet = proposed.address
  const lines = [
    'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução',
    `Fornecedora Alfa;alfa@example.com;${CPF};30,00;${registered}`,
    `Fornecedora Beta;beta@example.com;${CPF};31,00;${other}`,
    `Fornecedora Gama;gama@example.com;${CPF};32,00;${registered}`,
    `Fornecedora Delta;delta@example.com;${CPF};33,00;${wallet}`,
  ]
  const contentBase64 = Buffer.from(`${lines.join('\r\n')}\r\n`, 'utf8').toString('base64')
  const run = await rpc(app, 'runs:import', { name: 'folha-devolucoes.csv', contentBase64 })
  expect(run.issues).toEqual([])

  await page.setViewportSize({ width: 1024, height: 700 })
  const open = async (): Promise<void> => {
    await page.getByTestId('nav-today').click()
    await page.getByTestId('nav-runs').click()
    await page.getByTestId('runs-list').getByRole('button', { name: 'folha-devolucoes.csv' }).click()
    await expect(page.getByTestId('run-detail')).toHaveAttribute('data-state', 'draft')
  }
  await open()
  const refunds = page.getByTestId('run-refund-addresses')
  const differing = refunds.locator(`tr[data-refund-address="${other}"]`)
  const usual = refunds.locator(`tr[data-refund-address="${registered}"]`)
  const ours = refunds.locator(`tr[data-refund-address="${wallet}"]`)
  await expect(usual).toContainText('2, 4')
  await expect(differing).toContainText('3')
  await expect(ours).toContainText('5')
  await expect(differing.getByTestId('run-refund-unregistered')).toHaveText(
    'Não é o endereço de devolução padrão deste perfil nem um endereço da carteira da tesouraria: se o Pix falhar, o depósito volta para este endereço.',
  )
  // Only the differing address is marked.
  await expect(refunds.getByTestId('run-refund-unregistered')).toHaveCount(1)
  await expect(usual.getByTestId('run-refund-unregistered')).toHaveCount(0)
  await expectNoSeriousAxe(page)
  await app.screenshot('run-refund-desk-pt-BR-1024x700')

  await setLanguage(page, 'en')
  await expect(differing.getByTestId('run-refund-unregistered')).toHaveText(
    'Neither this profile’s default refund address nor a treasury wallet address: if the Pix payout fails, the deposit goes back to this address.',
  )
  await expectNoSeriousAxe(page)
  await app.screenshot('run-refund-desk-en-1024x700')
  await setLanguage(page, 'pt-BR')

  // The default changes to the other address: the marks follow it; the wallet's address is never marked.
  await rpc(app, 'profiles:setDefaultRefundAddress', { address: other })
  await open()
  await expect(usual.getByTestId('run-refund-unregistered')).toBeVisible()
  await expect(refunds.getByTestId('run-refund-unregistered')).toHaveCount(1)

  // No default refund address: only the wallet's addresses are registered.
  await rpc(app, 'profiles:setDefaultRefundAddress', { address: null })
  await open()
  await expect(refunds.getByTestId('run-refund-unregistered')).toHaveCount(2)
  await expect(ours.getByTestId('run-refund-unregistered')).toHaveCount(0)
})
