/** Small node:http helpers shared by the API routes and the control routes. */
import type { IncomingMessage, ServerResponse } from 'node:http'

const JSON_TYPE = 'application/json; charset=utf-8'
/** Beyond this the upload is cut off rather than drained (a loopback sandbox, not a fortress). */
const HARD_BODY_CAP = 8 * 1024 * 1024

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers?: Record<string, string>,
): void {
  sendRaw(res, status, JSON.stringify(body), headers)
}

export function sendRaw(
  res: ServerResponse,
  status: number,
  text: string,
  headers?: Record<string, string>,
): void {
  if (res.headersSent || res.destroyed) return
  res.statusCode = status
  res.setHeader('Content-Type', JSON_TYPE)
  res.setHeader('Content-Length', Buffer.byteLength(text))
  if (headers !== undefined) for (const k in headers) res.setHeader(k, headers[k] as string)
  res.end(text)
}

export function sendEmpty(res: ServerResponse, status: number): void {
  if (res.headersSent || res.destroyed) return
  res.statusCode = status
  res.end()
}

/**
 * Reads the body as UTF-8 up to `limit` bytes. Past the limit the rest is drained and dropped, so the caller
 * can still answer on a healthy keep-alive connection; `tooLarge` tells it to refuse.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<{ text: string; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    req.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > HARD_BODY_CAP) {
        req.destroy()
        return
      }
      if (size > limit) tooLarge = true
      else chunks.push(chunk)
    })
    req.on('end', () => resolve({ text: tooLarge ? '' : Buffer.concat(chunks).toString('utf8'), tooLarge }))
    req.on('error', reject)
    req.on('close', () => {
      if (!req.complete) reject(new Error('request aborted'))
    })
  })
}

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1'])

export function isLoopback(address: string | undefined): boolean {
  return address !== undefined && LOOPBACK.has(address)
}

export const sleep = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms))
