/**
 * The status tracker on a fake clock against a fake withdraw-status endpoint that enforces the API contract's token bucket
 * (60/min) and answers 429 instead of waiting: any overdraw by the tracker shows up as a counted 429.
 */
import { describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/main/api'
import type { Ledger } from '../../../src/main/ledger/sqlite'
import { sqliteStore } from '../../../src/main/ledger/engines'
import type { StatusTracker } from '../../../src/main/tracking/types'
import { createStatusTracker, SERVICE_FLAGS } from '../../../src/main/withdrawals'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { FakeClock, FakeStatusApi, seedCreated, T0, testLedger, type StatusReply } from './helpers'

const SEC = 1_000
const MIN = 60 * SEC

interface Rig {
  clock: FakeClock
  ledger: Ledger
  api: FakeStatusApi
  tracker: StatusTracker
  changes: WithdrawalRecord[]
  errors: unknown[]
}

function rig(reply: (id: string, nth: number) => StatusReply, o: { memory?: boolean } = {}): Rig {
  const clock = new FakeClock()
  const ledger = testLedger(clock.now, { memory: o.memory ?? true })
  const api = new FakeStatusApi(clock, reply)
  const changes: WithdrawalRecord[] = []
  const errors: unknown[] = []
  const tracker = createStatusTracker({
    store: sqliteStore(ledger, { closeLedger: false }),
    client: api.asClient(),
    profile: 'sandbox',
    network: 'liquid',
    now: clock.now,
    timers: clock,
    changed: (r) => changes.push(r),
    onError: (e) => errors.push(e),
  })
  return { clock, ledger, api, tracker, changes, errors }
}

const unsent = (): StatusReply => ({ status: 'unsent' })

function gaps(times: number[]): number[] {
  return times.slice(1).map((t, i) => t - (times[i] as number))
}

describe('tracker under 60 ops/min', () => {
  it('observes each of 600 open records within 10.5 minutes, with zero 429s', async () => {
    const r = rig(unsent)
    const recs = Array.from({ length: 600 }, () => seedCreated(r.ledger))
    r.api.latencyMs = 80
    r.tracker.start()
    await r.clock.advance(10.5 * MIN)
    const firstSeen = new Map<string, number>()
    for (const c of r.api.calls) if (!firstSeen.has(c.id)) firstSeen.set(c.id, c.at)
    expect(firstSeen.size).toBe(600)
    // 54 at once (60 minus the reserve of 6), then one a second: the last one about 9.1 minutes in.
    expect(Math.max(...firstSeen.values()) - T0).toBeLessThan(9.5 * MIN)
    for (const rec of recs) expect(r.ledger.get(rec.localId)?.remoteStatus).toBe('unsent')
    expect(r.api.rejected429).toBe(0)
    // Headroom: the tracker never took the bucket below its reserve of 6 tokens.
    expect(r.api.minLevelAfterCall).toBeGreaterThanOrEqual(6 - 1e-6)
    await r.tracker.stop()
    expect(r.clock.pending).toBe(0)
  })

  it('polls funded records every ≤ 30 s for 15 minutes while 600 others wait, and the operator never queues', async () => {
    const r = rig(unsent)
    const recs = Array.from({ length: 600 }, () => seedCreated(r.ledger))
    r.api.latencyMs = 50
    r.tracker.start()
    await r.clock.advance(MIN)
    const funded = recs.slice(100, 103)
    const fundedAt = r.clock.now()
    for (const f of funded) {
      r.ledger.markFunded(f.localId, { txId: `tx-${f.localId}` }, 'tester')
      r.tracker.track(f.localId)
    }
    // The operator presses "check now" every 30 s on some record: a token is always there for it.
    const manual: Array<Promise<WithdrawalRecord>> = []
    let uiWaited = 0
    for (let step = 0; step < 30; step++) {
      await r.clock.advance(30 * SEC)
      if (r.api.level() < 1) uiWaited += 1
      manual.push(r.tracker.pollNow((recs[step * 7] as WithdrawalRecord).localId))
    }
    await r.clock.advance(SEC)
    await Promise.all(manual)
    expect(uiWaited).toBe(0)
    for (const f of funded) {
      const times = r.api
        .callsFor(f.remoteId as string)
        .filter((t) => t >= fundedAt && t <= fundedAt + 15 * MIN)
      // Three just-funded records, a token a second: each is asked within a few seconds.
      expect(times[0]! - fundedAt).toBeLessThanOrEqual(5 * SEC)
      expect(Math.max(...gaps(times))).toBeLessThanOrEqual(30 * SEC)
      expect(times.length).toBeGreaterThanOrEqual(30)
    }
    expect(new Set(r.api.calls.map((c) => c.id)).size).toBe(600)
    expect(r.api.rejected429).toBe(0)
    await r.tracker.stop()
  })

  it('keeps within the allowance for hours: about one poll per record per cadence, never a 429', async () => {
    const r = rig(unsent)
    for (let i = 0; i < 50; i++) seedCreated(r.ledger)
    r.tracker.start()
    await r.clock.advance(3 * 60 * MIN)
    const perRecord = r.api.calls.length / 50
    // < 1 h: every 2 min (30 polls); 1–3 h: every 10 min (12 polls). Polls are few and regular.
    expect(perRecord).toBeGreaterThanOrEqual(40)
    expect(perRecord).toBeLessThanOrEqual(44)
    expect(r.api.rejected429).toBe(0)
    await r.tracker.stop()
  })
})

describe('what the tracker stores', () => {
  it('never polls a settled record again; terminal-looking ones slowly (status compared case-insensitively)', async () => {
    const replies: Record<string, StatusReply> = {}
    const r = rig((id) => replies[id] ?? { status: 'unsent' })
    const REFUND = { txId: 'tx1', reason: 'invalid_pix_key' }
    const cases: Array<[StatusReply, 'settled' | 'lingering' | 'open']> = [
      [{ status: 'SENT' }, 'settled'],
      [{ status: 'Refunded', refund: REFUND }, 'settled'],
      [{ status: 'error', refund: REFUND }, 'settled'],
      [{ status: 'Refunded' }, 'lingering'],
      [{ status: 'expired' }, 'lingering'],
      [{ status: 'canceled' }, 'lingering'],
      [{ status: 'error' }, 'open'],
      [{ status: 'awaiting-funding' }, 'open'],
      [{ status: 'unsent' }, 'open'],
    ]
    const recs = cases.map(([reply]) => {
      const rec = seedCreated(r.ledger)
      replies[rec.remoteId as string] = reply
      return rec
    })
    r.tracker.start()
    await r.clock.advance(3 * 60 * MIN)
    cases.forEach(([, kind], i) => {
      const rec = recs[i] as WithdrawalRecord
      const n = r.api.callsFor(rec.remoteId as string).length
      const what = JSON.stringify(cases[i])
      if (kind === 'settled') expect(n, what).toBe(1)
      // Every 30 min in the first day: at 0, 30, …, 180 min.
      else if (kind === 'lingering') expect(n, what).toBe(7)
      else expect(n, what).toBeGreaterThan(10)
    })
    expect(r.tracker.stats().tracked).toBe(6)
    expect(r.ledger.listOpen()).toHaveLength(6)
    await r.tracker.stop()
  })

  it('ignores an out-of-order older status and stops at the terminal one', async () => {
    const sequence = ['sending', 'unsent', 'UNSENT', 'Sending', 'sent', 'sending']
    const r = rig((_id, nth) => ({ status: sequence[nth - 1] ?? 'sent' }))
    const rec = seedCreated(r.ledger)
    r.tracker.start()
    await r.clock.advance(SEC)
    expect(r.ledger.get(rec.localId)?.remoteStatus).toBe('sending')
    await r.clock.advance(2 * MIN)
    // 'unsent' arrived after 'sending': stored as history, not applied.
    expect(r.ledger.get(rec.localId)?.remoteStatus).toBe('sending')
    await r.clock.advance(30 * MIN)
    const final = r.ledger.get(rec.localId) as WithdrawalRecord
    expect(final.remoteStatus).toBe('sent')
    const history = r.ledger.observations(rec.localId)
    expect(history.map((o) => [o.remoteStatus, o.applied])).toEqual(
      expect.arrayContaining([
        ['unsent', false],
        ['UNSENT', false],
        ['sent', true],
      ]),
    )
    expect(r.api.callsFor(rec.remoteId as string)).toHaveLength(5)
    expect(r.changes.some((c) => c.localId === rec.localId && c.remoteStatus === 'sent')).toBe(true)
    await r.tracker.stop()
  })

  it('flags a created record the API does not know, backs off, and clears the flag when it is found', async () => {
    let known = false
    const r = rig((id) =>
      known || id !== rec.remoteId
        ? { status: 'unsent' }
        : new ApiError({
            kind: 'business',
            status: 520,
            messageCode: 'WITHDRAW_NOT_FOUND',
            endpoint: 'withdraw-status',
          }),
    )
    const rec: WithdrawalRecord = seedCreated(r.ledger)
    const other = seedCreated(r.ledger)
    r.tracker.start()
    await r.clock.advance(30 * MIN)
    const flagged = r.ledger.get(rec.localId) as WithdrawalRecord
    expect(flagged.flags).toContain(SERVICE_FLAGS.remoteNotFound)
    // Backoff 2, 4, 8, 16 min: a handful of polls in 30 min, not fifteen.
    expect(r.api.callsFor(rec.remoteId as string).length).toBeLessThanOrEqual(5)
    expect(r.ledger.audit({ subject: rec.localId }).rows.some((a) => a.action === 'withdrawal.flags')).toBe(
      true,
    )
    known = true
    await r.tracker.pollNow(rec.localId)
    expect(r.ledger.get(rec.localId)?.flags).not.toContain(SERVICE_FLAGS.remoteNotFound)
    expect(r.ledger.get(other.localId)?.flags).not.toContain(SERVICE_FLAGS.remoteNotFound)
    await r.tracker.stop()
  })

  it('pollNow on an unknown id refuses with remote_not_found', async () => {
    const r = rig(
      () =>
        new ApiError({
          kind: 'business',
          status: 520,
          messageCode: 'WITHDRAW_NOT_FOUND',
          endpoint: 'withdraw-status',
        }),
    )
    const rec = seedCreated(r.ledger)
    await expect(r.tracker.pollNow(rec.localId)).rejects.toMatchObject({ code: 'remote_not_found' })
  })

  it('polls only its own profile', async () => {
    const r = rig(unsent)
    const mine = seedCreated(r.ledger)
    const theirs = seedCreated(r.ledger, { profile: 'live-1' })
    r.tracker.start()
    await r.clock.advance(10 * MIN)
    expect(r.api.callsFor(mine.remoteId as string).length).toBeGreaterThan(0)
    expect(r.api.callsFor(theirs.remoteId as string)).toHaveLength(0)
    await r.tracker.stop()
  })

  it('picks up records opened behind its back at the next resync', async () => {
    const r = rig(unsent)
    r.tracker.start()
    await r.clock.advance(5 * SEC)
    const late = seedCreated(r.ledger)
    await r.clock.advance(4 * MIN)
    expect(r.api.callsFor(late.remoteId as string)).toHaveLength(0)
    await r.clock.advance(MIN + SEC)
    expect(r.api.callsFor(late.remoteId as string).length).toBe(1)
    await r.tracker.stop()
  })
})

describe('errors and backoff', () => {
  it('a 429 (someone else spent the allowance) stops every poll for its Retry-After', async () => {
    const r = rig(unsent)
    for (let i = 0; i < 20; i++) seedCreated(r.ledger)
    let storm = true
    const original = r.api.withdrawStatus
    r.api.withdrawStatus = async (id) => {
      if (storm)
        throw new ApiError({
          kind: 'rate_limited',
          status: 429,
          retryAfterSeconds: 30,
          endpoint: 'withdraw-status',
        })
      return original(id)
    }
    r.tracker.start()
    await r.clock.advance(SEC)
    const attempts = r.tracker.stats().polls
    expect(attempts).toBeLessThanOrEqual(4)
    expect(r.tracker.stats().blockedUntil).toBe(r.clock.now() - SEC + 30 * SEC)
    await r.clock.advance(28 * SEC)
    expect(r.tracker.stats().polls).toBe(attempts)
    storm = false
    await r.clock.advance(5 * SEC)
    expect(r.api.calls.length).toBeGreaterThan(0)
  })

  it('maintenance waits the announced 300 s; network failures back off globally', async () => {
    let mode: 'maintenance' | 'network' | 'ok' = 'maintenance'
    const r = rig(() => {
      if (mode === 'maintenance') {
        return new ApiError({
          kind: 'maintenance',
          status: 503,
          retryAfterSeconds: 300,
          endpoint: 'withdraw-status',
        })
      }
      if (mode === 'network')
        return new ApiError({ kind: 'network', code: 'connect_failed', endpoint: 'withdraw-status' })
      return { status: 'unsent' }
    })
    for (let i = 0; i < 10; i++) seedCreated(r.ledger)
    r.tracker.start()
    await r.clock.advance(SEC)
    const first = r.api.calls.length
    expect(first).toBeLessThanOrEqual(4)
    await r.clock.advance(298 * SEC)
    expect(r.api.calls.length).toBe(first)
    mode = 'network'
    await r.clock.advance(60 * SEC)
    // 5 s, 10 s, 20 s … between attempts: a few calls, not one per second.
    expect(r.api.calls.length - first).toBeLessThanOrEqual(4 * 4)
    mode = 'ok'
    await r.clock.advance(5 * MIN)
    for (const rec of r.ledger.listOpen()) expect(rec.remoteStatus).toBe('unsent')
    expect(r.errors.length).toBeGreaterThan(0)
    await r.tracker.stop()
  })
})

describe('lifecycle', () => {
  it('pause stops new polls, resume restarts them, stop awaits the poll in flight and leaves no timer', async () => {
    const r = rig(unsent)
    for (let i = 0; i < 5; i++) seedCreated(r.ledger)
    r.api.latencyMs = 10 * SEC
    r.tracker.start()
    await r.clock.advance(SEC)
    expect(r.tracker.stats().inFlight).toBe(4)
    r.tracker.pause()
    await r.clock.advance(20 * SEC)
    expect(r.api.calls).toHaveLength(4)
    r.tracker.resume()
    await r.clock.advance(SEC)
    expect(r.api.calls).toHaveLength(5)
    let stopped = false
    const stopping = r.tracker.stop().then(() => (stopped = true))
    await r.clock.advance(5 * SEC)
    expect(stopped).toBe(false)
    await r.clock.advance(10 * SEC)
    await stopping
    expect(stopped).toBe(true)
    expect(r.tracker.stats()).toMatchObject({ state: 'stopped', inFlight: 0 })
    // The answer that arrived during stop() was stored anyway.
    expect(r.ledger.listOpen().every((x) => x.remoteStatus === 'unsent')).toBe(true)
    expect(r.clock.pending).toBe(0)
    await r.clock.advance(10 * MIN)
    expect(r.api.calls).toHaveLength(5)
  })

  it('pollNow joins a poll already in flight for the same record', async () => {
    const r = rig(unsent)
    const rec = seedCreated(r.ledger)
    r.api.latencyMs = SEC
    const a = r.tracker.pollNow(rec.localId)
    const b = r.tracker.pollNow(rec.localId)
    await r.clock.advance(2 * SEC)
    expect(await a).toEqual(await b)
    expect(r.api.calls).toHaveLength(1)
  })
})
