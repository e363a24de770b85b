/**
 * A tiny loopback HTTP server for the client's unit tests: transport edge cases (resets, silences, odd bodies)
 * and scripted answers that the real sandbox has no reason to produce. Integration tests use the sandbox.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createNetServer, type AddressInfo } from 'node:net'

export interface SeenRequest {
  method: string
  path: string
  query: URLSearchParams
  headers: IncomingMessage['headers']
  body: string
}

export type Handler = (req: SeenRequest, res: ServerResponse, raw: IncomingMessage) => void | Promise<void>

export interface FakeServer {
  baseUrl: string
  requests: SeenRequest[]
  /** Routes by "METHOD /path"; a route may be a list of handlers used in turn (the last one repeats). */
  route(key: string, ...handlers: Handler[]): void
  count(key: string): number
  close(): Promise<void>
}

export async function startFakeServer(): Promise<FakeServer> {
  const routes = new Map<string, { handlers: Handler[]; calls: number }>()
  const requests: SeenRequest[] = []
  const server: Server = createServer((raw, res) => {
    const chunks: Buffer[] = []
    raw.on('data', (c: Buffer) => chunks.push(c))
    raw.on('end', () => {
      const url = new URL(raw.url ?? '/', 'http://x')
      const seen: SeenRequest = {
        method: raw.method ?? 'GET',
        path: url.pathname,
        query: url.searchParams,
        headers: raw.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      }
      requests.push(seen)
      res.setHeader('X-Request-ID', `req-${requests.length}`)
      res.setHeader('X-Nonce', `nonce-${requests.length}`)
      const r = routes.get(`${seen.method} ${seen.path}`)
      if (!r) return json(res, 404, { errorMessage: 'no route' })
      const h = r.handlers[Math.min(r.calls, r.handlers.length - 1)]
      r.calls++
      void Promise.resolve(h?.(seen, res, raw)).catch(() => res.destroy())
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    route(key, ...handlers) {
      routes.set(key, { handlers, calls: 0 })
    },
    count(key) {
      return requests.filter((r) => `${r.method} ${r.path}` === key).length
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      }),
  }
}

export function json(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body)
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(text),
    ...headers,
  })
  res.end(text)
}

export const ok =
  (response: unknown): Handler =>
  (_req, res) =>
    json(res, 200, { response, async: false })

export const fail =
  (status: number, body: unknown, headers: Record<string, string> = {}): Handler =>
  (_req, res) =>
    json(res, status, body, headers)

/** Drops the connection without answering: the request has been fully received. */
export const reset: Handler = (_req, _res, raw) => {
  raw.socket.destroy()
}

/** Never answers (until the server closes). */
export const silent: Handler = () => undefined

/** An unsigned JWT-shaped token: the client only decodes claims, it never verifies. */
export function fakeJwt(claims: Record<string, unknown>): string {
  const b64 = (o: unknown) => Buffer.from(JSON.stringify(o)).toString('base64url')
  return `${b64({ alg: 'RS256', typ: 'JWT' })}.${b64(claims)}.c2lnbmF0dXJlLW5vdC1jaGVja2Vk`
}

export interface FakeAuth {
  /** Every access token ever issued, and every refresh token, for secret scans. */
  issued: string[]
  logins: number
  refreshes: number
  replays: number
  expiresIn: number
  /** Set to make the next refreshes answer invalid_grant. */
  refuseRefresh: boolean
  /** Set to refuse the credential. */
  refuseLogin: boolean
  isLive(access: string): boolean
  expireAll(): void
  /** The real refresh route, to put back after a test scripted another answer. */
  refreshHandler: Handler
}

/**
 * Client-credentials login and rotating single-use refresh on a FakeServer, with replay detection: a refresh
 * token presented twice counts as a replay and is refused.
 */
export function installFakeAuth(
  server: FakeServer,
  opts: { expiresIn?: number; secret?: string } = {},
): FakeAuth {
  let n = 0
  const liveAccess = new Set<string>()
  const liveRefresh = new Set<string>()
  const usedRefresh = new Set<string>()
  const state: FakeAuth = {
    issued: [],
    logins: 0,
    refreshes: 0,
    replays: 0,
    expiresIn: opts.expiresIn ?? 300,
    refuseRefresh: false,
    refuseLogin: false,
    isLive: (a) => liveAccess.has(a),
    expireAll: () => liveAccess.clear(),
    refreshHandler: () => undefined,
  }
  const issue = (res: ServerResponse) => {
    n++
    const now = Math.floor(Date.now() / 1000)
    const access = fakeJwt({
      sub: 'partner-1',
      env: 'test',
      scope: ['withdrawal', 'deposit'],
      exp: now + state.expiresIn,
      jti: `j${n}`,
    })
    const refresh = `refresh-token-${n}-${Math.random().toString(36).slice(2)}`
    liveAccess.add(access)
    liveRefresh.add(refresh)
    state.issued.push(access, refresh)
    json(res, 200, {
      access_token: access,
      token_type: 'Bearer',
      expires_in: state.expiresIn,
      refresh_token: refresh,
      refresh_expires_in: 3600,
      scope: ['withdrawal', 'deposit'],
    })
  }
  server.route('POST /api/v2/auth/login', (req, res) => {
    state.logins++
    const body = JSON.parse(req.body) as { client_secret?: string }
    if (state.refuseLogin || (opts.secret !== undefined && body.client_secret !== opts.secret)) {
      return json(res, 401, { error: 'invalid_client', errorMessage: 'Invalid client credentials' })
    }
    issue(res)
  })
  state.refreshHandler = (req, res) => {
    state.refreshes++
    const { refresh_token: token } = JSON.parse(req.body) as { refresh_token: string }
    if (usedRefresh.has(token)) state.replays++
    usedRefresh.add(token)
    if (state.refuseRefresh || !liveRefresh.delete(token)) {
      return json(res, 401, { error: 'invalid_grant', errorMessage: 'Invalid refresh token' })
    }
    issue(res)
  }
  server.route('POST /api/v2/auth/refresh', state.refreshHandler)
  server.route('POST /api/v2/auth/logout', (req, res) => {
    const { refresh_token: token } = JSON.parse(req.body) as { refresh_token: string }
    liveRefresh.delete(token)
    res.writeHead(204).end()
  })
  return state
}

/** Routes an operation that checks the bearer against FakeAuth (401 flat body when it is not live). */
export function authed(auth: FakeAuth, inner: Handler): Handler {
  return (req, res, raw) => {
    const token = (req.headers.authorization ?? '').replace(/^Bearer /, '')
    if (!auth.isLive(token)) return json(res, 401, { errorMessage: 'Invalid, expired or revoked token' })
    return inner(req, res, raw)
  }
}

/** A port nothing listens on: connecting to it is refused. */
export async function closedPort(): Promise<number> {
  const srv = createNetServer()
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve))
  const { port } = srv.address() as AddressInfo
  await new Promise<void>((resolve) => srv.close(() => resolve()))
  return port
}
