/**
 * Records benchmark: a ledger of 100,000 realistic records (raw status bodies, refunds, rejections), then
 * - the start-up check of the whole audit chain and every record (the app runs it in the background once),
 * - exportRecords in all three formats after it (target ≤ 3 s, peak RSS ≤ 400 MB),
 * - verifyExport of the result (target ≤ 1.5 s),
 * - openReview (verify + load into a review ledger), for information.
 * Run: npx tsx bench/records.bench.ts   (RECORDS_BENCH_ROWS=… to change the size). Results: docs/BENCHMARKS.md.
 * The ledger is seeded by a child process, so the peak RSS (sampled every 10 ms during the export) is that of a
 * process that only opened the ledger and exported, as in the app.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { openLedger } from '../src/main/ledger/index'
import { importRecords } from '../src/main/ledger/import'
import { exportRecords, generateSigningKeyPair, openReview, verifyExport } from '../src/main/records/index'
import { makeRecords } from '../test/main/records/fixtures'

export interface RecordsBenchResult {
  rows: number
  seedMs: number
  /** The start-up integrity check (full chain + every record's state), which exports then build on. */
  startupCheckMs: number
  exportMs: number
  /** User + system CPU of the whole process (all threads) during the export. */
  exportCpuMs: number
  exportPeakRssMb: number
  rssBeforeExportMb: number
  files: Record<string, number>
  verifyMs: number
  verifyCpuMs: number
  verifyOk: boolean
  /** 1-minute load average before the export: other processes on the 2 cores inflate wall times. */
  loadAverage: number
  reviewOpenMs: number
  targets: { exportMs: number; exportPeakRssMb: number; verifyMs: number }
}

const mb = (b: number): number => Math.round(b / 2 ** 20)

export async function run(
  n = Number(process.env.RECORDS_BENCH_ROWS ?? 100_000),
): Promise<RecordsBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'records-bench-'))
  try {
    const file = path.join(dir, 'ledger.sqlite')
    let t = performance.now()
    const seed = spawnSync(process.execPath, [...process.execArgv, __filename, '--seed', file, String(n)], {
      stdio: 'inherit',
    })
    if (seed.status !== 0) throw new Error(`seeding failed (${seed.status})`)
    const seedMs = performance.now() - t
    const ledger = openLedger(file)
    const signer = generateSigningKeyPair()
    t = performance.now()
    const snap = ledger.snapshot()
    const check = await snap.verify()
    snap.close()
    if (!check.ok) throw new Error(`seeded ledger does not verify: ${check.reason}`)
    const startupCheckMs = performance.now() - t
    global.gc?.()

    const rssBefore = process.memoryUsage.rss()
    let peak = rssBefore
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss())
    }, 10)
    const loadAverage = Math.round(os.loadavg()[0]! * 100) / 100
    const cpu = (since: NodeJS.CpuUsage): number => {
      const u = process.cpuUsage(since)
      return Math.round((u.user + u.system) / 1000)
    }
    let c = process.cpuUsage()
    t = performance.now()
    const res = await exportRecords(ledger, {
      dir: path.join(dir, 'out'),
      formats: ['csv', 'json', 'html'],
      signer,
      appVersion: 'bench',
      profile: { name: 'Produção', network: 'liquid' },
      onProgress: () => {
        peak = Math.max(peak, process.memoryUsage.rss())
      },
    })
    const exportMs = performance.now() - t
    const exportCpuMs = cpu(c)
    clearInterval(sampler)
    peak = Math.max(peak, process.memoryUsage.rss())
    ledger.close()

    const files: Record<string, number> = {}
    for (const f of [...res.files, res.manifestPath]) files[path.basename(f)] = mb(fs.statSync(f).size)

    c = process.cpuUsage()
    t = performance.now()
    const v = await verifyExport(res.manifestPath)
    const verifyMs = performance.now() - t
    const verifyCpuMs = cpu(c)

    t = performance.now()
    const review = await openReview(res.manifestPath)
    const reviewOpenMs = performance.now() - t
    review.close()

    return {
      rows: res.rowCount,
      seedMs: Math.round(seedMs),
      startupCheckMs: Math.round(startupCheckMs),
      exportMs: Math.round(exportMs),
      exportCpuMs,
      exportPeakRssMb: mb(peak),
      rssBeforeExportMb: mb(rssBefore),
      files,
      verifyMs: Math.round(verifyMs),
      verifyCpuMs,
      verifyOk: v.ok,
      loadAverage,
      reviewOpenMs: Math.round(reviewOpenMs),
      targets: { exportMs: 3000, exportPeakRssMb: 400, verifyMs: 1500 },
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[2] === '--seed') {
  importRecords(process.argv[3] ?? '', makeRecords(Number(process.argv[4])))
} else if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  void run()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e: unknown) => {
      console.error(e)
      process.exit(1)
    })
}
