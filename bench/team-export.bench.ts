/**
 * Team ledger export benchmark (issue #16) on a throwaway PostgreSQL cluster: a desk ledger of realistic records
 * (test/main/records/fixtures.ts) imported into the team ledger (importDeskLedger: every record with its audit
 * entries, so the chain is real), then an analyst exports them all in the three formats through the team's
 * REPEATABLE READ view (chain check included), and the export is verified.
 * Run: npx tsx bench/team-export.bench.ts   (TEAM_EXPORT_ROWS=… to change the size, default 100,000).
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import { importDeskLedger, pgExportLedger } from '../src/main/ledger/engines'
import { openLedger } from '../src/main/ledger/sqlite/index'
import { importRecords } from '../src/main/ledger/sqlite/import'
import { exportFrom } from '../src/main/records/export'
import { generateSigningKeyPair, verifyExport } from '../src/main/records/index'
import { PG_SKIP_REASON } from '../test/support/postgres'
import { makeRecords } from '../test/main/records/fixtures'
import { startTeam } from '../test/main/ledger/team'

const ROWS = Number(process.env.TEAM_EXPORT_ROWS ?? 100_000)

export interface TeamExportBenchResult {
  rows: number
  seedMs: number
  importMs: number
  /** Chain check + records + audit entries + anchors, all from one view, then the signed manifest. */
  exportMs: number
  exportPeakRssMb: number
  verifyMs: number
  verifyOk: boolean
  loadAverage: number
}

const mb = (b: number): number => Math.round(b / 2 ** 20)

export async function run(): Promise<TeamExportBenchResult | { skipped: string }> {
  if (PG_SKIP_REASON) return { skipped: PG_SKIP_REASON }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'team-export-bench-'))
  const team = await startTeam()
  try {
    let t = performance.now()
    const file = path.join(dir, 'desk.sqlite')
    importRecords(file, makeRecords(ROWS, { profile: 'matriz' }))
    const seedMs = performance.now() - t
    const desk = openLedger(file)
    const store = await team.desk('analista')
    t = performance.now()
    await importDeskLedger(store.pool, desk, 'analista')
    const importMs = performance.now() - t
    desk.close()

    const loadAverage = Math.round(os.loadavg()[0]! * 100) / 100
    let peak = process.memoryUsage.rss()
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss())
    }, 10)
    t = performance.now()
    const res = await exportFrom(pgExportLedger(store), {
      dir: path.join(dir, 'out'),
      formats: ['csv', 'json', 'html'],
      signer: generateSigningKeyPair(),
      appVersion: 'bench',
      profile: { name: 'Equipe', network: 'liquid' },
    })
    const exportMs = performance.now() - t
    clearInterval(sampler)

    t = performance.now()
    const v = await verifyExport(res.manifestPath)
    const verifyMs = performance.now() - t
    return {
      rows: res.rowCount,
      seedMs: Math.round(seedMs),
      importMs: Math.round(importMs),
      exportMs: Math.round(exportMs),
      exportPeakRssMb: mb(peak),
      verifyMs: Math.round(verifyMs),
      verifyOk: v.ok,
      loadAverage,
    }
  } finally {
    await team.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(__filename)) {
  void run()
    .then((r) => console.log(JSON.stringify(r, null, 2)))
    .catch((e: unknown) => {
      console.error(e)
      process.exit(1)
    })
}
