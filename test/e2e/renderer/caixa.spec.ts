/**
 * Caixa (issue #27) in Chromium against the real app context and the embedded sandbox's Liquid chain: the Sandbox
 * treasury wallet shows its starting R$ 50.000,00 on Hoje and on Caixa, scanned by LWK over loopback; a top-up
 * arriving on the chain shows as "a confirmar", then confirmed once the sandbox clock passes a block.
 */
import type { Page } from '@playwright/test'
import { SANDBOX_DEPIX, sandboxTreasury } from '../../../src/main/sandbox/chain'
import { expect, test } from '../support/app-fixture'

test.use({
  appOptions: {
    language: 'pt-BR',
    sandbox: {},
    beforeOpen: null,
    // The wallet's schedule scans the active profile at start.
    trackerAutoStart: true,
    startPage: 'today',
  },
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
