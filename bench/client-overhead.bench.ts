/**
 * What the DePix client costs on top of the HTTP round trip: `withdrawStatus` through the client (limiter off:
 * its waits are policy, not overhead) against a bare `undici.request` + `JSON.parse` of the same URL, on the same
 * loopback sandbox with its limits raised. Calls are interleaved (alternating which goes first) so both see the
 * same machine state. Target: median overhead ratio ≤ 1.15.
 */
import path from 'node:path'
import { request } from 'undici'
import { createDepixClient } from '../src/main/api'
import { startSandbox } from '../src/main/sandbox'

export interface ClientOverheadResult {
  calls: number
  clientP50Ms: number
  clientP99Ms: number
  bareP50Ms: number
  bareP99Ms: number
  /** median(client) / median(bare). */
  medianRatio: number
  /** Median of per-pair ratios, a second view robust to drift over the run. */
  pairedMedianRatio: number
  target: number
  pass: boolean
}

const TARGET = 1.15

function percentile(sorted: number[], p: number): number {
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))
  return sorted[i] ?? Number.NaN
}

const round = (n: number, d = 4) => Math.round(n * 10 ** d) / 10 ** d

export async function run(
  calls = Number(process.env.CLIENT_BENCH_CALLS ?? 3_000),
): Promise<ClientOverheadResult> {
  const sb = await startSandbox({ rateLimits: { 'withdraw-status': 100_000_000, withdraw: 100_000_000 } })
  const client = createDepixClient({
    baseUrl: sb.baseUrl,
    auth: {
      kind: 'client_credentials',
      clientId: sb.credentials.clientId,
      clientSecret: sb.credentials.clientSecret,
    },
    limiter: 'off',
  })
  try {
    await client.signIn()
    const [id] = sb.control.seedWithdrawals(1)
    if (id === undefined) throw new Error('no seeded withdrawal')

    // The bare side gets its own token the plain way.
    const login = await request(`${sb.baseUrl}/api/v2/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: sb.credentials.clientId,
        client_secret: sb.credentials.clientSecret,
      }),
    })
    const { access_token: token } = (await login.body.json()) as { access_token: string }
    const url = `${sb.baseUrl}/api/withdraw-status?id=${encodeURIComponent(id)}`
    const headers = { authorization: `Bearer ${token}`, accept: 'application/json' }

    const viaClient = async () => {
      const t = performance.now()
      const r = await client.withdrawStatus(id)
      const ms = performance.now() - t
      if (r.data.id !== id) throw new Error('wrong answer')
      return ms
    }
    const bare = async () => {
      const t = performance.now()
      const r = await request(url, { headers })
      const body = JSON.parse(await r.body.text()) as { response: { id: string } }
      const ms = performance.now() - t
      if (r.statusCode !== 200 || body.response.id !== id)
        throw new Error(`bare call failed: ${r.statusCode}`)
      return ms
    }

    for (let i = 0; i < 300; i++) {
      await viaClient()
      await bare()
    }
    const c: number[] = []
    const b: number[] = []
    const pairs: number[] = []
    for (let i = 0; i < calls; i++) {
      let ci: number
      let bi: number
      if (i % 2 === 0) {
        ci = await viaClient()
        bi = await bare()
      } else {
        bi = await bare()
        ci = await viaClient()
      }
      c.push(ci)
      b.push(bi)
      pairs.push(ci / bi)
    }
    c.sort((x, y) => x - y)
    b.sort((x, y) => x - y)
    pairs.sort((x, y) => x - y)
    const medianRatio = percentile(c, 50) / percentile(b, 50)
    return {
      calls,
      clientP50Ms: round(percentile(c, 50)),
      clientP99Ms: round(percentile(c, 99)),
      bareP50Ms: round(percentile(b, 50)),
      bareP99Ms: round(percentile(b, 99)),
      medianRatio: round(medianRatio, 3),
      pairedMedianRatio: round(percentile(pairs, 50), 3),
      target: TARGET,
      pass: medianRatio <= TARGET,
    }
  } finally {
    await client.close()
    await sb.close()
  }
}

// Run directly (not imported by bench/run.ts): print. No top-level await: tsx loads this file as CommonJS.
if (path.basename(process.argv[1] ?? '') === 'client-overhead.bench.ts') {
  void run().then((res) => {
    console.log(JSON.stringify(res, null, 2))
    console.log(
      `client p50 ${res.clientP50Ms} ms / p99 ${res.clientP99Ms} ms · bare p50 ${res.bareP50Ms} ms / p99 ${res.bareP99Ms} ms · median ratio ${res.medianRatio} (target ≤ ${res.target}) ${res.pass ? 'PASS' : 'FAIL'}`,
    )
  })
}
