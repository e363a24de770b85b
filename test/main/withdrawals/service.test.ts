/**
 * The service against a stub client: the create flow's mapping of every outcome to a local state, refusals
 * before the POST, deposit-address checks, funding instructions and the operator's resolutions. The real
 * sandbox versions of the main paths are in test/integration/withdrawals.
 */
import { describe, expect, it } from 'vitest'
import { ENDPOINTS, type EndpointName } from '../../../src/shared/api-limits'
import { RECORD_FLAGS } from '../../../src/shared/withdrawal-record'
import type { WithdrawalDraft, WithdrawRequest } from '../../../src/shared/withdrawal'
import {
  ApiError,
  type Allowance,
  type ApiResult,
  type DepixClient,
  type WithdrawCreated,
  type WithdrawalStatus,
} from '../../../src/main/api'
import type { Ledger } from '../../../src/main/ledger/sqlite'
import { DEPIX_ASSET_ID, generateLiquidAddress } from '../../../src/main/liquid'
import {
  createVerdict,
  createWithdrawalService,
  INTENT_TTL_MS,
  WithdrawalError,
} from '../../../src/main/withdrawals'
import { FakeClock, seedCreated, settle, testLedger } from './helpers'
import { reviewedCreate } from './reviewed'

const REFUND = generateLiquidAddress('liquid', { confidential: false }).address
const DEPOSIT = generateLiquidAddress('liquid').address

function draft(over: Partial<WithdrawalDraft> = {}): WithdrawalDraft {
  return {
    pixKey: 'Fulano@Example.com',
    taxNumber: '529.982.247-25',
    amount: { kind: 'payout', cents: 1_000 },
    refundAddress: REFUND,
    ...over,
  }
}

type ApiErrorInit = ConstructorParameters<typeof ApiError>[0]

type Reply<T> = T | ApiError | (() => Promise<T>)

class StubClient {
  posts: WithdrawRequest[] = []
  statusCalls: string[] = []
  signedIn = true
  withdrawTokens = 10
  onWithdraw: Reply<Partial<WithdrawCreated>> = {
    withdrawalId: 'wd-1',
    status: 'unsent',
    depositAddress: DEPOSIT,
    depositAmountInCents: 1_102,
    payoutAmountInCents: 1_000,
    expiration: '2999-01-01T00:00:00.000Z',
  }
  onStatus: (id: string) => Reply<Partial<WithdrawalStatus>> = (id) => ({
    id,
    status: 'unsent',
    pixKey: 'fulano@example.com',
    depositAddress: DEPOSIT,
    depositAmountInCents: 1_102,
  })

  async withdraw(body: WithdrawRequest): Promise<ApiResult<WithdrawCreated>> {
    this.posts.push(body)
    return wrap(this.onWithdraw) as Promise<ApiResult<WithdrawCreated>>
  }
  async withdrawStatus(id: string): Promise<ApiResult<WithdrawalStatus>> {
    this.statusCalls.push(id)
    return wrap(this.onStatus(id)) as Promise<ApiResult<WithdrawalStatus>>
  }
  session() {
    return this.signedIn ? { kind: 'client_credentials' } : null
  }
  allowance(): Record<EndpointName, Allowance> {
    const out = {} as Record<EndpointName, Allowance>
    for (const e of ENDPOINTS) out[e] = { limitPerMinute: 60, available: 60, nextTokenInMs: 0, queued: 0 }
    out.withdraw = { limitPerMinute: 10, available: this.withdrawTokens, nextTokenInMs: 6_000, queued: 0 }
    return out
  }
  onSessionChange() {
    return () => undefined
  }
  spentBefore(): void {
    // The fake's bucket is driven by the test itself.
  }
  asClient(): DepixClient {
    return this as unknown as DepixClient
  }
}

async function wrap<T>(r: Reply<T>): Promise<ApiResult<T>> {
  const v = typeof r === 'function' ? await (r as () => Promise<T>)() : r
  if (v instanceof ApiError) throw v
  return { data: v, requestId: 'req-ok', nonce: 'nonce-ok', status: 200 }
}

function setup(o: { network?: 'liquid' | 'testnet'; beforePost?: () => Promise<void> } = {}) {
  const clock = new FakeClock()
  const ledger = testLedger(clock.now)
  const client = new StubClient()
  const service = createWithdrawalService({
    ledger,
    client: client.asClient(),
    operator: 'ana',
    network: o.network ?? 'liquid',
    profile: 'sandbox',
    now: clock.now,
    timers: clock,
    ...(o.beforePost ? { beforePost: o.beforePost } : {}),
  })
  return { clock, ledger, client, service }
}

const apiError = (init: ApiErrorInit) => new ApiError({ endpoint: 'withdraw', requestId: 'req-err', ...init })

describe('quote', () => {
  it('shows the exact body, the fee and payout, the refund address check and no duplicates', async () => {
    const { service, client, ledger } = setup()
    const q = await service.quote(draft({ refundAddress: `  ${REFUND.toUpperCase()} ` }))
    expect(q.request).toEqual({
      pixKey: 'fulano@example.com',
      taxNumber: '52998224725',
      payoutAmountInCents: 1_000,
      refundAddress: REFUND,
    })
    expect(q).toMatchObject({ payoutCents: 1_000, feeCents: 100, depositCents: 1_100, partnerRateBps: 100 })
    expect(q.refundAddress).toMatchObject({ ok: true, network: 'liquid' })
    expect(q.duplicates).toEqual([])
    expect(client.posts).toEqual([])
    expect(ledger.query().total).toBe(0)
  })

  it('refuses an invalid draft with field codes', async () => {
    const { service } = setup()
    const e = await service
      .quote(draft({ taxNumber: '', euid: '', amount: { kind: 'payout', cents: 100 } }))
      .catch((x) => x)
    expect(e).toBeInstanceOf(WithdrawalError)
    expect(e).toMatchObject({ code: 'invalid_draft' })
    expect(e.fields).toMatchObject({ taxNumber: 'beneficiary_required', 'amount.cents': 'amount_below_min' })
  })
})

describe('create: what each answer leaves in the ledger', () => {
  it('created: journaled before the POST, then created with the service facts', async () => {
    let stateAtPost: string | undefined
    const { service, client, ledger } = setup()
    client.onWithdraw = async () => {
      stateAtPost = ledger.query().rows[0]?.localState
      return { withdrawalId: 'wd-9', status: 'unsent', depositAddress: DEPOSIT, depositAmountInCents: 1_100 }
    }
    const rec = await reviewedCreate(service, draft())
    expect(stateAtPost).toBe('submitting')
    expect(rec).toMatchObject({
      localState: 'created',
      remoteId: 'wd-9',
      depositAddress: DEPOSIT,
      requestId: 'req-ok',
    })
    expect(client.posts).toHaveLength(1)
    expect(client.statusCalls).toEqual([])
    expect(
      ledger
        .audit({ subject: rec.localId })
        .rows.map((a) => a.action)
        .reverse(),
    ).toEqual(['withdrawal.submitting', 'withdrawal.created'])
  })

  it('minimal create response: one status read fills the deposit address', async () => {
    const { service, client } = setup()
    client.onWithdraw = { withdrawalId: 'wd-min' }
    const rec = await reviewedCreate(service, draft())
    expect(client.statusCalls).toEqual(['wd-min'])
    expect(rec).toMatchObject({ localState: 'created', depositAddress: DEPOSIT, remoteStatus: 'unsent' })
  })

  it('minimal create response and a failed status read: created, no address, nothing payable yet', async () => {
    const { service, client } = setup()
    client.onWithdraw = { withdrawalId: 'wd-min' }
    client.onStatus = () => apiError({ kind: 'network', code: 'connect_failed', endpoint: 'withdraw-status' })
    const rec = await reviewedCreate(service, draft())
    expect(rec).toMatchObject({ localState: 'created', depositAddress: null })
    expect(await service.funding(rec.localId)).toEqual({
      funding: null,
      problem: 'no_deposit_address',
      alert: null,
    })
    client.onStatus = (id) => ({ id, status: 'unsent', depositAddress: DEPOSIT, depositAmountInCents: 1_100 })
    const refreshed = await service.refresh(rec.localId)
    expect(refreshed.depositAddress).toBe(DEPOSIT)
    expect((await service.funding(rec.localId)).problem).toBeNull()
    expect(client.posts).toHaveLength(1)
  })

  const rejected: Array<[string, ApiErrorInit]> = [
    ['520 business', { kind: 'business', status: 520, messageCode: 'END_USER_NOT_FOUND' }],
    [
      '422 compliance',
      { kind: 'compliance', status: 422, denialCode: 'COMPLIANCE_BLOCKED', supportReference: '12345' },
    ],
    ['400 bad request', { kind: 'bad_request', status: 400, messageCode: 'INVALID_PARAMETER' }],
    ['401', { kind: 'unauthorized', status: 401 }],
    ['403', { kind: 'forbidden', status: 403 }],
    ['429', { kind: 'rate_limited', status: 429, retryAfterSeconds: 6 }],
    ['503 maintenance', { kind: 'maintenance', status: 503, retryAfterSeconds: 300 }],
    ['404 route', { kind: 'route_not_found', status: 404 }],
    ['connection refused', { kind: 'network', code: 'connect_failed', requestId: null }],
    ['login failed before the POST', { kind: 'server', status: 500, endpoint: 'auth/login' }],
  ]
  it.each(rejected)('rejected: %s (codes and request id kept)', async (_n, init) => {
    const { service, client, ledger } = setup()
    client.onWithdraw = apiError(init)
    const rec = await reviewedCreate(service, draft())
    expect(rec.localState).toBe('rejected')
    expect(rec.error).toMatchObject({ kind: init.kind, status: init.status ?? null })
    if (init.messageCode) expect(rec.error?.messageCode).toBe(init.messageCode)
    if (init.denialCode)
      expect(rec.error).toMatchObject({ denialCode: init.denialCode, supportReference: '12345' })
    expect(rec.requestId).toBe(init.requestId === null ? null : 'req-err')
    expect(client.posts).toHaveLength(1)
    expect(ledger.listOpen()).toEqual([])
  })

  const unknown: Array<[string, ApiErrorInit | Error]> = [
    ['503 without Retry-After', { kind: 'outcome_unknown', status: 503 }],
    ['timeout', { kind: 'outcome_unknown', code: 'timeout', requestId: null }],
    ['connection lost', { kind: 'outcome_unknown', code: 'connection_lost', requestId: null }],
    [
      'unreadable 2xx',
      { kind: 'outcome_unknown', status: 200, code: 'unreadable_response', createdId: 'wd-x' },
    ],
    ['invalid_response', { kind: 'invalid_response', status: 200 }],
    ['5xx server', { kind: 'server', status: 502 }],
    ['an unforeseen throw', new TypeError('boom')],
  ]
  it.each(unknown)('outcome_unknown: %s — never resent', async (_n, failure) => {
    const { service, client, clock } = setup()
    client.onWithdraw = failure instanceof Error ? async () => Promise.reject(failure) : apiError(failure)
    const rec = await reviewedCreate(service, draft())
    expect(rec.localState).toBe('outcome_unknown')
    service.tracker.start()
    await clock.advance(60 * 60_000)
    await service.tracker.stop()
    expect(client.posts).toHaveLength(1)
    if (!(failure instanceof Error) && failure.createdId) expect(rec.error?.createdId).toBe(failure.createdId)
  })

  it('createVerdict: only proven refusals are rejected', () => {
    expect(createVerdict(new ApiError({ kind: 'network', code: 'timeout' }))).toBe('rejected')
    expect(createVerdict(new ApiError({ kind: 'server', endpoint: 'withdraw' }))).toBe('outcome_unknown')
    expect(createVerdict(new ApiError({ kind: 'unauthorized', code: 'access_token_rejected' }))).toBe(
      'rejected',
    )
    expect(createVerdict('a string')).toBe('outcome_unknown')
  })
})

describe('create: refusals before anything is journaled or sent', () => {
  async function refused(s: ReturnType<typeof setup>, d: WithdrawalDraft, code: string) {
    const e = await reviewedCreate(s.service, d).catch((x) => x)
    expect(e).toBeInstanceOf(WithdrawalError)
    expect(e.code).toBe(code)
    expect(s.client.posts).toEqual([])
    return e as WithdrawalError
  }

  it('invalid draft', async () => {
    const s = setup()
    await refused(s, draft({ pixKey: 'not a key' }), 'invalid_draft')
    expect(s.ledger.query().total).toBe(0)
  })

  it('refund address on another network, or not an address', async () => {
    const s = setup()
    const e = await refused(
      s,
      draft({ refundAddress: generateLiquidAddress('testnet').address }),
      'refund_address_invalid',
    )
    expect(e.reason).toBe('wrong_network')
    expect(e.fields).toEqual({ refundAddress: 'wrong_network' })
    await refused(
      s,
      draft({ refundAddress: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq' }),
      'refund_address_invalid',
    )
    expect(s.ledger.query().total).toBe(0)
  })

  it('not signed in, or no POST token free', async () => {
    const s = setup()
    s.client.signedIn = false
    await refused(s, draft(), 'not_signed_in')
    s.client.signedIn = true
    s.client.withdrawTokens = 0.5
    const e = await refused(s, draft(), 'rate_limited')
    expect(e.retryAfterSeconds).toBe(6)
    expect(s.ledger.query().total).toBe(0)
  })

  it('duplicate guard: same canonical Pix key and amount in 24 h refuses unless confirmed', async () => {
    const s = setup()
    const first = await reviewedCreate(s.service, draft())
    const e = await reviewedCreate(
      s.service,
      draft({ pixKey: 'fulano@EXAMPLE.com', taxNumber: '52998224725' }),
    ).catch((x) => x)
    expect(e).toMatchObject({ code: 'duplicate' })
    expect(e.duplicates.map((d: { localId: string }) => d.localId)).toEqual([first.localId])
    expect(s.client.posts).toHaveLength(1)
    // Another amount, or the other amount kind, is not a duplicate.
    await reviewedCreate(s.service, draft({ amount: { kind: 'payout', cents: 1_001 } }))
    await reviewedCreate(s.service, draft({ amount: { kind: 'deposit', cents: 1_000 } }))
    expect(s.client.posts).toHaveLength(3)
    const second = await reviewedCreate(s.service, draft(), { confirm: true })
    expect(second.flags).toContain('duplicate_confirmed')
    expect(s.client.posts).toHaveLength(4)
    // 24 h later the guard no longer fires.
    await s.clock.advance(24 * 60 * 60_000 + 1)
    await reviewedCreate(s.service, draft())
    expect(s.client.posts).toHaveLength(5)
  })

  it('two reviews of the same withdrawal, created concurrently: the second is refused as new since its review', async () => {
    const s = setup()
    const a = reviewedCreate(s.service, draft())
    const b = reviewedCreate(s.service, draft()).catch((x) => x)
    expect((await a).localState).toBe('created')
    expect(await b).toMatchObject({ code: 'duplicate_since_review' })
    expect(s.client.posts).toHaveLength(1)
  })

  it('a rejected attempt does not count as a duplicate', async () => {
    const s = setup()
    s.client.onWithdraw = apiError({ kind: 'business', status: 520 })
    await reviewedCreate(s.service, draft())
    s.client.onWithdraw = { withdrawalId: 'wd-2', depositAddress: DEPOSIT }
    expect((await reviewedCreate(s.service, draft())).localState).toBe('created')
  })
})

describe('create intents: one review authorises one POST', () => {
  const authority = (q: { intent: { id: string }; duplicates: Array<{ localId: string }> }) => ({
    intentId: q.intent.id,
    confirmedDuplicates: q.duplicates.map((d) => d.localId),
  })

  it('one intent, two concurrent creates: exactly one POST, the second is refused as used', async () => {
    const s = setup()
    const q = await s.service.quote(draft())
    const results = await Promise.allSettled([
      s.service.create(draft(), authority(q)),
      s.service.create(draft(), authority(q)),
    ])
    expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected'])
    const refusal = results.find((r) => r.status === 'rejected') as PromiseRejectedResult
    expect(refusal.reason).toMatchObject({ code: 'intent_invalid' })
    expect(s.client.posts).toHaveLength(1)
    expect(s.ledger.query().total).toBe(1)
  })

  it('an intent is used once: a later create with it is refused and sends nothing', async () => {
    const s = setup()
    const q = await s.service.quote(draft())
    expect((await s.service.create(draft(), authority(q))).localState).toBe('created')
    await expect(
      s.service.create(draft(), { ...authority(q), confirmedDuplicates: [] }),
    ).rejects.toMatchObject({ code: 'intent_invalid' })
    expect(s.client.posts).toHaveLength(1)
  })

  it('no intent, an invented one, or one of another service (profile) is refused', async () => {
    const s = setup()
    const other = setup()
    const q = await other.service.quote(draft())
    for (const intentId of ['', 'made-up', q.intent.id]) {
      await expect(s.service.create(draft(), { intentId })).rejects.toMatchObject({ code: 'intent_invalid' })
    }
    expect(s.client.posts).toEqual([])
    expect(s.ledger.query().total).toBe(0)
  })

  it('an intent expires (monotonic clock) and binds the exact body', async () => {
    const s = setup()
    const q = await s.service.quote(draft())
    expect(q.intent.expiresInSeconds).toBe(INTENT_TTL_MS / 1000)
    await expect(
      s.service.create(draft({ amount: { kind: 'payout', cents: 1_001 } }), authority(q)),
    ).rejects.toMatchObject({ code: 'intent_mismatch' })
    // Another spelling of the same body (key case, tax-id punctuation) is the same request.
    const same = draft({ pixKey: 'FULANO@example.com', taxNumber: '52998224725' })
    const q2 = await s.service.quote(draft())
    expect((await s.service.create(same, authority(q2))).localState).toBe('created')
    const q3 = await s.service.quote(draft({ pixKey: 'beltrano@example.com' }))
    await s.clock.advance(INTENT_TTL_MS)
    await expect(
      s.service.create(draft({ pixKey: 'beltrano@example.com' }), authority(q3)),
    ).rejects.toMatchObject({ code: 'intent_expired' })
    expect(s.client.posts).toHaveLength(1)
  })

  it('a similar record that appeared since the review, still submitting, is refused even if "confirmed"', async () => {
    const s = setup()
    let release: () => void = () => undefined
    s.client.onWithdraw = () =>
      new Promise((resolve) => {
        release = () => resolve({ withdrawalId: 'wd-slow', depositAddress: DEPOSIT })
      })
    const mine = await s.service.quote(draft())
    expect(mine.duplicates).toEqual([])
    const other = await s.service.quote(draft())
    const first = s.service.create(draft(), authority(other))
    // Journaled (committed `submitting`) and its POST waiting for the answer.
    await settle()
    expect(s.client.posts).toHaveLength(1)
    const inFlight = s.ledger.query().rows[0]
    expect(inFlight?.localState).toBe('submitting')
    const e = await s.service
      .create(draft(), { intentId: mine.intent.id, confirmedDuplicates: [inFlight!.localId] })
      .catch((x) => x)
    expect(e).toMatchObject({ code: 'duplicate_since_review' })
    expect(e.duplicates.map((d: { localId: string }) => d.localId)).toEqual([inFlight!.localId])
    // Voided: the operator must look at the new list in a fresh review.
    await expect(s.service.create(draft(), authority(mine))).rejects.toMatchObject({ code: 'intent_invalid' })
    release()
    expect((await first).localState).toBe('created')
    s.client.onWithdraw = { withdrawalId: 'wd-2', depositAddress: DEPOSIT }
    expect(s.client.posts).toHaveLength(1)
    // A fresh review names it; confirming it creates, flagged.
    const again = await s.service.quote(draft())
    expect(again.duplicates.map((d) => d.localId)).toEqual([inFlight!.localId])
    await expect(
      s.service.create(draft(), { intentId: again.intent.id, confirmedDuplicates: [] }),
    ).rejects.toMatchObject({ code: 'duplicate' })
    const second = await s.service.create(draft(), authority(again))
    expect(second.flags).toContain('duplicate_confirmed')
    expect(s.client.posts).toHaveLength(2)
  })

  it('a refusal before the journal (no session) leaves the intent usable', async () => {
    const s = setup()
    const q = await s.service.quote(draft())
    s.client.signedIn = false
    await expect(s.service.create(draft(), authority(q))).rejects.toMatchObject({ code: 'not_signed_in' })
    s.client.signedIn = true
    expect((await s.service.create(draft(), authority(q))).localState).toBe('created')
  })
})

describe('deposit address and funding', () => {
  it('a deposit address that is not Liquid (or of another network) is flagged and never payable', async () => {
    for (const bad of [
      'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq',
      generateLiquidAddress('testnet').address,
    ]) {
      const s = setup()
      s.client.onWithdraw = {
        withdrawalId: 'wd-bad',
        status: 'unsent',
        depositAddress: bad,
        depositAmountInCents: 1_100,
      }
      const rec = await reviewedCreate(s.service, draft())
      expect(rec.localState).toBe('created')
      expect(rec.flags).toContain(RECORD_FLAGS.depositAddressInvalid)
      expect(await s.service.funding(rec.localId)).toEqual({
        funding: null,
        problem: 'deposit_address_invalid',
        alert: null,
      })
      expect(s.ledger.audit({ subject: rec.localId }).rows[0]?.action).toBe('withdrawal.flags')
    }
  })

  it('an invalid address that arrives later through the tracker is flagged too', async () => {
    const s = setup()
    s.client.onWithdraw = { withdrawalId: 'wd-min' }
    s.client.onStatus = () =>
      apiError({ kind: 'network', code: 'connect_failed', endpoint: 'withdraw-status' })
    const rec = await reviewedCreate(s.service, draft())
    s.client.onStatus = (id) => ({
      id,
      status: 'unsent',
      depositAddress: 'VJL-not-an-address',
      depositAmountInCents: 1_100,
    })
    const after = await s.service.refresh(rec.localId)
    expect(after.flags).toContain(RECORD_FLAGS.depositAddressInvalid)
    expect((await s.service.funding(rec.localId)).problem).toBe('deposit_address_invalid')
  })

  it('funding instructions: normalised address, 8-decimal amount, URI with asset id, QR, tolerance', async () => {
    const s = setup()
    s.client.onWithdraw = {
      withdrawalId: 'wd-f',
      status: 'unsent',
      depositAddress: DEPOSIT.toUpperCase(),
      depositAmountInCents: 1_102,
      expiration: '2999-01-01T00:00:00.000Z',
    }
    const rec = await reviewedCreate(s.service, draft())
    const { funding, problem } = await s.service.funding(rec.localId)
    expect(problem).toBeNull()
    expect(funding).toMatchObject({
      localId: rec.localId,
      address: DEPOSIT,
      confidential: true,
      network: 'liquid',
      cents: 1_102,
      depixAmount: '11.02000000',
      assetId: DEPIX_ASSET_ID,
      uri: `liquidnetwork:${DEPOSIT}?amount=11.02&assetid=${DEPIX_ASSET_ID}`,
      expiration: '2999-01-01T00:00:00.000Z',
      toleranceBps: 500,
    })
    expect(funding?.qrSvg).toMatch(/^<svg/)
  })

  it('funding problems: not created, processing, terminal, expired, changed address', async () => {
    const s = setup()
    s.client.onWithdraw = apiError({ kind: 'business', status: 520 })
    const rejected = await reviewedCreate(s.service, draft())
    expect((await s.service.funding(rejected.localId)).problem).toBe('not_created')

    const statuses: Array<[Record<string, unknown>, string]> = [
      [{ status: 'sending' }, 'not_awaiting_funding'],
      [{ status: 'SENT' }, 'terminal'],
      [{ status: 'unsent', expiration: '2000-01-01T00:00:00.000Z' }, 'expired'],
      [
        { status: 'unsent', depositAddress: generateLiquidAddress('liquid').address },
        'deposit_address_changed',
      ],
    ]
    for (const [body, problem] of statuses) {
      const rec = seedCreated(s.ledger)
      s.ledger.recordObservation(rec.localId, {
        status: 'unsent',
        body: { depositAddress: DEPOSIT, depositAmountInCents: 1_100 },
      })
      s.ledger.recordObservation(rec.localId, {
        status: body.status as string,
        body: { depositAddress: DEPOSIT, ...body },
      })
      expect((await s.service.funding(rec.localId)).problem, JSON.stringify(body)).toBe(problem)
    }
    await expect(s.service.funding('nope')).rejects.toMatchObject({ code: 'not_found' })
  })
})

describe('operator actions', () => {
  async function unknownRecord(s: ReturnType<typeof setup>, cents = 1_000) {
    s.client.onWithdraw = apiError({ kind: 'outcome_unknown', status: 503 })
    const rec = await reviewedCreate(s.service, draft({ amount: { kind: 'payout', cents } }))
    expect(rec.localState).toBe('outcome_unknown')
    return rec
  }

  it('resolve by linking an id: verified with one status read, filled, audited, then tracked', async () => {
    const s = setup()
    const rec = await unknownRecord(s)
    const linked = await s.service.resolveUnknown(rec.localId, { withdrawalId: ' wd-support ' })
    expect(linked).toMatchObject({
      localState: 'created',
      remoteId: 'wd-support',
      remoteStatus: 'unsent',
      depositAddress: DEPOSIT,
    })
    expect(s.client.statusCalls).toEqual(['wd-support'])
    const audit = s.ledger
      .audit({ subject: rec.localId })
      .rows.find((a) => a.action === 'withdrawal.resolved')
    expect(audit).toMatchObject({
      operator: 'ana',
      details: { resolution: 'linked', remoteId: 'wd-support' },
    })
    expect(String(audit?.details.note)).toContain('req-ok')
    expect(s.service.tracker.stats().tracked).toBe(1)
    expect(s.client.posts).toHaveLength(1)
  })

  it('refuses to link an id the API does not know, or one paying another Pix key; nothing written', async () => {
    const s = setup()
    const rec = await unknownRecord(s)
    s.client.onStatus = () =>
      apiError({
        kind: 'business',
        status: 520,
        messageCode: 'WITHDRAW_NOT_FOUND',
        endpoint: 'withdraw-status',
      })
    await expect(s.service.resolveUnknown(rec.localId, { withdrawalId: 'wd-nope' })).rejects.toMatchObject({
      code: 'remote_not_found',
    })
    s.client.onStatus = (id) => ({ id, status: 'unsent', pixKey: 'someone.else@example.com' })
    await expect(s.service.resolveUnknown(rec.localId, { withdrawalId: 'wd-other' })).rejects.toMatchObject({
      code: 'remote_mismatch',
    })
    expect(s.ledger.get(rec.localId)?.localState).toBe('outcome_unknown')
    expect(
      s.ledger.audit({ subject: rec.localId }).rows.some((a) => a.action === 'withdrawal.resolved'),
    ).toBe(false)
  })

  it('refuses an id already linked to another record', async () => {
    const s = setup()
    const created = await reviewedCreate(s.service, draft({ amount: { kind: 'payout', cents: 2_000 } }))
    const rec = await unknownRecord(s)
    await expect(
      s.service.resolveUnknown(rec.localId, { withdrawalId: created.remoteId as string }),
    ).rejects.toMatchObject({
      code: 'remote_id_in_use',
    })
  })

  it('resolve as not created: audited, final, and no longer a duplicate', async () => {
    const s = setup()
    const rec = await unknownRecord(s)
    const done = await s.service.resolveUnknown(rec.localId, { notCreated: true })
    expect(done.localState).toBe('not_created')
    expect(s.ledger.audit({ subject: rec.localId }).rows[0]).toMatchObject({
      action: 'withdrawal.resolved',
      operator: 'ana',
      details: { resolution: 'not_created' },
    })
    await expect(s.service.resolveUnknown(rec.localId, { notCreated: true })).rejects.toMatchObject({
      code: 'illegal_state',
    })
    s.client.onWithdraw = { withdrawalId: 'wd-again', depositAddress: DEPOSIT }
    expect((await reviewedCreate(s.service, draft())).localState).toBe('created')
  })

  it('markFunded: audited, makes the record hot, refuses records that are not created', async () => {
    const s = setup()
    const rec = await reviewedCreate(s.service, draft())
    const changes: string[] = []
    s.service.onChange((r) => changes.push(r.localId))
    const funded = await s.service.markFunded(rec.localId, { txId: ' abc ' })
    expect(funded).toMatchObject({ fundingTxId: 'abc' })
    expect(funded.fundedAt).not.toBeNull()
    expect(changes).toEqual([rec.localId])
    s.service.tracker.start()
    await s.clock.advance(1_000)
    expect(s.client.statusCalls).toEqual(['wd-1'])
    await s.clock.advance(30_000)
    expect(s.client.statusCalls).toHaveLength(2)
    await s.service.tracker.stop()
    const other = await unknownRecord(s, 3_000)
    await expect(s.service.markFunded(other.localId, {})).rejects.toMatchObject({ code: 'illegal_state' })
    await expect(s.service.markFunded('nope', {})).rejects.toMatchObject({ code: 'not_found' })
  })

  it('a submitting record left by a crash becomes outcome_unknown when the service starts', () => {
    const clock = new FakeClock()
    const ledger: Ledger = testLedger(clock.now)
    const rec = ledger.insertSubmitting(
      {
        profile: 'sandbox',
        pixKey: 'a@b.co',
        amountKind: 'payout',
        amountCents: 500,
        request: { pixKey: 'a@b.co', payoutAmountInCents: 500 },
      },
      'ana',
    )
    createWithdrawalService({
      ledger,
      client: new StubClient().asClient(),
      operator: 'ana',
      network: 'liquid',
      profile: 'sandbox',
      timers: clock,
      now: clock.now,
    })
    expect(ledger.get(rec.localId)?.localState).toBe('outcome_unknown')
  })

  it('a second service on the same ledger (profile switch) does not recover: an in-flight create stays its own', async () => {
    const s = setup()
    let release: () => void = () => undefined
    s.client.onWithdraw = () =>
      new Promise((resolve) => {
        release = () => resolve({ withdrawalId: 'wd-held', depositAddress: DEPOSIT })
      })
    const pending = reviewedCreate(s.service, draft())
    await new Promise((r) => setImmediate(r))
    expect(s.service.creating()).toBe(1)
    const inFlight = s.ledger.query().rows[0]!
    expect(inFlight.localState).toBe('submitting')
    createWithdrawalService({
      ledger: s.ledger,
      client: new StubClient().asClient(),
      operator: 'ana',
      network: 'liquid',
      profile: 'live-1',
      timers: s.clock,
      now: s.clock.now,
    })
    expect(s.ledger.get(inFlight.localId)?.localState).toBe('submitting')
    const settled = s.service.createsSettled()
    release()
    await settled
    expect(s.service.creating()).toBe(0)
    expect(await pending).toMatchObject({ localState: 'created', remoteId: 'wd-held' })
  })

  it('refresh refuses records without a withdrawal id and records of another profile', async () => {
    const s = setup()
    const rec = await unknownRecord(s)
    await expect(s.service.refresh(rec.localId)).rejects.toMatchObject({ code: 'illegal_state' })
    const theirs = seedCreated(s.ledger, { profile: 'live-1' })
    await expect(s.service.refresh(theirs.localId)).rejects.toMatchObject({ code: 'other_profile' })
    expect((await s.service.funding(theirs.localId)).problem).toBe('other_profile')
  })
})

describe('test seam', () => {
  it('beforePost runs after the journal commit; if it throws nothing is sent', async () => {
    const s = setup({
      beforePost: async () => {
        throw new Error('abort')
      },
    })
    const rec = await reviewedCreate(s.service, draft())
    expect(rec).toMatchObject({ localState: 'rejected', error: { kind: 'aborted_before_send' } })
    expect(s.client.posts).toEqual([])
  })
})
