/**
 * scripts/ensure-electron.mjs, run as `npm start` runs it, in a throw-away project: a copy of the script and of
 * the electron package's own files (index, installer, checksums), with electron-vite and @electron/get linked from
 * ours. A shell script stands in for the Electron binary and records how it was started.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'

const repo = resolve(__dirname, '../..')
const electronVersion = (
  JSON.parse(readFileSync(join(repo, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version

let project: string

beforeEach(() => {
  project = mkdtempSync(join(tmpdir(), 'ensure-electron-'))
  mkdirSync(join(project, 'scripts'))
  copyFileSync(join(repo, 'scripts/ensure-electron.mjs'), join(project, 'scripts/ensure-electron.mjs'))
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'p', main: './out/main/index.js' }))
  const electron = join(project, 'node_modules/electron')
  mkdirSync(electron, { recursive: true })
  for (const f of ['package.json', 'index.js', 'install.js', 'checksums.json']) {
    copyFileSync(join(repo, 'node_modules/electron', f), join(electron, f))
  }
  for (const linked of ['electron-vite', '@electron', '@electron-internal']) {
    symlinkSync(join(repo, 'node_modules', linked), join(project, 'node_modules', linked), 'dir')
  }
})

afterEach(() => rmSync(project, { recursive: true, force: true }))

/** An executable that writes its path and arguments to `log` and exits 0, as a quitting Electron would. */
function fakeElectron(dir: string, log: string): string {
  mkdirSync(dir, { recursive: true })
  const file = join(dir, 'electron')
  writeFileSync(file, `#!/bin/sh\nprintf '%s\\n' "$0" "$@" > '${log}'\n`)
  chmodSync(file, 0o755)
  return file
}

function run(env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const base = Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(ELECTRON_|NO_SANDBOX$|npm_config_electron|npm_package_config_electron|electron_)/i.test(k),
    ),
  ) as Record<string, string>
  const r = spawnSync(
    process.execPath,
    [join(project, 'scripts/ensure-electron.mjs'), 'preview', '--skipBuild'],
    {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      // ELECTRON_ENTRY: electron-vite then does not look for a built out/main in the throw-away project.
      env: { ...base, ELECTRON_ENTRY: '.', electron_config_cache: join(project, 'cache'), ...env },
    },
  )
  return { status: r.status, stdout: r.stdout, stderr: r.stderr }
}

const asRoot = process.getuid?.() === 0

describe('ensure-electron', () => {
  it('without a binary and without a reachable download, fails with one sentence and no stack trace', () => {
    // Port 1 on loopback refuses connections: the installer's download fails as it does offline.
    const r = run({ ELECTRON_MIRROR: 'http://127.0.0.1:1/' })
    expect(r.status).toBe(1)
    const lines = r.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toMatch(
      new RegExp(
        `^The Electron ${electronVersion.replace(/\./g, '\\.')} binary is not installed and could not be downloaded \\(`,
      ),
    )
    expect(lines[0]).toContain('ELECTRON_OVERRIDE_DIST_PATH')
    expect(lines[0]).toContain('ELECTRON_MIRROR')
    expect(lines[0]).toContain('electron_config_cache')
    expect(r.stderr).not.toMatch(/\n\s+at /)
    // It really ran the electron package's installer, which found nothing to install.
    expect(existsSync(join(project, 'node_modules/electron/path.txt'))).toBe(false)
  })

  it('honours ELECTRON_OVERRIDE_DIST_PATH: electron-vite starts that binary, without downloading', () => {
    const log = join(project, 'started.txt')
    const binary = fakeElectron(join(project, 'my-electron'), log)
    const r = run({
      ELECTRON_OVERRIDE_DIST_PATH: join(project, 'my-electron'),
      ELECTRON_MIRROR: 'http://127.0.0.1:1/',
    })
    expect(r.stderr).not.toContain('could not be downloaded')
    expect(r.status).toBe(0)
    const [argv0, ...args] = readFileSync(log, 'utf8').trim().split('\n')
    expect(argv0).toBe(binary)
    expect(args[0]).toBe('.')
    expect(args.includes('--no-sandbox')).toBe(asRoot)
    expect(existsSync(join(project, 'node_modules/electron/dist'))).toBe(false)
  })

  it('an override that holds no binary is an error, not a silent download', () => {
    const r = run({ ELECTRON_OVERRIDE_DIST_PATH: join(project, 'nowhere') })
    expect(r.status).toBe(1)
    expect(r.stderr.trim().split('\n')).toHaveLength(1)
    expect(r.stderr).toContain(`ELECTRON_OVERRIDE_DIST_PATH is set to ${join(project, 'nowhere')}`)
    expect(r.stdout).not.toContain('Downloading')
  })

  it('uses the installed binary (path.txt + dist) without running the installer', () => {
    const log = join(project, 'started.txt')
    const dist = join(project, 'node_modules/electron/dist')
    const binary = fakeElectron(dist, log)
    writeFileSync(join(dist, 'version'), `v${electronVersion}`)
    writeFileSync(join(project, 'node_modules/electron/path.txt'), 'electron')
    const r = run({ ELECTRON_MIRROR: 'http://127.0.0.1:1/' })
    expect(r.status).toBe(0)
    expect(r.stdout).not.toContain('Downloading')
    expect(readFileSync(log, 'utf8').split('\n')[0]).toBe(binary)
  })

  it('an installed binary of another version is not used: the installer runs', () => {
    const dist = join(project, 'node_modules/electron/dist')
    fakeElectron(dist, join(project, 'started.txt'))
    writeFileSync(join(dist, 'version'), 'v1.0.0')
    writeFileSync(join(project, 'node_modules/electron/path.txt'), 'electron')
    const r = run({ ELECTRON_MIRROR: 'http://127.0.0.1:1/' })
    expect(r.status).toBe(1)
    expect(r.stdout).toContain('Downloading')
    expect(existsSync(join(project, 'started.txt'))).toBe(false)
  })
})
