/**
 * The app for E2E tests: the real main-side context (embedded sandbox on loopback, SQLite ledger in a temp dir,
 * API client, services, router) in the test process, and the built renderer in Chromium bridged to its router.
 * Only the OS ports differ: the folder dialog (src/main/shell/electron-folder-dialog.ts in the app) returns what
 * the test queued, external links are recorded.
 *
 * The fixture starts the embedded sandbox itself (same options the context would use) and hands it to the context
 * as `runningSandbox`, so `restart()` can quit and start the app while the sandbox — "the service" — keeps running.
 *
 * `teamLedgerFor` (default null: every profile on this computer's ledger) is handed to the context as is: a spec
 * on a team ledger overrides it with a fixture that starts the team's server first (support/team-desks.ts).
 */
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { test as base, expect, type Page } from '@playwright/test'
import { createAppContext, type AppContext, type AppContextOptions } from '../../../src/main/app/context'
import type { DesktopNotification } from '../../../src/main/notifications'
import { createJsonFileStore } from '../../../src/main/profiles'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/main/sandbox'
import { createMemoryVault } from '../../../src/main/secrets/vault'
import type { PinServerPost } from '../../../src/main/wallet/pay/pin-server'
import { openRenderer, type Bridge } from './bridge'

export const SCREENS_DIR = resolve(__dirname, '../../../test-results/screens')

export interface TestApp {
  page: Page
  bridge: Bridge
  /** The current app context (a new one after `restart()`). */
  readonly ctx: AppContext
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
  /** Desktop notifications main showed, with their click (only with the `recordNotifications` option). */
  notifications: Array<DesktopNotification & { click: () => void }>
  /** Full-page screenshot to test-results/screens/<name>.png. */
  screenshot(name: string): Promise<void>
  /**
   * Quit and start the app again, as the shell does (src/main/index.ts: `before-quit` → `ctx.close()`): the
   * context closes (creates in flight finish, a wave stops at the row boundary, the ledger closes), then a new
   * context opens the same data dir, settings file and vault against the same running sandbox; the page's bridge
   * is pointed at it and the page reloads (the app starts on "Hoje").
   */
  restart(): Promise<void>
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

const DEFAULT_APP_OPTIONS: AppOptions = {
  language: 'pt-BR',
  sandbox: {},
  beforeOpen: null,
  trackerAutoStart: true,
  startPage: 'newWithdrawal',
}

/** A spec's `appOptions`: the defaults with the app opened on "Hoje" and the spec's own changes. */
export const onToday = (o: Partial<Omit<AppOptions, 'startPage'>> = {}): AppOptions => ({
  ...DEFAULT_APP_OPTIONS,
  startPage: 'today',
  ...o,
})

/** Which profile works on a team ledger, with what connection (AppContextOptions.teamLedgerFor). */
export type TeamLedgerFor = NonNullable<AppContextOptions['teamLedgerFor']>

export const test = base.extend<{
  appOptions: AppOptions
  teamLedgerFor: TeamLedgerFor | null
  /** Gives the context a recording notifications port (default: none, as before). */
  recordNotifications: boolean
  /** Stands in for the POST to a Jade's PIN server (issue #28; default: none, main's own). */
  pinServer: PinServerPost | null
  app: TestApp
}>({
  appOptions: [DEFAULT_APP_OPTIONS, { option: true }],
  teamLedgerFor: [null, { option: true }],
  recordNotifications: [false, { option: true }],
  pinServer: [null, { option: true }],
  app: async ({ page, appOptions, teamLedgerFor, recordNotifications, pinServer }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'treasury-e2e-'))
    appOptions.beforeOpen?.(join(dataDir, 'ledger.sqlite'))
    const dirs: string[] = []
    const files: string[] = []
    const opened: string[] = []
    const savePaths: Array<string | null> = []
    const printed: Array<{ mediaType: string; size: number }> = []
    const notifications: TestApp['notifications'] = []
    const sandbox = await startSandbox({ port: 0, httpControl: false, ...appOptions.sandbox })
    // The OS keychain outlives the app: one vault for every context of the test.
    const vault = createMemoryVault({ reason: 'encryption_unavailable' })
    const openContext = (): Promise<AppContext> =>
      createAppContext({
        dataDir,
        vault,
        store: createJsonFileStore(join(dataDir, 'settings.json')),
        app: { name: 'Tesouraria DePix', version: '0.0.0-e2e', platform: process.platform },
        operator: 'e2e',
        sandbox: appOptions.sandbox,
        runningSandbox: sandbox,
        trackerAutoStart: appOptions.trackerAutoStart,
        ...(teamLedgerFor ? { teamLedgerFor, teamLeaderRetryMs: 300 } : {}),
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
          ...(pinServer ? { pinServerPost: pinServer } : {}),
          ...(recordNotifications
            ? {
                notifier: {
                  supported: () => true,
                  show: (n: DesktopNotification, click: () => void) => notifications.push({ ...n, click }),
                },
              }
            : {}),
        },
      })
    let ctx = await openContext()
    if (appOptions.language !== 'pt-BR') ctx.profiles.updateSettings({ language: appOptions.language })
    // Main pushes events from the moment it exists (the start-up check's verdict among them); the app's window
    // receives every one, so none pushed while the page loads may be lost here either: they wait for the page.
    const early: Array<[string, unknown]> = []
    const offEarly = ctx.onEvent((event, payload) => void early.push([event, payload]))
    const bridge = await openRenderer(page, ctx.router)
    const forward = (c: AppContext): (() => void) =>
      c.onEvent((event, payload) => {
        bridge.emit(event, payload).catch(() => undefined)
      })
    offEarly()
    let off = forward(ctx)
    for (const [event, payload] of early) await bridge.emit(event, payload).catch(() => undefined)
    if (appOptions.startPage !== 'today') await page.getByTestId(`nav-${appOptions.startPage}`).click()
    mkdirSync(SCREENS_DIR, { recursive: true })
    await use({
      page,
      bridge,
      get ctx() {
        return ctx
      },
      sandbox,
      dataDir,
      opened,
      nextSavePath: (p) => savePaths.push(p),
      printed,
      notifications,
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
      restart: async () => {
        // Events keep reaching the page while the context closes (the shell's "waiting for a create" notice).
        await ctx.close()
        off()
        ctx = await openContext()
        off = forward(ctx)
        bridge.rebind(ctx.router)
        await page.reload()
      },
    })
    off()
    await ctx.close()
    await sandbox.close()
    rmSync(dataDir, { recursive: true, force: true })
  },
})

export { expect }
