/**
 * Runs LWK's `TxBuilder.finish` on build-worker.ts so the seconds a large wave's blinding takes never hold the
 * main thread. `script` is the worker's module: the built chunk in the app (build-worker-path.ts); the TypeScript
 * source under tests and benchmarks, loaded through tsx. What crosses is checked by zod both ways.
 */
import { Worker } from 'node:worker_threads'
import { z } from 'zod'
import type { WalletReplay } from '../replay'
import type { BuildRequest } from './types'

export const workerInputSchema = z.strictObject({
  wallet: z.strictObject({
    descriptor: z.string().min(1),
    network: z.enum(['liquid', 'testnet', 'regtest']),
    policyAsset: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .optional(),
    updates: z.array(z.string().min(1)),
  }),
  request: z.strictObject({
    recipients: z
      .array(
        z.strictObject({
          address: z.string().min(1),
          units: z.string().regex(/^[1-9]\d*$/),
          blinded: z.boolean(),
        }),
      )
      .min(1),
    depix: z.string().regex(/^[0-9a-f]{64}$/),
  }),
})

const resultSchema = z.union([
  z.strictObject({ pset: z.string().min(1) }),
  z.strictObject({ short: z.literal(true) }),
  z.strictObject({ error: z.string() }),
])

/** Far above the ~20 s a 200-output build takes on a slow machine: only a worker that hangs is stopped. */
const WORKER_LIMIT_MS = 10 * 60_000

/** The PSET (base64), or null when LWK found too few coins. */
export function finishOnWorker(
  script: string,
  input: { wallet: WalletReplay; request: Pick<BuildRequest, 'recipients' | 'depix'> },
): Promise<string | null> {
  const data = workerInputSchema.parse({
    wallet: input.wallet,
    request: { recipients: input.request.recipients, depix: input.request.depix },
  })
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, {
      workerData: data,
      ...(script.endsWith('.ts') ? { execArgv: ['--require', 'tsx/cjs'] } : {}),
    })
    let settled = false
    const timer = setTimeout(() => {
      if (settled) return
      settled = true
      void worker.terminate()
      reject(new Error('wallet pay: the PSET builder did not answer'))
    }, WORKER_LIMIT_MS)
    worker.once('message', (m: unknown) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      void worker.terminate()
      const r = resultSchema.safeParse(m)
      if (!r.success) reject(new Error('wallet pay: the PSET builder answered something else'))
      else if ('error' in r.data) reject(new Error(`wallet pay: the PSET builder failed (${r.data.error})`))
      else resolve('pset' in r.data ? r.data.pset : null)
    })
    worker.once('error', (e) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(e)
    })
    worker.once('exit', (code) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      reject(new Error(`wallet pay: the PSET builder exited (${code})`))
    })
  })
}
