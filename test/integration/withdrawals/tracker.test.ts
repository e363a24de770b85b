/**
 * The status tracker against the real sandbox, on real time with a compressed cadence: a funded and settled
 * withdrawal is observed as sent (or refunded) and then never asked about again.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Cadence } from '../../../src/main/tracking/scheduler'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { draft, rig, waitFor, type Rig } from './helpers'
import { reviewedCreate } from '../../main/withdrawals/reviewed'

let r: Rig | undefined
afterEach(async () => {
  await r?.close()
  r = undefined
})

/** The default cadence divided by ~1000: seconds become milliseconds. */
const FAST: Partial<Cadence> = {
  hotIntervalMs: 100,
  ageTiers: [{ maxAgeMs: 60 * 60_000, intervalMs: 150 }],
  oldIntervalMs: 300,
  resyncMs: 500,
}

async function fastRig(): Promise<Rig> {
  return rig({ service: { tracker: { cadence: FAST } } })
}

const statusOf = (rig: Rig, localId: string) => rig.ledger.get(localId) as WithdrawalRecord

describe('tracker on the real sandbox', () => {
  it('observes a funded withdrawal as sending, then sent, and stops polling it', async () => {
    r = await fastRig()
    const rig = r
    const rec = await reviewedCreate(rig.service, draft())
    const changes: string[] = []
    rig.service.onChange((x) => {
      if (x.localId === rec.localId && x.remoteStatus) changes.push(x.remoteStatus)
    })
    rig.service.tracker.start()
    rig.service.markFunded(rec.localId, { txId: 'f'.repeat(64) })
    rig.sb.control.fundWithdrawal(rec.remoteId as string, rec.depositAmountCents as number)
    await waitFor('sending', () => statusOf(rig, rec.localId).remoteStatus === 'sending')
    rig.sb.control.settlePayout(rec.remoteId as string, 'sent')
    await waitFor('sent', () => statusOf(rig, rec.localId).remoteStatus === 'sent')
    const done = statusOf(rig, rec.localId)
    expect(done.lastRemote).toMatchObject({ status: 'sent', centralBankId: expect.any(String) })
    expect(changes).toEqual(expect.arrayContaining(['sending', 'sent']))
    expect(rig.ledger.listOpen()).toEqual([])
    const gets = rig.statusGets()
    await new Promise((x) => setTimeout(x, 1_200))
    expect(rig.statusGets()).toBe(gets)
    expect(rig.service.tracker.stats()).toMatchObject({ tracked: 0, state: 'running' })
    expect(rig.sb.control.requestCounts()['POST /api/withdraw']).toBe(1)
  })

  it('a refund is kept with its details and ends polling', async () => {
    r = await fastRig()
    const rig = r
    const rec = await reviewedCreate(rig.service, draft({ pixKey: 'ciclano@example.com' }))
    rig.service.tracker.start()
    rig.sb.control.fundWithdrawal(rec.remoteId as string, rec.depositAmountCents as number)
    rig.sb.control.settlePayout(rec.remoteId as string, 'invalid_pix_key')
    await waitFor('refunded', () => statusOf(rig, rec.localId).remoteStatus === 'refunded')
    expect(statusOf(rig, rec.localId).refund).toMatchObject({
      reason: 'invalid_pix_key',
      txId: expect.any(String),
    })
    const gets = rig.statusGets()
    await new Promise((x) => setTimeout(x, 800))
    expect(rig.statusGets()).toBe(gets)
  })

  it('the operator\'s "check now" goes through the same client and never earns a 429', async () => {
    r = await fastRig()
    const rig = r
    const recs: WithdrawalRecord[] = []
    for (let i = 0; i < 5; i++)
      recs.push(await reviewedCreate(rig.service, draft({ amount: { kind: 'payout', cents: 500 + i } })))
    rig.service.tracker.start()
    for (let i = 0; i < 10; i++) await rig.service.refresh((recs[i % 5] as WithdrawalRecord).localId)
    await new Promise((x) => setTimeout(x, 1_500))
    await rig.service.tracker.stop()
    expect(rig.statusGets()).toBeGreaterThan(10)
    // The client's limiter and the tracker's reserve keep us under the sandbox's 60/min: no 429 ever came back.
    expect(rig.service.tracker.stats().failures).toBe(0)
    expect(rig.sb.control.requestCounts()['POST /api/withdraw']).toBe(5)
  })
})
