/**
 * The control surface over HTTP, under `{baseUrl}/_sandbox/…` (docs/SANDBOX.md). Not part of the DePix API:
 * never counted in `requestCounts`, never rate limited, never faulted. Bodies are JSON; errors are flat
 * `{ error, errorMessage }`.
 *
 * These switches mint credentials and move money in the simulation, and a web page in the user's browser can reach
 * loopback. So every request must come from loopback, name exactly our authority in `Host` (no DNS rebinding),
 * carry no `Origin` (browsers send one on every cross-site POST; curl and scripts do not), and carry the per-run
 * token as `Authorization: Bearer` (a header no page can add without a CORS preflight, which we never grant).
 */
import { createHash, timingSafeEqual } from 'node:crypto'
import type { IncomingMessage, ServerResponse } from 'node:http'
import { ControlError, badInput } from './errors'
import { isLoopback, readBody, sendEmpty, sendJson } from './http'
import { queryParams } from './params'
import type { SandboxCore } from './state'
import type { Fault, PayoutOutcome, SandboxControl } from './types'

type Json = Record<string, unknown>
/** `undefined` answers 204. */
type Handler = (body: Json, id: string, query: string) => unknown

const CONTROL_BODY_MAX = 64 * 1024

function str(body: Json, key: string): string | undefined {
  const v = body[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw badInput(`${key} must be a string`)
  return v
}

function num(body: Json, key: string): number | undefined {
  const v = body[key]
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number') throw badInput(`${key} must be a number`)
  return v
}

function routes(control: SandboxControl, core: SandboxCore): Map<string, Handler> {
  const r = new Map<string, Handler>()
  r.set('GET /', () => ({ routes: [...r.keys()] }))
  r.set('POST /credentials', (b) =>
    control.createCredential({ label: str(b, 'label'), scopes: b.scopes as string[] | undefined }),
  )
  r.set('POST /credentials/:id/revoke', (_b, id) => control.revokeCredential(id))
  r.set('POST /legacy-token', (b) => ({
    token: control.mintLegacyToken({ expiresInSeconds: num(b, 'expiresInSeconds') }),
  }))
  r.set('POST /withdrawals/seed', (b) => {
    const ids = control.seedWithdrawals(num(b, 'count') ?? 1, {
      payoutAmountInCents: num(b, 'payoutAmountInCents'),
    })
    return { count: ids.length, ids }
  })
  r.set('POST /withdrawals/:id/fund', (b, id) =>
    control.fundWithdrawal(id, num(b, 'amountInCents') ?? Number.NaN),
  )
  r.set('POST /withdrawals/:id/settle', (b, id) =>
    control.settlePayout(id, str(b, 'outcome') as PayoutOutcome),
  )
  r.set('POST /withdrawals/:id/cancel', (_b, id) => control.cancelWithdrawal(id))
  r.set('POST /deposits/:id/pay', (b, id) =>
    control.payDeposit(id, { payerName: str(b, 'payerName'), payerTaxNumber: str(b, 'payerTaxNumber') }),
  )
  r.set('POST /deposits/:id/med', (_b, id) => control.fileMed(id))
  r.set('POST /maintenance', (b) => control.setMaintenance(b.on as boolean))
  r.set('POST /faults', (b) => control.injectFault(b as unknown as Fault))
  r.set('POST /faults/clear', () => control.clearFaults())
  r.set('GET /clock', () => ({ now: control.now(), iso: new Date(control.now()).toISOString() }))
  r.set('POST /clock/advance', (b) => {
    control.advanceClock(num(b, 'seconds') ?? Number.NaN)
    return { now: control.now(), iso: new Date(control.now()).toISOString() }
  })
  r.set('POST /block-user', (b) =>
    control.blockUser({ taxNumber: str(b, 'taxNumber'), euid: str(b, 'euid') }),
  )
  r.set('POST /compliance-block', (b) => control.complianceBlock(str(b, 'taxNumber') ?? ''))
  r.set('POST /end-users', (b) =>
    control.registerEndUser({
      euid: str(b, 'euid') ?? '',
      taxNumber: str(b, 'taxNumber') ?? '',
      name: str(b, 'name'),
      maxDailyInCents: num(b, 'maxDailyInCents'),
    }),
  )
  r.set('POST /rate-limits', (b) => control.setRateLimits(b))
  r.set('POST /options', (b) => control.setOptions(b))
  r.set('GET /state', (_b, _id, query) => {
    const q = queryParams(query)
    const int = (k: string): number | undefined => (q[k] === undefined ? undefined : Number(q[k]))
    return control.state({ offset: int('offset'), limit: int('limit') })
  })
  r.set('GET /summary', () => control.summary())
  r.set('GET /request-counts', () => control.requestCounts())
  r.set('POST /request-counts/reset', () => control.resetRequestCounts())
  r.set('GET /jwks', () => core.tokens.jwks())
  return r
}

const cache = new WeakMap<SandboxCore, Map<string, Handler>>()

/** `/withdrawals/abc/fund` → `/withdrawals/:id/fund` + 'abc'; only the second segment is ever an id. */
function match(
  table: Map<string, Handler>,
  method: string,
  sub: string,
): { h: Handler; id: string } | undefined {
  const path = sub === '' ? '/' : sub
  const exact = table.get(`${method} ${path}`)
  if (exact !== undefined) return { h: exact, id: '' }
  const parts = path.split('/')
  if (parts.length !== 4 || parts[2] === '') return undefined
  const h = table.get(`${method} /${parts[1]}/:id/${parts[3]}`)
  return h === undefined ? undefined : { h, id: decodeURIComponent(parts[2] as string) }
}

/** Who may drive the control surface over HTTP; `authority` is filled in once the server listens. */
export interface ControlAccess {
  /** `127.0.0.1:PORT`: the only `Host` accepted. */
  authority: string
  /** The per-run secret; empty turns the HTTP control surface off (every request answers 404). */
  token: string
}

const digest = (s: string): Buffer => createHash('sha256').update(s, 'utf8').digest()

/** Constant-time: hashing first gives equal lengths, so the comparison leaks neither length nor prefix. */
function tokenMatches(header: string | undefined, token: string): boolean {
  if (header === undefined || !/^bearer /i.test(header)) return false
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token))
}

/** Why the request may not drive the sandbox, or null when it may. */
function refusal(req: IncomingMessage, access: ControlAccess): { status: number; message: string } | null {
  if (!isLoopback(req.socket.remoteAddress)) {
    return { status: 403, message: 'The control surface answers loopback only' }
  }
  if (req.headers.origin !== undefined) {
    return { status: 403, message: 'The control surface refuses requests from web pages (Origin present)' }
  }
  if (req.headers.host !== access.authority) {
    return { status: 403, message: `The control surface answers Host ${access.authority} only` }
  }
  if (!tokenMatches(req.headers.authorization, access.token)) {
    return { status: 401, message: 'Missing or wrong control token (Authorization: Bearer <controlToken>)' }
  }
  return null
}

/** A body must say it is JSON: a form or text/plain POST (what a page can send without preflight) is refused. */
function isJsonType(value: string | undefined): boolean {
  return value !== undefined && /^application\/json\s*(;|$)/i.test(value.trim())
}

export async function handleControl(
  core: SandboxCore,
  control: SandboxControl,
  access: ControlAccess,
  req: IncomingMessage,
  res: ServerResponse,
  method: string,
  sub: string,
  query: string,
): Promise<void> {
  if (access.token === '') {
    return sendJson(res, 404, { error: 'not_found', errorMessage: 'No HTTP control surface on this sandbox' })
  }
  const refused = refusal(req, access)
  if (refused !== null) {
    return sendJson(res, refused.status, {
      error: refused.status === 401 ? 'unauthorized' : 'forbidden',
      errorMessage: refused.message,
    })
  }
  let table = cache.get(core)
  if (table === undefined) {
    table = routes(control, core)
    cache.set(core, table)
  }
  const m = match(table, method, sub)
  if (m === undefined) {
    return sendJson(res, 404, { error: 'not_found', errorMessage: `No control route ${method} ${sub}` })
  }
  let body: Json = {}
  if (method === 'POST') {
    const raw = await readBody(req, CONTROL_BODY_MAX)
    if (raw.tooLarge) return sendJson(res, 413, { error: 'bad_input', errorMessage: 'Body too large' })
    if (raw.text !== '' && !isJsonType(req.headers['content-type'])) {
      return sendJson(res, 415, {
        error: 'bad_input',
        errorMessage: 'Control bodies must be sent as Content-Type: application/json',
      })
    }
    if (raw.text.trim() !== '') {
      try {
        const v: unknown = JSON.parse(raw.text)
        if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new Error('not an object')
        body = v as Json
      } catch {
        return sendJson(res, 400, { error: 'bad_input', errorMessage: 'Body must be a JSON object' })
      }
    }
  }
  try {
    const out = await m.h(body, m.id, query)
    if (out === undefined) return sendEmpty(res, 204)
    sendJson(res, method === 'POST' && sub === '/credentials' ? 201 : 200, out)
  } catch (e) {
    if (e instanceof ControlError) return sendJson(res, e.status, { error: e.code, errorMessage: e.message })
    sendJson(res, 500, { error: 'server_error', errorMessage: (e as Error).message })
  }
}
