/**
 * Journey (a) in the real Electron app, driven by Playwright's `_electron`: first run on the Sandbox profile →
 * new withdrawal with a BRL payout → review → create → funding page → fund and settle in the Sandbox tools → sent.
 * It needs an Electron binary, which cannot be downloaded on machines without internet; there it is skipped and
 * says why.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { expectRefundAccepted, fillForm } from '../renderer/withdrawal-steps'

function electronBinary(): { path: string } | { missing: string } {
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  const pkgDir = resolve(__dirname, '../../../node_modules/electron')
  if (!existsSync(resolve(pkgDir, 'path.txt')) && !override) {
    return { missing: 'node_modules/electron has no downloaded binary (no path.txt)' }
  }
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const path = String(require('../../../node_modules/electron'))
    return existsSync(path) ? { path } : { missing: `no Electron binary at ${path}` }
  } catch (e) {
    return { missing: `requiring electron failed (${e instanceof Error ? e.message : String(e)})` }
  }
}

const binary = electronBinary()
const skipReason =
  'missing' in binary
    ? `Electron E2E skipped: ${binary.missing}. Electron's binary is downloaded from GitHub at first use and this machine has no internet; run on a machine where \`npx install-electron\` works.`
    : null
if (skipReason) console.log(skipReason)

test('Electron: first run → BRL payout → review → create → funding → sandbox fund and settle → sent', async () => {
  test.skip(skipReason !== null, skipReason ?? '')
  const userData = mkdtempSync(join(tmpdir(), 'treasury-electron-'))
  const app = await electron.launch({
    executablePath: (binary as { path: string }).path,
    args: [resolve(__dirname, '../../..'), `--user-data-dir=${userData}`],
  })
  try {
    const page = await app.firstWindow()
    await expect(page.getByTestId('sandbox-banner')).toBeVisible()
    await expect(page.getByTestId('app-info')).toContainText('Sandbox')
    // The hardened window: no Node in the page, only the bridge.
    expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined')
    expect(
      await page.evaluate(() => Object.keys((window as unknown as { treasury: object }).treasury)),
    ).toEqual(['invoke', 'on'])

    await fillForm(page, {
      pixKey: 'fulano@example.com',
      taxNumber: '52998224725',
      kind: 'payout',
      amountDigits: '12345',
      refundAddress: generateLiquidAddress('liquid').address,
    })
    await expectRefundAccepted(page)
    await page.getByRole('button', { name: 'Revisar' }).click()
    await page.getByRole('button', { name: 'Criar pagamento' }).click()
    await expect(page.getByRole('heading', { level: 2, name: 'Enviar DePix para o pagamento' })).toBeVisible()
    await expect(page.getByTestId('deposit-address')).toHaveText(/^lq1/)
    await expect(page.getByTestId('depix-amount')).toHaveText(/^\d+\.\d{8}$/)
    await expect(page.getByTestId('funding-qr')).toBeVisible()

    await page.getByRole('navigation').getByRole('button', { name: 'Ferramentas do Sandbox' }).click()
    await page.getByRole('button', { name: 'Depositar o valor exato' }).click()
    await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sending')
    await page.getByRole('button', { name: 'Pix pago' }).click()
    await expect(page.getByTestId('sandbox-status')).toHaveAttribute('data-status', 'sent')
    await page.getByRole('button', { name: 'Abrir página de envio' }).click()
    await expect(page.getByTestId('receipt')).toContainText('R$ 123,45')
  } finally {
    await app.close()
    rmSync(userData, { recursive: true, force: true })
  }
})
