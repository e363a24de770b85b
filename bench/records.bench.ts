/**
 * Records benchmark (issue #30): one run measures each step and the floor it is compared with, and prints the
 * ratios, so the noise of this shared machine cancels out of them. Each step runs in a child process of its
 * own, so its peak RSS (`maxRSS`) is that step's alone, as in the app.
 *
 * - floor of an export: the ledger's records read from a snapshot, serialised once (JSON.stringify) and written
 *   to a file with their SHA-256, then as many bytes again as the export's other files hold (CSV, report, audit
 *   member…), written and hashed: every byte the export writes is written and hashed once (measured after the
 *   export, whose sizes it takes; docs/adr/0014-signed-exports-verified-offline.md (amendment "the export's floor"));
 * - export: CSV + JSON + HTML (+ audit.jsonl, anchors.jsonl, manifest), after the start-up check on its worker as
 *   in the app; its peak RSS is the export's own (the kernel's high-water mark reset when it starts, Linux);
 * - floor of a verification: every file of that export read once, the SHA-256 of each, one JSON.parse per line
 *   of records.json and audit.jsonl;
 * - verify: verifyExport;
 * - review: openReview and the first page of the list (what the auditor waits for); the rest pages lazily;
 * - start-up check: the whole chain once on the main thread (first start), then the app's next start from the
 *   checkpoint that check left, on the check's worker (and once more on the main thread, for comparison);
 *   `mainThreadMs` is the main thread's busy time (event-loop utilisation), `maxBlockMs` its longest block.
 *
 * Run: npx tsx bench/records.bench.ts   (RECORDS_BENCH_ROWS=… to change the size; 1,000,000 writes ~3 GB to
 * the temporary folder). Results: docs/BENCHMARKS.md.
 */
import { spawnSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { monitorEventLoopDelay, performance } from 'node:perf_hooks'
import { openLedger } from '../src/main/ledger/sqlite/index'
import { importRecords } from '../src/main/ledger/sqlite/import'
import { exportRecords, generateSigningKeyPair, openReview, verifyExport } from '../src/main/records/index'
import { makeRecords } from '../test/main/records/fixtures'

interface Step {
  ms: number
  /** User + system CPU of the whole process (every thread). */
  cpuMs: number
  peakRssMb: number
  [more: string]: unknown
}

export interface RecordsBenchResult {
  rows: number
  loadAverage: number
  loadAverageAfter: number
  seedMs: number
  files: Record<string, number>
  steps: Record<string, Step>
  ratios: Record<string, string>
}

const mb = (b: number): number => Math.round(b / 2 ** 20)

/** Runs one step in a fresh process (same loader: tsx) and returns what it printed last. */
function child(args: string[]): Step {
  const r = spawnSync(process.execPath, [...process.execArgv, __filename, ...args], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
    maxBuffer: 1 << 24,
  })
  const last = r.stdout.trim().split('\n').at(-1) ?? ''
  if (r.status !== 0) {
    // Reported, not thrown: a step that fails (e.g. out of memory at a size not tried before) leaves the other
    // steps' numbers worth having.
    const why = r.stderr.split('\n').find((l) => /Error|refused|problems/.test(l)) ?? `exit ${r.status}`
    return { ms: NaN, cpuMs: NaN, peakRssMb: NaN, failed: why.slice(0, 300) }
  }
  return JSON.parse(last) as Step
}

async function timed(fn: () => Promise<Record<string, unknown> | void>): Promise<Step> {
  const c = process.cpuUsage()
  const elu = performance.eventLoopUtilization()
  const blocks = monitorEventLoopDelay({ resolution: 10 })
  blocks.enable()
  const t = performance.now()
  const extra = (await fn()) ?? {}
  const ms = Math.round(performance.now() - t)
  const u = process.cpuUsage(c)
  blocks.disable()
  return {
    ms,
    cpuMs: Math.round((u.user + u.system) / 1000),
    // The main thread's busy time (event loop not idle) and its longest block: what the app's user feels.
    mainThreadMs: Math.round(performance.eventLoopUtilization(elu).active),
    maxBlockMs: Math.round(blocks.max / 1e6),
    peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
    ...extra,
  }
}

/** Writes `text` pieces to `file` in 1 MiB chunks, hashing the same bytes. */
function writeHashed(file: string): { write(s: string | Buffer): void; close(): string } {
  const fd = fs.openSync(file, 'wx')
  const h = createHash('sha256')
  let buf = Buffer.allocUnsafe(1 << 20)
  let used = 0
  const flush = (): void => {
    fs.writeSync(fd, buf, 0, used)
    h.update(buf.subarray(0, used))
    used = 0
  }
  return {
    write(s) {
      if (s.length * 3 > buf.length - used) {
        flush()
        if (s.length * 3 > buf.length) buf = Buffer.allocUnsafe(s.length * 3)
      }
      used += typeof s === 'string' ? buf.write(s, used, 'utf8') : s.copy(buf, used)
    },
    close() {
      flush()
      fs.fsyncSync(fd)
      fs.closeSync(fd)
      return h.digest('hex')
    },
  }
}

/** JSON.parse of every line of a JSON-lines body (bytes), decoded line by line as the verifier does. */
function parseLines(buf: Buffer, from: number, to: number): number {
  let n = 0
  let i = from
  while (i < to) {
    let nl = buf.indexOf(0x0a, i)
    if (nl === -1 || nl > to) nl = to
    const stop = buf[nl - 1] === 0x2c ? nl - 1 : nl
    JSON.parse(buf.toString('utf8', i, stop))
    n += 1
    i = nl + 1
  }
  return n
}

/** The start-up check's worker module, as source: the benchmark runs under tsx (as tests do). */
const VERIFY_WORKER = path.join(__dirname, '../src/main/ledger/sqlite/verify-worker.ts')

async function startupCheck(file: string, o: { verifyWorker?: string }): Promise<Step> {
  const ledger = openLedger(file, o)
  try {
    return await timed(async () => {
      const snap = ledger.snapshot()
      try {
        const v = await snap.verify()
        if (!v.ok) throw new Error(`ledger does not verify: ${v.reason}`)
      } finally {
        snap.close()
      }
    })
  } finally {
    ledger.close()
  }
}

/** This process's peak RSS in MB, as the kernel counts it (Linux VmHWM; else getrusage's). */
function peakRssMb(): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))
    if (m) return Math.round(Number(m[1]) / 1024)
  } catch {
    // Not Linux.
  }
  return Math.round(process.resourceUsage().maxRSS / 1024)
}

/** Resets the kernel's RSS high-water mark to the current RSS (Linux ≥ 4.0); false where it cannot. */
function resetPeakRss(): boolean {
  try {
    fs.writeFileSync('/proc/self/clear_refs', '5')
    return true
  } catch {
    return false
  }
}

/** The largest of each part of process.memoryUsage() seen while a step runs (sampled every 200 ms), in MB. */
function memorySampler(): { stop(): Record<string, number> } {
  const max = { heapUsedMb: 0, heapTotalMb: 0, externalMb: 0, arrayBuffersMb: 0 }
  const sample = (): void => {
    const m = process.memoryUsage()
    max.heapUsedMb = Math.max(max.heapUsedMb, mb(m.heapUsed))
    max.heapTotalMb = Math.max(max.heapTotalMb, mb(m.heapTotal))
    max.externalMb = Math.max(max.externalMb, mb(m.external))
    max.arrayBuffersMb = Math.max(max.arrayBuffersMb, mb(m.arrayBuffers))
  }
  const timer = setInterval(sample, 200)
  return {
    stop() {
      clearInterval(timer)
      sample()
      return max
    },
  }
}

const steps: Record<string, (a: string[]) => Promise<Step>> = {
  seed: async ([file, n]) =>
    timed(async () => void importRecords(file ?? '', makeRecords(Number(n)), { scratch: true })),

  // The first start: no checkpoint, the whole chain and every record on the main thread (the old check).
  'startup-check': async ([file]) => {
    fs.rmSync(`${file}.checkpoint.json`, { force: true })
    return startupCheck(file ?? '', {})
  },
  // The app's next start: a fresh process, the checkpoint the last check left, the check on its worker.
  'startup-check-again': async ([file]) => startupCheck(file ?? '', { verifyWorker: VERIFY_WORKER }),
  // The same start with the check on the main thread: what the checkpoint alone saves.
  'startup-check-again-inline': async ([file]) => startupCheck(file ?? '', {}),

  'export-floor': async ([file, out, manifestPath]) => {
    // The export's other files, by size, each with a sample of its bytes (read before the clock starts): writing
    // and hashing costs the same for any bytes of that length.
    const folder = path.dirname(manifestPath ?? '')
    const others = fs
      .readdirSync(folder)
      .filter((name) => name !== 'records.json')
      .map((name) => {
        const bytes = fs.statSync(path.join(folder, name)).size
        const fd = fs.openSync(path.join(folder, name), 'r')
        const sample = Buffer.alloc(Math.min(bytes, 1 << 16))
        fs.readSync(fd, sample, 0, sample.length, 0)
        fs.closeSync(fd)
        return { name, bytes, sample }
      })
    const ledger = openLedger(file ?? '')
    try {
      return await timed(async () => {
        const snap = ledger.snapshot()
        const w = writeHashed(path.join(out ?? '', 'floor.json'))
        let n = 0
        for (const r of snap.iterate({})) {
          if (n++ > 0) w.write(',\n')
          w.write(JSON.stringify(r))
        }
        snap.close()
        w.close()
        let otherBytes = 0
        for (const { name, bytes, sample } of others) {
          const o = writeHashed(path.join(out ?? '', `floor-${name}`))
          for (let left = bytes; left > 0; left -= sample.length)
            o.write(left >= sample.length ? sample : sample.subarray(0, left))
          o.close()
          otherBytes += bytes
        }
        for (const f of fs.readdirSync(out ?? ''))
          if (f.startsWith('floor')) fs.rmSync(path.join(out ?? '', f))
        return { records: n, otherBytes }
      })
    } finally {
      ledger.close()
    }
  },

  export: async ([file, out]) => {
    // Opened as the app opens it (app/context.ts): the start-up check on its worker, from the checkpoint the
    // first check left; the export's own check is then incremental (snapshot.ts `verify`).
    const ledger = openLedger(file ?? '', { verifyWorker: VERIFY_WORKER })
    const signer = generateSigningKeyPair()
    try {
      const snap = ledger.snapshot()
      const check = await snap.verify()
      snap.close()
      if (!check.ok) throw new Error(`ledger does not verify: ${check.reason}`)
      // The check's worker is gone by the time anyone exports (terminate is not awaited by the check).
      await new Promise((resolve) => setTimeout(resolve, 1000))
      const beforeMb = peakRssMb()
      const rssAtStartMb = mb(process.memoryUsage().rss)
      // The export's own peak: the kernel's high-water mark reset here (Linux), read back after it.
      const ownPeak = resetPeakRss()
      const mem = memorySampler()
      let manifest = ''
      const step = await timed(async () => {
        const res = await exportRecords(ledger, {
          dir: out ?? '',
          formats: ['csv', 'json', 'html'],
          signer,
          appVersion: 'bench',
          profile: { name: 'Produção', network: 'liquid' },
          // The 1 GiB cap is what today's verifier reads (safe-read.ts), not the exporter's cost: measured past it.
          maxFileBytes: Number.POSITIVE_INFINITY,
        })
        manifest = res.manifestPath
        return { rows: res.rowCount }
      })
      const exportPeakMb = ownPeak ? peakRssMb() : NaN
      return {
        ...step,
        // peakRssMb: the export alone when the reset worked, else the process's (check included).
        peakRssMb: Number.isNaN(exportPeakMb) ? step.peakRssMb : exportPeakMb,
        processPeakRssMb: Math.max(beforeMb, exportPeakMb || 0, step.peakRssMb),
        rssAtStartMb,
        ...mem.stop(),
        manifest,
      }
    } finally {
      ledger.close()
    }
  },

  'verify-floor': async ([manifestPath]) =>
    timed(async () => {
      const dir = path.dirname(manifestPath ?? '')
      let lines = 0
      for (const name of fs.readdirSync(dir)) {
        const buf = fs.readFileSync(path.join(dir, name))
        createHash('sha256').update(buf).digest('hex')
        if (name === 'records.json') {
          const head = buf.indexOf(0x0a) + 1
          lines += parseLines(buf, head, buf.length - '\n]}\n'.length)
        } else if (name === 'audit.jsonl') lines += parseLines(buf, 0, buf.length - 1)
      }
      return { lines }
    }),

  verify: async ([manifestPath]) =>
    timed(async () => {
      const v = await verifyExport(manifestPath ?? '')
      if (!v.ok) throw new Error(`export does not verify: ${JSON.stringify(v.problems)}`)
    }),

  review: async ([manifestPath]) => {
    let review: Awaited<ReturnType<typeof openReview>> | null = null
    // What the auditor waits for: the verdict and the first page of the list.
    const open = await timed(async () => {
      review = await openReview(manifestPath ?? '')
      const page = review.firstPage({ limit: 200 }) ?? review.ledger.query({ limit: 200 })
      if (!review.verification.ok || page.rows.length === 0) throw new Error('review did not open')
      return { firstPageRows: page.rows.length }
    })
    const r = review as unknown as Awaited<ReturnType<typeof openReview>>
    // What stays lazy: the ledger loading behind it, then a page far down the list and a text search.
    const later = await timed(async () => {
      await r.loaded
      const far = r.ledger.query({ limit: 200, offset: Math.max(0, r.verification.manifest!.rowCount - 200) })
      const found = r.ledger.query({ text: 'joão', limit: 200 })
      return { farRows: far.rows.length, textTotal: found.total }
    })
    r.close()
    return { ...open, loadMs: later.ms, loadCpuMs: later.cpuMs, peakRssMb: later.peakRssMb }
  },
}

export async function run(
  n = Number(process.env.RECORDS_BENCH_ROWS ?? 100_000),
): Promise<RecordsBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-bench-'))
  try {
    const file = path.join(dir, 'ledger.sqlite')
    const out = path.join(dir, 'out')
    fs.mkdirSync(out)
    const loadAverage = Math.round(os.loadavg()[0]! * 100) / 100
    const seed = child(['seed', file, String(n)])
    const s: Record<string, Step> = {}
    s['startup-check'] = child(['startup-check', file])
    s['startup-check-again'] = child(['startup-check-again', file])
    s['startup-check-again-inline'] = child(['startup-check-again-inline', file])
    s.export = child(['export', file, out])
    if (s.export.failed) throw new Error(`export failed: ${String(s.export.failed)}`)
    const manifest = String(s.export.manifest)
    s['export-floor'] = child(['export-floor', file, out, manifest])
    const folder = path.dirname(manifest)
    const files: Record<string, number> = {}
    for (const f of fs.readdirSync(folder)) files[f] = mb(fs.statSync(path.join(folder, f)).size)
    s['verify-floor'] = child(['verify-floor', manifest])
    s.verify = child(['verify', manifest])
    s.review = child(['review', manifest])
    // Wall time is what the target names; CPU time (every thread of the step's process) is the steadier
    // figure on a shared machine, where the other engineers' load lands on the wall clock of some steps only.
    const ratio = (a: string, b: string): string => {
      const r = (k: 'ms' | 'cpuMs'): string => (s[a]![k] / s[b]![k]).toFixed(2)
      return `${r('ms')} wall, ${r('cpuMs')} CPU`
    }
    return {
      rows: n,
      loadAverage,
      loadAverageAfter: Math.round(os.loadavg()[0]! * 100) / 100,
      seedMs: seed.ms,
      files,
      steps: s,
      ratios: {
        'export / export floor (≤ 1.5)': ratio('export', 'export-floor'),
        'verify / verify floor (≤ 1.3)': ratio('verify', 'verify-floor'),
        'review open / verify floor (≤ 1.5)': ratio('review', 'verify-floor'),
      },
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

const [, , stepName, ...args] = process.argv
if (stepName && steps[stepName]) {
  void steps[stepName](args)
    .then((r) => console.log(JSON.stringify(r)))
    .catch((e: unknown) => {
      console.error(e)
      process.exit(1)
    })
} else if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  void run()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e: unknown) => {
      console.error(e)
      process.exit(1)
    })
}
