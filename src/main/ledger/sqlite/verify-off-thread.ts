/**
 * Runs the start-up check on verify-worker.ts, so a 100k-record ledger's seconds of hashing never hold the main
 * thread. `script` is the worker's module: the built chunk in the app (verify-worker-path.ts); the TypeScript
 * source under tests and benchmarks, which load it through tsx as they load everything else.
 */
import { Worker } from 'node:worker_threads'
import { z } from 'zod'
import type { AuditVerification } from '../../../shared/withdrawal-record'
import type { AuditHead } from './audit'

const headSchema = z.strictObject({ seq: z.number().int().nonnegative(), hash: z.string() })
const resultSchema = z.union([
  z.strictObject({
    verification: z.union([
      z.strictObject({ ok: z.literal(true), rows: z.number().int().nonnegative() }),
      z.strictObject({ ok: z.literal(false), brokenAt: z.number().int(), reason: z.string() }),
    ]),
    head: headSchema,
  }),
  z.strictObject({ error: z.string() }),
])

export function verifyOnWorker(
  script: string,
  file: string,
  checkpoint: AuditHead | null,
): Promise<{ verification: AuditVerification; head: AuditHead }> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(script, {
      workerData: { file, checkpoint },
      // The walk holds little (about 12 MB live at 1,000,000 records); uncapped, V8 lets garbage grow the heap
      // to some 170 MB before collecting, and that memory stays with the process after the worker exits.
      resourceLimits: { maxOldGenerationSizeMb: 64, maxYoungGenerationSizeMb: 16 },
      ...(script.endsWith('.ts') ? { execArgv: ['--require', 'tsx/cjs'] } : {}),
    })
    let settled = false
    worker.once('message', (m: unknown) => {
      settled = true
      void worker.terminate()
      const r = resultSchema.safeParse(m)
      if (!r.success) reject(new Error('ledger: the check worker answered something else'))
      else if ('error' in r.data) reject(new Error(`ledger: the check worker failed (${r.data.error})`))
      else resolve(r.data)
    })
    worker.once('error', (e) => {
      if (!settled) reject(e)
    })
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`ledger: the check worker exited (${code})`))
    })
  })
}
