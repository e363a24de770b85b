import fc from 'fast-check'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { ApiError } from '../../../src/main/api/errors'
import { RateLimiter } from '../../../src/main/api/rate-limiter'
import { backoffMs, DEFAULT_RETRY, parseRetryAfter } from '../../../src/main/api/retry'

describe('RateLimiter (token bucket, API contract §8.1)', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 1_000_000 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  async function acquired(l: RateLimiter, ep: 'withdraw-status' | 'ping' | 'withdraw', n: number) {
    const order: number[] = []
    const all = Array.from({ length: n }, (_, i) => Promise.resolve(l.acquire(ep)).then(() => order.push(i)))
    return { order, all }
  }

  it('spends a minute’s worth back to back, then one token per 60/limit seconds', async () => {
    const l = new RateLimiter({ limits: { 'withdraw-status': 60 } })
    const { order } = await acquired(l, 'withdraw-status', 63)
    await vi.advanceTimersByTimeAsync(0)
    expect(order).toHaveLength(60)
    await vi.advanceTimersByTimeAsync(999)
    expect(order).toHaveLength(60)
    await vi.advanceTimersByTimeAsync(1)
    expect(order).toHaveLength(61)
    await vi.advanceTimersByTimeAsync(2_000)
    expect(order).toHaveLength(63)
    // FIFO: waiters leave in the order they came.
    expect(order).toEqual([...order].sort((a, b) => a - b))
    l.close()
  })

  it('uses the API contract defaults and exposes the allowance', () => {
    const l = new RateLimiter()
    const a = l.allowance()
    expect(a.ping).toEqual({
      limitPerMinute: 1,
      configuredPerMinute: 1,
      available: 1,
      nextTokenInMs: 0,
      queued: 0,
    })
    expect(a.withdraw.limitPerMinute).toBe(10)
    expect(a['withdraw-status'].limitPerMinute).toBe(60)
    void l.acquire('ping')
    expect(l.allowance().ping).toMatchObject({ available: 0, nextTokenInMs: 60_000 })
    l.close()
  })

  it('a 429 empties the bucket until Retry-After, then one call may leave', async () => {
    const l = new RateLimiter({ limits: { withdraw: 10 } })
    l.penalize('withdraw', 5_000)
    expect(l.allowance().withdraw).toMatchObject({ available: 0, nextTokenInMs: 5_000 })
    const { order } = await acquired(l, 'withdraw', 2)
    await vi.advanceTimersByTimeAsync(4_999)
    expect(order).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1)
    expect(order).toHaveLength(1)
    await vi.advanceTimersByTimeAsync(6_000)
    expect(order).toHaveLength(2)
    l.close()
  })

  it('refuses at once (nothing sent) when the wait would exceed the bound', async () => {
    const l = new RateLimiter({ limits: { ping: 1 }, maxWaitMs: 30_000 })
    await l.acquire('ping')
    const e = await Promise.resolve(l.acquire('ping')).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(ApiError)
    expect(e).toMatchObject({
      kind: 'rate_limited',
      code: 'local_rate_limit_wait',
      retryAfterSeconds: 60,
      nothingSent: true,
    })
    l.close()
  })

  it('counts the calls an earlier run of the app made in the last minute (the service still does)', async () => {
    const l = new RateLimiter({ limits: { withdraw: 10 } })
    // Ten POSTs 10 s to 1 s ago: a bucket empty a minute ago has refilled 8⅓ by the first, then ~0 is left.
    l.spentBefore('withdraw', [10_000, 9_000, 8_000, 7_000, 6_000, 5_000, 4_000, 3_000, 2_000, 1_000])
    const a = l.allowance().withdraw
    expect(a.available).toBeLessThan(0.01)
    expect(a.nextTokenInMs).toBeGreaterThan(5_900)
    expect(a.nextTokenInMs).toBeLessThanOrEqual(7_000)
    const { order } = await acquired(l, 'withdraw', 1)
    await vi.advanceTimersByTimeAsync(5_800)
    expect(order).toHaveLength(0)
    await vi.advanceTimersByTimeAsync(1_300)
    expect(order).toHaveLength(1)
    l.close()
  })

  it('ignores calls a minute or more ago and junk ages, and never gives back tokens already spent', async () => {
    const l = new RateLimiter({ limits: { withdraw: 10 } })
    l.spentBefore('withdraw', [60_000, 120_000, -5, Number.NaN, Number.POSITIVE_INFINITY])
    expect(l.allowance().withdraw.available).toBe(10)
    // Three calls 30 s ago cost a bucket refilled for 30 s nothing: 5 − 3 + 5 = 7 now.
    l.spentBefore('withdraw', [30_000, 30_000, 30_000])
    expect(l.allowance().withdraw.available).toBeCloseTo(7, 6)
    const { all } = await acquired(l, 'withdraw', 7)
    await Promise.all(all)
    expect(l.allowance().withdraw.available).toBeLessThan(1e-6)
    l.spentBefore('withdraw', [])
    expect(l.allowance().withdraw.available).toBeLessThan(1e-6)
    l.close()
  })

  it('close rejects the queue with client_closed', async () => {
    const l = new RateLimiter({ limits: { ping: 1 } })
    await l.acquire('ping')
    const p = Promise.resolve(l.acquire('ping')).catch((x: unknown) => x)
    l.close()
    expect(await p).toMatchObject({ kind: 'network', code: 'client_closed' })
  })

  it('notifies allowance changes, coalesced per tick, and survives a throwing listener', async () => {
    const l = new RateLimiter({ limits: { 'withdraw-status': 60 } })
    const seen: number[] = []
    l.onChange(() => {
      throw new Error('bad listener')
    })
    const off = l.onChange((a) => seen.push(a['withdraw-status'].available))
    for (let i = 0; i < 10; i++) void l.acquire('withdraw-status')
    await vi.advanceTimersByTimeAsync(0)
    expect(seen).toEqual([50])
    off()
    void l.acquire('withdraw-status')
    await vi.advanceTimersByTimeAsync(0)
    expect(seen).toHaveLength(1)
    l.close()
  })

  it("'off' never waits", () => {
    const l = new RateLimiter({ enabled: false, limits: { ping: 1 } })
    for (let i = 0; i < 100; i++) expect(l.acquire('ping')).toBeUndefined()
    expect(l.allowance().ping).toMatchObject({ available: 1, nextTokenInMs: 0 })
  })

  it('never lets more than capacity + rate × window leave in any window (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 120 }),
        fc.array(fc.integer({ min: 0, max: 3_000 }), { minLength: 1, maxLength: 80 }),
        async (limit, gaps) => {
          const l = new RateLimiter({ limits: { 'withdraw-status': limit }, maxWaitMs: 10_000_000 })
          const leaves: number[] = []
          const all: Promise<void>[] = []
          for (const gap of gaps) {
            await vi.advanceTimersByTimeAsync(gap)
            all.push(Promise.resolve(l.acquire('withdraw-status')).then(() => void leaves.push(Date.now())))
          }
          await vi.advanceTimersByTimeAsync(Math.ceil((gaps.length * 60_000) / limit) + 10)
          await Promise.all(all)
          expect(leaves).toHaveLength(gaps.length)
          for (let i = 0; i < leaves.length; i++) {
            for (let j = i; j < leaves.length; j++) {
              const window = (leaves[j] ?? 0) - (leaves[i] ?? 0)
              expect(j - i + 1).toBeLessThanOrEqual(limit + (window * limit) / 60_000 + 1e-6)
            }
          }
          l.close()
        },
      ),
      { numRuns: 40 },
    )
  })
})

describe('retry timing', () => {
  it('backoff is capped, jittered, and grows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 20 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (attempt, r) => {
          const d = backoffMs(attempt, DEFAULT_RETRY, () => r)
          const step = Math.min(DEFAULT_RETRY.maxDelayMs, DEFAULT_RETRY.baseDelayMs * 2 ** (attempt - 1))
          expect(d).toBeGreaterThanOrEqual(Math.floor(step / 2))
          expect(d).toBeLessThanOrEqual(DEFAULT_RETRY.maxDelayMs)
        },
      ),
    )
    expect(backoffMs(1, DEFAULT_RETRY, () => 1)).toBe(250)
    expect(backoffMs(2, DEFAULT_RETRY, () => 1)).toBe(500)
    expect(backoffMs(10, DEFAULT_RETRY, () => 1)).toBe(4_000)
  })

  it('parses Retry-After as seconds or an HTTP date', () => {
    expect(parseRetryAfter('300', 0)).toBe(300)
    expect(parseRetryAfter(' 7 ', 0)).toBe(7)
    expect(parseRetryAfter(null, 0)).toBeUndefined()
    expect(parseRetryAfter('soon', 0)).toBeUndefined()
    expect(parseRetryAfter('-1', 0)).toBeUndefined()
    const now = Date.parse('2026-01-01T00:00:00Z')
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30)
    expect(parseRetryAfter('Wed, 31 Dec 2025 00:00:30 GMT', now)).toBe(0)
  })
})
