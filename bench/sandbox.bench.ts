/**
 * Sandbox benchmark: memory with 100,000 stored withdrawals, then GET /api/withdraw-status throughput over
 * loopback with rate limits raised. Targets: RSS < 150 MB with 100k withdrawals; ≥ 2,000 req/s.
 *
 *   npx tsx bench/sandbox.bench.ts
 *
 * Memory is measured twice. "bundled": the sandbox bundled by esbuild and run by plain `node` in a child
 * process, as the app runs it (electron-vite bundles main) — the number the target is about. "under tsx": in
 * this process, which carries ~50 MB of tsx's own loader on top.
 */
import { execFile } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { promisify } from 'node:util'
import { setFlagsFromString } from 'node:v8'
import { runInNewContext } from 'node:vm'
import type { build as EsbuildBuild } from 'esbuild'
import { Pool } from 'undici'
import { startSandbox } from '../src/main/sandbox'

interface MemoryFigures {
  rssEmptyMb: number
  rssWith100kMb: number
  heapUsedWith100kMb: number
}

export interface SandboxBenchResult {
  /** Plain node running the bundled sandbox; null when esbuild is unavailable. */
  bundled: MemoryFigures | null
  underTsx: MemoryFigures
  requests: number
  connections: number
  concurrency: number
  reqPerSec: number
  p50Ms: number
  p99Ms: number
  errors: number
}

const STORED = 100_000
const REQUESTS = 20_000
const WARMUP = 1_000
const CONNECTIONS = 8
const CONCURRENCY = 64

function forceGc(): () => void {
  // Same as --expose-gc, without asking the caller for node flags.
  setFlagsFromString('--expose_gc')
  return runInNewContext('gc') as () => void
}

const mb = (bytes: number): number => Math.round((bytes / 1024 / 1024) * 10) / 10

function percentile(sorted: Float64Array, p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return Math.round((sorted[i] as number) * 1000) / 1000
}

const ROOT = resolve(__dirname, '..')

// The child: start a sandbox, seed, collect garbage, print one JSON line.
const CHILD_ENTRY = `
import { startSandbox } from ${JSON.stringify(join(ROOT, 'src/main/sandbox/index.ts'))}
const mb = (b) => Math.round((b / 1048576) * 10) / 10
const sandbox = await startSandbox({ port: 0 })
globalThis.gc()
const rssEmptyMb = mb(process.memoryUsage().rss)
sandbox.control.seedWithdrawals(${STORED})
globalThis.gc()
const m = process.memoryUsage()
await sandbox.close()
console.log(JSON.stringify({ rssEmptyMb, rssWith100kMb: mb(m.rss), heapUsedWith100kMb: mb(m.heapUsed) }))
`

async function measureBundled(): Promise<MemoryFigures | null> {
  let build: typeof EsbuildBuild
  try {
    ;({ build } = await import('esbuild'))
  } catch {
    return null
  }
  const dir = join(ROOT, 'node_modules/.cache/sandbox-bench')
  mkdirSync(dir, { recursive: true })
  const entry = join(dir, 'entry.ts')
  const outfile = join(dir, 'entry.mjs')
  writeFileSync(entry, CHILD_ENTRY)
  // Packages stay external: resolved from the project's node_modules, exactly as installed.
  await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    logLevel: 'silent',
  })
  const { stdout } = await promisify(execFile)(process.execPath, ['--expose-gc', outfile], { cwd: ROOT })
  return JSON.parse(stdout.trim().split('\n').pop() as string) as MemoryFigures
}

export async function run(): Promise<SandboxBenchResult> {
  const bundled = await measureBundled()
  const gc = forceGc()
  const sandbox = await startSandbox({
    port: 0,
    rateLimits: { 'withdraw-status': 1e9, withdraw: 1e9 },
    // The bench runs longer than nothing, but the clock never moves: tokens stay valid.
    accessTokenTtlSeconds: 3600,
  })
  const pool = new Pool(sandbox.baseUrl, { connections: CONNECTIONS, pipelining: 1 })
  try {
    gc()
    const rssEmptyMb = mb(process.memoryUsage().rss)
    const ids = sandbox.control.seedWithdrawals(STORED)
    gc()
    const mem = process.memoryUsage()
    const underTsx = { rssEmptyMb, rssWith100kMb: mb(mem.rss), heapUsedWith100kMb: mb(mem.heapUsed) }

    const login = await pool.request({
      path: '/api/v2/auth/login',
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: sandbox.credentials.clientId,
        client_secret: sandbox.credentials.clientSecret,
      }),
    })
    const token = ((await login.body.json()) as { access_token: string }).access_token
    const headers = { authorization: `Bearer ${token}` }
    const paths = ids.slice(0, 1_000).map((id) => `/api/withdraw-status?id=${id}`)

    let errors = 0
    const one = async (i: number): Promise<number> => {
      const t0 = performance.now()
      const r = await pool.request({ path: paths[i % paths.length] as string, method: 'GET', headers })
      await r.body.text()
      if (r.statusCode !== 200) errors++
      return performance.now() - t0
    }
    const drive = async (total: number, latencies?: Float64Array): Promise<void> => {
      let next = 0
      const worker = async (): Promise<void> => {
        while (next < total) {
          const i = next++
          const ms = await one(i)
          if (latencies !== undefined) latencies[i] = ms
        }
      }
      await Promise.all(Array.from({ length: CONCURRENCY }, worker))
    }

    await drive(WARMUP)
    errors = 0
    const latencies = new Float64Array(REQUESTS)
    const t0 = performance.now()
    await drive(REQUESTS, latencies)
    const seconds = (performance.now() - t0) / 1000
    latencies.sort()
    return {
      bundled,
      underTsx,
      requests: REQUESTS,
      connections: CONNECTIONS,
      concurrency: CONCURRENCY,
      reqPerSec: Math.round(REQUESTS / seconds),
      p50Ms: percentile(latencies, 50),
      p99Ms: percentile(latencies, 99),
      errors,
    }
  } finally {
    await pool.close()
    await sandbox.close()
  }
}

if (process.argv[1] !== undefined && /sandbox\.bench\.ts$/.test(process.argv[1])) {
  run().then(
    (r) => {
      const memory = (label: string, m: MemoryFigures): string =>
        `sandbox: RSS (${label}) ${m.rssEmptyMb} MB empty, ` +
        `${m.rssWith100kMb} MB with ${STORED} withdrawals ` +
        `(heap ${m.heapUsedWith100kMb} MB)`
      const lines = [
        r.bundled === null
          ? 'sandbox: bundled memory run skipped (esbuild unavailable)'
          : `${memory('bundled, plain node', r.bundled)}; target < 150 MB`,
        memory('under tsx', r.underTsx),
        `sandbox: GET /api/withdraw-status ${r.reqPerSec} req/s over ${r.requests} requests ` +
          `(${r.connections} connections, ${r.concurrency} in flight), ` +
          `p50 ${r.p50Ms} ms, p99 ${r.p99Ms} ms, errors ${r.errors}; target ≥ 2000 req/s`,
        JSON.stringify(r),
      ]
      process.stdout.write(`${lines.join('\n')}\n`)
    },
    (e: unknown) => {
      process.stderr.write(`${(e as Error).stack ?? String(e)}\n`)
      process.exit(1)
    },
  )
}
