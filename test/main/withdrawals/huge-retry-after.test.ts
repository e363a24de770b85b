/**
 * A days-long `Retry-After` on a status read must not arm a timer beyond 2^31−1 ms (Node fires those at once, and
 * the tracker would spin) nor block polling for days (issue #11, item 11). The real client against a loopback
 * server, the real service and tracker on a ledger file; the tracker's timers are real ones, recorded.
 */
import path from 'node:path'
import { afterEach, expect, it } from 'vitest'
import { createDepixClient } from '../../../src/main/api'
import { MAX_RETRY_AFTER_SECONDS } from '../../../src/main/api/retry'
import { MAX_TIMER_MS } from '../../../src/main/clock'
import { openLedger } from '../../../src/main/ledger/sqlite'
import type { Timers } from '../../../src/main/tracking/types'
import { createWithdrawalService } from '../../../src/main/withdrawals'
import { fail, fakeJwt, startFakeServer } from '../api/helpers/fake-server'
import { seedCreated, tempDir } from './helpers'

const TOKEN = fakeJwt({ sub: 'p', scope: ['withdraw'], exp: Math.floor(Date.now() / 1000) + 3600 })

const cleanups: Array<() => Promise<void> | void> = []
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c()
})

it('a Retry-After of days blocks polling for at most an hour, with no timer beyond 2^31−1 ms', async () => {
  const server = await startFakeServer()
  cleanups.push(() => server.close())
  server.route('GET /api/withdraw-status', fail(429, { errorMessage: 'slow' }, { 'Retry-After': '99999999' }))
  const client = createDepixClient({
    baseUrl: server.baseUrl,
    auth: { kind: 'legacy_token', token: TOKEN },
    timeoutMs: 3_000,
  })
  await client.signIn()
  cleanups.push(() => client.close())
  const ledger = openLedger(path.join(tempDir(), 'ledger.sqlite'))
  cleanups.push(() => ledger.close())

  const delays: number[] = []
  const timers: Timers = {
    setTimeout: (fn, ms) => {
      delays.push(ms)
      return setTimeout(fn, Math.min(ms, MAX_TIMER_MS))
    },
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  }
  const service = createWithdrawalService({
    ledger,
    client,
    operator: 'ana',
    network: 'liquid',
    profile: 'sandbox',
    timers,
  })
  cleanups.push(() => service.tracker.stop())
  const rec = seedCreated(ledger, { remoteId: 'w-huge' })
  service.tracker.start()
  service.tracker.track(rec.localId)

  const start = performance.now()
  while (service.tracker.stats().failures === 0) {
    if (performance.now() - start > 5_000) throw new Error('the poll never happened')
    await new Promise((r) => setTimeout(r, 10))
  }
  await new Promise((r) => setTimeout(r, 50))

  expect(server.count('GET /api/withdraw-status')).toBe(1)
  expect(delays.length).toBeGreaterThan(0)
  expect(Math.max(...delays)).toBeLessThanOrEqual(MAX_TIMER_MS)
  const blockedUntil = service.tracker.stats().blockedUntil
  expect(blockedUntil).not.toBeNull()
  expect((blockedUntil as number) - Date.now()).toBeLessThanOrEqual(MAX_RETRY_AFTER_SECONDS * 1000)
  // No spin: the tracker armed a handful of timers, not thousands.
  expect(delays.length).toBeLessThan(20)
})
