/**
 * The Esplora HTTP subset LWK's `EsploraClient` (lwk_wollet, non-waterfalls mode) calls, over the sandbox chain:
 *
 *   GET  /blocks/tip/hash            tip block hash, text
 *   GET  /blocks/tip/height          tip height, text (not used by LWK; handy for people)
 *   GET  /block-height/:height       block hash at a height, text
 *   GET  /block/:hash/header         serialized Elements header, hex text
 *   GET  /address/:address/txs       [{ txid, status: { confirmed, block_height?, block_hash?, block_time? } }]
 *   GET  /tx/:txid/raw               the transaction, bytes
 *   GET  /tx/:txid/hex               the transaction, hex text
 *   GET  /tx/:txid/status            { confirmed, block_height?, block_hash? }
 *   POST /tx                         body: hex; answers the txid (text) or 400 with the reason
 *
 * LWK reads every address's history in one page, so the whole history is returned (real Esplora pages at 25
 * confirmed + 50 mempool entries, which LWK 0.13 does not follow: a limitation of LWK with busy addresses).
 * `faults` lets tests make it unreachable, slow, or answer garbage or huge bodies.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { address as laddress, networks } from 'liquidjs-lib'
import { readBody } from '../http'
import { ChainError, type SandboxChain } from './chain'

export type EsploraFault =
  | { kind: 'down' }
  | { kind: 'slow'; ms: number }
  | { kind: 'garbage' }
  | { kind: 'huge'; bytes: number }
  | { kind: 'status'; status: number }

const TEXT = 'text/plain; charset=utf-8'
/** A transaction with 200 blinded outputs is ~1 MB of hex; 4 MB refuses anything absurd. */
const TX_BODY_MAX_BYTES = 4 * 1024 * 1024

function send(res: ServerResponse, status: number, body: string | Buffer, type = TEXT): void {
  if (res.headersSent || res.destroyed) return
  res.writeHead(status, { 'Content-Type': type, 'Content-Length': Buffer.byteLength(body) })
  res.end(body)
}

function scriptOf(address: string): string | null {
  try {
    return laddress.toOutputScript(address, networks.regtest).toString('hex')
  } catch {
    return null
  }
}

export async function handleEsplora(
  chain: SandboxChain,
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
): Promise<void> {
  const parts = path.split('/').filter((p) => p !== '')
  const method = req.method ?? 'GET'
  if (method === 'POST' && parts.length === 1 && parts[0] === 'tx') {
    const body = await readBody(req, TX_BODY_MAX_BYTES)
    if (body.tooLarge) return send(res, 413, 'transaction too large')
    const hex = body.text.trim()
    if (!/^(?:[0-9a-fA-F]{2})+$/.test(hex))
      return send(res, 400, 'sendrawtransaction RPC error: TX decode failed')
    try {
      return send(res, 200, chain.submit(hex))
    } catch (e) {
      if (e instanceof ChainError) return send(res, 400, `sendrawtransaction RPC error: ${e.code}`)
      throw e
    }
  }
  if (method !== 'GET') return send(res, 405, 'method not allowed')
  const [a, b, c] = parts
  if (a === 'blocks' && b === 'tip' && c === 'hash' && parts.length === 3)
    return send(res, 200, chain.tip.hash)
  if (a === 'blocks' && b === 'tip' && c === 'height' && parts.length === 3) {
    return send(res, 200, String(chain.height))
  }
  if (a === 'block-height' && b !== undefined && parts.length === 2 && /^\d{1,9}$/.test(b)) {
    const block = chain.block(Number(b))
    return block ? send(res, 200, block.hash) : send(res, 404, 'Block not found')
  }
  if (a === 'block' && b !== undefined && c === 'header' && parts.length === 3) {
    const block = chain.block(b)
    return block ? send(res, 200, block.header) : send(res, 404, 'Block not found')
  }
  if (a === 'address' && b !== undefined && c === 'txs' && parts.length === 3) {
    const script = scriptOf(b)
    if (script === null) return send(res, 400, 'Invalid Bitcoin address')
    const rows = chain.history(script).map((h) => {
      const block = h.height === null ? undefined : chain.block(h.height)
      return {
        txid: h.txid,
        status:
          block === undefined
            ? { confirmed: false }
            : { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.time },
      }
    })
    return send(res, 200, JSON.stringify(rows), 'application/json')
  }
  if (a === 'tx' && b !== undefined && parts.length === 3) {
    const t = chain.tx(b)
    if (!t) return send(res, 404, 'Transaction not found')
    if (c === 'raw') return send(res, 200, Buffer.from(t.hex, 'hex'), 'application/octet-stream')
    if (c === 'hex') return send(res, 200, t.hex)
    if (c === 'status') {
      const block = t.height === null ? undefined : chain.block(t.height)
      const status = block
        ? { confirmed: true, block_height: block.height, block_hash: block.hash, block_time: block.time }
        : { confirmed: false }
      return send(res, 200, JSON.stringify(status), 'application/json')
    }
  }
  return send(res, 404, 'Not found')
}

export interface EsploraServer {
  /** base URL to hand LWK's EsploraClient, without a trailing slash */
  readonly url: string
  /** every request path served, in order (tests count and inspect them) */
  readonly requests: string[]
  setFault(fault: EsploraFault | null): void
  close(): Promise<void>
}

/** Answers under `fault` (or, without one, runs `serve`): the ways an Esplora fails, for tests of the wallet. */
export function withFault(
  fault: EsploraFault | null,
  req: IncomingMessage,
  res: ServerResponse,
  serve: () => Promise<void>,
): void {
  if (fault?.kind === 'down') {
    req.socket.destroy()
    return
  }
  if (fault?.kind === 'garbage') return send(res, 200, '<html>proxy error</html>\u0000\u00ff')
  if (fault?.kind === 'huge') return send(res, 200, Buffer.alloc(fault.bytes, 0x61))
  if (fault?.kind === 'status') return send(res, fault.status, 'fault')
  const run = (): void => {
    serve().catch(() => send(res, 500, 'internal error'))
  }
  if (fault?.kind === 'slow') setTimeout(run, fault.ms)
  else run()
}

/** A loopback Esplora over `chain`, for tests, the bench and the sandbox CLI. */
export async function startEsplora(chain: SandboxChain): Promise<EsploraServer> {
  let fault: EsploraFault | null = null
  const requests: string[] = []
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0] as string
    requests.push(`${req.method ?? 'GET'} ${path}`)
    withFault(fault, req, res, () => handleEsplora(chain, req, res, path))
  })
  server.keepAliveTimeout = 1000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    setFault(f) {
      fault = f
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
