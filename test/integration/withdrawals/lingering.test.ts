/**
 * An expired withdrawal whose late deposit the real sandbox returns to the refund address (docs/API-CONTRACT.md#s3-2): the tracker
 * keeps asking about the expired record and the ledger learns the refund with its txid (issue #11 item 4).
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

const FAST: Partial<Cadence> = {
  hotIntervalMs: 100,
  ageTiers: [{ maxAgeMs: 60 * 60_000, intervalMs: 150 }],
  oldIntervalMs: 300,
  lingerTiers: [{ maxAgeMs: 60 * 60_000, intervalMs: 200 }],
  lingerIntervalMs: 400,
  resyncMs: 500,
}

const get = (rig: Rig, localId: string) => rig.ledger.get(localId) as WithdrawalRecord

describe('expired, then refunded, on the real sandbox', () => {
  it('a deposit after expiry is returned and the ledger records the refund txid', async () => {
    r = await rig({ service: { tracker: { cadence: FAST } } })
    const rig_ = r
    const rec = await reviewedCreate(rig_.service, draft())
    rig_.service.tracker.start()
    rig_.sb.control.advanceClock(2 * 24 * 3600)
    await waitFor('expired', () => get(rig_, rec.localId).remoteStatus === 'expired')
    expect(rig_.ledger.listOpen().map((x) => x.localId)).toContain(rec.localId)

    // The payer's wallet sends the token late; the sandbox returns it in full to the refund address.
    rig_.sb.control.fundWithdrawal(rec.remoteId as string, rec.depositAmountCents as number)
    await waitFor('refunded', () => get(rig_, rec.localId).refund !== null)
    const done = get(rig_, rec.localId)
    expect(done.remoteStatus).toBe('refunded')
    expect(done.refund).toMatchObject({ txId: expect.stringMatching(/^[0-9a-f]{64}$/) })
    expect(done.flags).not.toContain('remote_status_conflict')
    expect(rig_.ledger.listOpen()).toEqual([])
    const gets = rig_.statusGets()
    await new Promise((x) => setTimeout(x, 1_000))
    expect(rig_.statusGets()).toBe(gets)
  })
})
