/**
 * A payment run end to end against the real sandbox: import with bad lines, duplicate decisions, approval by the
 * total (audited, naming the rows), a changed decision voiding it, waves created through the single payment's
 * create (one POST per row, counted at the sandbox), the funding sheet and its wallet files, "wave funded", and
 * the outcomes the sandbox decides.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { RunError } from '../../../src/main/runs'
import { DEPIX_ASSET_ID } from '../../../src/main/liquid'
import { HEADER, REFUND_ADDRESS, TAX_NUMBER, runCsv, runRig, type RunRig } from './helpers'

let rig: RunRig | null = null
afterEach(async () => {
  await rig?.close()
  rig = null
})

async function refused(f: () => unknown, code: string): Promise<void> {
  try {
    await f()
  } catch (e) {
    expect(e).toBeInstanceOf(RunError)
    expect((e as RunError).code).toBe(code)
    return
  }
  throw new Error(`expected RunError ${code}`)
}

describe('a payment run against the sandbox', () => {
  it('imports, approves by the total, creates waves once per row, builds the sheet, funds and reports', async () => {
    rig = await runRig()
    const r = rig
    const bad = [`Ruim;not-a-key;${TAX_NUMBER};10,00;;`, `Dup;f0@example.com;${TAX_NUMBER};10,00;;`]
    const { run, result } = await r.runs.importFile(runCsv(6, bad), 'Fornecedores novembro')
    expect(result.issues.map((i) => `${i.line}:${i.code}`)).toEqual(['8:pix_key_unrecognized'])
    expect(run).not.toBeNull()
    const runId = run!.runId
    let d = await r.runs.detail(runId)
    expect(d.rows).toHaveLength(7)
    expect(d.summary.undecided).toBe(2) // line 2 and line 9: same key and amount
    await refused(() => r.runs.approve(runId, d.summary.payoutCents), 'duplicates_undecided')
    d = await r.runs.decide(runId, 0, 'keep')
    d = await r.runs.decide(runId, 6, 'drop')
    expect(d.summary.count).toBe(6)
    // R$ 10..15 paid out, 1% rate (fee floor R$ 1,00 applies): deposits 11..16 → 81,00.
    expect(d.summary.payoutCents).toBe(7500)
    expect(d.summary.depositCents).toBe(8100)
    expect(d.summary.feeCents).toBe(600)
    expect(d.summary.byCategory.map((c) => [c.key, c.count])).toEqual([
      ['Serviços', 3],
      ['Materiais', 3],
    ])
    // The control total is what arrives by Pix (R$ 75,00), not the DePix to send (R$ 81,00).
    await refused(() => r.runs.approve(runId, 8100), 'total_mismatch')
    await refused(() => r.runs.approve(runId, 7499), 'total_mismatch')
    d = await r.runs.approve(runId, 7500)
    expect(d.run.state).toBe('approved')
    const approval = r.ledger.audit({ subject: runId }).rows.find((e) => e.action === 'run.approved')!
    expect(approval.details).toMatchObject({ rows: [0, 1, 2, 3, 4, 5], dropped: [6], depositCents: 8100 })
    expect(approval.details['rowsHash']).toBe(d.run.approvedHash)

    // A changed decision after approval voids it: a new approval is needed.
    d = await r.runs.decide(runId, 6, 'keep')
    expect(d.run.state).toBe('draft')
    expect(d.run.approvedHash).toBeNull()
    d = await r.runs.decide(runId, 6, 'drop')
    d = await r.runs.approve(runId, 7500)

    expect(d.proposal?.size).toBe(6)
    expect(r.posts()).toBe(0)
    d = await r.runs.startWave(runId, 4)
    await r.runs.idle(runId)
    d = await r.runs.detail(runId)
    expect(d.run.state).toBe('awaiting_funding')
    expect(r.posts()).toBe(4)
    expect(d.progress.created).toBe(4)
    await refused(() => r.runs.startWave(runId), 'wave_not_funded')

    const sheet = await r.runs.sheet(runId, 1)
    expect(sheet.problems).toEqual([])
    expect(sheet.lines).toHaveLength(4)
    expect(sheet.totalCents).toBe(1100 + 1200 + 1300 + 1400)
    expect(sheet.totalDepix).toBe('50.00000000')
    expect(sheet.earliestDeadline).toBe(sheet.lines.map((l) => l.funding.expiration).sort()[0])
    const files = sheet.files!
    expect(Object.values(files.sendmany.amounts).sort()).toEqual([
      '11.00000000',
      '12.00000000',
      '13.00000000',
      '14.00000000',
    ])
    expect(Object.keys(files.sendmany.output_assets)).toEqual(Object.keys(files.sendmany.amounts))
    expect(new Set(Object.values(files.sendmany.output_assets))).toEqual(new Set([DEPIX_ASSET_ID]))
    expect(files.sendmany.positional[1]).toEqual(files.sendmany.amounts)
    expect(files.sendmany.positional[8]).toEqual(files.sendmany.output_assets)
    expect(files.csv.split('\r\n')[0]).toBe('"address","amount","asset_id","deadline","line","local_id"')
    expect(files.csv.trim().split('\r\n')).toHaveLength(5)
    for (const l of sheet.lines)
      expect(l.funding.uri).toMatch(/^liquidnetwork:\S+\?amount=\d+\.\d{2}&assetid=/)

    // Fund through the sandbox: three exact, one far off (returned in full); then settle.
    for (const [i, l] of sheet.lines.entries()) {
      const remote = r.ledger.get(l.localId)!.remoteId!
      r.sb.control.fundWithdrawal(remote, i === 3 ? l.funding.cents * 2 : l.funding.cents)
    }
    d = await r.runs.markWaveFunded(runId, 1, 'ab'.repeat(32))
    expect(d.run.state).toBe('approved')
    for (const l of sheet.lines.slice(0, 3))
      r.sb.control.settlePayout(r.ledger.get(l.localId)!.remoteId!, 'sent')
    for (const l of sheet.lines) await r.withdrawals.refresh(l.localId)
    d = await r.runs.detail(runId)
    expect(d.progress.paid).toBe(3)
    expect(d.progress.returned).toBe(1)

    // The next wave only when asked: the rest (2 rows), then the run completes when funded.
    expect(r.posts()).toBe(4)
    d = await r.runs.startWave(runId)
    await r.runs.idle(runId)
    expect(r.posts()).toBe(6)
    d = await r.runs.markWaveFunded(runId, 2)
    expect(d.run.state).toBe('completed')
    expect(d.rows.find((x) => x.idx === 6)!.outcome).toBe('dropped')
  }, 60_000)

  it('pause stops at a row boundary, resume continues, cancel drops what was not sent', async () => {
    rig = await runRig({ withdrawPerMinute: 60 })
    const r = rig
    const { run } = await r.runs.importFile(runCsv(8), 'lote')
    const runId = run!.runId
    const d0 = await r.runs.detail(runId)
    await r.runs.approve(runId, d0.summary.payoutCents)
    await r.runs.startWave(runId, 8)
    // A short bucket: create the first few, then pause between rows.
    r.sb.control.injectFault({ kind: 'slow', delayMs: 300, endpoint: 'withdraw', count: 100 })
    while (r.posts() < 2) await new Promise((res) => setTimeout(res, 20))
    await r.runs.pause(runId)
    await r.runs.idle(runId)
    let d = await r.runs.detail(runId)
    expect(d.run.state).toBe('paused')
    const sent = r.posts()
    expect(sent).toBeLessThan(8)
    expect(d.progress.created).toBe(sent)
    await r.runs.resume(runId)
    while (r.posts() < sent + 1) await new Promise((res) => setTimeout(res, 20))
    d = await r.runs.cancel(runId)
    expect(d.run.state).toBe('cancelled')
    const created = r.posts()
    expect(d.progress.created).toBe(created)
    expect(d.progress.counts.dropped).toBe(8 - created)
    await new Promise((res) => setTimeout(res, 300))
    expect(r.posts()).toBe(created)
  }, 60_000)

  it('a blank refund column takes the profile default; rows keep their references', async () => {
    rig = await runRig()
    const bytes = new TextEncoder().encode(
      `${HEADER};NF\r\nA;a@example.com;${TAX_NUMBER};10,00;Serviços;Obras;NF 1`,
    )
    const { run } = await rig.runs.importFile(bytes, 'x')
    const row = (await rig.runs.detail(run!.runId)).rows[0]!
    expect(row.draft.refundAddress).toBe(REFUND_ADDRESS)
    expect(row.draft.references).toEqual({ invoice: 'NF 1', category: 'Serviços', costCentre: 'Obras' })
  })
})
