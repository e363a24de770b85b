/**
 * Statuses that look final but can still change (issue #11 items 4 and 8), on a fake clock against a fake
 * withdraw-status endpoint and a real ledger file: `expired`, `cancelled` and `refunded` without its refund object
 * keep being polled slowly; marking funded re-arms fast polling; an unknown status after `sending` is shown.
 */
import { describe, expect, it } from 'vitest'
import type { Ledger } from '../../../src/main/ledger/sqlite'
import { sqliteStore } from '../../../src/main/ledger/engines'
import type { StatusTracker } from '../../../src/main/tracking/types'
import { createStatusTracker } from '../../../src/main/withdrawals'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { statusCategory } from '../../../src/shared/withdrawal-status'
import { FakeClock, FakeStatusApi, seedCreated, testLedger, type StatusReply } from './helpers'

const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR

interface Rig {
  clock: FakeClock
  ledger: Ledger
  api: FakeStatusApi
  tracker: StatusTracker
}

function rig(reply: (id: string, nth: number) => StatusReply): Rig {
  const clock = new FakeClock()
  const ledger = testLedger(clock.now)
  const api = new FakeStatusApi(clock, reply)
  const tracker = createStatusTracker({
    store: sqliteStore(ledger, { closeLedger: false }),
    client: api.asClient(),
    profile: 'sandbox',
    network: 'liquid',
    now: clock.now,
    timers: clock,
    changed: () => undefined,
  })
  return { clock, ledger, api, tracker }
}

const REFUND = {
  txId: 'a'.repeat(64),
  reason: 'expired',
  initiatedBy: 'system',
  feeInCents: 0,
  amountInCents: 1_010,
}

describe('terminal-looking statuses keep being asked about', () => {
  it('an expired withdrawal refunded days later: the refund and its txid reach the ledger', async () => {
    let refundedAfter = Infinity
    const r = rig((_id, _nth) =>
      r.clock.now() >= refundedAfter ? { status: 'refunded', refund: REFUND } : { status: 'expired' },
    )
    const rec = seedCreated(r.ledger, { remoteId: 'wd-late' })
    r.tracker.start()
    await r.clock.advance(MIN)
    expect(r.ledger.get(rec.localId)?.remoteStatus).toBe('expired')
    // Still open: before the fix, expired closed the record for good.
    expect(r.ledger.listOpen().map((x) => x.localId)).toEqual([rec.localId])

    refundedAfter = r.clock.now() + 3 * DAY
    await r.clock.advance(3 * DAY + 7 * HOUR)
    const done = r.ledger.get(rec.localId) as WithdrawalRecord
    expect(done.remoteStatus).toBe('refunded')
    expect(done.refund).toMatchObject({ txId: REFUND.txId })
    expect(r.ledger.listOpen()).toEqual([])

    // Slowly: every ≥ 30 min in the first day, ≥ 6 h after; then nothing more once the refund is recorded.
    const calls = r.api.callsFor('wd-late')
    const gaps = calls.slice(1).map((t, i) => t - (calls[i] as number))
    expect(gaps.slice(1).every((g) => g >= 30 * MIN)).toBe(true)
    expect(calls.length).toBeLessThan(60)
    const n = calls.length
    await r.clock.advance(2 * DAY)
    expect(r.api.callsFor('wd-late').length).toBe(n)
  })

  it('`refunded` without its refund object is not final: the refund txid is fetched when it appears', async () => {
    const r = rig((_id, nth) => (nth < 4 ? { status: 'refunded' } : { status: 'refunded', refund: REFUND }))
    const rec = seedCreated(r.ledger, { remoteId: 'wd-norefund' })
    r.tracker.start()
    await r.clock.advance(MIN)
    expect(r.ledger.get(rec.localId)?.refund).toBeNull()
    await r.clock.advance(2 * DAY)
    expect(r.ledger.get(rec.localId)?.refund).toMatchObject({ txId: REFUND.txId })
    expect(r.api.callsFor('wd-norefund').length).toBe(4)
  })

  it('stops asking after the lingering window; marking funded re-arms fast polling', async () => {
    const r = rig(() => ({ status: 'cancelled' }))
    const rec = seedCreated(r.ledger, { remoteId: 'wd-cancelled' })
    r.tracker.start()
    await r.clock.advance(15 * DAY)
    const n = r.api.callsFor('wd-cancelled').length
    await r.clock.advance(3 * DAY)
    expect(r.api.callsFor('wd-cancelled').length).toBe(n)
    expect(r.tracker.stats().tracked).toBe(0)

    r.ledger.markFunded(rec.localId, { txId: 'b'.repeat(64) }, 'ana')
    const at = r.clock.now()
    r.tracker.track(rec.localId)
    await r.clock.advance(2 * MIN)
    const after = r.api.callsFor('wd-cancelled').filter((t) => t >= at)
    // Hot: asked at once and about every 25 s.
    expect(after.length).toBeGreaterThanOrEqual(4)
    expect((after[0] as number) - at).toBeLessThan(5_000)
  })

  it('sent is final: never asked again', async () => {
    const r = rig(() => ({ status: 'sent' }))
    seedCreated(r.ledger, { remoteId: 'wd-sent' })
    r.tracker.start()
    await r.clock.advance(MIN)
    await r.clock.advance(3 * DAY)
    expect(r.api.callsFor('wd-sent').length).toBe(1)
  })
})

describe('a status the app does not know', () => {
  it('arriving after sending is shown as the current status (unrecognised), and polling goes on', async () => {
    const r = rig((_id, nth) => (nth === 1 ? { status: 'sending' } : { status: 'em_conciliacao' }))
    const rec = seedCreated(r.ledger, { remoteId: 'wd-unknown' })
    r.tracker.start()
    await r.clock.advance(MIN)
    expect(r.ledger.get(rec.localId)?.remoteStatus).toBe('sending')
    await r.clock.advance(10 * MIN)
    const now = r.ledger.get(rec.localId) as WithdrawalRecord
    expect(now.remoteStatus).toBe('em_conciliacao')
    expect(statusCategory(now.remoteStatus as string, now.refund !== null)).toBe('unknown')
    expect(r.ledger.listOpen().map((x) => x.localId)).toEqual([rec.localId])
    const n = r.api.callsFor('wd-unknown').length
    await r.clock.advance(30 * MIN)
    expect(r.api.callsFor('wd-unknown').length).toBeGreaterThan(n)
  })
})
