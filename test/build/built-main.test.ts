/**
 * Boot smoke test of the BUILT shell. No Electron binary can be downloaded where CI runs, so this loads
 * out/main/index.js (what `npm start` and the installers run) under plain Node 24 with `require('electron')`
 * answered by a recording STAND-IN of Electron's API (fixtures/electron-stand-in.cjs) — not Electron. It catches
 * what a real first start would hit first: import-time breakage (a missing or ESM-only package, a bad bundle) and
 * wiring mistakes (order, hardening, IPC sender check, the app:// handler, the quit and failure paths). Electron's
 * own enforcement (sandbox, CSP) is covered by the Electron E2E where a binary exists.
 *
 * Each scenario runs the driver (fixtures/boot-built-main.cjs) in its own Node process.
 */
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { builtinModules } from 'node:module'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { CONTENT_SECURITY_POLICY, devContentSecurityPolicy } from '../../src/main/shell/renderer-policy'
import { apis, boot, builtMain as mainFile, ensureBuilt, removeBootTemps, repo, type Boot } from './boot'

let normal: Boot
beforeAll(() => {
  ensureBuilt()
  normal = boot(mainFile, 'normal')
}, 400_000)
afterAll(removeBootTemps)

describe('built out/main under a recording stand-in of Electron', () => {
  it('before ready: app:// registered privileged, the renderer sandbox enabled, the single-instance lock taken', () => {
    expect(normal.report.beforeReady).toEqual([
      'protocol.registerSchemesAsPrivileged',
      'app.enableSandbox',
      'app.requestSingleInstanceLock',
      'app.whenReady',
    ])
    const register = normal.report.calls.find((c) => c.api === 'protocol.registerSchemesAsPrivileged')
    expect(register?.args).toEqual([
      [
        {
          scheme: 'app',
          privileges: { standard: true, secure: true, supportFetchAPI: false, corsEnabled: false },
        },
      ],
    ])
    // Everything else waits for ready.
    const firstAfter = normal.report.calls.findIndex((c) => c.api === 'app.ready')
    expect(normal.report.calls.slice(firstAfter + 1).every((c) => c.ready)).toBe(true)
    expect(apis(normal.report.calls)).toContain('protocol.handle')
  })

  it('one window, webPreferences exactly as hardened, loading app://treasury/index.html', () => {
    const windows = normal.report.calls.filter((c) => c.api === 'new BrowserWindow')
    expect(windows).toHaveLength(1)
    const options = windows[0]?.args[0] as { webPreferences: Record<string, unknown>; show: boolean }
    expect(options.show).toBe(false)
    expect(options.webPreferences).toEqual({
      preload: join(repo, 'out/preload/index.js'),
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
      devTools: true, // the stand-in says not packaged; packaged builds get false
    })
    expect(existsSync(options.webPreferences['preload'] as string)).toBe(true)
    expect(normal.report.calls.find((c) => c.api === 'BrowserWindow.loadURL')?.args).toEqual([
      'app://treasury/index.html',
    ])
    expect(normal.report.hardening).toEqual({ navigationPrevented: true, windowOpen: { action: 'deny' } })
  })

  it('exactly one invoke handler, which refuses every foreign sender and answers our own page', () => {
    const handles = normal.report.calls.filter((c) => c.api === 'ipcMain.handle')
    expect(handles.map((c) => c.args[0])).toEqual(['treasury:invoke'])
    for (const foreign of ['foreign', 'noFrame', 'fileUrl'] as const) {
      expect(normal.report.ipc[foreign]).toEqual({
        ok: false,
        error: { code: 'forbidden_sender', message: 'Forbidden sender' },
      })
    }
    expect(normal.report.ipc.own).toMatchObject({ ok: true, data: { sandbox: true, profileName: 'Sandbox' } })
  })

  it('app:// serves the built index.html with the CSP headers, and 404 for traversal and other hosts', () => {
    const { index, root, encodedTraversal, siblingTraversal, otherHost, missing } = normal.report.protocol
    for (const page of [index, root]) {
      expect(page.status).toBe(200)
      expect(page.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY)
      expect(page.headers['x-content-type-options']).toBe('nosniff')
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(page.body).toMatch(/^<!doctype html>/i)
      // The build keeps the meta policy (only the dev server drops it).
      expect(page.body).toContain('http-equiv="Content-Security-Policy"')
    }
    // ../../package.json and ../main/index.js exist: the 404 is the refusal, not a missing file.
    for (const refused of [encodedTraversal, siblingTraversal, otherHost, missing]) {
      expect(refused.status).toBe(404)
    }
    expect(normal.report.headers.responseHeaders['Content-Security-Policy']).toEqual([
      CONTENT_SECURITY_POLICY,
    ])
    expect(normal.report.headers.responseHeaders['X-Upstream']).toEqual(['kept'])
    // No dev server: a localhost page gets the production policy and may not call main.
    expect(normal.report.devServerHeaders.responseHeaders['Content-Security-Policy']).toEqual([
      CONTENT_SECURITY_POLICY,
    ])
    expect(normal.report.ipc.devServer).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } })
  })

  it('npm run dev: the window loads the dev server, whose responses alone get the dev policy', () => {
    const dev = boot(mainFile, 'dev')
    expect(dev.status).toBe(0)
    expect(dev.report.calls.find((c) => c.api === 'BrowserWindow.loadURL')?.args).toEqual([
      'http://localhost:5173',
    ])
    expect(dev.report.devServerHeaders.responseHeaders['Content-Security-Policy']).toEqual([
      devContentSecurityPolicy('http://localhost:5173'),
    ])
    expect(dev.report.headers.responseHeaders['Content-Security-Policy']).toEqual([CONTENT_SECURITY_POLICY])
    expect(dev.report.ipc.devServer).toMatchObject({ ok: true })
    expect(dev.report.ipc.foreign).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } })
    // Issue #28: in development the dev server's page is ours for the serial permission too, nothing more.
    expect(dev.report.devices.check).toMatchObject({
      serialDevServer: true,
      serialForeign: false,
      usbOwn: false,
    })
  })

  it('quitting closes the app context first, then quits; afterwards nothing keeps the process alive', () => {
    const quit = normal.report.calls.filter((c) => c.api === 'app.quit' || c.api === 'app.before-quit')
    expect(quit).toEqual([
      { api: 'app.quit', args: [], ready: true },
      { api: 'app.before-quit', args: [{ prevented: true }], ready: true },
      { api: 'app.quit', args: [], ready: true },
      { api: 'app.before-quit', args: [{ prevented: false }], ready: true },
    ])
    // The driver does not exit on its own: the process ends only if the sandbox server, tracker timers and
    // ledger were all closed. A context left open keeps it running until the spawn timeout kills it.
    expect(normal.signal).toBeNull()
    expect(normal.status).toBe(0)
  })

  it('issue #28: serial only for our own page and only for a Jade, through our own chooser; all else denied', () => {
    const d = normal.report.devices
    expect(apis(normal.report.calls)).toEqual(
      expect.arrayContaining(['session.setDevicePermissionHandler', 'session.on']),
    )
    expect(d.check).toEqual({
      serialOwn: true,
      serialForeign: false,
      serialDevServer: false, // no dev server running
      usbOwn: false,
      hidOwn: false,
      mediaOwn: false,
      clipboardOwn: true,
    })
    expect(d.request).toEqual({ serialOwn: true, serialForeign: false, geolocationOwn: false })
    expect(d.device).toEqual({ jadeOwn: true, jadeForeign: false, arduinoOwn: false, jadeAsUsb: false })
    // The chooser lists the Jade only (not the Arduino), with Cancelar, over the app's window.
    expect(d.select.chosen).toEqual({
      prevented: true,
      portId: 'jade-1',
      dialog: [expect.objectContaining({ buttons: ['CP2104 (ttyUSB0)', 'Cancelar'], cancelId: 1 }), 'window'],
    })
    expect(d.select.cancelled).toMatchObject({ prevented: true, portId: '' })
    // No Jade, or a page that is not ours: no dialog at all, and no port.
    expect(d.select.noJade).toEqual({ prevented: true, portId: '', dialog: null })
    expect(d.select.foreign).toEqual({ prevented: true, portId: '', dialog: null })
  })

  it('issue #14: a payout notifies through Electron Notification (key masked); a click opens the record; the receipt is stored', () => {
    const payout = normal.report.payout as {
      localId: string
      notifications: Array<{ title: string; body: string }>
      opened: unknown[]
      receipt: { state: string; mediaType?: string }
      save: { saved: boolean }
    }
    expect(payout.notifications).toEqual([
      {
        title: 'Pagamento efetuado',
        body: expect.stringMatching(/^Pix enviado: R\$\s[\d.,]+ para \+55\*+77$/),
      },
    ])
    expect(payout.opened).toEqual([['treasury:event', 'notification:open', { localId: payout.localId }]])
    expect(payout.receipt).toMatchObject({ state: 'stored', mediaType: 'text/html' })
    // The stand-in's save dialog is cancelled: nothing written, no error.
    expect(payout.save).toEqual({ saved: false })
    expect(apis(normal.report.calls)).toContain('dialog.showSaveDialog')
  })

  it('prints no SQLite ExperimentalWarning (and nothing on stderr at all)', () => {
    expect(normal.stderr).not.toContain('ExperimentalWarning')
    expect(normal.stderr.trim()).toBe('')
  })

  it('loads at run time only packages that are in `dependencies`, none of them ESM-only, and no import()', () => {
    const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>
    }
    const builtins = new Set(builtinModules)
    const packages = normal.report.requests.filter(
      (r) => !r.request.startsWith('node:') && !builtins.has(r.request) && !r.request.startsWith('.'),
    )
    expect(packages.length).toBeGreaterThan(0)
    for (const { request, resolved } of packages) {
      const name = request.startsWith('@') ? request.split('/').slice(0, 2).join('/') : request.split('/')[0]!
      expect(Object.keys(pkg.dependencies), `${request} is loaded at run time`).toContain(name)
      // A data file main reads with fs (lwk_wasm's .wasm, src/main/wallet/lwk.ts) is resolved, not loaded.
      if (/\.wasm$/.test(resolved)) continue
      expect(moduleFormat(resolved), `${request} resolves to an ES module (${resolved})`).toBe('commonjs')
    }
    for (const esm of ['jose', 'electron-store', 'conf']) {
      expect(packages.map((p) => p.request)).not.toContain(esm)
    }
    // A dynamic import() would load ESM past the Module hook above; JSDoc `{import('…')}` types do not count.
    const code = readFileSync(mainFile, 'utf8')
      .split('\n')
      .filter((line) => !/^\s*(\*|\/\/|\/\*)/.test(line))
    expect(code.filter((line) => /\bimport\(/.test(line))).toEqual([])
    // One file, plus two workers (ledger/sqlite/verify-worker.ts, the start-up check; wallet/pay/build-worker.ts, LWK's
    // PSET builder): modules of their own that load nothing of index.js back — started by path, not imported.
    expect(readdirSync(dirname(mainFile))).toEqual(['chunks', 'index.js'])
    const chunks = readdirSync(join(dirname(mainFile), 'chunks')).sort()
    expect(chunks).toEqual([
      expect.stringMatching(/^build-worker-[0-9a-f]+\.js$/),
      expect.stringMatching(/^verify-worker-[0-9a-f]+\.js$/),
    ])
    for (const chunk of chunks) {
      const worker = readFileSync(join(dirname(mainFile), 'chunks', chunk), 'utf8')
      expect(worker).not.toMatch(/require\(["']\.\.?\//)
      expect(worker).not.toMatch(/\bimport\(/)
    }
  })
})

/** How Node loads `file`: by extension, else by the "type" of its package. */
function moduleFormat(file: string): 'commonjs' | 'module' {
  if (file.endsWith('.cjs')) return 'commonjs'
  if (file.endsWith('.mjs')) return 'module'
  return packageType(file) === 'module' ? 'module' : 'commonjs'
}

/** The "type" of the package.json nearest to `file`. */
function packageType(file: string): string | undefined {
  let dir = dirname(file)
  for (;;) {
    const p = join(dir, 'package.json')
    if (existsSync(p)) {
      const json = JSON.parse(readFileSync(p, 'utf8')) as { type?: string; name?: string }
      if (json.name) return json.type
    }
    const up = dirname(dir)
    if (up === dir) return undefined
    dir = up
  }
}

describe('built out/main: start-up failure and second instance', () => {
  it('a damaged ledger: the error box in Portuguese, the full error in userData/logs, the ledger untouched, exit 1', () => {
    const garbage = Buffer.from('this is not a ledger '.repeat(300))
    const failed = boot(mainFile, 'failure', (userData) =>
      writeFileSync(join(userData, 'ledger.sqlite'), garbage),
    )
    const calls = failed.report.calls
    const box = calls.filter((c) => c.api === 'dialog.showErrorBox')
    expect(box).toHaveLength(1)
    const [title, content] = box[0]!.args as [string, string]
    const log = join(failed.userData, 'logs', 'startup.log')
    expect(title).toBe('O Tesouraria DePix não pôde iniciar')
    expect(content).toContain('está danificado')
    expect(content).toContain(`O erro completo foi gravado em: ${log}`)
    expect(readFileSync(log, 'utf8')).toMatch(/ERR_SQLITE_ERROR[\s\S]*errcode: 26/)
    expect(apis(calls).indexOf('app.exit')).toBeGreaterThan(apis(calls).indexOf('dialog.showErrorBox'))
    expect(calls.find((c) => c.api === 'app.exit')?.args).toEqual([1])
    expect(apis(calls)).not.toContain('new BrowserWindow')
    expect(readFileSync(join(failed.userData, 'ledger.sqlite')).equals(garbage)).toBe(true)
    // Nothing beside the ledger but its lock (ledger/sqlite/lock.ts: SQLite's lock file, taken before the ledger is read).
    expect(
      readdirSync(failed.userData).filter(
        (f) => f.startsWith('ledger') && !f.startsWith('ledger.sqlite.lock'),
      ),
    ).toEqual(['ledger.sqlite'])
  })

  it('a second instance (lock denied) quits before ready and opens nothing', () => {
    const second = boot(mainFile, 'lock-denied')
    expect(apis(second.report.calls)).toEqual([
      'protocol.registerSchemesAsPrivileged',
      'app.enableSandbox',
      'app.requestSingleInstanceLock',
      'app.quit',
      'app.before-quit',
    ])
  })
})
