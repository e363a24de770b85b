/**
 * "Was the create sent?" is decided by the phase of the request, not by the error code (issue #11, items 2 and
 * 10). A loopback server that misbehaves on purpose, and a client socket failed on purpose after the request was
 * written, drive the real client.
 */
import diagnostics from 'node:diagnostics_channel'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo, Socket } from 'node:net'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ApiError, createDepixClient, type DepixClient } from '../../../src/main/api'
import type { WithdrawRequest } from '../../../src/shared/withdrawal'
import { closedPort, fakeJwt } from './helpers/fake-server'

const WITHDRAW: WithdrawRequest = { pixKey: 'a@b.co', taxNumber: '52998224725', payoutAmountInCents: 1000 }
const TOKEN = fakeJwt({ sub: 'p', scope: ['withdraw'], exp: Math.floor(Date.now() / 1000) + 3600 })

type Mode = 'answer' | 'destroy_after_body' | 'silent' | 'drop_reused_socket'

interface MisbehavingServer {
  baseUrl: string
  mode: Mode
  /** Requests the server read in full and acted on, by "METHOD /path". */
  processed: string[]
  /** Requests that arrived on a kept-alive socket in `drop_reused_socket` mode and were dropped unread. */
  dropped: number
  /** `connection` header of every POST /api/withdraw read. */
  postConnection: (string | undefined)[]
  close(): Promise<void>
}

async function startServer(): Promise<MisbehavingServer> {
  const served = new WeakSet<Socket>()
  const state: MisbehavingServer = {
    baseUrl: '',
    mode: 'answer',
    processed: [],
    dropped: 0,
    postConnection: [],
    close: async () => undefined,
  }
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket
    // A server closing an idle kept-alive connection just as the client reuses it: the request is never read.
    if (state.mode === 'drop_reused_socket' && served.has(socket)) {
      state.dropped++
      socket.destroy()
      return
    }
    served.add(socket)
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const key = `${req.method} ${new URL(req.url ?? '/', 'http://x').pathname}`
      state.processed.push(key)
      if (key === 'POST /api/withdraw') state.postConnection.push(req.headers.connection)
      if (state.mode === 'destroy_after_body' && key === 'POST /api/withdraw') return socket.destroy()
      if (state.mode === 'silent' && key === 'POST /api/withdraw') return
      const body =
        key === 'POST /api/withdraw'
          ? { response: { withdrawalId: 'w-new' }, async: false }
          : { response: { id: 'w-old', status: 'unsent' }, async: false }
      const text = JSON.stringify(body)
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
      res.end(text)
    })
  })
  server.keepAliveTimeout = 60_000
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  state.baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  state.close = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve())
      server.closeAllConnections()
    })
  return state
}

function make(baseUrl: string): DepixClient {
  return createDepixClient({
    baseUrl,
    auth: { kind: 'legacy_token', token: TOKEN },
    limiter: 'off',
    timeoutMs: 3_000,
  })
}

/** Lets undici hand the answered socket back to its pool, so that the next request would reuse it. */
const settle = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 50))

async function rejection(p: Promise<unknown>): Promise<ApiError> {
  const e = await p.then(
    () => {
      throw new Error('expected a rejection')
    },
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(ApiError)
  return e as ApiError
}

let server: MisbehavingServer
let client: DepixClient

beforeEach(async () => {
  server = await startServer()
  client = make(server.baseUrl)
  await client.signIn()
})
afterEach(async () => {
  await client.close()
  await server.close()
})

describe('a create that failed after it was written is outcome_unknown', () => {
  it('the server reads the whole body, then destroys the socket', async () => {
    server.mode = 'destroy_after_body'
    const e = await rejection(client.withdraw(WITHDRAW))
    expect(e.kind).toBe('outcome_unknown')
    expect(e.nothingSent).toBe(false)
    expect(server.processed.filter((k) => k === 'POST /api/withdraw')).toHaveLength(1)
  })

  it('an EHOSTUNREACH raised on the open socket after the body left is not "nothing sent"', async () => {
    server.mode = 'silent'
    // Fails the client's socket with an unreachable-host error once the POST is on the wire: the code that,
    // raised during connect, would prove nothing left.
    const onSend = (message: unknown): void => {
      const { request, socket } = message as { request: { method: string }; socket: Socket }
      if (request.method !== 'POST') return
      setTimeout(() => {
        const err = Object.assign(new Error('connect EHOSTUNREACH'), { code: 'EHOSTUNREACH' })
        socket.destroy(err)
      }, 50)
    }
    diagnostics.subscribe('undici:client:sendHeaders', onSend)
    try {
      const e = await rejection(client.withdraw(WITHDRAW))
      expect(e.kind).toBe('outcome_unknown')
      expect(e.causeCode).toBe('EHOSTUNREACH')
      expect(e.nothingSent).toBe(false)
    } finally {
      diagnostics.unsubscribe('undici:client:sendHeaders', onSend)
    }
    // The service did read it: treating this as "rejected" would invite a second payment.
    expect(server.processed.filter((k) => k === 'POST /api/withdraw')).toHaveLength(1)
  })

  it('a refused connection is network with nothing sent', async () => {
    const port = await closedPort()
    const c = make(`http://127.0.0.1:${port}`)
    await c.signIn()
    const e = await rejection(c.withdraw(WITHDRAW))
    expect(e.kind).toBe('network')
    expect(e.code).toBe('connect_failed')
    expect(e.nothingSent).toBe(true)
    await c.close()
  })
})

describe('a create goes out on a connection of its own', () => {
  it('a kept-alive socket the server is dropping cannot make a create falsely unknown', async () => {
    // A read leaves a kept-alive socket in the client's pool.
    await client.withdrawStatus('w-old')
    await settle()
    server.mode = 'drop_reused_socket'
    const created = await client.withdraw(WITHDRAW)
    expect(created.data.withdrawalId).toBe('w-new')
    expect(server.dropped).toBe(0)
    expect(server.processed.filter((k) => k === 'POST /api/withdraw')).toHaveLength(1)
    // And asks the service to close it afterwards.
    expect(server.postConnection).toEqual(['close'])
  })

  it('control: a read on the same dropped kept-alive socket does fail (the fault is real)', async () => {
    await client.withdrawStatus('w-old')
    await settle()
    server.mode = 'drop_reused_socket'
    // Reads retry on a new connection, so the fault shows as a dropped request followed by success.
    await client.withdrawStatus('w-old')
    expect(server.dropped).toBe(1)
  })
})
