import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError } from '../../../src/main/api/errors'
import { normalizeBaseUrl, Transport, TransportFailure } from '../../../src/main/api/transport'
import { closedPort, fail, ok, reset, silent, startFakeServer, type FakeServer } from './helpers/fake-server'

const TIMEOUTS = { headersTimeoutMs: 2_000, bodyTimeoutMs: 2_000 }

async function failure(p: Promise<unknown>): Promise<TransportFailure> {
  const e = await p.then(
    () => null,
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(TransportFailure)
  return e as TransportFailure
}

describe('normalizeBaseUrl', () => {
  it('removes every trailing slash and keeps a path prefix', () => {
    expect(normalizeBaseUrl('http://127.0.0.1:8080/')).toEqual({
      origin: 'http://127.0.0.1:8080',
      basePath: '',
    })
    expect(normalizeBaseUrl('http://127.0.0.1:8080//')).toEqual({
      origin: 'http://127.0.0.1:8080',
      basePath: '',
    })
    expect(normalizeBaseUrl('https://api.example.com/depix/')).toEqual({
      origin: 'https://api.example.com',
      basePath: '/depix',
    })
    expect(normalizeBaseUrl('  http://localhost:9 ')).toEqual({ origin: 'http://localhost:9', basePath: '' })
  })

  it('refuses plain http off loopback, other schemes, credentials, query and fragment', () => {
    for (const bad of [
      'http://api.example.com',
      'ftp://127.0.0.1',
      'https://user:pw@api.example.com',
      'https://api.example.com/?x=1',
      'https://api.example.com/#x',
      'not a url',
    ]) {
      let caught: unknown
      try {
        normalizeBaseUrl(bad)
      } catch (e) {
        caught = e
      }
      expect(caught, bad).toBeInstanceOf(ApiError)
      expect((caught as ApiError).code).toBe('invalid_base_url')
    }
  })
})

describe('Transport over loopback', () => {
  let server: FakeServer
  let transport: Transport

  beforeEach(async () => {
    server = await startFakeServer()
    transport = new Transport(normalizeBaseUrl(`${server.baseUrl}/`), 1_000, 'test-agent')
  })
  afterEach(async () => {
    await transport.close(100)
    await server.close()
  })

  it('captures X-Request-ID and X-Nonce on success and on error', async () => {
    server.route('GET /api/ping', ok({ msg: 'pong' }))
    server.route('GET /api/withdraw-status', fail(520, { response: { errorMessage: 'x' }, async: false }))
    const good = await transport.send({ method: 'GET', path: '/api/ping', ...TIMEOUTS })
    expect(good).toMatchObject({ status: 200, requestId: 'req-1', nonce: 'nonce-1' })
    const bad = await transport.send({ method: 'GET', path: '/api/withdraw-status', ...TIMEOUTS })
    expect(bad).toMatchObject({ status: 520, requestId: 'req-2', nonce: 'nonce-2' })
  })

  it('sends the bearer, JSON content type for bodies, the query string, and never X-Async', async () => {
    server.route('POST /api/withdraw', ok({ withdrawalId: 'w1' }))
    server.route('GET /api/deposits', ok([]))
    await transport.send({
      method: 'POST',
      path: '/api/withdraw',
      body: '{"a":1}',
      bearer: 'tok',
      ...TIMEOUTS,
    })
    await transport.send({
      method: 'GET',
      path: '/api/deposits',
      query: { start: '2026-01-01', end: 'a b&c' },
      ...TIMEOUTS,
    })
    const [post, get] = server.requests
    expect(post?.headers.authorization).toBe('Bearer tok')
    expect(post?.headers['content-type']).toBe('application/json')
    expect(post?.body).toBe('{"a":1}')
    expect(post?.headers['x-async']).toBeUndefined()
    expect(get?.path).toBe('/api/deposits')
    expect(get?.query.get('end')).toBe('a b&c')
    expect(get?.headers['content-type']).toBeUndefined()
  })

  it('keeps a base path prefix (so a wrong prefix reaches the service and answers 404)', async () => {
    const prefixed = new Transport(normalizeBaseUrl(`${server.baseUrl}/extra/`), 1_000, 'ua')
    const res = await prefixed.send({ method: 'GET', path: '/api/ping', ...TIMEOUTS })
    expect(res.status).toBe(404)
    expect(server.requests[0]?.path).toBe('/extra/api/ping')
    await prefixed.close(100)
  })

  it('reports a refused connection as not sent', async () => {
    const port = await closedPort()
    const t = new Transport(normalizeBaseUrl(`http://127.0.0.1:${port}`), 1_000, 'ua')
    const f = await failure(t.send({ method: 'POST', path: '/api/withdraw', body: '{}', ...TIMEOUTS }))
    expect(f).toMatchObject({ code: 'connect_failed', sent: false, causeCode: 'ECONNREFUSED' })
    await t.close(100)
  })

  it('reports a reset after the request as sent, and does not resend it (GET or POST)', async () => {
    server.route('POST /api/withdraw', reset)
    server.route('GET /api/withdraw-status', reset)
    const post = await failure(
      transport.send({ method: 'POST', path: '/api/withdraw', body: '{}', ...TIMEOUTS }),
    )
    expect(post).toMatchObject({ code: 'connection_lost', sent: true })
    const get = await failure(transport.send({ method: 'GET', path: '/api/withdraw-status', ...TIMEOUTS }))
    expect(get).toMatchObject({ code: 'connection_lost', sent: true })
    expect(server.count('POST /api/withdraw')).toBe(1)
    expect(server.count('GET /api/withdraw-status')).toBe(1)
  })

  it('times out waiting for headers, as sent, without a second request', async () => {
    server.route('POST /api/withdraw', silent)
    const f = await failure(
      transport.send({
        method: 'POST',
        path: '/api/withdraw',
        body: '{}',
        headersTimeoutMs: 150,
        bodyTimeoutMs: 150,
      }),
    )
    expect(f).toMatchObject({ code: 'timeout', sent: true, causeCode: 'UND_ERR_HEADERS_TIMEOUT' })
    expect(server.count('POST /api/withdraw')).toBe(1)
  })

  it('times out on a stalled body, keeping the status and request id that did arrive', async () => {
    server.route('GET /api/withdraw-status', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
      res.write('{"response":')
    })
    const f = await failure(
      transport.send({
        method: 'GET',
        path: '/api/withdraw-status',
        headersTimeoutMs: 500,
        bodyTimeoutMs: 150,
      }),
    )
    expect(f.code).toBe('timeout')
    expect(f.causeCode).toBe('UND_ERR_BODY_TIMEOUT')
    expect(f.response).toMatchObject({ status: 200, requestId: 'req-1' })
  })

  it('refuses oversized responses', async () => {
    server.route('GET /api/deposits', (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.end('x'.repeat(5 * 1024 * 1024))
    })
    const f = await failure(transport.send({ method: 'GET', path: '/api/deposits', ...TIMEOUTS }))
    expect(f.code).toBe('response_too_large')
  })

  it('refuses a header value that cannot be sent (nothing leaves)', async () => {
    const f = await failure(
      transport.send({ method: 'GET', path: '/api/ping', bearer: 'bad\r\nInjected: 1', ...TIMEOUTS }),
    )
    expect(f.sent).toBe(false)
    expect(server.requests).toHaveLength(0)
  })
})
