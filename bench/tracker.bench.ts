/**
 * Status tracker costs on the main thread, where they compete with the UI:
 * - PollScheduler.pick + succeeded with N open records (one poll decision; at most ~1/s at the API contract's 60/min),
 * - one resync: ledger.listOpen() and the scheduler upsert of every open record (once a minute).
 * Run: npx tsx bench/tracker.bench.ts   (TRACKER_BENCH_OPEN=… to change N). Results: docs/BENCHMARKS.md.
 */
import { performance } from 'node:perf_hooks'
import { openLedger } from '../src/main/ledger/sqlite/index'
import { DEFAULT_CADENCE, PollScheduler } from '../src/main/tracking/scheduler'

const N = Number(process.env.TRACKER_BENCH_OPEN ?? 10_000)
const T0 = Date.parse('2025-03-01T12:00:00.000Z')

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return Number((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0).toFixed(3))
}

export async function run(): Promise<Record<string, number>> {
  const scheduler = new PollScheduler(DEFAULT_CADENCE)
  for (let i = 0; i < N; i++) {
    scheduler.upsert(
      { localId: `r${i}`, createdAt: T0 - (i % 72) * 3_600_000, fundedAt: null, lastCheckedAt: null },
      T0,
    )
  }
  const busy = new Set<string>()
  const pickMs: number[] = []
  let t = T0
  for (let i = 0; i < 500; i++) {
    t += 1_000
    const start = performance.now()
    const id = scheduler.pick(t, busy)
    if (id !== undefined) scheduler.succeeded(id, t)
    pickMs.push(performance.now() - start)
  }

  let clock = T0
  const ledger = openLedger(':memory:', { now: () => (clock += 1) })
  const seedStart = performance.now()
  for (let i = 0; i < N; i++) {
    const pixKey = `bench${i}@example.com`
    const rec = ledger.insertSubmitting(
      {
        profile: 'sandbox',
        pixKey,
        amountKind: 'payout',
        amountCents: 1_000 + i,
        request: { pixKey, taxNumber: '52998224725', payoutAmountInCents: 1_000 + i },
      },
      'bench',
    )
    ledger.markCreated(rec.localId, {
      remoteId: `wd-${i}`,
      createResponse: { withdrawalId: `wd-${i}` },
      requestId: null,
      status: 'unsent',
    })
  }
  const seedMs = performance.now() - seedStart
  const resyncMs: number[] = []
  for (let i = 0; i < 5; i++) {
    const start = performance.now()
    const fresh = new PollScheduler(DEFAULT_CADENCE)
    const open = ledger.listOpen()
    fresh.retain(new Set(open.map((r) => r.localId)))
    for (const r of open) {
      fresh.upsert(
        { localId: r.localId, createdAt: Date.parse(r.createdAt), fundedAt: null, lastCheckedAt: null },
        clock,
      )
    }
    resyncMs.push(performance.now() - start)
  }
  ledger.close()
  return {
    openRecords: N,
    pickP50Ms: percentile(pickMs, 50),
    pickP95Ms: percentile(pickMs, 95),
    seedMs: Math.round(seedMs),
    resyncP50Ms: percentile(resyncMs, 50),
    resyncMaxMs: percentile(resyncMs, 100),
  }
}

if (require.main === module) {
  void run().then((r) => console.log(JSON.stringify(r, null, 2)))
}
