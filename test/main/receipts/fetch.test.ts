/** The receipt fetch against hostile hosts on loopback: every limit refuses, nothing is followed or kept. */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { bytesMatch, checkReceiptUrl, fetchReceipt } from '../../../src/main/receipts/fetch'

let server: Server
let origin = ''
const hits: string[] = []

beforeAll(async () => {
  server = createServer((req, res) => {
    hits.push(req.url ?? '')
    const send = (type: string, body: string | Buffer, status = 200): void => {
      res.writeHead(status, { 'content-type': type })
      res.end(body)
    }
    switch (req.url) {
      case '/ok.html':
        return send('text/html; charset=utf-8', '<!DOCTYPE html><html><body>ok</body></html>')
      case '/ok.pdf':
        return send('application/pdf', Buffer.from('%PDF-1.4\n%%EOF\n', 'latin1'))
      case '/redirect':
        res.writeHead(302, { location: '/ok.html' })
        return res.end()
      case '/json':
        return send('application/json', '{"a":1}')
      case '/fake.pdf':
        return send('application/pdf', '<html>not a pdf</html>')
      case '/script.html':
        return send('text/html', 'MZ\x90\x00 an executable')
      case '/big':
        res.writeHead(200, { 'content-type': 'text/html' })
        res.write('<html>')
        res.end(Buffer.alloc(2048, 0x61))
        return
      case '/cookie':
        res.writeHead(200, { 'content-type': 'text/html', 'set-cookie': 'a=b' })
        return res.end(`<html>${req.headers.cookie ?? 'no-cookie'}</html>`)
      case '/hang':
        return // never answers
      default:
        return send('text/plain', 'nope', 404)
    }
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})
afterAll(async () => {
  server.closeAllConnections()
  await new Promise<void>((r) => server.close(() => r()))
})

const opts = () => ({ loopbackOrigin: origin, timeoutMs: 1_000, maxBytes: 1024 })
const code = async (p: Promise<unknown>): Promise<string> =>
  p.then(
    () => 'ok',
    (e: { code?: string }) => e.code ?? 'thrown',
  )

describe('fetchReceipt', () => {
  it('fetches HTML and PDF from the allowed origin', async () => {
    const h = await fetchReceipt(`${origin}/ok.html`, opts())
    expect(h.mediaType).toBe('text/html')
    expect(h.bytes.toString()).toContain('ok')
    expect((await fetchReceipt(`${origin}/ok.pdf`, opts())).mediaType).toBe('application/pdf')
  })

  it('refuses plain http anywhere but the exact sandbox origin, and odd schemes', async () => {
    expect(await code(fetchReceipt(`${origin}/ok.html`, { ...opts(), loopbackOrigin: null }))).toBe(
      'url_refused',
    )
    expect(
      await code(fetchReceipt(`${origin}/ok.html`, { ...opts(), loopbackOrigin: 'http://127.0.0.1:1' })),
    ).toBe('url_refused')
    for (const u of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'not a url']) {
      expect(() => checkReceiptUrl(u, origin)).toThrow(/url_refused/)
    }
    expect(() => checkReceiptUrl('https://user:pw@example.com/r')).toThrow(/credentials/)
    expect(checkReceiptUrl('https://example.com/r').protocol).toBe('https:')
  })

  it('does not follow redirects', async () => {
    const before = hits.filter((h) => h === '/ok.html').length
    expect(await code(fetchReceipt(`${origin}/redirect`, opts()))).toBe('redirect')
    expect(hits.filter((h) => h === '/ok.html').length).toBe(before)
  })

  it('refuses other types, bytes that are not what the header says, oversize, errors and silence', async () => {
    expect(await code(fetchReceipt(`${origin}/json`, opts()))).toBe('type_refused')
    expect(await code(fetchReceipt(`${origin}/fake.pdf`, opts()))).toBe('content_mismatch')
    expect(await code(fetchReceipt(`${origin}/script.html`, opts()))).toBe('content_mismatch')
    expect(await code(fetchReceipt(`${origin}/big`, opts()))).toBe('too_large')
    expect(await code(fetchReceipt(`${origin}/missing`, opts()))).toBe('http_status')
    expect(await code(fetchReceipt(`${origin}/hang`, { ...opts(), timeoutMs: 200 }))).toBe('timeout')
  })

  it('sends no cookie, even after one was set', async () => {
    await fetchReceipt(`${origin}/cookie`, opts())
    const again = await fetchReceipt(`${origin}/cookie`, opts())
    expect(again.bytes.toString()).toContain('no-cookie')
  })

  it('bytesMatch checks magic bytes', () => {
    expect(bytesMatch(Buffer.from('%PDF-1.7'), 'application/pdf')).toBe(true)
    expect(bytesMatch(Buffer.from('%PDX-1.7'), 'application/pdf')).toBe(false)
    expect(bytesMatch(Buffer.from('\uFEFF  <HTML>'), 'text/html')).toBe(true)
    expect(bytesMatch(Buffer.from('hello'), 'text/html')).toBe(false)
  })
})
