/**
 * Electron shell ONLY: lifecycle, window hardening (docs/adr/0012-untrusted-renderer-one-typed-bridge.md) and wiring. Everything it wires is Electron-free
 * and tested under plain Node.
 */
import { mkdirSync } from 'node:fs'
import { userInfo } from 'node:os'
import { join } from 'node:path'
import {
  app,
  BrowserWindow,
  dialog,
  ipcMain,
  Menu,
  protocol,
  session,
  shell,
  type WebContents,
} from 'electron'
import { EVENT_CHANNEL, INVOKE_CHANNEL } from '../shared/ipc-names'
import { createAppContext, type AppContext } from './app/context'
import { LedgerError } from './ledger/model/errors'
import { safeStorageCrypto } from './secrets/safe-storage'
import { openFileVault } from './secrets/vault'
import { electronSettingsStore } from './shell/electron-settings-store'
import { chooseFolderWithDialog } from './shell/electron-folder-dialog'
import { chooseFileWithDialog } from './shell/electron-file-dialog'
import { electronNotifier } from './shell/electron-notifier'
import { chooseReceiptSavePath, printReceipt } from './shell/electron-receipt-dialogs'
import { quietSqliteExperimentalWarning } from './ledger/sqlite/quiet-warnings'
import {
  APP_HOST,
  APP_ORIGIN,
  APP_SCHEME,
  isAllowedExternalUrl,
  isAllowedSender,
  readRendererAsset,
  RENDERER_HEADERS,
  rendererHeadersFor,
} from './shell/renderer-policy'
import { reportStartupFailure } from './shell/startup-failure'
import { installDevicePolicy } from './shell/electron-devices'

quietSqliteExperimentalWarning()

// `||`: an empty variable means no dev server, not an empty URL to load.
const devServerUrl = (!app.isPackaged && process.env['ELECTRON_RENDERER_URL']) || undefined
const rendererDir = join(__dirname, '../renderer')

protocol.registerSchemesAsPrivileged([
  {
    scheme: APP_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false },
  },
])
app.enableSandbox()

if (!app.requestSingleInstanceLock()) {
  app.quit()
} else {
  app.on('second-instance', () => {
    const win = BrowserWindow.getAllWindows()[0]
    if (win) {
      if (win.isMinimized()) win.restore()
      win.focus()
    }
  })
  void app
    .whenReady()
    .then(start)
    .catch((e: unknown) => {
      const { logFile } = reportStartupFailure(e, {
        dataDir: app.getPath('userData'),
        systemLocales: app.getPreferredSystemLanguages(),
        header: `${app.getName()} ${app.getVersion()} ${process.platform}`,
        // A ledger refused at open (empty, replaced, older, damaged) says why in its own words, both languages.
        showErrorBox: (title, content) =>
          dialog.showErrorBox(
            title,
            e instanceof LedgerError && e.userMessage
              ? `${e.userMessage['pt-BR']}\n\n${e.userMessage.en}\n\n${content}`
              : content,
          ),
      })
      console.error(`start failed; details in ${logFile ?? 'no log file'}`)
      app.exit(1)
    })
}

let context: AppContext | null = null
let quitting = false
app.on('before-quit', (event) => {
  // Log out and stop the tracker before the process goes: a session left open is a token left valid.
  if (!context || quitting) return
  event.preventDefault()
  quitting = true
  const ctx = context
  context = null
  void ctx.close().finally(() => app.quit())
})
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit()
})

function hardenContents(contents: WebContents): void {
  contents.on('will-navigate', (event) => event.preventDefault())
  contents.on('will-redirect', (event) => event.preventDefault())
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    if (isAllowedExternalUrl(url)) void shell.openExternal(url)
    return { action: 'deny' }
  })
}

async function start(): Promise<void> {
  const ses = session.defaultSession
  // Copy buttons, and a Jade's serial port for our own page only (src/main/shell/device-policy.ts).
  installDevicePolicy(ses, {
    devServerUrl,
    language: () => context?.profiles.settings().language ?? 'pt-BR',
  })
  ses.webRequest.onHeadersReceived((details, callback) => {
    const headers = rendererHeadersFor(details.url, devServerUrl)
    callback({ responseHeaders: { ...details.responseHeaders, ...asHeaderLists(headers) } })
  })
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url)
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 })
    const asset = await readRendererAsset(rendererDir, url.pathname)
    if (!asset) return new Response('Not found', { status: 404 })
    return new Response(new Uint8Array(asset.body), {
      headers: { 'Content-Type': asset.contentType, ...RENDERER_HEADERS },
    })
  })

  const dataDir = app.getPath('userData')
  mkdirSync(dataDir, { recursive: true })
  const ctx = await createAppContext({
    dataDir,
    vault: openFileVault({ file: join(dataDir, 'secrets.bin'), crypto: safeStorageCrypto() }),
    store: await electronSettingsStore(),
    app: { name: app.getName(), version: app.getVersion(), platform: process.platform },
    operator: userInfo().username,
    ports: {
      chooseDirectory: chooseFolderWithDialog,
      chooseFile: chooseFileWithDialog,
      openExternal: (url) => shell.openExternal(url),
      chooseSavePath: chooseReceiptSavePath,
      printDocument: printReceipt,
      notifier: electronNotifier,
    },
    log: (line) => console.log(line),
  })
  context = ctx
  ipcMain.handle(INVOKE_CHANNEL, async (event, channel: unknown, input: unknown) => {
    if (!isAllowedSender(event.senderFrame?.url, devServerUrl)) {
      return { ok: false, error: { code: 'forbidden_sender', message: 'Forbidden sender' } }
    }
    return ctx.router.handle(channel, input)
  })
  ctx.onEvent((name, payload) => {
    for (const win of BrowserWindow.getAllWindows()) win.webContents.send(EVENT_CHANNEL, name, payload)
  })

  app.on('web-contents-created', (_e, contents) => hardenContents(contents))
  Menu.setApplicationMenu(buildMenu())
  createWindow()
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow()
  })
}

function createWindow(): void {
  const win = new BrowserWindow({
    width: 1280,
    height: 820,
    show: false,
    title: 'Tesouraria DePix',
    webPreferences: {
      preload: join(__dirname, '../preload/index.js'),
      sandbox: true,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: false,
      devTools: !app.isPackaged,
    },
  })
  hardenContents(win.webContents)
  win.once('ready-to-show', () => win.show())
  void win.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`)
}

function buildMenu(): Menu {
  const isMac = process.platform === 'darwin'
  return Menu.buildFromTemplate([
    ...(isMac ? [{ role: 'appMenu' as const }] : []),
    { role: 'fileMenu' },
    { role: 'editMenu' },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(app.isPackaged ? [] : [{ role: 'toggleDevTools' as const }]),
      ],
    },
    { role: 'windowMenu' },
  ])
}

function asHeaderLists(headers: Readonly<Record<string, string>>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(headers).map(([k, v]) => [k, [v]]))
}
