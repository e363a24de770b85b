/**
 * The authentication lifecycle against the sandbox's real rotation, replay detection and clocks.
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { SessionInfo } from '../../../src/main/api'
import { expectApiError, harness, posts, secretScan, WITHDRAWAL, type Harness } from './helpers'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const REFRESH = 'POST /api/v2/auth/refresh'
const LOGIN = 'POST /api/v2/auth/login'

describe('single-flight renewal', () => {
  it('50 concurrent reads with an expired access token cause exactly ONE refresh and no replay', async () => {
    h = await harness(
      { accessTokenTtlSeconds: 300, refreshIdleSeconds: 3_600 },
      { rateLimits: { 'withdraw-status': 6_000 } },
    )
    h.sb.control.setRateLimits({ 'withdraw-status': 6_000 })
    await h.client.signIn()
    const created = await h.client.withdraw(WITHDRAWAL)
    h.sb.control.resetRequestCounts()
    h.sb.control.advanceClock(301)

    const results = await Promise.all(
      Array.from({ length: 50 }, () => h!.client.withdrawStatus(created.data.withdrawalId)),
    )
    expect(results.every((r) => r.data.id === created.data.withdrawalId)).toBe(true)
    const counts = h.sb.control.requestCounts()
    expect(counts[REFRESH]).toBe(1)
    expect(counts[LOGIN]).toBeUndefined()
    // No replay: the service raised no security alert and the session is still good afterwards.
    expect(h.sb.control.state({ limit: 0 }).securityAlerts).toBe(0)
    await h.client.withdrawStatus(created.data.withdrawalId)
    expect(h.sb.control.requestCounts()[REFRESH]).toBe(1)
  })

  it('invalid_grant (idle session) leads to exactly one fresh login, the refresh token tried once', async () => {
    h = await harness({ accessTokenTtlSeconds: 300, refreshIdleSeconds: 600 })
    await h.client.signIn()
    h.sb.control.resetRequestCounts()
    h.sb.control.advanceClock(700)
    await Promise.all(
      Array.from({ length: 10 }, () => expectApiError(h!.client.withdrawStatus('nope'), 'business')),
    )
    const counts = h.sb.control.requestCounts()
    expect(counts[REFRESH]).toBe(1)
    expect(counts[LOGIN]).toBe(1)
    expect(h.sb.control.state({ limit: 0 }).securityAlerts).toBe(0)
  })

  it('the absolute end of a session leads to a fresh login', async () => {
    h = await harness({ accessTokenTtlSeconds: 300, refreshIdleSeconds: 3_600, sessionMaxSeconds: 900 })
    await h.client.signIn()
    for (let i = 0; i < 3; i++) {
      h.sb.control.advanceClock(301)
      await expectApiError(h.client.withdrawStatus('nope'), 'business')
    }
    const counts = h.sb.control.requestCounts()
    expect(counts[LOGIN]).toBe(2)
    expect(counts[REFRESH]).toBe(3)
    expect(h.sb.control.state({ limit: 0 }).securityAlerts).toBe(0)
  })
})

describe('proactive renewal', () => {
  it('renews before the token runs out (lifetime from expires_in), including before a POST', async () => {
    let skew = 0
    h = await harness({ accessTokenTtlSeconds: 120 }, { now: () => Date.now() + skew })
    const first = await h.client.signIn()
    expect(Date.parse(first.accessExpiresAt) - Date.now()).toBeGreaterThan(110_000)
    expect(Date.parse(first.accessExpiresAt) - Date.now()).toBeLessThanOrEqual(120_000)
    // 120 s lifetime → renew at max(min(96, 90), 60) = 90 s.
    skew = 89_000
    await h.client.withdraw(WITHDRAWAL)
    expect(h.sb.control.requestCounts()[REFRESH]).toBeUndefined()
    skew = 91_000
    await h.client.withdraw(WITHDRAWAL)
    expect(h.sb.control.requestCounts()[REFRESH]).toBe(1)
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBe(2)
  })

  it('a 401 on POST /withdraw is not resent; the next call renews first', async () => {
    h = await harness({ accessTokenTtlSeconds: 300 })
    await h.client.signIn()
    h.sb.control.advanceClock(301)
    const e = await expectApiError(h.client.withdraw(WITHDRAWAL), 'unauthorized')
    expect(e.code).toBe('access_token_rejected')
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBe(1)
    expect(h.sb.control.summary().withdrawals).toBe(0)
    await h.client.withdraw(WITHDRAWAL)
    expect(h.sb.control.requestCounts()[REFRESH]).toBe(1)
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBe(2)
  })
})

describe('sign-in and sign-out', () => {
  it('exposes sub, scopes, env and the expiry; sign-out logs out and ends the session on the service', async () => {
    h = await harness({ env: 'sandbox' })
    const seen: Array<SessionInfo | null> = []
    h.client.onSessionChange((s) => seen.push(s))
    const info = await h.client.signIn()
    expect(info).toMatchObject({
      kind: 'client_credentials',
      sub: expect.any(String),
      env: 'sandbox',
      scopes: ['deposit', 'withdrawal', 'user'],
    })
    expect(h.sb.control.state({ limit: 0 }).sessions).toBe(1)
    await h.client.signOut()
    expect(h.sb.control.requestCounts()['POST /api/v2/auth/logout']).toBe(1)
    expect(h.sb.control.state({ limit: 0 }).sessions).toBe(0)
    expect(seen).toEqual([info, null])
    const e = await expectApiError(h.client.withdrawStatus('x'), 'unauthorized')
    expect(e.code).toBe('not_signed_in')
  })

  it('a wrong secret is unauthorized invalid_client', async () => {
    h = await harness()
    const c = h.make({
      auth: {
        kind: 'client_credentials',
        clientId: h.sb.credentials.clientId,
        clientSecret: 'cs_wrong-secret-000000',
      },
    })
    const e = await expectApiError(c.signIn(), 'unauthorized')
    expect(e).toMatchObject({ authError: 'invalid_client', status: 401 })
    expect(e.userMessage('pt-BR')).toContain('Credencial recusada')
  })
})

describe('legacy token mode', () => {
  it('works with scope withdraw and exposes its exp', async () => {
    h = await harness()
    const token = h.sb.control.mintLegacyToken({ expiresInSeconds: 86_400 })
    const c = h.make({ auth: { kind: 'legacy_token', token } })
    const info = await c.signIn()
    expect(info).toMatchObject({ kind: 'legacy_token', scopes: ['withdraw'], env: 'sandbox' })
    const expMs = Date.parse(info.accessExpiresAt)
    expect(Math.abs(expMs - (h.sb.control.now() + 86_400_000))).toBeLessThan(2_000)
    const created = await c.withdraw(WITHDRAWAL)
    const status = await c.withdrawStatus(created.data.withdrawalId)
    expect(status.data.id).toBe(created.data.withdrawalId)
    expect(h.sb.control.requestCounts()[LOGIN]).toBeUndefined()
  })

  it('is refused locally once expired: no request is sent', async () => {
    h = await harness()
    let skew = 0
    const token = h.sb.control.mintLegacyToken({ expiresInSeconds: 60 })
    const c = h.make({ auth: { kind: 'legacy_token', token }, now: () => Date.now() + skew })
    await c.signIn()
    skew = 61_000
    const before = posts('/api/withdraw')
    const e = await expectApiError(c.withdraw(WITHDRAWAL), 'unauthorized')
    expect(e).toMatchObject({ code: 'legacy_token_expired', status: null, nothingSent: true })
    expect(posts('/api/withdraw')).toBe(before)
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBeUndefined()
    expect(c.session()?.accessExpiresAt).toBeDefined()
  })
})

secretScan()
