/**
 * The PIN-server relay of "Assinar com a Jade (USB)" (src/main/wallet/pay/pin-server.ts): which URLs main will
 * post a Jade's handshake to (Blockstream's PIN servers, nothing else), and the POST itself against a local server.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  isJsonObject,
  JADE_PIN_SERVER_ORIGINS,
  PIN_SERVER_BODY_MAX,
  pinServerUrl,
  postToPinServer,
} from '../../../../src/main/wallet/pay/pin-server'

describe('which PIN server a handshake may go to', () => {
  it("Blockstream's, as Jade firmware names them (current j8d.io and the older jadepin)", () => {
    expect(JADE_PIN_SERVER_ORIGINS).toEqual(['https://j8d.io', 'https://jadepin.blockstream.com'])
    expect(pinServerUrl('https://j8d.io/start_handshake')).toBe('https://j8d.io/start_handshake')
    expect(pinServerUrl('https://jadepin.blockstream.com/get_pin')).toBe(
      'https://jadepin.blockstream.com/get_pin',
    )
    expect(pinServerUrl('https://J8D.IO/set_pin')).toBe('https://j8d.io/set_pin')
  })

  it('nothing else: plain http, the onion, look-alikes, other ports, credentials, queries, odd paths', () => {
    for (const url of [
      'http://j8d.io/start_handshake',
      'http://mrrxtq6tjpbnbm7vh5jt6mpjctn7ggyfy5wegvbeff3x7jrznqawlmid.onion/start_handshake',
      'https://j8d.io.evil.example/start_handshake',
      'https://evil.example/j8d.io/start_handshake',
      'https://jadepin.blockstream.com.evil.example/get_pin',
      'https://j8d.io:8443/start_handshake',
      'https://user:pw@j8d.io/start_handshake',
      'https://j8d.io/start_handshake?x=1',
      'https://j8d.io/start_handshake#x',
      'https://j8d.io/',
      'https://127.0.0.1/start_handshake',
      'file:///etc/passwd',
      'not a url',
      '',
    ]) {
      expect(pinServerUrl(url), url).toBeNull()
    }
  })

  it('the body must be a JSON object, as every handshake message is', () => {
    expect(isJsonObject('{"ske":"02ab","cke":"03cd"}')).toBe(true)
    for (const body of ['', '[]', 'null', '"x"', '12', '{', 'PIN 1234'])
      expect(isJsonObject(body)).toBe(false)
  })
})

describe('the POST', () => {
  let server: Server
  let base: string
  const seen: Array<{ method?: string; type?: string; body: string }> = []
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = ''
      req.on('data', (c: Buffer) => (body += c.toString()))
      req.on('end', () => {
        seen.push({ method: req.method, type: req.headers['content-type'], body })
        if (req.url === '/redirect') {
          res.writeHead(302, { Location: '/elsewhere' }).end()
        } else if (req.url === '/huge') {
          res.writeHead(200).end('x'.repeat(PIN_SERVER_BODY_MAX + 1))
        } else {
          res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ske":"02ab"}')
        }
      })
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })
  afterAll(() => new Promise<void>((r) => server.close(() => r())))

  it('posts the JSON as is and hands back status and text', async () => {
    expect(await postToPinServer(`${base}/start_handshake`, '{"cke":"03cd"}')).toEqual({
      status: 200,
      body: '{"ske":"02ab"}',
    })
    expect(seen.at(-1)).toEqual({ method: 'POST', type: 'application/json', body: '{"cke":"03cd"}' })
  })

  it('follows no redirect and takes no oversized answer', async () => {
    await expect(postToPinServer(`${base}/redirect`, '{}')).rejects.toThrow()
    await expect(postToPinServer(`${base}/huge`, '{}')).rejects.toThrow('too large')
  })
})
