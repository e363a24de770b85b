/**
 * Shared by the boot smoke tests: build out/ when stale, and run the driver (fixtures/boot-built-main.cjs) on a
 * built main file in its own Node 24 process with the recording stand-in of Electron's API.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'

export const repo = resolve(__dirname, '../..')
export const builtMain = join(repo, 'out/main/index.js')
const builtFiles = [
  builtMain,
  join(repo, 'out/preload/index.js'),
  join(repo, 'out/renderer/index.html'),
  join(repo, 'out/team-ledger/team-ledger.cjs'),
]

function newestMtime(path: string): number {
  const s = statSync(path)
  if (!s.isDirectory()) return s.mtimeMs
  return Math.max(0, ...readdirSync(path).map((f) => newestMtime(join(path, f))))
}

function isFresh(): boolean {
  const sources = Math.max(
    newestMtime(join(repo, 'src')),
    ...['electron.vite.config.ts', 'package.json', 'scripts/build-team-ledger.mjs'].map((f) =>
      newestMtime(join(repo, f)),
    ),
  )
  return builtFiles.every((f) => existsSync(f) && statSync(f).mtimeMs >= sources)
}

/**
 * Reuses out/ when it is newer than every source and config file; otherwise runs `npm run build`'s two steps, one test
 * file at a time (a lock directory), since the boot tests run in parallel workers.
 */
export function ensureBuilt(): void {
  if (isFresh()) return
  const lock = join(
    tmpdir(),
    `treasury-build-${createHash('sha256').update(repo).digest('hex').slice(0, 12)}.lock`,
  )
  const until = Date.now() + 300_000
  for (;;) {
    try {
      mkdirSync(lock)
      break
    } catch {
      if (Date.now() > until) throw new Error(`build lock ${lock} held for 5 minutes; remove it if stale`)
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 250)
    }
  }
  try {
    if (isFresh()) return
    const bin = join(repo, 'node_modules/electron-vite/bin/electron-vite.js')
    const r = spawnSync(process.execPath, [bin, 'build'], { cwd: repo, encoding: 'utf8', timeout: 300_000 })
    if (r.status !== 0) throw new Error(`electron-vite build failed:\n${r.stdout}\n${r.stderr}`)
    // The rest of `npm run build`: the database administrator's tool (issue #31).
    const tool = spawnSync(process.execPath, [join(repo, 'scripts/build-team-ledger.mjs')], {
      cwd: repo,
      encoding: 'utf8',
      timeout: 300_000,
    })
    if (tool.status !== 0) throw new Error(`team-ledger build failed:\n${tool.stdout}\n${tool.stderr}`)
  } finally {
    rmSync(lock, { recursive: true, force: true })
  }
}

export interface Call {
  api: string
  args: unknown[]
  ready: boolean
}
export interface Served {
  status: number
  headers: Record<string, string>
  body: string
}
export interface Report {
  requests: Array<{ request: string; resolved: string }>
  beforeReady: string[]
  calls: Call[]
  ipc: Record<
    'foreign' | 'noFrame' | 'fileUrl' | 'own' | 'devServer',
    { ok: boolean; error?: { code: string }; data?: unknown }
  >
  protocol: Record<
    'index' | 'root' | 'encodedTraversal' | 'siblingTraversal' | 'otherHost' | 'missing',
    Served
  >
  headers: { responseHeaders: Record<string, string[]> }
  devServerHeaders: { responseHeaders: Record<string, string[]> }
  hardening: { navigationPrevented: boolean; windowOpen: unknown }
  /** Issue #14: the payout journey of the normal scenario (boot-built-main.cjs payoutJourney). */
  payout?: unknown
  /** Issue #28: what the session's permission handlers and serial chooser answered (devicesJourney). */
  devices: Devices
}
export interface Devices {
  check: Record<
    'serialOwn' | 'serialForeign' | 'serialDevServer' | 'usbOwn' | 'hidOwn' | 'mediaOwn' | 'clipboardOwn',
    boolean
  >
  request: Record<'serialOwn' | 'serialForeign' | 'geolocationOwn', boolean>
  device: Record<'jadeOwn' | 'jadeForeign' | 'arduinoOwn' | 'jadeAsUsb', boolean>
  select: Record<
    'chosen' | 'cancelled' | 'noJade' | 'foreign',
    { prevented: boolean; portId: string; dialog: [{ buttons: string[]; cancelId: number }, string] | null }
  >
}
export interface Boot {
  status: number | null
  signal: string | null
  stderr: string
  report: Report
  userData: string
}

const temps: string[] = []

export function removeBootTemps(): void {
  for (const t of temps.splice(0)) rmSync(t, { recursive: true, force: true })
}
export function boot(
  mainFile: string,
  scenario: 'normal' | 'dev' | 'failure' | 'lock-denied',
  prepare?: (userData: string) => void,
): Boot {
  const userData = mkdtempSync(join(tmpdir(), `built-main-${scenario}-`))
  temps.push(userData)
  prepare?.(userData)
  const reportFile = join(userData, '..', `${userData.split('/').pop()}.report.json`)
  temps.push(reportFile)
  const r = spawnSync(process.execPath, [join(__dirname, 'fixtures/boot-built-main.cjs'), mainFile], {
    cwd: repo,
    encoding: 'utf8',
    timeout: 90_000,
    env: {
      ...withoutDevServer(process.env),
      BOOT_SCENARIO: scenario,
      BOOT_REPORT: reportFile,
      STAND_IN_USER_DATA: userData,
      STAND_IN_LOCK: scenario === 'lock-denied' ? 'denied' : 'granted',
      STAND_IN_LOCALES: 'pt-BR',
      // `npm run dev` sets the dev server's URL; elsewhere it is absent, and an empty one must count as absent.
      ELECTRON_RENDERER_URL: scenario === 'dev' ? 'http://localhost:5173' : '',
    },
  })
  if (!existsSync(reportFile)) throw new Error(`no report (status ${r.status}):\n${r.stderr}`)
  const report = JSON.parse(readFileSync(reportFile, 'utf8')) as Report & { driverError?: string }
  if (report.driverError) throw new Error(`${report.driverError}\n${r.stderr}`)
  return { status: r.status, signal: r.signal, stderr: r.stderr, report, userData }
}

function withoutDevServer(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { ELECTRON_RENDERER_URL: _ignored, ...rest } = env
  return rest
}

export const apis = (calls: Call[]): string[] => calls.map((c) => c.api)
