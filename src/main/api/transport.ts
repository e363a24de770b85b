/**
 * HTTP for the DePix client: one undici Agent of our own for reads and auth, a connection of its own for every
 * create, no retry anywhere in this layer.
 *
 * undici's `request` never resends by itself: retries only exist in RetryAgent / the `retry` interceptor, which
 * we never compose. On a dropped socket undici fails the in-flight request and only re-dispatches requests that
 * were still queued and never written (client-h1.js, `onHttpSocketClose`). We pass our own dispatchers on every
 * call, so a process-wide `setGlobalDispatcher(new RetryAgent(…))` elsewhere cannot reach our POSTs.
 *
 * Whether a failed request may have reached the service is decided by the phase it failed in (phase.ts), never
 * by the error code: the same EHOSTUNREACH means "nothing sent" during connect and "maybe executed" after write.
 */
import { Agent, Client, type Dispatcher } from 'undici'
import { ApiError, type ApiErrorCode } from './errors'
import { phasedRequest, type RequestPhase } from './phase'

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
 * Normalised once: a trailing `/` would make the service see `//api/…`, which it answers with 404 (docs/API-CONTRACT.md#s1-8).
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
  /**
   * POST /withdraw and /deposit: sent on a new connection of its own, closed after the answer. A kept-alive
   * socket the server is closing at that instant would fail a request it never read, and a create that fails
   * after being written is `outcome_unknown` — an operator chore for nothing.
   */
  ownConnection?: boolean
}

export interface RawResponse {
  status: number
  requestId: string | null
  nonce: string | null
  retryAfter: string | null
  text: string
}

/**
 * A request that produced no complete response. `sent` is false only when the failure happened before undici
 * began writing the request on a socket (DNS, connect, TLS, local refusal): then no byte can have reached the
 * service, whatever the error code says.
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

export class Transport {
  readonly #base: BaseUrl
  readonly #agent: Agent
  readonly #userAgent: string
  readonly #connectTimeoutMs: number
  /** Connections of creates still open; closed with the transport. */
  readonly #own = new Set<Client>()

  constructor(base: BaseUrl, connectTimeoutMs: number, userAgent: string) {
    this.#base = base
    this.#userAgent = userAgent
    this.#connectTimeoutMs = connectTimeoutMs
    this.#agent = new Agent({
      connect: { timeout: connectTimeoutMs },
      maxResponseSize: MAX_RESPONSE_BYTES,
      // Pipelining 1 (the default) keeps a request alone on its socket: a failure can never be blamed on a neighbour.
      pipelining: 1,
    })
  }

  async send(req: RawRequest): Promise<RawResponse> {
    if (!req.ownConnection) return this.#send(req, this.#agent)
    const client = new Client(this.#base.origin, {
      connect: { timeout: this.#connectTimeoutMs },
      maxResponseSize: MAX_RESPONSE_BYTES,
      pipelining: 1,
    })
    this.#own.add(client)
    try {
      return await this.#send(req, client)
    } finally {
      this.#own.delete(client)
      // The answer is read in full: nothing is left to wait for on this connection.
      client.destroy().catch(() => undefined)
    }
  }

  async #send(req: RawRequest, dispatcher: Dispatcher): Promise<RawResponse> {
    const headers: Record<string, string> = { accept: 'application/json', 'user-agent': this.#userAgent }
    if (req.bearer !== undefined) headers.authorization = `Bearer ${req.bearer}`
    if (req.body !== undefined) headers['content-type'] = 'application/json'
    const path = this.#base.basePath + req.path + queryString(req.query)
    const phase: RequestPhase = { written: false }
    let res: Dispatcher.ResponseData
    try {
      res = await phasedRequest(dispatcher, phase, {
        origin: this.#base.origin,
        path,
        method: req.method,
        headers,
        body: req.body ?? null,
        headersTimeout: req.headersTimeoutMs,
        bodyTimeout: req.bodyTimeoutMs,
        // Explicit, although undici already treats POST as non-idempotent: never pipeline or replay a POST.
        idempotent: req.method === 'GET',
        // `connection: close`: the service need not keep the socket of a create either.
        reset: req.ownConnection === true,
      })
    } catch (e) {
      throw toFailure(e, phase.written, null)
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
      throw toFailure(e, true, meta)
    }
  }

  /** Lets in-flight requests finish for `graceMs`, then cuts them. */
  async close(graceMs = 2_000): Promise<void> {
    let timer: NodeJS.Timeout | undefined
    const cut = new Promise<void>((resolve) => {
      timer = setTimeout(() => {
        const destroying = [this.#agent, ...this.#own].map((d) => d.destroy().catch(() => undefined))
        void Promise.all(destroying).then(() => resolve())
      }, graceMs)
    })
    const closing = [this.#agent, ...this.#own].map((d) => d.close().catch(() => undefined))
    await Promise.race([Promise.all(closing), cut])
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

/** Causes that name what went wrong before anything was written; for support and the operator's message. */
const CONNECT_TIMEOUT_CAUSES = new Set(['UND_ERR_CONNECT_TIMEOUT'])
const LOCAL_CAUSES = new Set(['UND_ERR_INVALID_ARG', 'ERR_INVALID_ARG_TYPE', 'ERR_INVALID_CHAR'])

/**
 * `written` is the phase: false when undici never began writing this request on a socket. Only then is the
 * failure "not sent"; after that, every error (even EHOSTUNREACH or ECONNREFUSED-looking ones) may have followed
 * a request the service read.
 */
function toFailure(
  e: unknown,
  written: boolean,
  response: Omit<RawResponse, 'text'> | null,
): TransportFailure {
  const cause = causeCodeOf(e)
  if (!written && response === null) {
    if (cause !== null && CONNECT_TIMEOUT_CAUSES.has(cause))
      return new TransportFailure('connect_timeout', false, cause)
    if (cause !== null && LOCAL_CAUSES.has(cause))
      return new TransportFailure('invalid_request', false, cause)
    if (cause === 'UND_ERR_CLOSED' || cause === 'UND_ERR_DESTROYED') {
      return new TransportFailure('client_closed', false, cause)
    }
    return new TransportFailure('connect_failed', false, cause)
  }
  if (cause === 'UND_ERR_HEADERS_TIMEOUT' || cause === 'UND_ERR_BODY_TIMEOUT') {
    return new TransportFailure('timeout', true, cause, response)
  }
  if (cause === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') {
    return new TransportFailure('response_too_large', true, cause, response)
  }
  // Anything else (reset, socket closed, destroyed agent, unreachable, unknown) may have reached the service.
  return new TransportFailure('connection_lost', true, cause, response)
}
