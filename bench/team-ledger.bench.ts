/**
 * Team ledger benchmark on a throwaway PostgreSQL cluster with durable commits (fsync on):
 * - 1,000,000 withdrawal records seeded in bulk by the owner (secondary indexes built after the load),
 * - a filtered 50-row page (status + 30-day range + text, newest first) as an analyst, p50/p95 over 100 queries
 *   (target p50 ≤ 20 ms), and the same without text;
 * - create with audit (`insertSubmitting`: the duplicate-guard lock, the row, the chained audit entry, one
 *   durable commit) from 5 desks at once, p50/p95 per create (target p50 ≤ 15 ms).
 * Run: npx tsx bench/team-ledger.bench.ts   (TEAM_BENCH_ROWS=… to change the size). Results: docs/BENCHMARKS.md.
 * The seeded rows carry no audit entries (the chain is not what is measured); the creates do.
 */
import { randomUUID } from 'node:crypto'
import { performance } from 'node:perf_hooks'
import type { PgLedgerStore } from '../src/main/ledger/engines'
import { PG_SKIP_REASON } from '../test/support/postgres'
import { startTeam } from '../test/main/ledger/team'

const ROWS = Number(process.env.TEAM_BENCH_ROWS ?? 1_000_000)
const DESKS = 5
const CREATES_PER_DESK = 200

function pct(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return Math.round((s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0) * 100) / 100
}

// Statuses roughly as a year of a treasury's payments looks: most sent, some refunded or expired.
const SEED_SQL = `
INSERT INTO withdrawals (local_id, profile, operator, db_user, created_at, updated_at, local_state, request, pix_key,
  amount_kind, amount_cents, remote_id, remote_status, payout_amount_cents, flags, remote_status_norm,
  display_status, has_refund, is_open, search_text)
SELECT 'seed-' || g, CASE WHEN g % 10 = 0 THEN 'filial' ELSE 'matriz' END, 'seed', 'depix_owner',
  to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  to_char(ts AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  CASE WHEN g % 20 = 0 THEN 'rejected' ELSE 'created' END,
  jsonb_build_object('pixKey', key, 'payoutAmountInCents', amt), key, 'payout', amt,
  CASE WHEN g % 20 = 0 THEN NULL ELSE 'w-' || g END,
  CASE WHEN g % 20 = 0 THEN NULL ELSE st END, amt, '[]',
  CASE WHEN g % 20 = 0 THEN NULL ELSE st END,
  CASE WHEN g % 20 = 0 THEN 'rejected' ELSE st END, false, st = 'pending',
  'seed-' || g || E'\\n' || 'w-' || g || E'\\n' || key || E'\\n' || name
FROM (
  SELECT g,
    timestamptz '2025-01-01' + (g * interval '31.5 seconds') AS ts,
    (200 + (g::bigint * 7919) % 599800) AS amt,
    (ARRAY['sent','sent','sent','sent','sent','sent','sent','pending','expired','refunded'])[1 + g % 10] AS st,
    (ARRAY['silva','souza','oliveira','santos','pereira','lima','costa','ferreira','almeida','nascimento'])[1 + (g / 7) % 10]
      || '.' || (g % 5000) || '@fornecedor.com.br' AS key,
    (ARRAY['joao silva','maria souza','ana oliveira','pedro santos','carla pereira'])[1 + g % 5] AS name
  FROM generate_series(1, $1::int) AS g
) s`

export interface TeamLedgerBenchResult {
  rows: number
  seedMs: number
  pageP50Ms: number
  pageP95Ms: number
  pageNoTextP50Ms: number
  pageNoTextP95Ms: number
  meanTotal: number
  createP50Ms: number
  createP95Ms: number
  creates: number
  createsPerSecond: number
}

export async function run(): Promise<TeamLedgerBenchResult | { skipped: string }> {
  if (PG_SKIP_REASON) return { skipped: PG_SKIP_REASON }
  const team = await startTeam({ durable: true })
  try {
    const owner = await team.owner()
    const seedStart = performance.now()
    const idx = await owner.query(
      `SELECT indexname, indexdef FROM pg_indexes WHERE schemaname = 'ledger' AND tablename = 'withdrawals'
         AND indexname NOT LIKE '%_pkey' AND indexname NOT LIKE '%_key'`,
    )
    for (const r of idx.rows) await owner.query(`DROP INDEX ledger.${String(r.indexname)}`)
    await owner.query('ALTER TABLE withdrawals DISABLE TRIGGER USER')
    await owner.query(SEED_SQL, [ROWS])
    await owner.query('ALTER TABLE withdrawals ENABLE TRIGGER USER')
    await owner.query(`SET maintenance_work_mem = '256MB'`)
    for (const r of idx.rows) await owner.query(String(r.indexdef))
    await owner.query('VACUUM ANALYZE withdrawals')
    const seedMs = Math.round(performance.now() - seedStart)

    const ana = await team.desk('ana')
    const page = async (withText: boolean): Promise<{ ms: number[]; totals: number[] }> => {
      const ms: number[] = []
      const totals: number[] = []
      const names = ['silva', 'souza', 'oliveira', 'santos', 'pereira']
      for (let i = 0; i < 100; i++) {
        const from = new Date(Date.parse('2025-01-01') + ((i * 3) % 330) * 86_400_000)
        const to = new Date(from.getTime() + 30 * 86_400_000)
        const t0 = performance.now()
        const p = await ana.query({
          statuses: ['sent'],
          from: from.toISOString(),
          to: to.toISOString(),
          ...(withText ? { text: names[i % names.length] } : {}),
          sort: { field: 'createdAt', dir: 'desc' },
          limit: 50,
        })
        ms.push(performance.now() - t0)
        totals.push(p.total)
      }
      return { ms, totals }
    }
    if (process.env.TEAM_BENCH_EXPLAIN) {
      const where = `display_status = 'sent' AND created_at >= '2025-03-01T00:00:00.000Z' AND created_at < '2025-03-31T00:00:00.000Z'`
      for (const sql of [
        `SELECT local_id FROM withdrawals w WHERE ${where} AND search_text LIKE '%silva%' ORDER BY created_at DESC, id DESC LIMIT 50`,
        `SELECT count(*) FROM withdrawals w WHERE ${where} AND search_text LIKE '%silva%'`,
        `SELECT count(*) FROM withdrawals w WHERE ${where}`,
      ]) {
        const plan = await owner.query(`EXPLAIN (ANALYZE, BUFFERS) ${sql}`)
        console.log(plan.rows.map((r) => String(r['QUERY PLAN'])).join('\n'))
      }
    }
    await page(true) // warm the cache, as a desk that has been open a while
    const withText = await page(true)
    const noText = await page(false)

    const desks: PgLedgerStore[] = []
    for (let i = 0; i < DESKS; i++) desks.push(await team.desk(`desk${i + 1}`))
    const createMs: number[] = []
    const c0 = performance.now()
    await Promise.all(
      desks.map(async (d, i) => {
        for (let n = 0; n < CREATES_PER_DESK; n++) {
          const pixKey = `bench-${i}-${n}-${randomUUID()}@fornecedor.com.br`
          const t0 = performance.now()
          await d.insertSubmitting(
            {
              profile: 'matriz',
              request: { pixKey, payoutAmountInCents: 1000 + n },
              pixKey,
              amountKind: 'payout',
              amountCents: 1000 + n,
            },
            `desk${i + 1}`,
          )
          createMs.push(performance.now() - t0)
        }
      }),
    )
    const createWall = performance.now() - c0
    const verify = await ana.query({ profile: 'matriz', statuses: ['submitting'], limit: 1 })
    if (verify.total !== DESKS * CREATES_PER_DESK)
      throw new Error(`expected ${DESKS * CREATES_PER_DESK} creates, found ${verify.total}`)
    return {
      rows: ROWS,
      seedMs,
      pageP50Ms: pct(withText.ms, 50),
      pageP95Ms: pct(withText.ms, 95),
      pageNoTextP50Ms: pct(noText.ms, 50),
      pageNoTextP95Ms: pct(noText.ms, 95),
      meanTotal: Math.round(withText.totals.reduce((a, b) => a + b, 0) / withText.totals.length),
      createP50Ms: pct(createMs, 50),
      createP95Ms: pct(createMs, 95),
      creates: createMs.length,
      createsPerSecond: Math.round((createMs.length / createWall) * 1000),
    }
  } finally {
    await team.stop()
  }
}

if (process.argv[1]?.endsWith('team-ledger.bench.ts')) {
  void run().then(
    (r) => console.log(JSON.stringify(r, null, 2)),
    (e: unknown) => {
      console.error(e)
      process.exit(1)
    },
  )
}
