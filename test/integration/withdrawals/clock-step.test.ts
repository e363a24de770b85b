/**
 * A backward wall-clock step (NTP correcting a clock kept in local time) must not freeze status reads, creates or
 * polling (issue #11, item 5). The real client, service, tracker and ledger file against the real sandbox; only
 * `Date.now` is stepped back one hour, as the OS would do: `performance.now` keeps running.
 */
import diagnostics from 'node:diagnostics_channel'
import { rmSync } from 'node:fs'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { monotonicNow } from '../../../src/main/clock'
import type { Cadence } from '../../../src/main/tracking/scheduler'
import { draft, rig, tempLedgerFile, type Rig } from './helpers'
import { openLedger } from '../../../src/main/ledger/sqlite'
import { reviewedCreate } from '../../main/withdrawals/reviewed'

const HOUR = 3_600_000

/** Polls on the monotonic clock, which the step does not touch. */
async function eventually(what: string, probe: () => boolean, timeoutMs = 8_000): Promise<void> {
  const until = performance.now() + timeoutMs
  while (!probe()) {
    if (performance.now() > until) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 25))
  }
}

const FAST: Partial<Cadence> = {
  hotIntervalMs: 200,
  ageTiers: [{ maxAgeMs: 60 * 60_000, intervalMs: 200 }],
  oldIntervalMs: 200,
  resyncMs: 1_000,
}

let r: Rig | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await r?.close()
  r = undefined
})

/** GET /withdraw-status requests that left for one withdrawal id, seen on undici's diagnostics channel. */
function pollsOf(remoteId: string): () => number {
  let n = 0
  diagnostics.subscribe('undici:request:create', (msg) => {
    const { request } = msg as { request: { method: string; path: string } }
    if (request.method === 'GET' && request.path.includes(`id=${encodeURIComponent(remoteId)}`)) n++
  })
  return () => n
}

function stepBack(ms: number): void {
  const realNow = Date.now.bind(Date)
  vi.spyOn(Date, 'now').mockImplementation(() => realNow() - ms)
}

describe('a one-hour backward step of the wall clock', () => {
  it('does not freeze status reads or creates', async () => {
    r = await rig()
    const rig_ = r
    const first = await reviewedCreate(rig_.service, draft())
    expect(first.localState).toBe('created')
    stepBack(HOUR)
    // A status read leaves at once (the limiter's buckets are on the monotonic clock).
    const status = await rig_.client.withdrawStatus(first.remoteId as string)
    expect(status.data.id).toBe(first.remoteId)
    // A create is not refused as rate limited.
    const second = await reviewedCreate(rig_.service, draft({ pixKey: 'beltrano@example.com' }))
    expect(second.localState).toBe('created')
    expect(rig_.posts()).toBe(2)
  })

  it('does not freeze polling of a record polled before the step', async () => {
    // The clocks production uses, named explicitly: the wall clock read at each call (so the step reaches it)
    // and the monotonic one.
    r = await rig({ service: { now: () => Date.now(), monotonic: monotonicNow, tracker: { cadence: FAST } } })
    const rig_ = r
    const first = await reviewedCreate(rig_.service, draft())
    const polls = pollsOf(first.remoteId as string)
    rig_.service.tracker.start()
    await eventually('polls before the step', () => polls() >= 2)
    // Stepped between polls: a poll answered after the step would re-time the record on the stepped clock.
    await eventually('no poll in flight', () => rig_.service.tracker.stats().inFlight === 0)
    stepBack(HOUR)
    const after = polls()
    await eventually('polls after the step', () => polls() >= after + 3)
    expect(rig_.service.tracker.stats().blockedUntil).toBeNull()
  })
})

describe('a three-hour forward step of the wall clock (issue #25 F9)', () => {
  // Fresh records every 200 ms, anything an hour old only every minute: a record aged by the step would be seen
  // once more at most in the test's few seconds.
  const TIERS: Partial<Cadence> = {
    ageTiers: [{ maxAgeMs: HOUR, intervalMs: 200 }],
    oldIntervalMs: 60_000,
    resyncMs: 500,
  }

  it('keeps polling a record made just before the step at the fresh tier', async () => {
    // The desk's wall clock, as its ledger and service read it; the sandbox (the service's world) keeps real time.
    let shift = 0
    const wall = (): number => Date.now() + shift
    const tmp = tempLedgerFile()
    const ledger = openLedger(tmp.file, { now: wall })
    try {
      r = await rig({
        service: { ledger, now: wall, monotonic: monotonicNow, tracker: { cadence: TIERS } },
      })
      const rig_ = r
      const first = await reviewedCreate(rig_.service, draft())
      const polls = pollsOf(first.remoteId as string)
      rig_.service.tracker.start()
      await eventually('polls before the step', () => polls() >= 2)
      await eventually('no poll in flight', () => rig_.service.tracker.stats().inFlight === 0)
      shift = 3 * HOUR
      const after = polls()
      // Several resyncs and polls after the step, each re-reading the record's stored (pre-step) creation time.
      await eventually('fresh-tier polls after the step', () => polls() >= after + 6)
      expect(ledger.get(first.localId)?.createdAt).toBe(first.createdAt)
    } finally {
      await r?.close()
      r = undefined
      ledger.close()
      rmSync(tmp.dir, { recursive: true, force: true })
    }
  })
})
