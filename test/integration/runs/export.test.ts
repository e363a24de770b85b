/**
 * A signed export of one run: the `runId` filter selects exactly the run's withdrawals (not another run's, not
 * a single payment's), through the same exporter and manifest, and the verifier accepts it.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { exportRecords, generateSigningKeyPair, verifyExport } from '../../../src/main/records'
import { REFUND_ADDRESS, TAX_NUMBER, runCsv, runRig, type RunRig } from './helpers'

let rig: RunRig | null = null
const dirs: string[] = []
afterEach(async () => {
  await rig?.close()
  rig = null
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

it('exports exactly the run’s withdrawals, signed, and the verifier accepts the export', async () => {
  rig = await runRig()
  const r = rig
  const a = (await r.runs.importFile(runCsv(3), 'a')).run!.runId
  const b = (await r.runs.importFile(runCsv(2), 'b')).run!.runId
  for (const runId of [a, b]) {
    const d = await r.runs.detail(runId)
    for (const row of d.rows) if (row.duplicate) await r.runs.decide(runId, row.idx, 'keep')
    await r.runs.approve(runId, (await r.runs.detail(runId)).summary.payoutCents)
    await r.runs.startWave(runId)
    await r.runs.idle(runId)
  }
  // A single payment outside any run.
  const draft = {
    pixKey: 'solo@example.com',
    taxNumber: TAX_NUMBER,
    amount: { kind: 'payout' as const, cents: 5000 },
    refundAddress: REFUND_ADDRESS,
  }
  const q = await r.withdrawals.quote(draft)
  await r.withdrawals.create(draft, { intentId: q.intent.id })

  const runA = (await r.runs.detail(a)).rows.map((x) => x.localId).sort()
  expect(
    r.ledger
      .query({ runId: a, limit: 100 })
      .rows.map((x) => x.localId)
      .sort(),
  ).toEqual(runA)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runs-export-'))
  dirs.push(dir)
  const res = await exportRecords(r.ledger, {
    dir,
    formats: ['csv', 'json', 'html'],
    filter: { runId: a, profile: 'sandbox' },
    signer: generateSigningKeyPair(),
    appVersion: '0.0.0-test',
    profile: { name: 'Sandbox', network: 'liquid' },
  })
  expect(res.rowCount).toBe(3)
  const manifest = JSON.parse(fs.readFileSync(res.manifestPath, 'utf8')) as {
    filter: Record<string, unknown>
  }
  expect(manifest.filter['runId']).toBe(a)
  const records = JSON.parse(fs.readFileSync(path.join(res.folder, 'records.json'), 'utf8')) as {
    records: Array<{ localId: string }>
  }
  expect(records.records.map((x) => x.localId).sort()).toEqual(runA)
  const v = await verifyExport(res.folder)
  expect(v.problems).toEqual([])
  expect(v.ok).toBe(true)
}, 60_000)
