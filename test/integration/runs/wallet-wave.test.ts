/**
 * Issue #28: a wave the treasury wallet pays is cut while its payments can still be re-checked with the service
 * (one `GET /withdraw-status` each, at 60 a minute), built, and then signed before the wallet's own refusal margin
 * (DEADLINE_MARGIN_MS). The sandbox gives withdrawals that margin plus 20 s and creates 600 a minute: without the
 * per-row funding time all 100 rows would be created in ~10 s and the first payments then refused as too close to
 * their deadline; with it, creation stops after about 20 s / 1.06 s rows.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { WALLET_FUNDING_PER_ROW_MS } from '../../../src/main/runs/planner'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { DEADLINE_MARGIN_MS } from '../../../src/main/wallet/pay/lines'
import { runCsv, runRig, type RunRig } from './helpers'

let rig: RunRig | null = null
let sb: Sandbox | null = null
afterEach(async () => {
  await rig?.close()
  await sb?.close()
  rig = null
  sb = null
})

describe('a wave the wallet pays', () => {
  it('stops creating while every payment can still be re-checked and built before the refusal margin', async () => {
    sb = await startSandbox({
      rateLimits: { withdraw: 600 },
      withdrawalTtlSeconds: DEADLINE_MARGIN_MS / 1000 + 20,
    })
    rig = await runRig({ sb, withdrawPerMinute: 600, walletPays: true })
    const r = rig
    const { run } = await r.runs.importFile(runCsv(100), 'lote da carteira')
    const runId = run!.runId
    await r.runs.approve(runId, (await r.runs.detail(runId)).summary.payoutCents)
    await r.runs.startWave(runId, 100)
    await r.runs.idle(runId)
    const d = await r.runs.detail(runId)
    const created = d.rows.filter((x) => x.wave === 1).map((x) => r.ledger.get(x.localId!)!)
    expect(created.length).toBeGreaterThan(0)
    expect(created.length).toBeLessThanOrEqual(Math.floor(20_000 / WALLET_FUNDING_PER_ROW_MS))
    // When the last was created, re-checking and building all of them still ends before the refusal margin.
    const first = Math.min(...created.map((x) => Date.parse(x.expiration!)))
    const lastCreate = Math.max(...created.map((x) => Date.parse(x.createdAt)))
    expect(lastCreate + created.length * WALLET_FUNDING_PER_ROW_MS + DEADLINE_MARGIN_MS).toBeLessThanOrEqual(
      first + 1_000,
    )
    expect(d.notice).toMatchObject({ code: 'wave_cut_lifetime', wave: 1, deferred: 100 - created.length })
  }, 90_000)
})
