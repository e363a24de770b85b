/**
 * Fakes for the withdrawal service tests: a fake clock with timers, and a fake DePix client whose
 * GET /withdraw-status enforces the API contract's token bucket (§8.1) on the fake clock and counts 429s.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach } from 'vitest'
import { ENDPOINTS, type EndpointName } from '../../../src/shared/api-limits'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import {
  ApiError,
  type Allowance,
  type ApiResult,
  type DepixClient,
  type WithdrawalStatus,
} from '../../../src/main/api'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import type { Timers } from '../../../src/main/tracking/types'

export const T0 = Date.parse('2025-03-01T12:00:00.000Z')

const dirs: string[] = []
const ledgers: Ledger[] = []
afterEach(() => {
  for (const l of ledgers.splice(0)) {
    try {
      l.close()
    } catch {
      // closed by the test
    }
  }
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

export function tempDir(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'withdrawals-test-'))
  dirs.push(d)
  return d
}

/** A file ledger by default; `memory` for the large tracker runs (hundreds of writes per fake minute). */
export function testLedger(now: () => number, o: { memory?: boolean } = {}): Ledger {
  const l = openLedger(o.memory ? ':memory:' : path.join(tempDir(), 'ledger.sqlite'), { now })
  ledgers.push(l)
  return l
}

/** Let promise chains and I/O callbacks settle. */
export async function settle(rounds = 4): Promise<void> {
  for (let i = 0; i < rounds; i++) await new Promise<void>((r) => setImmediate(r))
}

interface FakeTimer {
  id: number
  at: number
  fn: () => void
}

export class FakeClock implements Timers {
  t: number
  #timers: FakeTimer[] = []
  #next = 1

  constructor(start = T0) {
    this.t = start
  }

  now = (): number => this.t

  setTimeout = (fn: () => void, ms: number): unknown => {
    const timer = { id: this.#next++, at: this.t + Math.max(0, ms), fn }
    this.#timers.push(timer)
    return timer.id
  }

  clearTimeout = (h: unknown): void => {
    this.#timers = this.#timers.filter((t) => t.id !== h)
  }

  get pending(): number {
    return this.#timers.length
  }

  /** Runs every timer due up to now + ms in time order, letting async work settle after each. */
  async advance(ms: number): Promise<void> {
    const end = this.t + ms
    for (;;) {
      await settle()
      let first: FakeTimer | undefined
      for (const t of this.#timers) if (t.at <= end && (first === undefined || t.at < first.at)) first = t
      if (first === undefined) break
      const due = first
      this.#timers = this.#timers.filter((t) => t !== due)
      this.t = Math.max(this.t, due.at)
      due.fn()
    }
    this.t = end
    await settle()
  }
}

export type StatusReply = Record<string, unknown> | ApiError

/**
 * A DepixClient whose withdraw-status endpoint is a token bucket of `limit` per minute on the fake clock, exactly
 * the service's model: a call without a token is a 429 (counted), never a wait.
 */
export class FakeStatusApi {
  readonly calls: Array<{ id: string; at: number }> = []
  rejected429 = 0
  latencyMs = 0
  /** Lowest bucket level left behind by a call. */
  minLevelAfterCall = Infinity
  #tokens: number
  #at: number
  #n = 0

  constructor(
    readonly clock: FakeClock,
    readonly reply: (id: string, nth: number) => StatusReply,
    readonly limit = 60,
  ) {
    this.#tokens = limit
    this.#at = clock.now()
  }

  level(): number {
    return Math.min(this.limit, this.#tokens + ((this.clock.now() - this.#at) * this.limit) / 60_000)
  }

  callsFor(id: string): number[] {
    return this.calls.filter((c) => c.id === id).map((c) => c.at)
  }

  withdrawStatus = async (id: string): Promise<ApiResult<WithdrawalStatus>> => {
    const level = this.level()
    if (level + 1e-9 < 1) {
      this.rejected429 += 1
      throw new ApiError({
        kind: 'rate_limited',
        status: 429,
        retryAfterSeconds: 1,
        endpoint: 'withdraw-status',
      })
    }
    this.#tokens = level - 1
    this.#at = this.clock.now()
    this.minLevelAfterCall = Math.min(this.minLevelAfterCall, this.#tokens)
    this.calls.push({ id, at: this.clock.now() })
    const nth = this.callsFor(id).length
    if (this.latencyMs > 0) await new Promise<void>((r) => this.clock.setTimeout(r, this.latencyMs))
    const r = this.reply(id, nth)
    if (r instanceof ApiError) throw r
    this.#n += 1
    return {
      data: { id, ...r } as WithdrawalStatus,
      requestId: `req-${this.#n}`,
      nonce: `nonce-${this.#n}`,
      status: 200,
    }
  }

  allowance = (): Record<EndpointName, Allowance> => {
    const out = {} as Record<EndpointName, Allowance>
    for (const e of ENDPOINTS) out[e] = { limitPerMinute: 60, available: 60, nextTokenInMs: 0, queued: 0 }
    const available = this.level()
    out['withdraw-status'] = {
      limitPerMinute: this.limit,
      available,
      nextTokenInMs: available >= 1 ? 0 : Math.ceil(((1 - available) * 60_000) / this.limit),
      queued: 0,
    }
    return out
  }

  spentBefore(): void {
    // The fake's bucket is driven by the test itself.
  }

  asClient(): DepixClient {
    return this as unknown as DepixClient
  }
}

let seq = 0

/** Writes a created record straight through the ledger (no API): the tracker's raw material. */
export function seedCreated(
  ledger: Ledger,
  o: { profile?: string; remoteId?: string; pixKey?: string; cents?: number; status?: string } = {},
): WithdrawalRecord {
  seq += 1
  const pixKey = o.pixKey ?? `user${seq}@example.com`
  const cents = o.cents ?? 1_000 + seq
  const rec = ledger.insertSubmitting(
    {
      profile: o.profile ?? 'sandbox',
      pixKey,
      amountKind: 'payout',
      amountCents: cents,
      request: { pixKey, taxNumber: '52998224725', payoutAmountInCents: cents },
    },
    'tester',
  )
  return ledger.markCreated(rec.localId, {
    remoteId: o.remoteId ?? `wd-${seq}`,
    createResponse: { withdrawalId: o.remoteId ?? `wd-${seq}` },
    requestId: `create-${seq}`,
    ...(o.status ? { status: o.status } : {}),
  })
}
