import { networkInterfaces } from 'node:os'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startSandbox, type Sandbox } from '../../../src/main/sandbox'
import { call, control, CPF_A, LQ_MAIN, login, roomySandbox } from './helpers'

let sb: Sandbox
let token: string

beforeAll(async () => {
  sb = await roomySandbox()
  token = (await login(sb)).access_token
})
afterAll(() => sb.close())

const ctl = (method: string, path: string, body?: unknown) =>
  control(sb, method, path, body === undefined ? {} : { body })

describe('HTTP control surface under /_sandbox (not part of the API)', () => {
  it('drives a withdrawal: fund and settle over HTTP, seen through GET /api/withdraw-status', async () => {
    const w = (
      await call(sb.baseUrl, 'POST', '/api/withdraw', {
        token,
        body: {
          pixKey: 'maria@example.com',
          taxNumber: CPF_A,
          payoutAmountInCents: 10_000,
          refundAddress: LQ_MAIN,
        },
      })
    ).body.response
    const funded = await ctl('POST', `/withdrawals/${w.withdrawalId}/fund`, {
      amountInCents: w.depositAmountInCents,
    })
    expect(funded.status).toBe(200)
    expect(funded.body.status).toBe('sending')
    const settled = await ctl('POST', `/withdrawals/${w.withdrawalId}/settle`, { outcome: 'sent' })
    expect(settled.body.status).toBe('sent')
    const s = await call(sb.baseUrl, 'GET', `/api/withdraw-status?id=${w.withdrawalId}`, { token })
    expect(s.body.response.status).toBe('sent')
  })

  it('drives a deposit: pay and MED over HTTP', async () => {
    const d = (
      await call(sb.baseUrl, 'POST', '/api/deposit', {
        token,
        body: { amountInCents: 2_000, depixAddress: LQ_MAIN, endUserTaxNumber: CPF_A },
      })
    ).body.response
    expect((await ctl('POST', `/deposits/${d.id}/pay`, { payerName: 'Ana' })).body).toMatchObject({
      status: 'approved',
      payerName: 'Ana',
    })
    expect((await ctl('POST', `/deposits/${d.id}/med`)).body.status).toBe('refunded')
  })

  it('control requests are not counted, not rate limited and never faulted', async () => {
    sb.control.resetRequestCounts()
    sb.control.injectFault({ kind: 'status', status: 500 })
    for (let i = 0; i < 50; i++) expect((await ctl('GET', '/summary')).status).toBe(200)
    expect(sb.control.requestCounts()).toEqual({})
    sb.control.clearFaults()
  })

  it('answers flat { error, errorMessage }: 404 unknown id or route, 409 wrong state, 400 bad input', async () => {
    const unknown = await ctl('POST', '/withdrawals/nope/fund', { amountInCents: 100 })
    expect(unknown.status).toBe(404)
    expect(unknown.body).toEqual({ error: 'not_found', errorMessage: expect.any(String) })
    expect((await ctl('GET', '/no-such-route')).status).toBe(404)
    const w = (
      await call(sb.baseUrl, 'POST', '/api/withdraw', {
        token,
        body: { pixKey: 'a@example.com', taxNumber: CPF_A, payoutAmountInCents: 1_000 },
      })
    ).body.response
    expect((await ctl('POST', `/withdrawals/${w.withdrawalId}/settle`, { outcome: 'sent' })).status).toBe(409)
    expect((await ctl('POST', `/withdrawals/${w.withdrawalId}/fund`, { amountInCents: -1 })).status).toBe(400)
    expect((await ctl('POST', '/faults', { kind: 'explode' })).status).toBe(400)
    expect((await ctl('POST', '/options', { nonsense: 1 })).status).toBe(400)
  })

  it('covers the rest of the surface: credentials, legacy token, clock, users, limits, options, maintenance, state, counts', async () => {
    const c = await ctl('POST', '/credentials', { label: 'from-http', scopes: ['deposit'] })
    expect(c.status).toBe(201)
    expect(c.body).toEqual({
      clientId: expect.any(String),
      clientSecret: expect.any(String),
      scopes: ['deposit'],
    })
    expect((await ctl('POST', `/credentials/${c.body.clientId}/revoke`)).status).toBe(204)
    const legacy = (await ctl('POST', '/legacy-token', { expiresInSeconds: 600 })).body.token
    expect((await call(sb.baseUrl, 'GET', '/api/withdraw-status?id=x', { token: legacy })).status).toBe(520)
    const before = (await ctl('GET', '/clock')).body.now
    const after = (await ctl('POST', '/clock/advance', { seconds: 10 })).body.now
    expect(after - before).toBeGreaterThanOrEqual(10_000)
    expect((await ctl('POST', '/end-users', { euid: 'EU-HTTP', taxNumber: '11144477735' })).status).toBe(204)
    expect((await ctl('POST', '/block-user', { euid: 'EU-HTTP' })).status).toBe(204)
    expect((await ctl('POST', '/compliance-block', { taxNumber: '86288366757' })).status).toBe(204)
    expect((await ctl('POST', '/rate-limits', { ping: 500 })).status).toBe(204)
    expect((await ctl('POST', '/options', { minimalCreateResponse: false })).status).toBe(204)
    expect((await ctl('POST', '/maintenance', { on: false })).status).toBe(204)
    expect((await ctl('POST', '/faults/clear')).status).toBe(204)
    const seeded = await ctl('POST', '/withdrawals/seed', { count: 3 })
    expect(seeded.body.count).toBe(3)
    const page = (await ctl('GET', '/state?offset=0&limit=2')).body
    expect(page.withdrawals).toHaveLength(2)
    expect(
      page.credentials.some(
        (x: { clientId: string; revoked: boolean }) => x.clientId === c.body.clientId && x.revoked,
      ),
    ).toBe(true)
    const summary = (await ctl('GET', '/summary')).body
    expect(summary.withdrawals).toBeGreaterThanOrEqual(5)
    expect(summary.withdrawalsByStatus.unsent).toBeGreaterThanOrEqual(3)
    await call(sb.baseUrl, 'GET', '/nope')
    expect((await ctl('GET', '/request-counts')).body['GET /nope']).toBe(1)
    expect((await ctl('POST', '/request-counts/reset')).status).toBe(204)
    expect((await ctl('GET', '/request-counts')).body).toEqual({})
  })

  it('answers loopback callers only (403 from another interface; the API itself still answers)', async (ctx) => {
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i !== undefined && i.family === 'IPv4' && !i.internal)
    if (external === undefined) return ctx.skip()
    const open = await startSandbox({ port: 0, host: '0.0.0.0' })
    try {
      const port = new URL(open.baseUrl).port
      const remote = `http://${external.address}:${port}`
      const r = await call(remote, 'GET', '/_sandbox/summary', {
        token: open.controlToken,
        headers: { host: new URL(open.controlUrl).host },
      })
      expect(r.status).toBe(403)
      expect((await call(remote, 'GET', '/api/ping')).status).toBe(401)
      expect((await control(open, 'GET', '/summary')).status).toBe(200)
    } finally {
      await open.close()
    }
  })

  describe('only the holder of the per-run token, from loopback, named by its own Host, outside any web page', () => {
    const port = (): string => new URL(sb.controlUrl).port

    it('the token is random per run and the exact Host is 127.0.0.1:<port>', async () => {
      expect(sb.controlToken).toMatch(/^[A-Za-z0-9_-]{43}$/)
      const other = await startSandbox({ port: 0 })
      try {
        expect(other.controlToken).not.toBe(sb.controlToken)
        // One sandbox's token opens no other sandbox.
        const cross = await call(other.controlUrl, 'GET', '/summary', { token: sb.controlToken })
        expect(cross.status).toBe(401)
      } finally {
        await other.close()
      }
      expect(sb.controlUrl).toBe(`http://127.0.0.1:${port()}/_sandbox`)
    })

    it('refuses a missing or wrong token on every route, credentials and clock included, and changes nothing', async () => {
      sb.control.setMaintenance(false)
      const before = sb.control.now()
      const credentialsBefore = sb.control.state().credentials.length
      const attempts: Array<[string, string, unknown]> = [
        ['POST', '/credentials', { label: 'stolen' }],
        ['POST', '/maintenance', { on: true }],
        ['POST', '/faults', { kind: 'status', status: 500 }],
        ['POST', '/clock/advance', { seconds: 3600 }],
        ['GET', '/clock', undefined],
        ['GET', '/state', undefined],
        ['GET', '/jwks', undefined],
        ['GET', '/', undefined],
      ]
      const wrong = `${sb.controlToken.slice(0, -1)}${sb.controlToken.endsWith('A') ? 'B' : 'A'}`
      for (const [method, path, body] of attempts) {
        for (const token of [undefined, wrong, '', sb.credentials.clientSecret]) {
          const r = await call(sb.controlUrl, method, path, {
            ...(token === undefined ? {} : { token }),
            ...(body === undefined ? {} : { body }),
          })
          expect(r.status, `${method} ${path} token=${String(token)}`).toBe(401)
          expect(r.body).toEqual({ error: 'unauthorized', errorMessage: expect.any(String) })
          expect(r.text).not.toContain('clientSecret')
        }
      }
      // The token only counts as a bearer token, not smuggled in another header.
      const other = await call(sb.controlUrl, 'GET', '/summary', {
        headers: { 'x-sandbox-control-token': sb.controlToken, cookie: `token=${sb.controlToken}` },
      })
      expect(other.status).toBe(401)
      expect(sb.control.now() - before).toBeLessThan(3_600_000)
      expect(sb.control.state().credentials).toHaveLength(credentialsBefore)
      expect((await call(sb.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
    })

    it('refuses any request carrying Origin, even with the right token (a web page cannot drop it)', async () => {
      for (const origin of ['https://evil.example', 'null', `http://127.0.0.1:${port()}`]) {
        const r = await call(sb.controlUrl, 'POST', '/credentials', {
          token: sb.controlToken,
          body: { label: 'from-a-page' },
          headers: { origin },
        })
        expect(r.status, origin).toBe(403)
        expect(r.body.error).toBe('forbidden')
        expect(r.text).not.toContain('clientSecret')
      }
    })

    it('refuses a rebinding Host (any name but 127.0.0.1:<port>), even with the right token', async () => {
      for (const host of [
        `evil.example:${port()}`,
        `localhost:${port()}`,
        '127.0.0.1',
        `127.0.0.1:${Number(port()) + 1}`,
        `127.0.0.1:${port()}.evil.example`,
      ]) {
        const r = await call(sb.controlUrl, 'POST', '/maintenance', {
          token: sb.controlToken,
          body: { on: true },
          headers: { host },
        })
        expect(r.status, host).toBe(403)
      }
      expect((await call(sb.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
    })

    it('refuses text/plain and form POSTs (the bodies a page can send without asking), even with the token', async () => {
      for (const type of [
        'text/plain',
        'application/x-www-form-urlencoded',
        'multipart/form-data; boundary=x',
      ]) {
        for (const path of ['/maintenance', '/faults', '/clock/advance', '/credentials']) {
          const r = await call(sb.controlUrl, 'POST', path, {
            token: sb.controlToken,
            raw: '{"on":true,"kind":"status","status":500,"seconds":3600}',
            headers: { 'content-type': type },
          })
          expect(r.status, `${type} ${path}`).toBe(415)
        }
      }
      // Without the token a simple text/plain POST is refused before its body is even read.
      const simple = await call(sb.controlUrl, 'POST', '/maintenance', {
        raw: '{"on":true}',
        headers: { 'content-type': 'text/plain' },
      })
      expect(simple.status).toBe(401)
      expect((await call(sb.baseUrl, 'GET', '/api/ping', { token })).status).toBe(200)
    })

    it('the right token with JSON from loopback works, application/json; charset=utf-8 included', async () => {
      const before = sb.control.now()
      const r = await control(sb, 'POST', '/clock/advance', {
        raw: '{"seconds":1}',
        headers: { 'content-type': 'application/json; charset=utf-8' },
      })
      expect(r.status).toBe(200)
      expect(r.body.now).toBeGreaterThanOrEqual(before + 1_000)
      expect(r.body.now).toBeLessThanOrEqual(sb.control.now())
    })

    it('a sandbox started with httpControl: false (the app) has no HTTP control surface at all', async () => {
      const quiet = await startSandbox({ port: 0, httpControl: false })
      try {
        expect(quiet.controlToken).toBe('')
        for (const token of [undefined, '', 'x']) {
          const r = await call(quiet.controlUrl, 'POST', '/credentials', {
            ...(token === undefined ? {} : { token }),
            body: {},
          })
          expect(r.status).toBe(404)
        }
        expect(quiet.control.createCredential({}).clientId).toEqual(expect.any(String))
      } finally {
        await quiet.close()
      }
    })
  })
})
