#!/usr/bin/env node
/**
 * `npm start` / `npm run dev`: find an Electron binary, fetching it when missing, then run electron-vite with it.
 *
 * Since Electron 42 the `electron` package downloads its binary on the first `require('electron')`, not in
 * `postinstall`; electron-vite 6 never requires it, it reads `node_modules/electron/path.txt` and throws
 * "Electron uninstall" when that is missing (alex8088/electron-vite#904). So this script does the download, with
 * the electron package's own installer, and hands electron-vite the binary through `ELECTRON_EXEC_PATH` (which its
 * `getElectronPath` reads first). It never runs from `postinstall`: `npm ci` and `npm test` must work offline.
 *
 * Order: `ELECTRON_OVERRIDE_DIST_PATH` (when set it must hold a binary: set means "do not download") → the
 * installed binary → `node_modules/electron/install.js` → one sentence saying what to do, exit 1.
 *
 * Usage: node scripts/ensure-electron.mjs <dev|preview> [electron-vite options]
 */
import { spawn, spawnSync } from 'node:child_process'
import { accessSync, constants, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const requireFromRoot = createRequire(path.join(root, 'package.json'))
const electronDir = path.dirname(requireFromRoot.resolve('electron/package.json'))
const electronVersion = JSON.parse(readFileSync(path.join(electronDir, 'package.json'), 'utf8')).version

/** Where the binary sits inside an Electron dist folder (the same table as electron's install.js). */
function platformPath() {
  switch (process.platform) {
    case 'darwin':
      return 'Electron.app/Contents/MacOS/Electron'
    case 'win32':
      return 'electron.exe'
    default:
      return 'electron'
  }
}

function isExecutableFile(file) {
  try {
    if (!statSync(file).isFile()) return false
    if (process.platform !== 'win32') accessSync(file, constants.X_OK)
    return true
  } catch {
    return false
  }
}

function fail(sentence) {
  process.stderr.write(`${sentence}\n`)
  process.exit(1)
}

/** Electron's convention is a dist folder (joined with the platform path); the binary itself is accepted too. */
function fromOverride(override) {
  const candidates = [path.join(override, platformPath()), override]
  return candidates.find(isExecutableFile) ?? null
}

function installedBinary() {
  try {
    const relative = readFileSync(path.join(electronDir, 'path.txt'), 'utf8').trim()
    const version = readFileSync(path.join(electronDir, 'dist', 'version'), 'utf8').trim()
    const binary = path.join(electronDir, 'dist', relative)
    return version.replace(/^v/, '') === electronVersion && isExecutableFile(binary) ? binary : null
  } catch {
    return null
  }
}

/** The installer's own reason, shortened to its message: "fetch failed", "HTTP 404"… */
function installerReason(stderr) {
  const line = stderr
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !l.startsWith('at '))
  return line ? line.replace(/^[A-Za-z]*Error:\s*/, '').slice(0, 160) : 'no reason given'
}

function findBinary() {
  const override = process.env['ELECTRON_OVERRIDE_DIST_PATH']
  if (override) {
    return (
      fromOverride(override) ??
      fail(
        `ELECTRON_OVERRIDE_DIST_PATH is set to ${override}, but there is no Electron binary there (expected ${path.join(override, platformPath())}): point it at the folder of an Electron ${electronVersion} build, or unset it so that \`npm start\` downloads Electron.`,
      )
    )
  }
  const installed = installedBinary()
  if (installed) return installed

  process.stdout.write(`Downloading Electron ${electronVersion} (first start only)…\n`)
  const result = spawnSync(process.execPath, [path.join(electronDir, 'install.js')], {
    cwd: electronDir,
    stdio: ['ignore', 'inherit', 'pipe'],
    encoding: 'utf8',
  })
  const afterInstall = result.status === 0 ? installedBinary() : null
  if (afterInstall) return afterInstall
  return fail(
    `The Electron ${electronVersion} binary is not installed and could not be downloaded (${installerReason(result.stderr ?? String(result.error ?? ''))}): connect this machine to the internet and run the command again, or set ELECTRON_OVERRIDE_DIST_PATH to the folder of an Electron ${electronVersion} build, or put electron-v${electronVersion}-${process.platform}-${process.arch}.zip in the Electron download cache (electron_config_cache) or serve it from ELECTRON_MIRROR.`,
  )
}

const [mode, ...rest] = process.argv.slice(2)
if (mode !== 'dev' && mode !== 'preview')
  fail('Usage: node scripts/ensure-electron.mjs <dev|preview> [electron-vite options]')

const env = { ...process.env, ELECTRON_EXEC_PATH: findBinary() }
// Chromium refuses to run as root with its sandbox on; only then is it turned off (electron-vite adds --no-sandbox).
if (process.getuid?.() === 0 && env['NO_SANDBOX'] === undefined) {
  env['NO_SANDBOX'] = '1'
  process.stdout.write('Running as root: Electron starts with --no-sandbox.\n')
}

const electronVite = path.join(
  path.dirname(requireFromRoot.resolve('electron-vite/package.json')),
  'bin',
  'electron-vite.js',
)
const child = spawn(process.execPath, [electronVite, mode, ...rest], { cwd: root, stdio: 'inherit', env })
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => child.kill(signal))
}
child.on('close', (code, signal) => process.exit(code ?? (signal ? 1 : 0)))
