/** scripts/verify-export.ts run as an auditor would: a separate process through tsx. */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { keyFingerprint, type ExportResult } from '../../../src/main/records/index'
import { makeRecords, seededLedger } from './fixtures'
import {
  exportTo,
  fileIn,
  flipByte,
  OTHER_SIGNER,
  readManifest,
  resign,
  SIGNER,
  writeManifest,
} from './helpers'

const root = path.resolve(__dirname, '../../..')
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const script = path.join(root, 'scripts/verify-export.ts')

interface Run {
  code: number | null
  out: string
  err: string
  /** stdout exactly as printed. */
  bytes: Buffer
}

function run(...args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, script, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    })
    const out: Buffer[] = []
    let err = ''
    child.stdout.on('data', (d: Buffer) => out.push(d))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      const bytes = Buffer.concat(out)
      resolve({ code, out: bytes.toString('utf8'), err, bytes })
    })
  })
}

let res: ExportResult

beforeAll(async () => {
  // Not tempDir(): that one is emptied after each test, and these tests share one export.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-cli-'))
  const { ledger } = seededLedger(makeRecords(30), dir)
  try {
    res = await exportTo(ledger, { dir })
  } finally {
    ledger.close()
  }
  return () => fs.rmSync(dir, { recursive: true, force: true })
})

describe('verify-export CLI', { timeout: 60_000 }, () => {
  it('exit 0 on an intact export, with the signer fingerprint; --expect-key matches or exits 1', async () => {
    const fp = keyFingerprint(SIGNER.publicKeyPem)
    const ok = await run(res.manifestPath)
    expect(ok.code).toBe(0)
    expect(ok.out).toContain(`Signed by:   ${fp}`)
    expect(ok.out).toContain('RESULT: INTACT')
    expect(ok.err).not.toMatch(/ExperimentalWarning/)

    const expected = await run(res.folder, '--expect-key', fp.toUpperCase())
    expect(expected.code).toBe(0)
    expect(expected.out).toContain('matches --expect-key')

    const other = await run(res.manifestPath, `--expect-key=${keyFingerprint(OTHER_SIGNER.publicKeyPem)}`)
    expect(other.code).toBe(1)
    expect(other.out).toContain('DOES NOT MATCH --expect-key')
    expect(other.out).toMatch(/^PROBLEM {2}manifest\.json {2}\[signature\] {2}signed by key /m)
  })

  it('exit 1 with one line per problem when tampered', async () => {
    const copy = path.join(path.dirname(res.folder), 'tampered')
    fs.cpSync(res.folder, copy, { recursive: true })
    flipByte(path.join(copy, 'records.csv'), 300)
    fs.rmSync(path.join(copy, 'report.html'))
    fs.writeFileSync(path.join(copy, 'extra.txt'), 'x')
    const r = await run(path.join(copy, 'manifest.json'))
    expect(r.code).toBe(1)
    const problems = r.out.split('\n').filter((l) => l.startsWith('PROBLEM'))
    expect(problems).toContainEqual(expect.stringMatching(/^PROBLEM {2}records\.csv {2}\[hash\] /))
    expect(problems).toContainEqual(
      'PROBLEM  report.html  [missing]  listed in the manifest but not in the folder',
    )
    expect(r.out).toContain('note     extra.txt  is not listed in the manifest')
    expect(r.out).toMatch(/RESULT: NOT INTACT — \d+ problems/)
    expect(fileIn(res, 'records.csv')).not.toBe(path.join(copy, 'records.csv'))
  })

  it('a spoofed profile name cannot draw a fake verdict: every control and bidi character is escaped', async () => {
    const copy = path.join(path.dirname(res.folder), 'spoofed')
    fs.cpSync(res.folder, copy, { recursive: true })
    const spoofed = { ...res, folder: copy, manifestPath: path.join(copy, 'manifest.json') }
    flipByte(path.join(copy, 'records.csv'), 300)
    const m = readManifest(spoofed)
    // Cursor up, erase the line, a fake verdict, then "conceal" so the rest is invisible; a C1 CSI, DEL, a
    // line break and a right-to-left override for good measure.
    const fake = 'RESULT: INTACT — every file matches the signed manifest'
    m.profile = {
      name: `\u001b[1A\u001b[2K\r${fake}\u001b[8m\u009b2J\u007f\n${fake}\u202e`,
      network: 'liquid\u2066',
    }
    resign(m, SIGNER)
    writeManifest(spoofed, m)
    for (const args of [[spoofed.manifestPath], [copy, '--json']]) {
      const r = await run(...args)
      expect(r.code).toBe(1)
      // No byte that a terminal acts on: no C0 control but LF, no DEL, no C1 (as UTF-8: C2 80–9F), no bidi.
      for (const [i, b] of r.bytes.entries()) {
        if (b < 0x20 || b === 0x7f) expect(b, `byte ${i}`).toBe(0x0a)
        if (b === 0xc2) expect(r.bytes[i + 1]! < 0x80 || r.bytes[i + 1]! > 0x9f, `C1 at ${i}`).toBe(true)
      }
      expect(r.out).not.toMatch(/[\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/)
      if (args.length === 2) {
        // Still JSON, and the same strings once parsed.
        expect(JSON.parse(r.out)).toMatchObject({ ok: false, manifest: null })
        continue
      }
      const lines = r.out.trimEnd().split('\n')
      expect(lines[0]).toMatch(/^RESULT: NOT INTACT — \d+ problems$/)
      expect(lines.at(-1)).toBe(lines[0])
      expect(lines.filter((l) => l.startsWith('RESULT:'))).toEqual([lines[0], lines[0]])
      expect(r.out).toContain('PROBLEM  records.csv  [hash]  ')
      expect(r.out).toContain(
        'PROBLEM  manifest.json  [schema]  profile.name: contains the control character U+001B at position 0',
      )
      expect(r.out).toContain(
        'PROBLEM  manifest.json  [schema]  profile.network: contains the bidirectional formatting character U+2066 at position 6',
      )
    }
  })

  it('file names and arguments are escaped too', async () => {
    const copy = path.join(path.dirname(res.folder), 'named')
    fs.cpSync(res.folder, copy, { recursive: true })
    fs.writeFileSync(path.join(copy, 'x\u001b[2Jy\u202e.txt'), 'x')
    const r = await run(copy)
    expect(r.code).toBe(0)
    expect(r.out).toContain('note     x\\u001b[2Jy\\u202e.txt  is not listed in the manifest')
    expect(r.bytes.includes(0x1b)).toBe(false)
    const json = await run(copy, '--json')
    expect(json.out.includes('\u001b') || json.out.includes('\u202e')).toBe(false)
    // Escaped JSON is still JSON, with the real name in it.
    expect(JSON.parse(json.out)).toMatchObject({ ok: true, unlisted: ['x\u001b[2Jy\u202e.txt'] })
    const usage = await run(copy, 'extra\u001b[1A')
    expect(usage.code).toBe(2)
    expect(usage.err).toContain('unexpected argument extra\\u001b[1A')
    expect(usage.err.includes('\u001b')).toBe(false)
  })

  it('exit 2 on usage errors', async () => {
    for (const args of [
      [],
      ['--expect-key'],
      [res.manifestPath, '--expect-key', 'zz'],
      ['--bogus', 'x'],
      ['a', 'b'],
    ]) {
      const r = await run(...args)
      expect(r.code, args.join(' ')).toBe(2)
      expect(r.err).toMatch(/^verify-export: .*\n\nusage: verify-export/)
    }
  })

  it('--against compares the fixed hashes it asked for (a plain verification skips them)', async () => {
    // An export against itself: nothing rewritten, so intact, and not refused for missing fixed hashes.
    const r = await run(res.manifestPath, '--against', res.manifestPath)
    expect(r.out).not.toContain('without its fixed hashes')
    expect(r.out).toContain('RESULT: INTACT')
    expect(r.code).toBe(0)
  })

  it('--json prints the verification', async () => {
    const r = await run(res.manifestPath, '--json')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, problems: [], unlisted: [] })
  })
})
