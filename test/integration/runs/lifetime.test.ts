/**
 * Issue #25 F7: waves sized on what the service says. The sandbox gives withdrawals 30 s to be funded and allows
 * 60 creates a minute; a 100-row run is approved while the lifetime is still the planner's assumption (30 min), so
 * the first wave is planned at 100. Its first answers show 30 s: creation stops while every created row can still
 * be funded before the first one expires (the funding margin included), the rest wait for the next wave, the run
 * says why, and the next wave is proposed on the observed lifetime. No row expires before its wave is created.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { runCsv, runRig, type RunRig } from './helpers'

const MARGIN_MS = 20_000

let rig: RunRig | null = null
let sb: Sandbox | null = null
afterEach(async () => {
  await rig?.close()
  await sb?.close()
  rig = null
  sb = null
})

describe('waves on the lifetime the service gives', () => {
  it('a 30 s lifetime at 60/min: the wave is cut before any row could expire unfunded', async () => {
    sb = await startSandbox({ rateLimits: { withdraw: 60 }, withdrawalTtlSeconds: 30 })
    rig = await runRig({ sb, withdrawPerMinute: 60, fundingMarginMs: MARGIN_MS })
    const r = rig
    const { run } = await r.runs.importFile(runCsv(100), 'lote de 100')
    const runId = run!.runId
    let d = await r.runs.approve(runId, (await r.runs.detail(runId)).summary.payoutCents)
    expect(d.proposal).toMatchObject({ size: 100, assumed: true })
    await r.runs.startWave(runId, 100)
    await r.runs.idle(runId)
    const ended = Date.now()
    d = await r.runs.detail(runId)

    expect(d.run.state).toBe('awaiting_funding')
    const wave = d.rows.filter((x) => x.wave === 1)
    const created = wave.map((x) => r.ledger.get(x.localId!)!)
    expect(created.length).toBeGreaterThan(0)
    expect(created.length).toBeLessThan(100)
    expect(created.every((x) => x.localState === 'created')).toBe(true)
    // Every withdrawal of the wave is still payable when the wave is done; its last create began with the margin
    // to fund the wave still ahead of the first expiry (judged before each create, so load after it does not count).
    const first = Math.min(...created.map((x) => Date.parse(x.expiration!)))
    const lastCreate = Math.max(...created.map((x) => Date.parse(x.createdAt)))
    expect(first).toBeGreaterThan(ended)
    expect(first - lastCreate).toBeGreaterThanOrEqual(MARGIN_MS - 1_000)
    const statuses = r.sb.control.state().withdrawals.map((w) => w.status)
    expect(statuses).not.toContain('expired')
    // The rest wait for the next wave; the run says why.
    expect(d.rows.filter((x) => x.state === 'pending')).toHaveLength(100 - created.length)
    expect(d.notice).toMatchObject({ code: 'wave_cut_lifetime', wave: 1, deferred: 100 - created.length })
    expect(Math.abs(d.notice!.lifetimeMs - 30_000)).toBeLessThan(5_000)
    const audit = r.ledger.audit({ subject: runId }).rows.find((e) => e.action === 'run.wave_cut')
    expect(audit?.details).toMatchObject({ reason: 'lifetime', deferred: 100 - created.length })

    // The next wave is proposed on the lifetime observed: at most what fits 30 s less the margin.
    d = await r.runs.markWaveFunded(runId, 1)
    expect(d.run.state).toBe('approved')
    expect(d.proposal?.assumed).toBe(false)
    expect(d.proposal!.size).toBeLessThanOrEqual(60 + 10)
  }, 90_000)
})
