/**
 * A restart right after a wave spent the service's POST /withdraw allowance. The new process's client starts with
 * a full bucket, the service's is still empty: resuming must wait for the service's tokens (known from the
 * ledger's records of the last minute), not send at once and turn a row into a 429 "rejected". Real sandbox, the
 * same ledger file reopened, a new client and run service as after quitting and starting the app.
 */
import fs from 'node:fs'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ServiceBucket } from '../../../src/main/runs/executor'
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
      r.runs.approve(runId, r.runs.detail(runId).summary.depositCents)
      r.runs.startWave(runId, N)
      // The first minute's worth goes at once; then quit while the wave waits for a token.
      while (posts() < LIMIT) await new Promise((res) => setTimeout(res, 20))
      await r.close()
      const sent = posts()
      expect(sent).toBeLessThan(N)

      r = await runRig({ sb, file: t.file, withdrawPerMinute: LIMIT })
      expect(r.runs.detail(runId).run.state).toBe('paused')
      // The new client believes it has a full minute; the ledger says the service does not.
      expect(r.client.allowance().withdraw.available).toBeGreaterThanOrEqual(LIMIT - 1)
      expect(
        new ServiceBucket({ ledger: r.ledger, profile: 'sandbox', now: Date.now }, LIMIT).level(Date.now()),
      ).toBeLessThan(LIMIT / 2)
      r.runs.resume(runId)
      await r.runs.idle(runId)
      const d = r.runs.detail(runId)
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

  it('the shadow bucket: empty a minute ago at worst, refilled at limit/60 s, one token per create', () => {
    const at = Date.parse('2026-11-25T09:00:00.000Z')
    const created = [0, 100, 200].map((ms) => ({ createdAt: new Date(at + ms).toISOString() }))
    const ledger = { iterate: () => created.values() } as never
    // Three creates, each after ~1 min of refill from empty: about 10 − 3 tokens at 10/min.
    const b = new ServiceBucket({ ledger, profile: 'p', now: () => at + 200 }, 10)
    expect(b.level(at + 200)).toBeCloseTo(7, 1)
    expect(b.waitMs(at + 200)).toBe(0)
    for (let i = 0; i < 7; i++) b.spend(at + 200)
    expect(b.level(at + 200)).toBeLessThan(1)
    expect(b.waitMs(at + 200)).toBeGreaterThan(5_000)
    expect(b.waitMs(at + 200)).toBeLessThanOrEqual(6_000)
    expect(b.waitMs(at + 6_200)).toBe(0)
    // Never above a minute's worth.
    expect(b.level(at + 3_600_000)).toBe(10)
  })
})
