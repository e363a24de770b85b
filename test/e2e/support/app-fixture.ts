/**
 * The app for E2E tests: the real main-side context (embedded sandbox on loopback, SQLite ledger in a temp dir,
 * API client, services, router) in the test process, and the built renderer in Chromium bridged to its router.
 * Only the OS ports differ: the folder dialog (src/main/shell/electron-folder-dialog.ts in the app) returns what
 * the test queued, external links are recorded.
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { createAppContext, type AppContext } from '../../../src/main/app/context'
import { createJsonFileStore } from '../../../src/main/profiles'
import type { Sandbox, SandboxOptions } from '../../../src/main/sandbox'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import { openRenderer, type Bridge } from './bridge'

export const SCREENS_DIR = resolve(__dirname, '../../../test-results/screens')

export interface TestApp {
  page: Page
  bridge: Bridge
  ctx: AppContext
  sandbox: Sandbox
  dataDir: string
  /** Queues what the next OS folder dialog returns. */
  nextDirectory(dir: string): void
  /** Queues what the next OS file dialog (a payee CSV to import) returns. */
  nextFile(file: string): void
  /** Main's one-use token for `dir`, as dialog:chooseFolder hands it out (for calls made outside the UI). */
  folderToken(purpose: 'export' | 'review', dir: string): Promise<string>
  /** URLs main handed to the OS browser. */
  opened: string[]
  /** Queues what the next OS save dialog returns (receipts); null: cancelled. */
  nextSavePath(path: string | null): void
  /** Receipts main sent to the printer. */
  printed: Array<{ mediaType: string; size: number }>
  /** Full-page screenshot to test-results/screens/<name>.png. */
  screenshot(name: string): Promise<void>
}

export interface AppOptions {
  language: 'pt-BR' | 'en'
  sandbox: SandboxOptions
  /** Runs before the context opens the ledger (e.g. bulk seeding); gets the ledger file path. */
  beforeOpen: ((ledgerFile: string) => void) | null
  trackerAutoStart: boolean
  /**
   * The page to start on. The app lands on "Hoje"; most specs start on the payment form, as the app did before
   * the home page existed, so that is the default here.
   */
  startPage: 'today' | 'newWithdrawal'
}

export const test = base.extend<{ appOptions: AppOptions; app: TestApp }>({
  appOptions: [
    { language: 'pt-BR', sandbox: {}, beforeOpen: null, trackerAutoStart: true, startPage: 'newWithdrawal' },
    { option: true },
  ],
  app: async ({ page, appOptions }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'treasury-e2e-'))
    appOptions.beforeOpen?.(join(dataDir, 'ledger.sqlite'))
    const dirs: string[] = []
    const files: string[] = []
    const opened: string[] = []
    const savePaths: Array<string | null> = []
    const printed: Array<{ mediaType: string; size: number }> = []
    const ctx = await createAppContext({
      dataDir,
      vault: createMemoryVault({ reason: 'encryption_unavailable' }),
      store: createJsonFileStore(join(dataDir, 'settings.json')),
      app: { name: 'Tesouraria DePix', version: '0.0.0-e2e', platform: process.platform },
      operator: 'e2e',
      sandbox: appOptions.sandbox,
      trackerAutoStart: appOptions.trackerAutoStart,
      ports: {
        chooseDirectory: () => Promise.resolve(dirs.shift() ?? null),
        chooseFile: () => Promise.resolve(files.shift() ?? null),
        openExternal: (url) => {
          opened.push(url)
          return Promise.resolve()
        },
        chooseSavePath: () => Promise.resolve(savePaths.shift() ?? null),
        printDocument: (bytes, mediaType) => {
          printed.push({ mediaType, size: bytes.length })
          return Promise.resolve(true)
        },
      },
    })
    if (appOptions.language !== 'pt-BR') ctx.profiles.updateSettings({ language: appOptions.language })
    const bridge = await openRenderer(page, ctx.router)
    if (appOptions.startPage !== 'today') await page.getByTestId(`nav-${appOptions.startPage}`).click()
    const off = ctx.onEvent((event, payload) => {
      bridge.emit(event, payload).catch(() => undefined)
    })
    mkdirSync(SCREENS_DIR, { recursive: true })
    await use({
      page,
      bridge,
      ctx,
      sandbox: ctx.sandbox as Sandbox,
      dataDir,
      opened,
      nextSavePath: (p) => savePaths.push(p),
      printed,
      nextDirectory: (dir) => dirs.push(dir),
      nextFile: (file) => files.push(file),
      folderToken: async (purpose, dir) => {
        dirs.push(dir)
        const r = await ctx.router.handle('dialog:chooseFolder', { purpose })
        if (!r.ok || r.data === null) throw new Error(`dialog:chooseFolder failed: ${JSON.stringify(r)}`)
        return (r.data as { token: string }).token
      },
      screenshot: async (name) => {
        await page.screenshot({ path: join(SCREENS_DIR, `${name}.png`), fullPage: true })
      },
    })
    off()
    await ctx.close()
    rmSync(dataDir, { recursive: true, force: true })
  },
})

export { expect }
