/** scripts/verify-export.ts run as an auditor would: a separate process through tsx. */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { beforeAll, describe, expect, it } from 'vitest'
import { keyFingerprint, type ExportResult } from '../../../src/main/records/index'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, fileIn, flipByte, OTHER_SIGNER, SIGNER } from './helpers'

const root = path.resolve(__dirname, '../../..')
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const script = path.join(root, 'scripts/verify-export.ts')

function run(...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, script, ...args], {
      cwd: root,
      env: { ...process.env, NO_COLOR: '1' },
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => resolve({ code, out, err }))
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

  it('--json prints the verification', async () => {
    const r = await run(res.manifestPath, '--json')
    expect(r.code).toBe(0)
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, problems: [], unlisted: [] })
  })
})
