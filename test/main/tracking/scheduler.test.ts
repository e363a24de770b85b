import { describe, expect, it } from 'vitest'
import {
  DEFAULT_CADENCE,
  defaultReserve,
  PollScheduler,
  msUntilPollAllowed,
  TokenBudget,
} from '../../../src/main/tracking/scheduler'

const MIN = 60_000
const HOUR = 60 * MIN
const T = 1_000_000_000_000

const rec = (
  localId: string,
  o: { createdAt?: number; fundedAt?: number | null; lastCheckedAt?: number | null } = {},
) => ({
  localId,
  createdAt: o.createdAt ?? T,
  fundedAt: o.fundedAt ?? null,
  lastCheckedAt: o.lastCheckedAt ?? null,
})
const none = new Set<string>()

describe('cadence', () => {
  const s = new PollScheduler(DEFAULT_CADENCE)
  it.each([
    ['created 5 min ago', rec('a', { createdAt: T - 5 * MIN }), 2 * MIN],
    ['created 3 h ago', rec('a', { createdAt: T - 3 * HOUR }), 10 * MIN],
    ['created 2 days ago', rec('a', { createdAt: T - 48 * HOUR }), HOUR],
    ['funded 1 min ago (old record)', rec('a', { createdAt: T - 48 * HOUR, fundedAt: T - MIN }), 25_000],
    ['funded 16 min ago', rec('a', { createdAt: T - 20 * MIN, fundedAt: T - 16 * MIN }), 2 * MIN],
  ])('%s', (_n, r, interval) => {
    expect(s.intervalFor(r, T)).toBe(interval)
  })
})

describe('PollScheduler', () => {
  it('never-checked records are due at once; checked ones one interval after their last check', () => {
    const s = new PollScheduler(DEFAULT_CADENCE)
    s.upsert(rec('new'), T)
    s.upsert(rec('seen', { lastCheckedAt: T - 30_000, createdAt: T - 10 * MIN }), T)
    expect(s.dueAt('new')).toBe(T)
    expect(s.dueAt('seen')).toBe(T - 30_000 + 2 * MIN)
    expect(s.pick(T, none)).toBe('new')
  })

  it('serves hot records first, freshly funded before re-checks, then longest overdue (round robin)', () => {
    const s = new PollScheduler(DEFAULT_CADENCE)
    s.upsert(rec('old-overdue', { createdAt: T - 48 * HOUR, lastCheckedAt: T - 3 * HOUR }), T)
    s.upsert(rec('overdue', { lastCheckedAt: T - 10 * MIN }), T)
    s.upsert(rec('hot-rechecked', { fundedAt: T - 5 * MIN, lastCheckedAt: T - 40_000 }), T)
    s.upsert(rec('hot-fresh', { fundedAt: T - 1_000, lastCheckedAt: T - 60_000 }), T)
    const order: string[] = []
    for (;;) {
      const id = s.pick(T, none)
      if (id === undefined) break
      order.push(id)
      s.succeeded(id, T)
    }
    expect(order).toEqual(['hot-fresh', 'hot-rechecked', 'old-overdue', 'overdue'])
    // Everything was just polled: the hot ones come back first, 25 s later.
    expect(s.pick(T + 24_000, none)).toBeUndefined()
    const first = s.pick(T + 25_000, none) as string
    s.succeeded(first, T + 25_000)
    expect([first, s.pick(T + 25_000, none)].sort()).toEqual(['hot-fresh', 'hot-rechecked'])
  })

  it('skips busy records and reports the next due time', () => {
    const s = new PollScheduler(DEFAULT_CADENCE)
    s.upsert(rec('a'), T)
    s.upsert(rec('b', { lastCheckedAt: T }), T)
    expect(s.pick(T, new Set(['a']))).toBeUndefined()
    expect(s.nextDueAt(new Set(['a']))).toBe(T + 2 * MIN)
  })

  it('a record marked funded becomes due now', () => {
    const s = new PollScheduler(DEFAULT_CADENCE)
    s.upsert(rec('a', { lastCheckedAt: T }), T)
    expect(s.dueAt('a')).toBe(T + 2 * MIN)
    s.upsert(rec('a', { lastCheckedAt: T, fundedAt: T + 10_000 }), T + 10_000)
    expect(s.dueAt('a')).toBe(T + 10_000)
    // Re-reading the same funding later does not pull it forward again.
    s.succeeded('a', T + 11_000)
    s.upsert(rec('a', { lastCheckedAt: T + 11_000, fundedAt: T + 10_000 }), T + 12_000)
    expect(s.dueAt('a')).toBe(T + 11_000 + 25_000)
  })

  it('per-record failures back off, doubling, never below the cadence, capped at an hour', () => {
    const s = new PollScheduler(DEFAULT_CADENCE)
    s.upsert(rec('a', { createdAt: T - 48 * HOUR }), T)
    s.upsert(rec('b'), T)
    expect(s.failed('b', T)).toBe(2 * MIN)
    expect(s.failed('b', T)).toBe(4 * MIN)
    expect(s.dueAt('b')).toBe(T + 4 * MIN)
    for (let i = 0; i < 10; i++) s.failed('b', T)
    expect(s.dueAt('b')).toBe(T + HOUR)
    s.failed('a', T)
    expect(s.dueAt('a')).toBe(T + HOUR)
    s.succeeded('b', T)
    expect(s.dueAt('b')).toBe(T + 2 * MIN)
  })

  it('global failures block every poll, doubling up to 5 min; a 429 block is never shortened', () => {
    const s = new PollScheduler(DEFAULT_CADENCE)
    expect(s.globalFailure(T)).toBe(5_000)
    expect(s.globalFailure(T)).toBe(10_000)
    expect(s.blockedUntil(T)).toBe(T + 10_000)
    s.block(T, 3_000)
    expect(s.blockedUntil(T)).toBe(T + 10_000)
    for (let i = 0; i < 20; i++) s.globalFailure(T)
    expect(s.blockedUntil(T)).toBe(T + 5 * MIN)
    s.unblock()
    expect(s.blockedUntil(T)).toBeNull()
  })

  it('retain drops records that are no longer open', () => {
    const s = new PollScheduler(DEFAULT_CADENCE)
    s.upsert(rec('a'), T)
    s.upsert(rec('b'), T)
    s.retain(new Set(['b']))
    expect(s.has('a')).toBe(false)
    expect(s.size).toBe(1)
  })
})

describe('allowance', () => {
  it('reserves 10% of the limit, at least 2', () => {
    expect(defaultReserve(60)).toBe(6)
    expect(defaultReserve(10)).toBe(2)
    expect(defaultReserve(600)).toBe(60)
  })

  it('never takes a token that would leave the client bucket at or below the reserve', () => {
    const budget = new TokenBudget(54, 60, T)
    expect(msUntilPollAllowed({ limitPerMinute: 60, available: 7 }, 6, budget, T)).toBe(0)
    expect(msUntilPollAllowed({ limitPerMinute: 60, available: 6.5 }, 6, budget, T)).toBe(500)
    // Someone (the operator's "check now") is queued: they go first.
    expect(msUntilPollAllowed({ limitPerMinute: 60, available: 7, queued: 1 }, 6, budget, T)).toBe(1_000)
  })

  it('its own budget paces it even when the client reports a full bucket (limiter off)', () => {
    const budget = new TokenBudget(54, 60, T)
    for (let i = 0; i < 54; i++) budget.take(T)
    expect(msUntilPollAllowed({ limitPerMinute: 60, available: 60 }, 6, budget, T)).toBe(1_000)
    expect(msUntilPollAllowed({ limitPerMinute: 60, available: 60 }, 6, budget, T + 1_000)).toBe(0)
  })
})
