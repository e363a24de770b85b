/**
 * The HTTP face of the sandbox: routing, the per-request pipeline and the response shapes of docs/API-CONTRACT.md#s2-1.
 *
 * Operation pipeline, in order: route (404) → bearer token (401) → scope (403) → rate limit (429) →
 * `X-Async: true` (400) → maintenance (503 + Retry-After) → injected fault → body (413/400) → operation.
 * Every response, 404 and auth included, carries `X-Request-ID` and `X-Nonce`.
 */
import { randomUUID } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import {
  AUTH_BODY_MAX_BYTES,
  MAINTENANCE_RETRY_AFTER_SECONDS,
  type EndpointName,
} from '../../shared/api-limits'
import type { AuthReply, RawBody } from './auth'
import { handleControl, type ControlAccess } from './control-http'
import { AuthError, OpError } from './errors'
import { readBody, sendEmpty, sendJson, sendRaw, sleep } from './http'
import { queryParams, type Params } from './params'
import { handleReceipt, RECEIPT_PREFIX } from './receipts'
import type { SandboxCore } from './state'
import type { TokenClaims } from './tokens'
import type { Fault, SandboxControl } from './types'

/** Operation bodies are small JSON objects; anything bigger is refused with 413. */
const OP_BODY_MAX_BYTES = 64 * 1024
const CONTROL_PREFIX = '/_sandbox'

interface OpRoute {
  name: EndpointName
  /** Any one of these scopes admits the call; null admits any valid token. */
  scopes: readonly string[] | null
  run(core: SandboxCore, params: Params, claims: TokenClaims): unknown
}

// Payout endpoints take `withdrawal` (client credentials) or `withdraw` (legacy tokens, docs/API-CONTRACT.md#s5-1 rule 2).
const PAYOUT = ['withdrawal', 'withdraw'] as const

const OP_ROUTES: ReadonlyMap<string, OpRoute> = new Map<string, OpRoute>([
  [
    'GET /api/ping',
    {
      name: 'ping',
      scopes: null,
      run: (_c, _p, claims) => ({ msg: 'pong', claims_for_token_debug: claims }),
    },
  ],
  ['POST /api/deposit', { name: 'deposit', scopes: ['deposit'], run: (c, p) => c.deposits.create(p) }],
  [
    'GET /api/deposit-status',
    { name: 'deposit-status', scopes: ['deposit'], run: (c, p) => c.deposits.status(p) },
  ],
  ['GET /api/deposits', { name: 'deposits', scopes: ['deposit'], run: (c, p) => c.deposits.list(p) }],
  ['GET /api/user-info', { name: 'user-info', scopes: ['user'], run: (c, p) => c.deposits.userInfo(p) }],
  ['POST /api/withdraw', { name: 'withdraw', scopes: PAYOUT, run: (c, p) => c.withdrawals.create(p) }],
  [
    'GET /api/withdraw-status',
    { name: 'withdraw-status', scopes: PAYOUT, run: (c, p) => c.withdrawals.status(p) },
  ],
])

type AuthHandler = (core: SandboxCore, raw: RawBody, ip: string) => AuthReply
const AUTH_ROUTES: ReadonlyMap<string, AuthHandler> = new Map<string, AuthHandler>([
  ['POST /api/v2/auth/login', (c, raw, ip) => c.auth.login(raw, ip)],
  ['POST /api/v2/auth/refresh', (c, raw, ip) => c.auth.refresh(raw, ip)],
  ['POST /api/v2/auth/logout', (c, raw) => c.auth.logout(raw)],
])

const flat = (errorMessage: string): unknown => ({ errorMessage })
const envelope = (errorMessage: string): unknown => ({ response: { errorMessage }, async: false })

function hasScope(granted: readonly string[], needed: readonly string[] | null): boolean {
  if (needed === null) return true
  for (const s of needed) if (granted.includes(s)) return true
  return false
}

export function createRequestHandler(
  core: SandboxCore,
  control: SandboxControl,
  access: ControlAccess,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    res.setHeader('X-Request-ID', randomUUID())
    res.setHeader('X-Nonce', randomUUID())
    handle(core, control, access, req, res).catch(() => {
      sendJson(res, 500, envelope('Internal sandbox error'))
    })
  }
}

async function handle(
  core: SandboxCore,
  control: SandboxControl,
  access: ControlAccess,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = req.url ?? '/'
  const q = url.indexOf('?')
  const path = q === -1 ? url : url.slice(0, q)
  const query = q === -1 ? '' : url.slice(q + 1)
  const method = req.method ?? 'GET'

  if (path === CONTROL_PREFIX || path.startsWith(`${CONTROL_PREFIX}/`)) {
    return handleControl(core, control, access, req, res, method, path.slice(CONTROL_PREFIX.length), query)
  }
  if (path.startsWith(RECEIPT_PREFIX)) return handleReceipt(core.withdrawals, method, path, res)
  const key = `${method} ${path}`
  core.count(key)
  // `//` is never normalised (docs/API-CONTRACT.md#s1-8): no route contains it, so the lookups below miss and answer 404.
  const op = OP_ROUTES.get(key)
  if (op !== undefined) return operation(core, req, res, op, query)
  const auth = AUTH_ROUTES.get(key)
  if (auth !== undefined) return authEndpoint(core, req, res, auth, key === 'POST /api/v2/auth/logout')
  sendJson(res, 404, flat(`No route: ${method} ${path}`))
}

async function operation(
  core: SandboxCore,
  req: IncomingMessage,
  res: ServerResponse,
  route: OpRoute,
  query: string,
): Promise<void> {
  const header = req.headers.authorization
  // The auth scheme name is case-insensitive (RFC 9110 §11.1).
  const token = header !== undefined && /^bearer /i.test(header) ? header.slice(7).trim() : ''
  if (token === '') return sendJson(res, 401, flat('Missing bearer token'))
  const claims = await core.tokens.verify(token)
  if (claims === null) return sendJson(res, 401, flat('Invalid, expired or revoked token'))
  if (!hasScope(claims.scope, route.scopes)) {
    return sendJson(res, 403, flat(`Token lacks the scope for ${route.name}: ${route.scopes?.join(' or ')}`))
  }
  const limit = core.buckets.take(
    `${claims.sub}:${route.name}`,
    core.rateLimits[route.name],
    core.clock.now(),
  )
  if (!limit.ok) {
    return sendJson(res, 429, flat(`Rate limit exceeded for ${route.name}`), {
      'Retry-After': String(limit.retryAfterSeconds),
    })
  }
  const xAsync = req.headers['x-async']
  if (typeof xAsync === 'string' && xAsync.trim().toLowerCase() === 'true') {
    return sendJson(res, 400, envelope('Asynchronous requests are not supported: remove X-Async'))
  }
  if (core.maintenance) {
    return sendJson(res, 503, envelope('Service under maintenance; nothing was done. Retry later.'), {
      'Retry-After': String(MAINTENANCE_RETRY_AFTER_SECONDS),
    })
  }
  // The body is read before any fault acts: a slow server has the request in hand, so the operation still runs
  // after the delay even when the client has given up (the case that makes an outcome unknown).
  const body = req.method === 'POST' ? await readBody(req, OP_BODY_MAX_BYTES) : null
  const fault = core.faults.take(route.name)
  if (await applyPreFault(fault, req, res, false)) return

  let params: Params
  if (body) {
    if (body.tooLarge) return sendJson(res, 413, envelope(`Request body exceeds ${OP_BODY_MAX_BYTES} bytes`))
    try {
      const v: unknown = body.text.trim() === '' ? {} : JSON.parse(body.text)
      if (typeof v !== 'object' || v === null || Array.isArray(v)) {
        return sendJson(res, 400, envelope('Request body must be a JSON object'))
      }
      params = v as Params
    } catch {
      return sendJson(res, 400, envelope('Malformed JSON body'))
    }
  } else {
    params = queryParams(query)
  }

  let status = 200
  let out: unknown
  try {
    out = { response: route.run(core, params, claims), async: false }
  } catch (e) {
    if (!(e instanceof OpError)) throw e
    status = e.status
    out = e.body()
  }
  if (fault?.kind === 'timeout_after_create') {
    // The operation ran; only the answer is lost — the "outcome unknown" case of docs/API-CONTRACT.md#s7-2.
    return sendJson(
      res,
      503,
      envelope('Upstream timeout: the operation may have been carried out; check its status'),
    )
  }
  if (fault?.kind === 'malformed_json') return sendRaw(res, status, truncate(JSON.stringify(out)))
  sendJson(res, status, out)
}

async function authEndpoint(
  core: SandboxCore,
  req: IncomingMessage,
  res: ServerResponse,
  handler: AuthHandler,
  isLogout: boolean,
): Promise<void> {
  const body = await readBody(req, AUTH_BODY_MAX_BYTES)
  if (core.maintenance && !isLogout) {
    return sendJson(
      res,
      503,
      { error: 'temporarily_unavailable', errorMessage: 'Service under maintenance' },
      {
        'Retry-After': String(MAINTENANCE_RETRY_AFTER_SECONDS),
      },
    )
  }
  const fault = core.faults.take('auth')
  if (await applyPreFault(fault, req, res, true)) return
  const raw: RawBody = { contentType: req.headers['content-type'], text: body.text, tooLarge: body.tooLarge }
  let reply: AuthReply
  let headers: Record<string, string> | undefined
  try {
    reply = handler(core, raw, req.socket.remoteAddress ?? 'unknown')
  } catch (e) {
    if (!(e instanceof AuthError)) throw e
    reply = { status: e.status, body: e.body() }
    headers = e.headers
  }
  if (fault?.kind === 'timeout_after_create') {
    return sendJson(res, 503, { error: 'temporarily_unavailable', errorMessage: 'Upstream timeout' })
  }
  if (reply.body === undefined) return sendEmpty(res, reply.status)
  if (fault?.kind === 'malformed_json') {
    return sendRaw(res, reply.status, truncate(JSON.stringify(reply.body)))
  }
  sendJson(res, reply.status, reply.body, headers)
}

/** Faults that act before the operation. Returns true when the request has been answered (or dropped). */
async function applyPreFault(
  fault: Fault | undefined,
  req: IncomingMessage,
  res: ServerResponse,
  isAuth: boolean,
): Promise<boolean> {
  if (fault === undefined) return false
  switch (fault.kind) {
    case 'slow':
      // The operation still runs after the delay even if the client gave up, as on a slow real server.
      await sleep(fault.delayMs)
      return false
    case 'reset':
      req.socket.destroy()
      return true
    case 'status':
      sendJson(
        res,
        fault.status,
        faultBody(fault.status, isAuth),
        fault.status === 429 ? { 'Retry-After': '1' } : {},
      )
      return true
    case 'refusal': {
      const status = fault.status ?? 520
      const errorMessage =
        fault.errorMessage ?? `Injected refusal (${fault.messageCode ?? fault.denialCode ?? status})`
      if (isAuth) {
        sendJson(res, status, { error: AUTH_CODES[status] ?? 'server_error', errorMessage })
        return true
      }
      const response: Record<string, unknown> = { errorMessage }
      if (fault.messageCode !== undefined) response.messageCode = fault.messageCode
      if (fault.denialCode !== undefined) response.denialCode = fault.denialCode
      sendJson(res, status, { response, async: false })
      return true
    }
    default:
      return false
  }
}

const AUTH_CODES: Readonly<Record<number, string>> = {
  400: 'invalid_request',
  401: 'invalid_client',
  409: 'too_many_clients',
  415: 'invalid_request',
  429: 'rate_limited',
  503: 'temporarily_unavailable',
}

function faultBody(status: number, isAuth: boolean): unknown {
  const message = `Injected fault: HTTP ${status}`
  if (isAuth) return { error: AUTH_CODES[status] ?? 'server_error', errorMessage: message }
  return status === 401 || status === 403 || status === 429 ? flat(message) : envelope(message)
}

/** A body cut in the middle of a value: what a proxy dropping the connection mid-stream leaves. */
function truncate(json: string): string {
  return json.slice(0, Math.max(1, Math.floor(json.length / 2)))
}
