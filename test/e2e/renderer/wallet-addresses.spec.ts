/**
 * Addresses from the treasury wallet (issue #27) in Chromium against the real app context: on "Comprar DePix" the
 * Sandbox treasury wallet proposes a fresh delivery address (a different one each time), the form says it is the
 * wallet's, and an address typed by hand from another wallet is said to be external. The proposal passes the
 * form's own address check and the delivery reaches the wallet.
 */
import type { Page } from '@playwright/test'
import { newKeyedAddress } from '../../../src/main/sandbox/chain/keys'
import { rpc } from './records-helpers'
import { expect, onToday, test } from '../support/app-fixture'

test.use({
  appOptions: onToday({
    trackerAutoStart: false,
  }),
})

const nav = (page: Page, name: string) =>
  page.getByRole('navigation').getByRole('button', { name, exact: true })

test('Comprar DePix: a wallet address proposed and recognised, a typed external one flagged', async ({
  app,
}) => {
  const { page } = app
  await nav(page, 'Comprar DePix').click()
  const field = page.getByLabel('Endereço Liquid da tesouraria (destino do DePix)')
  await field.fill('')
  await page.getByRole('button', { name: 'Usar endereço da carteira da tesouraria' }).click()
  await expect(field).not.toHaveValue('')
  const first = await field.inputValue()
  await expect(page.getByTestId('depixAddress-ok')).toBeVisible()
  await expect(page.getByTestId('wallet-address-owner')).toHaveText('Endereço da carteira da tesouraria.')

  await page.getByRole('button', { name: 'Usar endereço da carteira da tesouraria' }).click()
  await expect(field).not.toHaveValue(first)
  const checked = await rpc(app, 'wallet:checkAddress', { address: first })
  expect(checked.owner).toBe('treasury')

  await field.fill(newKeyedAddress('liquid').address)
  await expect(page.getByTestId('wallet-address-owner')).toHaveText(
    'Endereço externo: não é da carteira da tesouraria.',
  )
  await expect(page.getByTestId('wallet-address-owner')).toHaveAttribute('data-owner', 'external')
})
