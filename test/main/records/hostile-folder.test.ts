/**
 * Hostile export folders (links, a FIFO, /dev/zero, thousands of entries, deep nesting, sizes that lie), each
 * refused quickly, in bounded memory and with a precise problem: through the CLI as an auditor runs it, and
 * through the app's offline review (openReview, the code behind `review:open`). Real folders, real links, a real
 * FIFO.
 */
import { execFileSync, spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openReview, type ExportResult, type VerificationProblem } from '../../../src/main/records/index'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, fixHash, readManifest, resign, SIGNER, writeManifest } from './helpers'

const root = path.resolve(__dirname, '../../..')
const tsx = path.join(root, 'node_modules/tsx/dist/cli.mjs')
const script = path.join(root, 'scripts/verify-export.ts')
const MB = 1024 * 1024
/** The bounds are 1 s and 100 MB; time is asserted generously (two cores shared by many runs). */
const MAX_EXTRA_RSS = 100 * MB
const MAX_MS = 3000

let base: string
let pristine: ExportResult
let hook: string
let n = 0

beforeAll(async () => {
  base = fs.mkdtempSync(path.join(os.tmpdir(), 'records-hostile-'))
  const { ledger } = seededLedger(makeRecords(40), base)
  try {
    pristine = await exportTo(ledger, { dir: base })
  } finally {
    ledger.close()
  }
  // Every node process of the CLI run (tsx may start one more) reports its peak memory and lifetime on exit.
  hook = path.join(base, 'measure.cjs')
  fs.writeFileSync(
    hook,
    "process.on('exit', () => require('fs').writeSync(2, `\\nmeasure maxrss=${process.resourceUsage().maxRSS * 1024} ms=${Math.round(performance.now())}\\n`))\n",
  )
})

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true })
})

/** A private copy of the pristine export. */
function copy(): ExportResult {
  const folder = path.join(base, `case-${++n}`, path.basename(pristine.folder))
  fs.cpSync(pristine.folder, folder, { recursive: true })
  return { ...pristine, folder, manifestPath: path.join(folder, 'manifest.json') }
}

interface CliRun {
  code: number | null
  out: string
  /** The largest peak RSS and lifetime among the CLI's node processes. */
  maxRss: number
  ms: number
}

function cli(target: string): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [tsx, script, target], {
      cwd: root,
      env: { ...process.env, NODE_OPTIONS: `--require ${hook}` },
    })
    let out = ''
    let err = ''
    child.stdout.on('data', (d: Buffer) => (out += d.toString()))
    child.stderr.on('data', (d: Buffer) => (err += d.toString()))
    child.on('error', reject)
    child.on('close', (code) => {
      const m = [...err.matchAll(/^measure maxrss=(\d+) ms=(\d+)$/gm)]
      resolve({
        code,
        out,
        maxRss: Math.max(0, ...m.map((x) => Number(x[1]))),
        ms: Math.max(0, ...m.map((x) => Number(x[2]))),
      })
    })
  })
}

/** openReview, with its duration and the peak growth of this process's RSS while it ran. */
async function review(target: string): Promise<{
  problems: VerificationProblem[]
  ok: boolean
  rows: number
  ms: number
  extraRss: number
}> {
  const before = process.memoryUsage().rss
  let peak = before
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5)
  const t0 = performance.now()
  try {
    const r = await openReview(target)
    const ms = performance.now() - t0
    peak = Math.max(peak, process.memoryUsage().rss)
    try {
      const v = r.verification
      return { problems: v.problems, ok: v.ok, rows: r.ledger.query({}).total, ms, extraRss: peak - before }
    } finally {
      r.close()
    }
  } finally {
    clearInterval(sample)
  }
}

/** Makes a sparse file of `size` bytes: no disk used, nothing to write. */
function sparse(file: string, size: number): void {
  const fd = fs.openSync(file, 'w')
  try {
    fs.ftruncateSync(fd, size)
  } finally {
    fs.closeSync(fd)
  }
}

interface Case {
  name: string
  /** Builds the hostile export; returns what is given to the CLI and to the review. */
  make: () => string
  /** The problem that says why (file, check, detail). */
  want: { file: string; check: VerificationProblem['check']; detail: RegExp }
  /** Records the review still loads (from a records.json that was not refused). */
  rows?: number
}

const CASES: Case[] = [
  {
    name: 'records.csv → /etc/passwd (manifest re-signed to match it)',
    make: () => {
      const ex = copy()
      const csv = path.join(ex.folder, 'records.csv')
      fs.rmSync(csv)
      fs.symlinkSync('/etc/passwd', csv)
      const m = readManifest(ex)
      fixHash(ex, m, 'records.csv')
      resign(m, SIGNER)
      writeManifest(ex, m)
      return ex.folder
    },
    want: {
      file: 'records.csv',
      check: 'missing',
      detail: /^is a symbolic link \(links are not followed\)$/,
    },
    rows: 40,
  },
  {
    name: 'records.json linked to a copy outside the folder (its hash matches)',
    make: () => {
      const ex = copy()
      const json = path.join(ex.folder, 'records.json')
      const outside = path.join(path.dirname(ex.folder), 'elsewhere.json')
      fs.renameSync(json, outside)
      fs.symlinkSync(outside, json)
      return ex.folder
    },
    want: { file: 'records.json', check: 'missing', detail: /^is a symbolic link/ },
  },
  {
    name: 'manifest.json is a FIFO',
    make: () => {
      const ex = copy()
      fs.rmSync(ex.manifestPath)
      execFileSync('mkfifo', [ex.manifestPath])
      return ex.folder
    },
    want: {
      file: 'manifest.json',
      check: 'missing',
      detail: /manifest\.json is a named pipe \(FIFO\), not a regular file$/,
    },
  },
  {
    name: 'manifest.json → /dev/zero',
    make: () => {
      const ex = copy()
      fs.rmSync(ex.manifestPath)
      fs.symlinkSync('/dev/zero', ex.manifestPath)
      return ex.folder
    },
    want: { file: 'manifest.json', check: 'missing', detail: /manifest\.json is a symbolic link/ },
  },
  {
    name: '/dev/zero given as the manifest',
    make: () => '/dev/zero',
    want: { file: 'zero', check: 'missing', detail: /^\/dev\/zero is a device, not a regular file$/ },
  },
  {
    name: 'the export folder is a link',
    make: () => {
      const ex = copy()
      const link = path.join(path.dirname(ex.folder), 'link')
      fs.symlinkSync(ex.folder, link)
      return link
    },
    want: { file: 'link', check: 'missing', detail: /link is a symbolic link/ },
  },
  {
    name: '3,000 file entries',
    make: () => {
      const ex = copy()
      const m = readManifest(ex)
      m.files = Array.from({ length: 3000 }, () => ({ ...m.files[0]! }))
      resign(m, SIGNER)
      writeManifest(ex, m)
      return ex.folder
    },
    want: {
      file: 'manifest.json',
      check: 'schema',
      detail: /^files: lists more files than an export has \(8 at most\)$/,
    },
  },
  {
    name: '200 entries naming one 40 MB file',
    make: () => {
      const ex = copy()
      sparse(path.join(ex.folder, 'records.json'), 40 * MB)
      const m = readManifest(ex)
      const entry = { name: 'records.json', format: 'json', bytes: 40 * MB, sha256: '0'.repeat(64) }
      m.files = Array.from({ length: 200 }, () => ({ ...entry }))
      resign(m, SIGNER)
      writeManifest(ex, m)
      return ex.folder
    },
    want: { file: 'manifest.json', check: 'schema', detail: /^files: lists more files than an export has/ },
  },
  {
    name: 'one file listed twice',
    make: () => {
      const ex = copy()
      const m = readManifest(ex)
      m.files = [m.files[1]!, { ...m.files[1]! }]
      resign(m, SIGNER)
      writeManifest(ex, m)
      return ex.folder
    },
    want: { file: 'manifest.json', check: 'schema', detail: /^files\.1: records\.json is listed twice$/ },
  },
  {
    name: 'a file name that no export has',
    make: () => {
      const ex = copy()
      fs.writeFileSync(path.join(ex.folder, 'notes.txt'), 'x')
      const m = readManifest(ex)
      m.files[0]!.name = 'notes.txt'
      fixHash(ex, m, 'notes.txt')
      resign(m, SIGNER)
      writeManifest(ex, m)
      return ex.folder
    },
    want: { file: 'manifest.json', check: 'schema', detail: /^files\.0\.name: must be records\.csv/ },
  },
  {
    name: 'a manifest nested 200,000 levels deep',
    make: () => {
      const ex = copy()
      fs.writeFileSync(ex.manifestPath, `{"files":${'['.repeat(200_000)}${']'.repeat(200_000)}}`)
      return ex.folder
    },
    want: {
      file: 'manifest.json',
      check: 'schema',
      detail: /^nested deeper than 16 levels \(at character 24\)/,
    },
  },
  {
    name: 'a 3 GiB manifest',
    make: () => {
      const ex = copy()
      sparse(ex.manifestPath, 3 * 1024 * MB)
      return ex.folder
    },
    want: { file: 'manifest.json', check: 'schema', detail: /^is 3221225472 bytes, more than the 1048576/ },
  },
  {
    name: 'a data file of another size than the manifest says',
    make: () => {
      const ex = copy()
      sparse(path.join(ex.folder, 'records.json'), 900 * MB)
      return ex.folder
    },
    want: {
      file: 'records.json',
      check: 'hash',
      detail: /^943718400 bytes, manifest says \d+ \(not read\)$/,
    },
  },
]

describe(
  'a hostile export folder is refused quickly, in bounded memory, with a precise problem',
  { timeout: 60_000 },
  () => {
    let baseline: CliRun

    beforeAll(async () => {
      baseline = await cli(pristine.folder)
      expect(baseline.code).toBe(0)
      expect(baseline.maxRss).toBeGreaterThan(0)
    }, 60_000)

    it.each(CASES)('$name', async ({ make, want, rows }) => {
      const target = make()

      const r = await review(target)
      expect(r.problems).toContainEqual({
        file: want.file,
        check: want.check,
        detail: expect.stringMatching(want.detail),
      })
      expect(r.ok).toBe(false)
      // Nothing from a refused file reaches the review's list.
      expect(r.rows).toBe(rows ?? 0)
      expect(r.ms).toBeLessThan(MAX_MS)
      expect(r.extraRss).toBeLessThan(MAX_EXTRA_RSS)

      const c = await cli(target)
      expect(c.code).toBe(1)
      const line = c.out.split('\n').find((l) => l.startsWith(`PROBLEM  ${want.file}  [${want.check}]  `))
      expect(line?.slice(`PROBLEM  ${want.file}  [${want.check}]  `.length)).toMatch(want.detail)
      expect(c.out).not.toContain('root:')
      expect(c.maxRss).toBeLessThan(baseline.maxRss + MAX_EXTRA_RSS)
      expect(c.ms).toBeLessThan(baseline.ms + MAX_MS)
    })
  },
)
