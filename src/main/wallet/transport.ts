/**
 * The only way LWK reaches the network (installed by src/main/wallet/lwk.ts in place of the wasm glue's fetch).
 * Per scan: requests only under the profile's Esplora URL (no redirects), a request budget, a timeout per request,
 * a cap on every body, and 429/503 turned into 502 — LWK's wasm retry for those sleeps through
 * `window.setTimeout`, which would crash under Node; a refused scan is retried by the schedule instead.
 * The first failure's kind is kept so the wallet can say why a scan failed without reading error text.
 */

export type TransportFailure = 'unreachable' | 'timeout' | 'too_large' | 'budget' | 'foreign_url'

export class TransportError extends Error {
  constructor(readonly kind: TransportFailure) {
    super(`chain request refused: ${kind}`)
    this.name = 'TransportError'
  }
}

export interface TransportLimits {
  /** requests per scan; a first scan of a busy wallet needs about 2 per 20 addresses plus one per transaction */
  readonly maxRequests: number
  readonly timeoutMs: number
  /** the largest body accepted (a raw transaction with many blinded outputs is a few hundred kB) */
  readonly maxBodyBytes: number
}

export const DEFAULT_TRANSPORT_LIMITS: TransportLimits = {
  maxRequests: 50_000,
  timeoutMs: 15_000,
  maxBodyBytes: 4 * 1024 * 1024,
}

/** One scan's transport: counts its requests and remembers its first failure. */
export class ScanTransport {
  requests = 0
  failure: TransportFailure | null = null
  private readonly base: string

  constructor(
    baseUrl: string,
    private readonly limits: TransportLimits,
  ) {
    this.base = baseUrl.replace(/\/+$/, '') + '/'
  }

  readonly fetch = async (request: Request): Promise<Response> => {
    try {
      return await this.send(request)
    } catch (e) {
      const kind = e instanceof TransportError ? e.kind : 'unreachable'
      this.failure ??= kind
      throw e instanceof TransportError ? e : new TransportError(kind)
    }
  }

  private async send(request: Request): Promise<Response> {
    if (!request.url.startsWith(this.base)) throw new TransportError('foreign_url')
    this.requests += 1
    if (this.requests > this.limits.maxRequests) throw new TransportError('budget')
    const signal = AbortSignal.timeout(this.limits.timeoutMs)
    let response: Response
    try {
      response = await fetch(request.url, {
        method: request.method,
        body: request.method === 'POST' ? await request.text() : undefined,
        headers: { 'content-type': request.headers.get('content-type') ?? 'text/plain' },
        redirect: 'error',
        signal,
      })
    } catch {
      throw new TransportError(signal.aborted ? 'timeout' : 'unreachable')
    }
    const declared = Number(response.headers.get('content-length') ?? '0')
    if (declared > this.limits.maxBodyBytes) {
      await response.body?.cancel().catch(() => undefined)
      throw new TransportError('too_large')
    }
    const body = await this.readCapped(response, signal)
    const status = response.status === 429 || response.status === 503 ? 502 : response.status
    const out = new Response(body, {
      status,
      headers: { 'content-type': response.headers.get('content-type') ?? '' },
    })
    // reqwest (inside LWK) parses `response.url`, which a constructed Response leaves empty: it would throw.
    Object.defineProperty(out, 'url', { value: request.url })
    return out
  }

  private async readCapped(response: Response, signal: AbortSignal): Promise<Uint8Array<ArrayBuffer>> {
    const reader = response.body?.getReader()
    if (!reader) return new Uint8Array(0)
    const chunks: Uint8Array[] = []
    let size = 0
    try {
      for (;;) {
        const { done, value } = await reader.read()
        if (done) break
        size += value.byteLength
        if (size > this.limits.maxBodyBytes) {
          await reader.cancel().catch(() => undefined)
          throw new TransportError('too_large')
        }
        chunks.push(value)
      }
    } catch (e) {
      if (e instanceof TransportError) throw e
      throw new TransportError(signal.aborted ? 'timeout' : 'unreachable')
    }
    const out = new Uint8Array(size)
    let at = 0
    for (const c of chunks) {
      out.set(c, at)
      at += c.byteLength
    }
    return out
  }
}
