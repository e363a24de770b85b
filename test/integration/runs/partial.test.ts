/**
 * Issue #25 F8: rows a run could not create. Against the real sandbox: a wave whose creates are refused for a
 * passing cause (520 NETWORK_WALLET_UNAVAILABLE, 429), for good (422), or end with an unknown outcome (the answer
 * lost after the create; the connection cut before it). The run ends "partially paid", never "completed"; a row is
 * sent again only once its old outcome is known "not created" (a new, journaled create in the next wave); an unknown
 * row is resolved from the run.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { RunError } from '../../../src/main/runs'
import { runCsv, runRig, type RunRig } from './helpers'

let rig: RunRig | null = null
afterEach(async () => {
  await rig?.close()
  rig = null
})

async function refused(f: () => Promise<unknown>, code: string): Promise<void> {
  const e = await f().then(
    () => null,
    (x: unknown) => x,
  )
  expect(e).toBeInstanceOf(RunError)
  expect((e as RunError).code).toBe(code)
}

describe('a run with rows not created', () => {
  it('ends partially paid; passing refusals and rows known not created are retried; unknown rows are resolved', async () => {
    rig = await runRig()
    const r = rig
    const { run } = await r.runs.importFile(runCsv(6), 'lote parcial')
    const runId = run!.runId
    await r.runs.approve(runId, (await r.runs.detail(runId)).summary.payoutCents)
    const f = r.sb.control
    f.injectFault({
      kind: 'refusal',
      status: 520,
      messageCode: 'NETWORK_WALLET_UNAVAILABLE',
      endpoint: 'withdraw',
    })
    f.injectFault({ kind: 'status', status: 429, endpoint: 'withdraw' })
    f.injectFault({ kind: 'timeout_after_create', endpoint: 'withdraw' })
    f.injectFault({ kind: 'reset', endpoint: 'withdraw' })
    f.injectFault({ kind: 'refusal', status: 422, messageCode: 'COMPLIANCE_DENIED', endpoint: 'withdraw' })
    await r.runs.startWave(runId, 6)
    await r.runs.idle(runId)
    let d = await r.runs.detail(runId)
    expect(d.run.state).toBe('awaiting_funding')
    expect(d.rows.map((x) => x.outcome)).toEqual([
      'rejected',
      'rejected',
      'outcome_unknown',
      'outcome_unknown',
      'rejected',
      'created',
    ])
    expect(d.rows.map((x) => x.retry)).toEqual([true, true, false, false, false, false])
    const posts = r.posts()

    // Unknown or refused for good: no new create.
    await refused(() => r.runs.retryRow(runId, 2), 'row_not_retryable')
    await refused(() => r.runs.retryRow(runId, 4), 'row_not_retryable')
    await refused(() => r.runs.retryRow(runId, 5), 'row_not_retryable')
    await refused(() => r.runs.resolveRow(runId, 0, { notCreated: true }), 'row_not_unknown')

    d = await r.runs.markWaveFunded(runId, 1)
    expect(d.run.state).toBe('partially_paid')

    // Row 2 was created at the service (its answer was lost): linked by the id support would give.
    const made = f.state().withdrawals.filter((w) => w.pixKey === 'f2@example.com')
    expect(made).toHaveLength(1)
    d = await r.runs.resolveRow(runId, 2, { withdrawalId: made[0]!.id })
    expect(d.rows[2]!.outcome).toBe('created')
    expect(d.rows[2]!.retry).toBe(false)
    // Row 3's connection was cut before the service saw it: resolved as never created, it may be sent again.
    expect(f.state().withdrawals.filter((w) => w.pixKey === 'f3@example.com')).toHaveLength(0)
    d = await r.runs.resolveRow(runId, 3, { notCreated: true })
    expect(d.rows[3]!.retry).toBe(true)
    expect(d.run.state).toBe('partially_paid')

    const old = d.rows.map((x) => x.localId)
    for (const idx of [0, 1, 3]) d = await r.runs.retryRow(runId, idx)
    expect(d.run.state).toBe('approved')
    expect(d.rows.map((x) => x.state)).toEqual([
      'pending',
      'pending',
      'submitted',
      'pending',
      'submitted',
      'submitted',
    ])
    const retried = r.ledger.audit({ subject: `${runId}#0` }).rows.find((e) => e.action === 'run.row_retried')
    expect(retried?.details).toMatchObject({ previousLocalId: old[0], previousState: 'rejected' })
    // The old records stay as they were.
    expect(r.ledger.get(old[0]!)?.localState).toBe('rejected')
    expect(r.ledger.get(old[3]!)?.localState).toBe('not_created')
    expect(r.posts()).toBe(posts)

    d = await r.runs.startWave(runId)
    await r.runs.idle(runId)
    d = await r.runs.detail(runId)
    expect(r.posts()).toBe(posts + 3)
    expect(d.rows.map((x) => x.outcome)).toEqual([
      'created',
      'created',
      'created',
      'created',
      'rejected',
      'funded',
    ])
    for (const idx of [0, 1, 3]) expect(d.rows[idx]!.localId).not.toBe(old[idx])
    d = await r.runs.markWaveFunded(runId, 2)
    // Row 4 was refused for good: the run is not "completed".
    expect(d.run.state).toBe('partially_paid')
    expect(d.progress.created).toBe(5)
  }, 60_000)
})
