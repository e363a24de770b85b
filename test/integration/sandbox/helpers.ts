/**
 * Raw-HTTP helpers for the sandbox conformance suite. Deliberately not the app's API client: these tests
 * check the wire (statuses, headers, body shapes) exactly as the API contract states them.
 */
import { request } from 'undici'
import { startSandbox, type Sandbox, type SandboxOptions } from '../../../src/main/sandbox'

// Bodies are checked field by field against the API contract; a loose type keeps the assertions readable.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

export interface Res {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  body: Json
}

export interface CallOptions {
  token?: string
  body?: unknown
  /** Sent verbatim instead of JSON.stringify(body). */
  raw?: string
  headers?: Record<string, string>
}

export async function call(baseUrl: string, method: string, path: string, o: CallOptions = {}): Promise<Res> {
  const headers: Record<string, string> = { ...o.headers }
  if (o.token !== undefined) headers.authorization = `Bearer ${o.token}`
  let payload: string | undefined = o.raw
  if (payload === undefined && o.body !== undefined) payload = JSON.stringify(o.body)
  if (payload !== undefined && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
    headers['content-type'] = 'application/json'
  }
  const r = await request(`${baseUrl}${path}`, { method: method as 'GET', headers, body: payload })
  const text = await r.body.text()
  let body: Json
  try {
    body = text === '' ? undefined : JSON.parse(text)
  } catch {
    body = undefined
  }
  return { status: r.statusCode, headers: r.headers, text, body }
}

/** A control request as a script would send it: the per-run token, JSON, and the sandbox's own Host. */
export function control(
  sb: Pick<Sandbox, 'controlUrl' | 'controlToken'>,
  method: string,
  path: string,
  o: Omit<CallOptions, 'token'> = {},
): Promise<Res> {
  return call(sb.controlUrl, method, path, { ...o, token: sb.controlToken })
}

export interface Tokens {
  access_token: string
  refresh_token: string
  expires_in: number
  refresh_expires_in: number
  scope: string[]
  token_type: string
}

export async function login(
  sb: Sandbox,
  cred: { clientId: string; clientSecret: string } = sb.credentials,
): Promise<Tokens> {
  const r = await call(sb.baseUrl, 'POST', '/api/v2/auth/login', {
    body: { client_id: cred.clientId, client_secret: cred.clientSecret },
  })
  if (r.status !== 200) throw new Error(`login failed: ${r.status} ${r.text}`)
  return r.body as Tokens
}

/** A sandbox with every operation limit raised, for tests that are not about rate limits. */
export async function roomySandbox(o: SandboxOptions = {}): Promise<Sandbox> {
  return startSandbox({
    port: 0,
    rateLimits: {
      ping: 1000,
      deposit: 1000,
      deposits: 1000,
      'deposit-status': 1000,
      withdraw: 1000,
      'withdraw-status': 1000,
      'user-info': 1000,
    },
    loginRateLimitPerMinute: 1000,
    ...o,
  })
}

/** The envelope of an operation refusal (docs/API-CONTRACT.md#s2-1). */
export function refusal(r: Res): {
  errorMessage: string
  messageCode?: string
  denialCode?: string
  statusCode?: number
} {
  if (r.body?.async !== false || typeof r.body?.response?.errorMessage !== 'string') {
    throw new Error(`not an operation refusal envelope: ${r.status} ${r.text}`)
  }
  return r.body.response
}

// Test data from real sources (test/fixtures: Receita Federal / python-stdnum CPF & CNPJ, rust-elements).

/** The pre-registered default end user (docs/SANDBOX.md). */
export const DEFAULT_EUID = 'EU-SANDBOX-0001'
export const DEFAULT_CPF = '52998224725'
export const CPF_A = '39053344705'
export const CPF_B = '28001238938'
export const CPF_C = '12345678909'
export const CPF_BAD = '23100299900'
export const CNPJ_A = '07195358000166'

export const LQ_MAIN =
  'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew5'
export const LQ_MAIN_2 =
  'lq1qqgft7r4ytdenml0gaj67393sd3qkt3nxex0ut5dt3plhzwf6jaww4jul7lnkeat2teawq3s0cky6yxf0pnu2gs2923tg58xcz'
export const LQ_BAD_CHECKSUM =
  'lq1qqf8er278e6nyvuwtgf39e6ewvdcnjupn9a86rzpx655y5lhkt0walu3djf9cklkxd3ryld97hu8h3xepw7sh2rlu7q45dcew6'
export const EX_MAIN = 'ex1q7gkeyjut0mrxc3j0kjlt7rmcnvsh0gt45d3fud'
export const Q_MAIN_BASE58 = 'QFq3vvrr6Ub2KAyb3LdoCxEQvKukB6nN9i'
export const TLQ_TESTNET =
  'tlq1qqgft7r4ytdenml0gaj67393sd3qkt3nxex0ut5dt3plhzwf6jaww4jul7lnkeat2teawq3s0cky6yxf0pnu2gq8g2kuxfj8ft'
export const BTC_BECH32 = 'bc1pw508d6qejxtdg4y5r3zarvary0c5xw7kw508d6qejxtdg4y5r3zarvary0c5xw7k7grplx'

// Bech32m (BIP 350) encoder, written here independently of the sandbox, to make Arkade/Spark-shaped
// addresses.
const CHARSET = 'qpzry9x8gf2tvdw0s3jn54khce6mua7l'
function polymod(values: number[]): number {
  const gen = [0x3b6a57b2, 0x26508e6d, 0x1ea119fa, 0x3d4233dd, 0x2a1462b3]
  let chk = 1
  for (const v of values) {
    const b = chk >>> 25
    chk = ((chk & 0x1ffffff) << 5) ^ v
    for (let i = 0; i < 5; i++) if ((b >>> i) & 1) chk ^= gen[i] as number
  }
  return chk >>> 0
}
export function bech32m(hrp: string, bytes: Uint8Array): string {
  const words: number[] = []
  let acc = 0
  let bits = 0
  for (const b of bytes) {
    acc = (acc << 8) | b
    bits += 8
    while (bits >= 5) {
      bits -= 5
      words.push((acc >>> bits) & 31)
    }
  }
  if (bits > 0) words.push((acc << (5 - bits)) & 31)
  const expand = [
    ...[...hrp].map((c) => c.charCodeAt(0) >> 5),
    0,
    ...[...hrp].map((c) => c.charCodeAt(0) & 31),
  ]
  const mod = polymod([...expand, ...words, 0, 0, 0, 0, 0, 0]) ^ 0x2bc830a3
  const checksum = [0, 1, 2, 3, 4, 5].map((i) => (mod >>> (5 * (5 - i))) & 31)
  return `${hrp}1${[...words, ...checksum].map((w) => CHARSET[w]).join('')}`
}
const bytes65 = (seed: number): Uint8Array =>
  Uint8Array.from({ length: 65 }, (_, i) => (i * 37 + seed) & 0xff)
export const ARK_ADDR = bech32m('ark', bytes65(1))
export const ARK_ADDR_2 = bech32m('ark', bytes65(2))
export const SPARK_ADDR = bech32m('spark', bytes65(3))
/** One character changed: the checksum no longer holds. */
export const ARK_BAD = `${ARK_ADDR.slice(0, -1)}${ARK_ADDR.endsWith('q') ? 'p' : 'q'}`

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i
