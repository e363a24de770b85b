/** Identifiers the sandbox invents: record ids, transaction ids, Pix end-to-end ids, receipt links, masks. */
import { randomBytes, randomFillSync } from 'node:crypto'

const HEX = '0123456789abcdef'
// Reused buffers: seeding 100,000 records must not leave 200,000 small Buffers for the collector.
const RANDOM_POOL = Buffer.alloc(4096)
let poolAt = RANDOM_POOL.length
const UUID_OUT = Buffer.alloc(36)

/**
 * A random (v4) UUID as one flat string. crypto.randomUUID() builds its result by concatenation, leaving a
 * rope of ~20 string pieces (~490 bytes) behind every id: 45 MB for 100,000 stored withdrawals.
 */
export function recordId(): string {
  if (poolAt + 16 > RANDOM_POOL.length) {
    randomFillSync(RANDOM_POOL)
    poolAt = 0
  }
  let j = 0
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) UUID_OUT[j++] = 0x2d
    let b = RANDOM_POOL[poolAt + i] as number
    // Version 4, RFC 4122 variant.
    if (i === 6) b = (b & 0x0f) | 0x40
    else if (i === 8) b = (b & 0x3f) | 0x80
    UUID_OUT[j++] = HEX.charCodeAt(b >> 4)
    UUID_OUT[j++] = HEX.charCodeAt(b & 15)
  }
  poolAt += 16
  return UUID_OUT.toString('latin1')
}

/** A Liquid transaction id: 32 random bytes, hex. */
export function txId(): string {
  return randomBytes(32).toString('hex')
}

/** A bank transaction id of a Pix payment (opaque in the API contract). */
export function bankTxId(): string {
  return `BTX${randomBytes(10).toString('hex').toUpperCase()}`
}

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'

/**
 * A Pix end-to-end id (Banco Central format): 'E', the payer institution's 8-digit ISPB, yyyyMMddHHmm in UTC,
 * then 11 alphanumerics — 32 characters.
 */
export function centralBankId(atMs: number): string {
  const d = new Date(atMs)
  const p2 = (n: number): string => String(n).padStart(2, '0')
  const date = `${d.getUTCFullYear()}${p2(d.getUTCMonth() + 1)}${p2(d.getUTCDate())}`
  const stamp = `${date}${p2(d.getUTCHours())}${p2(d.getUTCMinutes())}`
  const bytes = randomBytes(11)
  let tail = ''
  for (const b of bytes) tail += ALNUM[b % ALNUM.length]
  return `E00000000${stamp}${tail}`
}

/**
 * Before the server listens there is no origin to name: `.invalid` never resolves, so no real site is implied.
 * Once listening, the sandbox serves its receipts itself (GET /receipts/<id> on its loopback origin) so the app's
 * receipt fetch is exercised end to end (docs/SANDBOX.md).
 */
export const OFFLINE_RECEIPT_ORIGIN = 'https://sandbox.depix.invalid'

export function receiptUrl(origin: string, withdrawalId: string): string {
  return `${origin}/receipts/${withdrawalId}`
}

/** Masked like Pix receipts show it: CPF '***.456.789-**', CNPJ '12.345.678/****-**'. */
export function maskReceiverTaxNumber(taxNumber: string): string {
  if (taxNumber.length === 11) return `***.${taxNumber.slice(3, 6)}.${taxNumber.slice(6, 9)}-**`
  return `${taxNumber.slice(0, 2)}.${taxNumber.slice(2, 5)}.${taxNumber.slice(5, 8)}/****-**`
}
