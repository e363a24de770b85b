/**
 * The packaged app, as far as it can be built offline. `electron-builder --dir` needs an Electron binary (it
 * downloads the release zip otherwise) and flips the fuses inside it. Here it gets a STAND-IN distribution: a shell
 * script carrying Electron's fuse sentinel and a default fuse wire, so electron-builder runs for real — resolving
 * production packages, writing app.asar, flipping the fuses with @electron/fuses — on a binary that is not Electron.
 * Then: the fuse wire it wrote, what app.asar holds, and the main file from inside the asar booted under Node 24
 * with the recording stand-in of Electron's API and only the packaged node_modules.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { builtinModules, createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join, sep } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { boot, ensureBuilt, removeBootTemps, repo, type Boot } from './boot'

// electron-builder's own libraries, resolved from it.
const fromBuilderLib = createRequire(
  createRequire(require.resolve('electron-builder')).resolve('app-builder-lib'),
)
const fuses = fromBuilderLib('@electron/fuses') as {
  SENTINEL?: string
  getCurrentFuseWire(binary: string): Promise<Record<string, number | string>>
}
const asar = fromBuilderLib('@electron/asar') as { extractAll(archive: string, dest: string): void }
const SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX' // @electron/fuses constants.js
const DISABLE = 48
const ENABLE = 49

let work: string
let unpacked: string
let extracted: string
let packaged: Boot

function duBytes(path: string): number {
  const s = statSync(path)
  return s.isDirectory() ? readdirSync(path).reduce((n, f) => n + duBytes(join(path, f)), 0) : s.size
}

beforeAll(() => {
  ensureBuilt()
  work = mkdtempSync(join(tmpdir(), 'packaged-main-'))
  const dist = join(work, 'stand-in-electron-dist')
  mkdirSync(dist)
  // Electron 45's fuse wire v1 (8 fuses) with Electron's defaults: runAsNode, NODE_OPTIONS, --inspect and file://
  // privileges on; cookie encryption, asar integrity, asar-only and the browser V8 snapshot off.
  const binary = Buffer.concat([
    Buffer.from('#!/bin/sh\n# stand-in of the Electron binary, not Electron\nexit 0\n'),
    Buffer.from(SENTINEL),
    Buffer.from([1, 8]),
    Buffer.from('10110001'),
  ])
  writeFileSync(join(dist, 'electron'), binary)
  chmodSync(join(dist, 'electron'), 0o755)
  writeFileSync(join(dist, 'version'), '45.4.1')
  writeFileSync(join(dist, 'LICENSE'), 'stand-in')
  const output = join(work, 'dist')
  const r = spawnSync(
    process.execPath,
    [
      join(repo, 'node_modules/electron-builder/cli.js'),
      '--dir',
      '--linux',
      '--config',
      'electron-builder.yml',
      `-c.electronDist=${dist}`,
      `-c.directories.output=${output}`,
      '--publish',
      'never',
    ],
    { cwd: repo, encoding: 'utf8', timeout: 600_000 },
  )
  if (r.status !== 0) throw new Error(`electron-builder --dir failed:\n${r.stdout}\n${r.stderr}`)
  unpacked = join(output, 'linux-unpacked')
  extracted = join(work, 'app')
  asar.extractAll(join(unpacked, 'resources', 'app.asar'), extracted)
  packaged = boot(join(extracted, 'out/main/index.js'), 'normal')
}, 900_000)

afterAll(() => {
  removeBootTemps()
  if (work) rmSync(work, { recursive: true, force: true })
})

describe('electron-builder --dir on a stand-in Electron distribution', () => {
  it('flips every configured fuse in the packaged binary', async () => {
    if (fuses.SENTINEL) expect(fuses.SENTINEL).toBe(SENTINEL)
    const wire = await fuses.getCurrentFuseWire(join(unpacked, 'tesouraria-depix'))
    expect(wire).toEqual({
      version: '1',
      0: DISABLE, // runAsNode
      1: ENABLE, // cookie encryption
      2: DISABLE, // NODE_OPTIONS
      3: DISABLE, // --inspect
      4: ENABLE, // embedded asar integrity validation
      5: ENABLE, // only load the app from app.asar
      6: DISABLE, // browser-specific V8 snapshot: not configured, Electron's default kept
      7: DISABLE, // extra file:// privileges
    })
  })

  it('app.asar holds the build, package.json and only the production packages', () => {
    expect(readdirSync(extracted).sort()).toEqual(['node_modules', 'out', 'package.json'])
    const modules = readdirSync(join(extracted, 'node_modules'))
    for (const runtime of ['liquidjs-lib', 'qrcode', 'undici', 'zod']) expect(modules).toContain(runtime)
    for (const devOnly of [
      'react',
      'react-dom',
      'i18next',
      'zustand',
      '@tanstack',
      'electron',
      'electron-store',
      'jose',
      'conf',
      'vite',
    ]) {
      expect(modules).not.toContain(devOnly)
    }
    const size = (p: string): string => `${(duBytes(p) / 1e6).toFixed(1)} MB`
    console.log(
      `packaged app (unpacked from app.asar): ${size(extracted)} = out ${size(join(extracted, 'out'))} + node_modules ${size(join(extracted, 'node_modules'))} (${modules.length} entries); app.asar ${size(join(unpacked, 'resources', 'app.asar'))}`,
    )
  })

  it('ships the team-ledger tool beside the asar, runnable with plain node (issue #31)', () => {
    const tool = join(unpacked, 'resources', 'team-ledger')
    expect(readdirSync(tool).sort()).toEqual(['setup.sql', 'team-ledger.cjs'])
    expect(readdirSync(join(extracted, 'out')).sort()).toEqual(['main', 'preload', 'renderer'])
    const r = spawnSync(process.execPath, [join(tool, 'team-ledger.cjs'), '--help'], {
      cwd: work,
      encoding: 'utf8',
      env: { PATH: '/usr/bin:/bin' },
    })
    expect(r.stderr).toBe('')
    expect(r.stdout).toContain('usage: team-ledger <command>')
  })

  it('the main file inside the asar boots with only the packaged node_modules', () => {
    expect(packaged.signal).toBeNull()
    expect(packaged.status).toBe(0)
    expect(packaged.stderr.trim()).toBe('')
    expect(packaged.report.ipc.own).toMatchObject({ ok: true, data: { sandbox: true } })
    expect(packaged.report.protocol.index.status).toBe(200)
    expect(packaged.report.requests.length).toBeGreaterThan(0)
    // Node's own modules aside (electron-vite's worker path asks for `path`, not `node:path`), every module the
    // bundle loads comes from the asar's node_modules.
    for (const { request, resolved } of packaged.report.requests) {
      if (request.startsWith('node:') || builtinModules.includes(request)) continue
      expect(resolved.startsWith(join(extracted, 'node_modules') + sep), resolved).toBe(true)
    }
    expect(existsSync(join(extracted, 'out/preload/index.js'))).toBe(true)
  })
})
