import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { defineConfig } from '@playwright/test'
// main's context imports a worker by `?modulePath` (electron-vite); the in-process fixtures need it resolved.
import './test/e2e/support/module-path-hook'

// Requiring `electron` downloads its binary when it is missing, which cannot work offline. Where no binary was
// installed, point Electron at a path that does not exist so nothing tries; the Electron project then skips.
const electronPkg = join(__dirname, 'node_modules', 'electron')
const pathTxt = join(electronPkg, 'path.txt')
const hasElectronBinary =
  existsSync(pathTxt) && existsSync(join(electronPkg, 'dist', readFileSync(pathTxt, 'utf8').trim()))
if (!hasElectronBinary) process.env['ELECTRON_OVERRIDE_DIST_PATH'] ??= join(__dirname, '.no-electron-binary')

/** CHROMIUM_PATH, then Debian's /usr/bin/chromium, then Playwright's own browser (undefined). */
export function chromiumExecutable(): string | undefined {
  const fromEnv = process.env['CHROMIUM_PATH']
  if (fromEnv) return fromEnv
  if (existsSync('/usr/bin/chromium')) return '/usr/bin/chromium'
  return undefined
}

const executablePath = chromiumExecutable()

export default defineConfig({
  testDir: 'test/e2e',
  outputDir: 'test-results/playwright',
  timeout: 60_000,
  fullyParallel: false,
  // Two spec files at a time on the two-core CI machine (docs/DEVELOPMENT.md, "How long a full run takes").
  workers: 2,
  reporter: [['list']],
  forbidOnly: !!process.env['CI'],
  use: {
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    locale: 'pt-BR',
    timezoneId: 'America/Sao_Paulo',
  },
  projects: [
    {
      name: 'renderer',
      testDir: 'test/e2e/renderer',
      use: {
        browserName: 'chromium',
        launchOptions: {
          ...(executablePath ? { executablePath } : {}),
          args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-background-networking',
            '--disable-component-update',
            '--no-first-run',
            '--disable-sync',
          ],
        },
      },
    },
    { name: 'electron', testDir: 'test/e2e/electron' },
  ],
})
