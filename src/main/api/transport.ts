/**
 * HTTP for the DePix client: one undici Agent of our own, no retry anywhere in this layer.
 *
 * undici's `request` never resends by itself: retries only exist in RetryAgent / the `retry` interceptor, which
 * we never compose. On a dropped socket undici fails the in-flight request and only re-dispatches requests that
 * were still queued and never written (client-h1.js, `onHttpSocketClose`). We pass our own Agent on every call,
 * so a process-wide `setGlobalDispatcher(new RetryAgent(…))` elsewhere cannot reach our POSTs.
 */
import { Agent } from 'undici'
import { ApiError, type ApiErrorCode } from './errors'

export interface Timeouts {
  /** TCP (and TLS) connection establishment. */
  connectMs: number
  /** Until response headers arrive, for reads and authentication. */
  headersMs: number
  /** Until response headers arrive, for POST /withdraw and /deposit: the service holds the connection until done. */
  createHeadersMs: number
  /** Maximum silence between body chunks. */
  bodyMs: number
}

export const DEFAULT_TIMEOUTS: Readonly<Timeouts> = {
  connectMs: 10_000,
  headersMs: 30_000,
  createHeadersMs: 60_000,
  bodyMs: 30_000,
}

/** Bodies of this API are small; anything larger is a broken or hostile peer. */
const MAX_RESPONSE_BYTES = 4 * 1024 * 1024

export interface BaseUrl {
  readonly origin: string
  /** Path prefix of the base URL with every trailing `/` removed ('' for a bare origin). */
  readonly basePath: string
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1'])

/**
 * Normalised once: a trailing `/` would make the service see `//api/…`, which it answers with 404 (spec §1.8).
 * Plain http is refused except on loopback (the embedded sandbox), because bearer tokens and the client secret
 * travel on every request.
 */
export function normalizeBaseUrl(raw: string): BaseUrl {
  let url: URL
  try {
    url = new URL(raw.trim())
  } catch {
    throw new ApiError({ kind: 'bad_request', code: 'invalid_base_url' })
  }
  const insecure = url.protocol === 'http:' && !LOOPBACK.has(url.hostname)
  if (
    (url.protocol !== 'https:' && url.protocol !== 'http:') ||
    insecure ||
    url.username !== '' ||
    url.password !== '' ||
    url.search !== '' ||
    url.hash !== ''
  ) {
    throw new ApiError({ kind: 'bad_request', code: 'invalid_base_url' })
  }
  return { origin: url.origin, basePath: url.pathname.replace(/\/+$/, '') }
}

export interface RawRequest {
  method: 'GET' | 'POST'
  /** Absolute path under the base, e.g. `/api/withdraw-status`; built only by endpoints.ts and auth-session.ts. */
  path: string
  query?: Readonly<Record<string, string>>
  /** JSON text; its presence sets Content-Type. */
  body?: string
  bearer?: string
  headersTimeoutMs: number
  bodyTimeoutMs: number
}

export interface RawResponse {
  status: number
  requestId: string | null
  nonce: string | null
  retryAfter: string | null
  text: string
}

/**
 * A request that produced no complete response. `sent` is false only when the failure provably happened before
 * any byte of the request could reach the service (connection refused, DNS, connect timeout, local refusal).
 */
export class TransportFailure extends Error {
  override readonly name = 'TransportFailure'
  constructor(
    readonly code: ApiErrorCode,
    readonly sent: boolean,
    readonly causeCode: string | null,
    /** Set when headers arrived and the body then failed. */
    readonly response: Omit<RawResponse, 'text'> | null = null,
  ) {
    super(code)
  }
}

const NOT_SENT_CAUSES = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EAI_FAIL',
  'EAI_NONAME',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EADDRNOTAVAIL',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'CERT_HAS_EXPIRED',
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
])

export class Transport {
  readonly #base: BaseUrl
  readonly #agent: Agent
  readonly #userAgent: string

  constructor(base: BaseUrl, connectTimeoutMs: number, userAgent: string) {
    this.#base = base
    this.#userAgent = userAgent
    this.#agent = new Agent({
      connect: { timeout: connectTimeoutMs },
      maxResponseSize: MAX_RESPONSE_BYTES,
      // Pipelining 1 (the default) keeps a POST alone on its socket: a failure can never be blamed on a neighbour.
      pipelining: 1,
    })
  }

  async send(req: RawRequest): Promise<RawResponse> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#userAgent }
    if (req.bearer !== undefined) headers.authorization = `Bearer ${req.bearer}`
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    const path = this.#base.basePath + req.path + queryString(req.query)
    let res: Awaited<ReturnType<Agent['request']>>
    try {
      res = await this.#agent.request({
        origin: this.#base.origin,
        path,
        method: req.method,
        headers,
        body: req.body ?? null,
        headersTimeout: req.headersTimeoutMs,
        bodyTimeout: req.bodyTimeoutMs,
        // Explicit, although undici already treats POST as non-idempotent: never pipeline or replay a POST.
        idempotent: req.method === 'GET',
      })
    } catch (e) {
      throw toFailure(e, null)
    }
    const meta = {
      status: res.statusCode,
      requestId: header(res.headers['x-request-id']),
      nonce: header(res.headers['x-nonce']),
      retryAfter: header(res.headers['retry-after']),
    }
    try {
      return { ...meta, text: await res.body.text() }
    } catch (e) {
      throw toFailure(e, meta)
    }
  }

  /** Lets in-flight requests finish for `graceMs`, then cuts them. */
  async close(graceMs = 2_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const cut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        this.#agent.destroy().then(resolve, resolve)
      }, graceMs)
    })
    await Promise.race([this.#agent.close().catch(() => undefined), cut])
    clearTimeout(timer)
  }
}

/** encodeURIComponent is exact for query values and several times cheaper than URLSearchParams on the hot path. */
function queryString(query: Readonly<Record<string, string>> | undefined): string {
  if (!query) return ''
  let out = ''
  for (const key in query) {
    out += `${out === '' ? '?' : '&'}${encodeURIComponent(key)}=${encodeURIComponent(query[key] as string)}`
  }
  return out
}

function header(value: string | string[] | undefined): string | null {
  const first = Array.isArray(value) ? value[0] : value
  return first === undefined || first === '' ? null : first
}

function causeCodeOf(e: unknown): string | null {
  if (typeof e !== 'object' || e === null) return null
  const direct = (e as { code?: unknown }).code
  if (typeof direct === 'string') return direct
  // Happy-eyeballs connection attempts surface as an AggregateError of per-address errors.
  const inner = (e as { errors?: unknown }).errors
  if (Array.isArray(inner) && inner.length > 0) return causeCodeOf(inner[0])
  const cause = (e as { cause?: unknown }).cause
  return cause !== undefined && cause !== e ? causeCodeOf(cause) : null
}

function toFailure(e: unknown, response: Omit<RawResponse, 'text'> | null): TransportFailure {
  const cause = causeCodeOf(e)
  if (response === null) {
    if (cause !== null && NOT_SENT_CAUSES.has(cause))
      return new TransportFailure('connect_failed', false, cause)
    if (cause === 'UND_ERR_CONNECT_TIMEOUT') return new TransportFailure('connect_timeout', false, cause)
    if (cause === 'UND_ERR_INVALID_ARG' || cause === 'ERR_INVALID_ARG_TYPE' || cause === 'ERR_INVALID_CHAR') {
      return new TransportFailure('invalid_request', false, cause)
    }
    if (cause === 'UND_ERR_CLOSED') return new TransportFailure('client_closed', false, cause)
  }
  if (cause === 'UND_ERR_HEADERS_TIMEOUT' || cause === 'UND_ERR_BODY_TIMEOUT') {
    return new TransportFailure('timeout', true, cause, response)
  }
  if (cause === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new TransportFailure('response_too_large', true, cause, response)
  }
  // Anything else (reset, socket closed, destroyed agent, unknown) may have reached the service.
  return new TransportFailure('connection_lost', true, cause, response)
}
