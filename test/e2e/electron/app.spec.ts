/**
 * Journey (a) in the real Electron app, driven by Playwright's `_electron`: first run on the Sandbox profile →
 * new withdrawal with a BRL payout → review → create → funding page → fund and settle in the Sandbox tools → sent.
 * It needs an Electron binary: the one `npm start` downloaded (node_modules/electron/path.txt + dist), or the folder
 * ELECTRON_OVERRIDE_DIST_PATH names. Where there is none it is skipped and says why; it never downloads (CI has no
 * internet, and playwright.config.ts points the override at a missing folder when nothing is installed).
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { expectRefundAccepted, fillForm } from '../renderer/withdrawal-steps'

const repo = resolve(__dirname, '../../..')
const executable =
  process.platform === 'darwin'
    ? 'Electron.app/Contents/MacOS/Electron'
    : process.platform === 'win32'
      ? 'electron.exe'
      : 'electron'

/** The same places, in the same order, as scripts/ensure-electron.mjs, without its download. */
function electronBinary(): { path: string } | { missing: string } {
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  if (override && existsSync(join(override, executable))) return { path: join(override, executable) }
  const pkgDir = join(repo, 'node_modules/electron')
  const pathTxt = join(pkgDir, 'path.txt')
  if (existsSync(pathTxt)) {
    const installed = join(pkgDir, 'dist', readFileSync(pathTxt, 'utf8').trim())
    if (existsSync(installed)) return { path: installed }
  }
  return {
    missing:
      'no Electron binary on this machine (none installed in node_modules/electron' +
      (override ? `, none in ELECTRON_OVERRIDE_DIST_PATH=${override}` : '') +
      '). `npm start` downloads it on a machine with internet; or set ELECTRON_OVERRIDE_DIST_PATH to an Electron build folder',
  }
}

const binary = electronBinary()
const skipReason = 'missing' in binary ? `Electron E2E skipped: ${binary.missing}.` : null
if (skipReason) console.log(skipReason)

// Chromium refuses to start as root with its sandbox; only then is it turned off.
const sandboxArgs = process.getuid?.() === 0 ? ['--no-sandbox'] : []

test('Electron: first run → BRL payout → review → create → funding → sandbox fund and settle → sent', async () => {
  test.skip(skipReason !== null, skipReason ?? '')
  const userData = mkdtempSync(join(tmpdir(), 'treasury-electron-'))
  const app = await electron.launch({
    executablePath: (binary as { path: string }).path,
    args: [repo, `--user-data-dir=${userData}`, ...sandboxArgs],
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
