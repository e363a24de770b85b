/**
 * The client-side limiter keeps a burst inside the service's allowance: callers wait instead of earning a 429.
 * Limits are set just above what a burst may spend at once, so the test runs in ~2 s of real time and would fail
 * (429s) without the limiter — the control experiment shows that.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { Allowance } from '../../../src/main/api'
import type { EndpointName } from '../../../src/shared/api-limits'
import { expectApiError, harness, secretScan, wire, type Harness } from './helpers'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const BURST = 200
const SERVICE_LIMIT = 195
const CLIENT_LIMIT = 193
/** Far above what refill can cover during the burst, so the control cannot pass by luck on a slow machine. */
const CONTROL_BURST = 300

describe('burst of withdrawStatus calls', () => {
  it('control: without the limiter the same burst earns 429s', async () => {
    h = await harness(
      { rateLimits: { 'withdraw-status': SERVICE_LIMIT } },
      { limiter: 'off', retry: { attempts: 1 } },
    )
    await h.client.signIn()
    const [id] = h.sb.control.seedWithdrawals(1)
    const settled = await Promise.allSettled(
      Array.from({ length: CONTROL_BURST }, () => h!.client.withdrawStatus(id!)),
    )
    const rejected = settled.filter((s) => s.status === 'rejected')
    expect(rejected.length).toBeGreaterThan(0)
    await expectApiError(Promise.reject((rejected[0] as PromiseRejectedResult).reason), 'rate_limited')
  })

  it(`${BURST} calls earn no 429 and never exceed the allowance`, async () => {
    h = await harness(
      { rateLimits: { 'withdraw-status': SERVICE_LIMIT } },
      { rateLimits: { 'withdraw-status': CLIENT_LIMIT }, retry: { attempts: 1 } },
    )
    await h.client.signIn()
    const [id] = h.sb.control.seedWithdrawals(1)
    h.sb.control.resetRequestCounts()
    const snapshots: Array<Record<EndpointName, Allowance>> = []
    h.client.onAllowanceChange((a) => snapshots.push(a))
    const start = wire.length
    const t0 = performance.now()

    const results = await Promise.all(Array.from({ length: BURST }, () => h!.client.withdrawStatus(id!)))

    const elapsed = performance.now() - t0
    expect(results).toHaveLength(BURST)
    // Exactly one request per call: a 429 would have surfaced (attempts: 1) or added a request.
    expect(h.sb.control.requestCounts()['GET /api/withdraw-status']).toBe(BURST)
    // The last calls waited for refill: (200 − 193) tokens at 193/min ≈ 2.18 s.
    const minMs = ((BURST - CLIENT_LIMIT) * 60_000) / CLIENT_LIMIT
    expect(elapsed).toBeGreaterThanOrEqual(minMs - 50)
    // In every window of the dispatch times, at most capacity + refill left.
    const times = wire
      .slice(start)
      .filter((w) => w.path.startsWith('/api/withdraw-status'))
      .map((w) => w.at)
    expect(times).toHaveLength(BURST)
    for (let i = 0; i < times.length; i++) {
      for (let j = i; j < times.length; j++) {
        const windowMs = (times[j] ?? 0) - (times[i] ?? 0)
        expect(j - i + 1).toBeLessThanOrEqual(CLIENT_LIMIT + (windowMs * CLIENT_LIMIT) / 60_000 + 1)
      }
    }
    // The UI saw the queue and the empty bucket.
    expect(snapshots.some((a) => a['withdraw-status'].queued > 0)).toBe(true)
    expect(snapshots.some((a) => a['withdraw-status'].available < 1)).toBe(true)
    expect(h.client.allowance()['withdraw-status'].limitPerMinute).toBe(CLIENT_LIMIT)
  })

  it('the default allowance follows the API contract (ping 1/min): a second ping waits, it is not refused', async () => {
    h = await harness()
    await h.client.signIn()
    await h.client.ping()
    const a = h.client.allowance().ping
    expect(a.limitPerMinute).toBe(1)
    expect(a.available).toBeLessThan(1)
    expect(a.nextTokenInMs).toBeGreaterThan(55_000)
    expect(h.sb.control.requestCounts()['GET /api/ping']).toBe(1)
  })
})

secretScan()
