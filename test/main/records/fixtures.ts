/**
 * Test data for records: deterministic WithdrawalRecords shaped like what the ledger holds after real traffic
 * (raw create response and status body per docs/API-CONTRACT.md#s2-3, refunds, rejections), seeded with `importRecords`.
 * Also used by bench/records.bench.ts.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { importRecords } from '../../../src/main/ledger/sqlite/import'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite/index'

/** mulberry32: the same data on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const NAMES = ['Ana Souza', 'João da Silva', 'Maria Conceição', 'José Araújo', 'Lúcia Ferreira', 'Pedro Lima']
const STATUSES: Array<[string, number]> = [
  ['sent', 0.7],
  ['expired', 0.1],
  ['refunded', 0.06],
  ['unsent', 0.06],
  ['error', 0.04],
  ['sending', 0.02],
  ['Em_Análise', 0.02],
]
const HEX = '0123456789abcdef'

function hex(r: () => number, n: number): string {
  let s = ''
  for (let i = 0; i < n; i++) s += HEX[Math.floor(r() * 16)]
  return s
}
const digits = (r: () => number, n: number): string =>
  Array.from({ length: n }, () => Math.floor(r() * 10)).join('')
const uuid = (r: () => number): string =>
  `${hex(r, 8)}-${hex(r, 4)}-4${hex(r, 3)}-a${hex(r, 3)}-${hex(r, 12)}`

function weighted(r: () => number, xs: ReadonlyArray<[string, number]>): string {
  let x = r()
  for (const [v, w] of xs) if ((x -= w) < 0) return v
  return xs[0]?.[0] ?? ''
}

export interface MakeOptions {
  seed?: number
  start?: string
  /** Spacing of createdAt, ms. */
  stepMs?: number
  profile?: string
}

export function makeRecord(i: number, r: () => number, o: MakeOptions = {}): WithdrawalRecord {
  const start = Date.parse(o.start ?? '2025-01-01T00:00:00.000Z')
  const createdAt = new Date(start + i * (o.stepMs ?? 617_000) + Math.floor(r() * 1000)).toISOString()
  const updatedAt = new Date(Date.parse(createdAt) + 90_000).toISOString()
  const kind = r() < 0.7 ? 'payout' : 'deposit'
  const amount = 200 + Math.floor(r() * 599_800)
  const fee = Math.max(100, Math.ceil(amount / 100))
  const deposit = kind === 'deposit' ? amount : amount + fee
  const payout = kind === 'payout' ? amount : amount - fee
  const s = r()
  const localState =
    s < 0.9 ? 'created' : s < 0.95 ? 'rejected' : s < 0.98 ? 'not_created' : 'outcome_unknown'
  const name = NAMES[Math.floor(r() * NAMES.length)] ?? 'Ana'
  const pixKey = r() < 0.5 ? digits(r, 11) : r() < 0.5 ? `+55119${digits(r, 8)}` : uuid(r)
  const remoteId = localState === 'created' ? uuid(r) : null
  const status = localState === 'created' ? weighted(r, STATUSES) : null
  const refund =
    status === 'refunded' ? { txId: hex(r, 64), reason: 'invalid_pix_key', feeInCents: 100 } : null
  const depositAddress = remoteId ? `lq1qq${hex(r, 90)}` : null
  const body = status
    ? {
        id: remoteId,
        pixKey,
        status,
        expiration: new Date(Date.parse(createdAt) + 3_600_000).toISOString(),
        depositAddress,
        depositAmountInCents: deposit,
        payoutAmountInCents: payout,
        blockchainTxID: hex(r, 64),
        receiptUrl: `https://depix.example/receipt/${remoteId}`,
        receiverName: name,
        receiverTaxNumber: `***.${digits(r, 3)}.${digits(r, 3)}-**`,
        transferDate: updatedAt,
        centralBankId: `E${digits(r, 31)}`,
        ...(refund ? { refund } : {}),
      }
    : null
  const request = {
    pixKey,
    taxNumber: digits(r, 11),
    [kind === 'payout' ? 'payoutAmountInCents' : 'depositAmountInCents']: amount,
    refundAddress: `lq1qq${hex(r, 90)}`,
  }
  return {
    localId: `rec-${String(i).padStart(7, '0')}-${hex(r, 6)}`,
    profile: o.profile ?? 'producao',
    operator: r() < 0.5 ? 'ana' : 'bruno',
    createdAt,
    updatedAt,
    localState,
    request,
    pixKey,
    amountKind: kind,
    amountCents: amount,
    createResponse: remoteId
      ? { withdrawalId: remoteId, depositAddress, expiration: body?.expiration }
      : null,
    remoteId,
    remoteStatus: status,
    remoteStatusAt: status ? updatedAt : null,
    remoteCheckedAt: status ? updatedAt : null,
    lastRemote: body,
    depositAddress,
    depositAmountCents: deposit,
    payoutAmountCents: localState === 'created' ? payout : kind === 'payout' ? amount : null,
    expiration: body?.expiration ?? null,
    fundedAt: status && status !== 'unsent' ? createdAt : null,
    fundingTxId: status && status !== 'unsent' ? hex(r, 64) : null,
    refund,
    receiverName: status ? name : null,
    error:
      localState === 'rejected'
        ? {
            kind: 'business',
            status: 520,
            messageCode: 'INVALID_PARAMETER',
            denialCode: null,
            requestId: uuid(r),
            message: 'x',
          }
        : null,
    requestId: uuid(r),
    flags: r() < 0.02 ? ['pix_key_mismatch'] : [],
  }
}

export function* makeRecords(n: number, o: MakeOptions = {}): Generator<WithdrawalRecord> {
  const r = rng(o.seed ?? 0x5eed)
  for (let i = 0; i < n; i++) yield makeRecord(i, r, o)
}

const dirs: string[] = []

export function tempDir(prefix = 'records-test-'): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix))
  dirs.push(d)
  return d
}

export function cleanupTempDirs(): void {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
}

/** A ledger file holding `records`, opened. */
export function seededLedger(
  records: Iterable<WithdrawalRecord>,
  dir = tempDir(),
): { ledger: Ledger; file: string } {
  const file = path.join(dir, 'ledger.sqlite')
  importRecords(file, records)
  return { ledger: openLedger(file), file }
}

/** Records whose text would misbehave in a spreadsheet or a browser if written raw. */
export function nastyRecords(): WithdrawalRecord[] {
  const r = rng(7)
  const base = [...makeRecords(8, { seed: 99 })]
  const names = [
    '=SUM(A1)',
    '+1',
    '-1',
    '@x',
    '\tTab',
    '\rCR',
    'Ana "Aspas" Souza',
    'Silva; Souza, Lima\nSegunda linha',
  ]
  return base.map((rec, i) => ({
    ...rec,
    localState: 'created',
    remoteId: `remote-${i}-${Math.floor(r() * 1e6)}`,
    remoteStatus: i === 0 ? "=cmd|' /C calc'!A0" : 'sent',
    receiverName: names[i] ?? null,
    pixKey: i === 1 ? '+5511987654321' : `<script>alert(${i})</script>`,
    operator: i === 2 ? "'quoted" : 'ana',
  }))
}
