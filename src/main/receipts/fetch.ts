/**
 * Fetching one receipt, in main only, with undici: the URL comes from the service (hostile until checked).
 * https only — plus, for the Sandbox profile, the embedded sandbox's own loopback origin, named exactly.
 * No redirects at all (a receipt host that redirects is refused: following one would let it point us anywhere,
 * loopback included), no cookies (undici keeps none), a short overall timeout, a size cap enforced while
 * reading, and a type check on both the declared Content-Type and the bytes themselves.
 */
import { request } from 'undici'
import { RECEIPT_MAX_BYTES, type ReceiptMediaType } from '../ledger/model/receipts'

export { RECEIPT_MAX_BYTES, type ReceiptMediaType }
export const RECEIPT_TIMEOUT_MS = 15_000

export type ReceiptFetchErrorCode =
  | 'url_refused'
  | 'network'
  | 'timeout'
  | 'http_status'
  | 'redirect'
  | 'too_large'
  | 'type_refused'
  | 'content_mismatch'

/** `code` is what the ledger keeps as the last error; `detail` never carries the URL's query (it may hold a token). */
export class ReceiptFetchError extends Error {
  constructor(
    readonly code: ReceiptFetchErrorCode,
    detail: string,
  ) {
    super(`${code}: ${detail}`)
  }
}

export interface FetchOptions {
  /** The exact origin (`http://127.0.0.1:port`) that may be fetched over plain http: the embedded sandbox's. */
  loopbackOrigin?: string | null
  timeoutMs?: number
  maxBytes?: number
}

/** Throws url_refused unless the URL is https (no credentials in it) or exactly the allowed loopback origin. */
export function checkReceiptUrl(raw: string, loopbackOrigin: string | null = null): URL {
  let u: URL
  try {
    u = new URL(raw)
  } catch {
    throw new ReceiptFetchError('url_refused', 'not a URL')
  }
  if (u.username !== '' || u.password !== '') throw new ReceiptFetchError('url_refused', 'credentials in URL')
  if (u.protocol === 'https:') return u
  if (loopbackOrigin !== null && u.protocol === 'http:' && u.origin === loopbackOrigin) return u
  throw new ReceiptFetchError('url_refused', `scheme ${u.protocol} not allowed`)
}

/** The media type named by the header (parameters dropped) if it is one we keep. */
export function declaredType(header: string | string[] | undefined): ReceiptMediaType | null {
  const v = (Array.isArray(header) ? header[0] : header)?.split(';')[0]?.trim().toLowerCase()
  return v === 'application/pdf' || v === 'text/html' ? v : null
}

/** The bytes must be what the header says: `%PDF-` at the start, or markup that opens like an HTML document. */
export function bytesMatch(bytes: Uint8Array, type: ReceiptMediaType): boolean {
  if (type === 'application/pdf') return Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-'
  const head = Buffer.from(bytes.subarray(0, 512))
    .toString('utf8')
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase()
  return head.startsWith('<!doctype html') || head.startsWith('<html') || head.startsWith('<!--')
}

export async function fetchReceipt(
  raw: string,
  o: FetchOptions = {},
): Promise<{ bytes: Buffer; mediaType: ReceiptMediaType }> {
  const url = checkReceiptUrl(raw, o.loopbackOrigin ?? null)
  const max = o.maxBytes ?? RECEIPT_MAX_BYTES
  // Our own controller, cleared at the end: a timeout signal left armed would abort a finished request later.
  const controller = new AbortController()
  const timer = setTimeout(() => controller.abort(), o.timeoutMs ?? RECEIPT_TIMEOUT_MS)
  try {
    return await fetchChecked(url, controller.signal, max)
  } finally {
    clearTimeout(timer)
  }
}

async function fetchChecked(
  url: URL,
  signal: AbortSignal,
  max: number,
): Promise<{ bytes: Buffer; mediaType: ReceiptMediaType }> {
  let res: Awaited<ReturnType<typeof request>>
  try {
    // undici's request() never follows a redirect unless a redirect interceptor is added: a 3xx comes back as is.
    res = await request(url, {
      method: 'GET',
      signal,
      headers: { accept: 'application/pdf, text/html;q=0.9' },
    })
  } catch (e) {
    throw signal.aborted
      ? new ReceiptFetchError('timeout', 'no answer in time')
      : new ReceiptFetchError('network', e instanceof Error ? e.name : 'error')
  }
  // Read and discarded (bounded), so the connection ends cleanly instead of erroring later.
  const drop = (): void => {
    void res.body.dump({ limit: 64 * 1024 }).catch(() => undefined)
  }
  if (res.statusCode >= 300 && res.statusCode < 400) {
    drop()
    throw new ReceiptFetchError('redirect', `HTTP ${res.statusCode}`)
  }
  if (res.statusCode !== 200) {
    drop()
    throw new ReceiptFetchError('http_status', `HTTP ${res.statusCode}`)
  }
  const type = declaredType(res.headers['content-type'])
  if (type === null) {
    drop()
    throw new ReceiptFetchError('type_refused', 'Content-Type not PDF or HTML')
  }
  const declared = Number(res.headers['content-length'])
  if (Number.isFinite(declared) && declared > max) {
    drop()
    throw new ReceiptFetchError('too_large', `declared ${declared} bytes`)
  }
  const chunks: Buffer[] = []
  let size = 0
  try {
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length
      if (size > max) {
        res.body.destroy()
        throw new ReceiptFetchError('too_large', `over ${max} bytes`)
      }
      chunks.push(chunk as Buffer)
    }
  } catch (e) {
    if (e instanceof ReceiptFetchError) throw e
    throw signal.aborted
      ? new ReceiptFetchError('timeout', 'body not received in time')
      : new ReceiptFetchError('network', 'body cut')
  }
  const bytes = Buffer.concat(chunks)
  if (bytes.length === 0 || !bytesMatch(bytes, type)) {
    throw new ReceiptFetchError('content_mismatch', `bytes are not ${type}`)
  }
  return { bytes, mediaType: type }
}
