/**
 * The real Electron app, driven by Playwright's `_electron`. It needs an Electron binary, which cannot be
 * downloaded on machines without internet; there the test is skipped and says why.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { _electron as electron, expect, test } from '@playwright/test'

function electronBinary(): { path: string } | { missing: string } {
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  const pkgDir = resolve(__dirname, '../../../node_modules/electron')
  const pathFile = resolve(pkgDir, 'path.txt')
  if (!existsSync(pathFile) && !override)
    return { missing: 'node_modules/electron has no downloaded binary (no path.txt)' }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = String(require('../../../node_modules/electron'))
  return existsSync(path) ? { path } : { missing: `no Electron binary at ${path}` }
}

const binary = electronBinary()
const skipReason =
  'missing' in binary
    ? `Electron E2E skipped: ${binary.missing}. Electron's binary is downloaded from GitHub at first use and this machine has no internet; run on a machine where \`npx install-electron\` works.`
    : null
if (skipReason) console.log(skipReason)

test('the Electron app starts on the Sandbox profile and shows app:info', async () => {
  test.skip(skipReason !== null, skipReason ?? '')
  const app = await electron.launch({
    executablePath: (binary as { path: string }).path,
    args: [resolve(__dirname, '../../..')],
  })
  const window = await app.firstWindow()
  await expect(window.getByTestId('app-info')).toBeVisible()
  await app.close()
})
