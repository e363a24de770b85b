/**
 * A restart right after a wave spent the service's POST /withdraw allowance. The service's bucket is still empty:
 * the new process's client must start from the ledger's records of the last minute, not a full bucket, so that
 * resuming waits instead of sending at once and turning a row into a 429 "rejected". Real sandbox, the
 * same ledger file reopened, a new client and run service as after quitting and starting the app.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { runCsv, runRig, tempLedgerFile } from './helpers'

const LIMIT = 60
const N = LIMIT + 3

let sb: Sandbox
beforeAll(async () => {
  sb = await startSandbox({ rateLimits: { withdraw: LIMIT } })
})
afterAll(async () => {
  await sb.close()
})

describe('resume right after a restart', () => {
  it('waits for the service’s allowance: every row created, no 429, one POST per row', async () => {
    const t = tempLedgerFile()
    const posts = () => sb.control.requestCounts()['POST /api/withdraw'] ?? 0
    let r = await runRig({ sb, file: t.file, withdrawPerMinute: LIMIT })
    try {
      const { run } = await r.runs.importFile(runCsv(N), 'lote')
      const runId = run!.runId
      await r.runs.approve(runId, (await r.runs.detail(runId)).summary.payoutCents)
      await r.runs.startWave(runId, N)
      // The first minute's worth goes at once; then quit while the wave waits for a token.
      while (posts() < LIMIT) await new Promise((res) => setTimeout(res, 20))
      await r.close()
      const sent = posts()
      expect(sent).toBeLessThan(N)

      r = await runRig({ sb, file: t.file, withdrawPerMinute: LIMIT })
      expect((await r.runs.detail(runId)).run.state).toBe('paused')
      // The new client knows the service's bucket is spent: the ledger holds the last minute's POSTs.
      expect(r.client.allowance().withdraw.available).toBeLessThan(LIMIT / 2)
      await r.runs.resume(runId)
      await r.runs.idle(runId)
      const d = await r.runs.detail(runId)
      expect(d.run.state).toBe('awaiting_funding')
      expect(d.progress.counts.rejected).toBe(0)
      expect(d.progress.created).toBe(N)
      expect(posts()).toBe(N)
      const keys = sb.control.state().withdrawals.map((w) => w.pixKey)
      expect(new Set(keys).size).toBe(N)
    } finally {
      await r.close()
      fs.rmSync(t.dir, { recursive: true, force: true })
    }
  }, 60_000)
})
