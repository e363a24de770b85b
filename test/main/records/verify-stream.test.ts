/**
 * Issue #30: the verifier streams each member (hash and checks fed the same chunks) and the review loads
 * records.json again from the bytes it verified. Read in chunks smaller than a line, a row or a UTF-8 character,
 * an export verifies and reviews exactly as read in large chunks; a verification holds much less than the
 * export's records.json (a child process's peak memory); records.json changed after the verdict is not loaded.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import type { Ledger } from '../../../src/main/ledger/sqlite/index'
import { openReview, verifyExport, type ExportResult } from '../../../src/main/records/index'
import { HELD_MAX_BYTES } from '../../../src/main/records/safe-read'
import { makeRecords, seededLedger, tempDir } from './fixtures'
import { exportTo, fileIn, fixHash, flipByte, readManifest, resign, SIGNER, writeManifest } from './helpers'

const root = path.resolve(__dirname, '../../..')
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const MB = 1024 * 1024

let base: string
let ledger: Ledger
let res: ExportResult

// Not a tempDir: those go after each test.
beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'records-stream-'))
  ledger = seededLedger(makeRecords(300), base).ledger
  res = await exportTo(ledger, { formats: ['csv', 'json', 'html'], dir: base })
}, 60_000)

afterAll(() => {
  ledger.close()
  fs.rmSync(base, { recursive: true, force: true })
})

/** A private copy of the export. */
function copy(): ExportResult {
  const folder = path.join(tempDir('records-stream-'), path.basename(res.folder))
  fs.cpSync(res.folder, folder, { recursive: true })
  return { ...res, folder, manifestPath: path.join(folder, 'manifest.json') }
}

const problems = async (target: string, chunkBytes?: number): Promise<string[]> =>
  (await verifyExport(target, { chunkBytes })).problems.map((p) => `${p.file}:${p.check}:${p.detail}`)

describe('verification and review read in chunks', { timeout: 120_000 }, () => {
  it('any chunk size finds what one large chunk finds, on an intact and on tampered exports', async () => {
    // Non-ASCII text in every member, so some chunk edge splits a UTF-8 character.
    expect(fs.readFileSync(fileIn(res, 'records.json'), 'utf8')).toMatch(/[^ -~\n\r]/)
    expect(fs.readFileSync(fileIn(res, 'records.csv'), 'utf8')).toMatch(/ã/)
    for (const size of [61, 1000, 65_536]) expect(await problems(res.folder, size)).toEqual([])

    const csv = copy()
    flipByte(fileIn(csv, 'records.csv'), 2_000)
    const json = copy()
    const lines = fs.readFileSync(fileIn(json, 'records.json'), 'utf8').split('\n')
    lines[5] = lines[5]!.replace('"localState":"', '"localState":"x')
    lines.splice(9, 1)
    fs.writeFileSync(fileIn(json, 'records.json'), lines.join('\n'))
    const m = readManifest(json)
    fixHash(json, m, 'records.json')
    resign(m, SIGNER)
    writeManifest(json, m)
    for (const ex of [csv, json]) {
      const whole = await problems(ex.folder)
      expect(whole.length).toBeGreaterThan(0)
      for (const size of [64, 4099]) expect(await problems(ex.folder, size)).toEqual(whole)
    }
  })

  it('invalid UTF-8 is found whichever chunk it falls in, a character split between two chunks is not', async () => {
    const ex = copy()
    const file = fileIn(ex, 'records.csv')
    const buf = fs.readFileSync(file)
    const at = buf.indexOf(Buffer.from('ã', 'utf8'))
    expect(at).toBeGreaterThan(0)
    // A split character: fine at every chunk size, the edge falling inside it for some.
    for (const size of [at + 1, at + 2, 61]) expect(await problems(ex.folder, size)).toEqual([])
    buf[at + 1] = 0x41 // 'ã' is C3 A3: its lead byte now starts a broken sequence
    fs.writeFileSync(file, buf)
    const m = readManifest(ex)
    fixHash(ex, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(ex, m)
    for (const size of [at + 1, at + 2, 61, 4 * MB]) {
      expect(await problems(ex.folder, size)).toEqual(['records.csv:schema:not valid UTF-8'])
    }
  })

  it('the review read in small chunks serves the same list, first page and totals', async () => {
    const review = await openReview(res.folder, { chunkBytes: 97 })
    try {
      expect(review.verification.ok).toBe(true)
      const first = review.firstPage({ limit: 200 })
      await review.loaded
      expect(first?.rows).toEqual(review.ledger.query({ limit: 200 }).rows)
      for (const f of [{}, { statuses: ['sent'] }, { text: 'joão', limit: 20 }]) {
        expect(review.ledger.query(f)).toEqual(ledger.query(f))
      }
    } finally {
      review.close()
    }
  })

  it('records.json changed after it was verified: the review loads nothing and says why', async () => {
    const ex = copy()
    const review = await openReview(ex.folder)
    try {
      expect(review.verification.ok).toBe(true)
      // The load has not started (it runs between the app's other work): the file changes in place first.
      flipByte(fileIn(ex, 'records.json'), 3_000)
      expect(review.ledger.query({}).total).toBe(0)
      expect(review.verification.ok).toBe(false)
      expect(review.verification.problems).toEqual([
        {
          file: 'records.json',
          check: 'schema',
          detail: 'records cannot be loaded for review: records.json changed after it was verified',
        },
      ])
    } finally {
      review.close()
    }
  })
})

describe('a line longer than anything a verifier holds', { timeout: 120_000 }, () => {
  it('is one schema problem, the file still hashed to its end', async () => {
    const ex = copy()
    const json = fileIn(ex, 'records.json')
    const head = fs.readFileSync(json).subarray(0, 200)
    // The exporter's head line, then 200 MB without a line end (sparse: zeros, no disk used).
    fs.writeFileSync(json, head.subarray(0, head.indexOf(0x0a) + 1))
    fs.truncateSync(json, 200 * MB)
    const m = readManifest(ex)
    fixHash(ex, m, 'records.json')
    resign(m, SIGNER)
    writeManifest(ex, m)
    const got = await problems(ex.folder)
    expect(got).toContain(`records.json:schema:a line longer than ${HELD_MAX_BYTES} bytes: not read`)
    expect(got.filter((p) => p.startsWith('records.json:hash'))).toEqual([])
  })
})

describe('memory', { timeout: 300_000 }, () => {
  it('verifying holds far less than records.json (a child process, its peak RSS)', async () => {
    // 4,000 records of about 24 KB each: records.json ≈ 100 MB, which the verifier used to hold whole.
    const blob = 'x'.repeat(24_000)
    const big = function* (n: number): Generator<WithdrawalRecord> {
      for (const r of makeRecords(n)) yield { ...r, lastRemote: { ...r.lastRemote, blob } }
    }
    const exported = async (n: number): Promise<ExportResult> => {
      const dir = tempDir('records-stream-big-')
      const seeded = seededLedger(big(n), dir)
      try {
        return await exportTo(seeded.ledger, { formats: ['json'], dir })
      } finally {
        seeded.ledger.close()
      }
    }
    const large = await exported(4_000)
    const small = await exported(100)
    const dir = path.dirname(large.folder)
    const jsonBytes = fs.statSync(fileIn(large, 'records.json')).size
    expect(jsonBytes).toBeGreaterThan(90 * MB)
    expect(fs.statSync(fileIn(small, 'records.json')).size).toBeLessThan(jsonBytes / 10)
    const child = path.join(dir, 'verify-child.ts')
    fs.writeFileSync(
      child,
      `import { verifyExport } from ${JSON.stringify(path.join(root, 'src/main/records/index'))}\n` +
        'void verifyExport(process.argv[2]!).then((v) => {\n' +
        '  console.log(JSON.stringify({ ok: v.ok, rss: process.resourceUsage().maxRSS * 1024 }))\n' +
        '})\n',
    )
    const peak = (target: string): { ok: boolean; rss: number } => {
      const r = spawnSync(process.execPath, [tsx, child, target], { cwd: root, encoding: 'utf8' })
      expect(r.status, r.stderr).toBe(0)
      return JSON.parse(r.stdout.trim().split('\n').at(-1) ?? '') as { ok: boolean; rss: number }
    }
    const base = peak(small.folder)
    const got = peak(large.folder)
    expect(base.ok && got.ok).toBe(true)
    // Reading records.json whole would add all of it; streamed, the growth is the records' maps and the
    // garbage of parsing (lines and chunks not yet collected).
    expect(got.rss - base.rss).toBeLessThan(jsonBytes * 0.75)
  })
})
