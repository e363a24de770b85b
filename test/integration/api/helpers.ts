/**
 * Harness for the client against the real sandbox over loopback.
 *
 * Secrets are captured from the wire through undici's diagnostics channels (request headers and bodies, response
 * bodies of the auth endpoints): every access token, refresh token and client secret the client ever handled,
 * without any test hook in the client. Every ApiError a test produces goes through `expectApiError`, and each file
 * ends with `secretScan()`, which serialises them all and searches for those secrets.
 */
import diagnosticsChannel from 'node:diagnostics_channel'
import { inspect } from 'node:util'
import { expect, it } from 'vitest'
import {
  ApiError,
  createDepixClient,
  type ApiErrorKind,
  type DepixClient,
  type DepixClientOptions,
} from '../../../src/main/api'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/main/sandbox'
import type { WithdrawRequest } from '../../../src/shared/withdrawal'

/** A valid CPF (check digits) and an e-mail Pix key; the sandbox validates both. */
export const TAX_NUMBER = '52998224725'
export const WITHDRAWAL: WithdrawRequest = {
  pixKey: 'fulano@example.com',
  taxNumber: TAX_NUMBER,
  payoutAmountInCents: 1_000,
}

// ---- wire capture ----

interface UndiciRequest {
  method: string
  path: string
  headers: unknown
  body: unknown
}

const secrets = new Set<string>()
const responseText = new WeakMap<object, string>()
export const wire: Array<{ method: string; path: string; at: number }> = []

function addSecretsFrom(text: string): void {
  for (const m of text.matchAll(/"(access_token|refresh_token|client_secret)"\s*:\s*"([^"]+)"/g)) {
    if (m[2]) secrets.add(m[2])
  }
}

diagnosticsChannel.channel('undici:request:create').subscribe((msg) => {
  const { request } = msg as { request: UndiciRequest }
  wire.push({ method: request.method, path: request.path, at: performance.now() })
  const headers = Array.isArray(request.headers)
    ? (request.headers as unknown[]).map(String)
    : [String(request.headers)]
  for (const h of headers) {
    const bearer = /Bearer\s+(\S+)/i.exec(h)
    if (bearer?.[1]) secrets.add(bearer[1])
  }
  if (typeof request.body === 'string') addSecretsFrom(request.body)
  else if (Buffer.isBuffer(request.body)) addSecretsFrom(request.body.toString('utf8'))
})
diagnosticsChannel.channel('undici:request:bodyChunkReceived').subscribe((msg) => {
  const { request, chunk } = msg as { request: UndiciRequest & object; chunk: Buffer }
  if (!request.path.includes('/v2/auth/')) return
  const text = (responseText.get(request) ?? '') + chunk.toString('utf8')
  responseText.set(request, text)
  addSecretsFrom(text)
})

export function posts(path: string): number {
  return wire.filter((w) => w.method === 'POST' && w.path.endsWith(path)).length
}

// ---- sandbox and client ----

export interface Harness {
  sb: Sandbox
  client: DepixClient
  make(over?: Partial<DepixClientOptions>): DepixClient
  close(): Promise<void>
}

export async function harness(
  sandboxOpts: SandboxOptions = {},
  clientOpts: Partial<DepixClientOptions> = {},
): Promise<Harness> {
  const sb = await startSandbox(sandboxOpts)
  secrets.add(sb.credentials.clientSecret)
  const clients: DepixClient[] = []
  const make = (over: Partial<DepixClientOptions> = {}) => {
    const c = createDepixClient({
      baseUrl: sb.baseUrl,
      auth: {
        kind: 'client_credentials',
        clientId: sb.credentials.clientId,
        clientSecret: sb.credentials.clientSecret,
      },
      ...clientOpts,
      ...over,
    })
    if (over.auth?.kind === 'client_credentials') secrets.add(over.auth.clientSecret)
    if (over.auth?.kind === 'legacy_token') secrets.add(over.auth.token)
    clients.push(c)
    return c
  }
  const client = make()
  return {
    sb,
    client,
    make,
    close: async () => {
      for (const c of clients) await c.close()
      await sb.close()
    },
  }
}

// ---- errors ----

const produced: ApiError[] = []

/** Awaits a rejection, checks it is an ApiError of `kind` with ids when an HTTP answer existed, and records it. */
export async function expectApiError(p: Promise<unknown>, kind: ApiErrorKind): Promise<ApiError> {
  const e = await p.then(
    (v: unknown) => {
      throw new Error(`expected ApiError ${kind}, got a result: ${JSON.stringify(v)}`)
    },
    (err: unknown) => err,
  )
  expect(e).toBeInstanceOf(ApiError)
  const err = e as ApiError
  produced.push(err)
  expect(err.kind, JSON.stringify(err)).toBe(kind)
  if (err.status !== null) {
    expect(err.requestId, 'every HTTP answer carries X-Request-ID').toMatch(/\S/)
    expect(err.nonce, 'every HTTP answer carries X-Nonce').toMatch(/\S/)
  }
  return err
}

/** Every place an ApiError's text can go: JSON (IPC, logs), message, stack, user messages, inspection. */
export function leaksIn(errors: readonly ApiError[]): string[] {
  const leaks: string[] = []
  for (const e of errors) {
    const texts = [
      JSON.stringify(e),
      JSON.stringify(e.toIpcError('pt-BR')),
      JSON.stringify(e.toIpcError('en')),
      e.message,
      e.stack ?? '',
      e.userMessage('pt-BR'),
      e.userMessage('en'),
      inspect(e, { depth: 10, showHidden: true }),
    ]
    for (const secret of secrets) {
      for (const t of texts) if (t.includes(secret)) leaks.push(`${e.kind}: ${t.slice(0, 80)}`)
    }
  }
  return leaks
}

/** Registers the last test of a file: no ApiError produced in it carries a secret or a token. */
export function secretScan(): void {
  it('no ApiError produced in this file carries the client secret or any token', () => {
    expect(produced.length).toBeGreaterThan(0)
    // The capture saw real tokens: JWT access tokens and opaque refresh tokens.
    expect([...secrets].some((s) => s.startsWith('eyJ'))).toBe(true)
    expect([...secrets].some((s) => s.startsWith('rt_'))).toBe(true)
    // The scanner itself can see a leak.
    const planted = [...secrets].find((s) => s.startsWith('rt_')) ?? ''
    expect(leaksIn([new ApiError({ kind: 'server', errorMessage: `oops ${planted}` })])).not.toEqual([])
    expect(leaksIn(produced)).toEqual([])
  })
}
