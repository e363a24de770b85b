/**
 * Ledger benchmark: 100,000 realistic withdrawal records (with their observations and a valid audit chain), then
 * - openLedger on the existing file (target ≤ 300 ms),
 * - a 50-row page filtered by status + date range + text, p50/p95 over 200 queries (target p50 ≤ 20 ms),
 * - one durable create (insertSubmitting + markCreated, each fsynced), and a full audit-chain verification.
 * Run: npx tsx bench/ledger.bench.ts   (LEDGER_BENCH_ROWS=… to change the size). Results: docs/BENCHMARKS.md.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { performance } from 'node:perf_hooks'
import type { RecordFilter, WithdrawalRecord } from '../src/shared/withdrawal-record'
import { appendAuditRow } from '../src/main/ledger/sqlite/audit'
import { openDb } from '../src/main/ledger/sqlite/db'
import { openLedger } from '../src/main/ledger/sqlite/index'
import { migrate } from '../src/main/ledger/sqlite/migrations'
import { writeRecord } from '../src/main/ledger/sqlite/record-write'

export interface LedgerBenchResult {
  rows: number
  observations: number
  auditRows: number
  fileBytes: number
  seedMs: number
  openMs: number
  queryP50Ms: number
  queryP95Ms: number
  queryMaxMs: number
  queryMeanTotal: number
  /** Slow paths, reported for honesty: no date range with a very common word, or 1–2 characters of text. */
  unboundedCommonTextP50Ms: number
  unboundedCommonTextP95Ms: number
  shortTextP50Ms: number
  unfilteredPageP50Ms: number
  listOpenMs: number
  openRecords: number
  duplicateGuardP50Ms: number
  durableCreateP50Ms: number
  verifyChainMs: number
}

/** Deterministic PRNG (mulberry32): the same data on every machine. */
function rng(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const FIRST = [
  'Ana',
  'João',
  'Maria',
  'José',
  'Antônio',
  'Francisca',
  'Carlos',
  'Paulo',
  'Lúcia',
  'Márcia',
  'Pedro',
]
const FIRST2 = [
  'Luiz',
  'Fernanda',
  'Gabriel',
  'Letícia',
  'Rafael',
  'Juliana',
  'Mateus',
  'Beatriz',
  'Sérgio',
  'Cecília',
]
const LAST = [
  'Silva',
  'Santos',
  'Oliveira',
  'Souza',
  'Rodrigues',
  'Ferreira',
  'Alves',
  'Pereira',
  'Lima',
  'Gomes',
]
const LAST2 = [
  'Conceição',
  'Araújo',
  'Ribeiro',
  'Carvalho',
  'Almeida',
  'Nascimento',
  'Barbosa',
  'Cardoso',
  'Melo',
]
const DOMAINS = ['gmail.com', 'hotmail.com', 'outlook.com', 'yahoo.com.br', 'uol.com.br', 'empresa.com.br']
const REMOTE: Array<[string, number]> = [
  ['sent', 0.72],
  ['expired', 0.1],
  ['refunded', 0.05],
  ['unsent', 0.05],
  ['error', 0.03],
  ['sending', 0.02],
  ['cancelled', 0.025],
  ['em_analise', 0.005],
]

function pick<T>(r: () => number, xs: readonly T[]): T {
  return xs[Math.floor(r() * xs.length)] as T
}

function weighted(r: () => number, xs: ReadonlyArray<[string, number]>): string {
  let x = r()
  for (const [v, w] of xs) if ((x -= w) < 0) return v
  return xs[0]?.[0] ?? ''
}

const digits = (r: () => number, n: number): string =>
  Array.from({ length: n }, () => Math.floor(r() * 10)).join('')

interface Payee {
  pixKey: string
  name: string
}

function makePayees(r: () => number, n: number): Payee[] {
  return Array.from({ length: n }, () => {
    const first = pick(r, r() < 0.5 ? FIRST : FIRST2)
    const last = `${pick(r, LAST)}${r() < 0.4 ? ` ${pick(r, LAST2)}` : ''}`
    const name = `${first} ${last}`
    const kind = r()
    const plain = (s: string): string =>
      s.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/ /g, '.')
    const pixKey =
      kind < 0.35
        ? digits(r, 11)
        : kind < 0.6
          ? `${plain(first)}.${plain(pick(r, LAST))}${Math.floor(r() * 100)}@${pick(r, DOMAINS)}`
          : kind < 0.8
            ? `+55${10 + Math.floor(r() * 89)}9${digits(r, 8)}`
            : kind < 0.9
              ? digits(r, 14)
              : randomUUID()
    return { pixKey, name }
  })
}

export function seedLedger(file: string, n: number): { observations: number; auditRows: number } {
  const r = rng(0xde91)
  const payees = makePayees(r, Math.max(10, Math.floor(n / 5)))
  const db = openDb(file)
  migrate(db.raw)
  db.raw.exec('PRAGMA cache_size = -262144')
  const start = Date.parse('2024-01-01T00:00:00Z')
  const span = Date.parse('2026-01-01T00:00:00Z') - start
  let observations = 0
  let auditRows = 0
  const insertObs = db.raw.prepare(
    'INSERT INTO observations (local_id, observed_at, remote_status, body, request_id, nonce, applied) VALUES (?, ?, ?, ?, ?, ?, 1)',
  )
  db.tx(() => {
    for (let i = 0; i < n; i++) {
      const payee = pick(r, payees)
      const createdAt = new Date(start + Math.floor((span * i) / n) + Math.floor(r() * 60_000)).toISOString()
      const kind = r() < 0.7 ? 'payout' : 'deposit'
      const amount = Math.round(Math.exp(Math.log(200) + r() * (Math.log(600_000) - Math.log(200))))
      const s = r()
      const localState =
        s < 0.9 ? 'created' : s < 0.95 ? 'rejected' : s < 0.99 ? 'not_created' : 'outcome_unknown'
      const remoteId = localState === 'created' ? randomUUID() : null
      const status = localState === 'created' ? weighted(r, REMOTE) : null
      const refund = status === 'refunded' ? { txId: digits(r, 64), reason: 'invalid_pix_key' } : null
      const payout = kind === 'payout' ? amount : amount - Math.max(100, Math.ceil(amount / 100))
      const body = status
        ? {
            id: remoteId,
            status,
            pixKey: payee.pixKey,
            receiverName: payee.name,
            payoutAmountInCents: payout,
            refund,
          }
        : null
      const rec: WithdrawalRecord = {
        localId: randomUUID(),
        profile: r() < 0.95 ? 'production' : 'sandbox',
        operator: pick(r, ['ana', 'bruno', 'carla']),
        createdAt,
        updatedAt: createdAt,
        localState,
        request: {
          pixKey: payee.pixKey,
          taxNumber: digits(r, 11),
          [kind === 'payout' ? 'payoutAmountInCents' : 'depositAmountInCents']: amount,
          refundAddress: 'lq1qq' + digits(r, 30),
        },
        pixKey: payee.pixKey,
        amountKind: kind,
        amountCents: amount,
        createResponse: remoteId ? { withdrawalId: remoteId } : null,
        remoteId,
        remoteStatus: status,
        remoteStatusAt: status ? createdAt : null,
        remoteCheckedAt: status ? createdAt : null,
        lastRemote: body,
        depositAddress: remoteId ? 'lq1qq' + digits(r, 60) : null,
        depositAmountCents: kind === 'deposit' ? amount : amount + Math.max(100, Math.ceil(amount / 99)),
        payoutAmountCents: payout,
        expiration: remoteId ? new Date(Date.parse(createdAt) + 3_600_000).toISOString() : null,
        fundedAt: status && status !== 'unsent' ? createdAt : null,
        fundingTxId: null,
        refund,
        receiverName: status ? payee.name : null,
        error:
          localState === 'rejected'
            ? {
                kind: 'business',
                status: 520,
                messageCode: 'INVALID_PARAMETER',
                denialCode: null,
                requestId: 'r',
              }
            : null,
        requestId: randomUUID(),
        flags: [],
      }
      // The one record write path: the row and an entry carrying its state hash.
      writeRecord(db, createdAt, null, rec, { operator: rec.operator, action: 'withdrawal.submitting' })
      appendAuditRow(db, createdAt, {
        operator: rec.operator,
        action: `withdrawal.${localState}`,
        subject: rec.localId,
      })
      auditRows += 2
      if (body && status) {
        insertObs.run(
          rec.localId,
          createdAt,
          'unsent',
          JSON.stringify({ ...body, status: 'unsent' }),
          null,
          null,
        )
        insertObs.run(rec.localId, createdAt, status, JSON.stringify(body), null, null)
        observations += 2
      }
    }
  })
  db.raw.exec('PRAGMA wal_checkpoint(TRUNCATE)')
  db.close()
  return { observations, auditRows }
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] ?? 0
}

const round = (x: number): number => Math.round(x * 100) / 100

export async function run(n = Number(process.env.LEDGER_BENCH_ROWS ?? 100_000)): Promise<LedgerBenchResult> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ledger-bench-'))
  const file = path.join(dir, 'ledger.sqlite')
  try {
    let t = performance.now()
    const seeded = seedLedger(file, n)
    const seedMs = performance.now() - t

    t = performance.now()
    const ledger = openLedger(file)
    const openMs = performance.now() - t

    const r = rng(7)
    const statusSets = [
      ['sent'],
      ['expired'],
      ['sent', 'refunded'],
      ['created'],
      ['rejected', 'outcome_unknown'],
    ]
    const texts = [
      'silva',
      'maria',
      'gmail',
      'joão',
      'conceicao',
      '+5511',
      'araujo',
      'lima',
      'ana.',
      '@uol',
      'ro',
    ]
    const fields = ['createdAt', 'amount', 'status', 'updatedAt'] as const
    const times: number[] = []
    let totals = 0
    const allRecords = ledger.query({ limit: 1000 }).rows
    for (let i = 0; i < 200; i++) {
      const fromT = Date.parse('2024-01-01T00:00:00Z') + Math.floor(r() * 600) * 86_400_000
      const some = pick(r, allRecords)
      // Mostly words people type; sometimes a fragment of a real key or id (rare match, the other extreme).
      const text =
        i % 5 === 4
          ? r() < 0.5
            ? some.pixKey.slice(2, 9)
            : (some.remoteId ?? some.localId).slice(0, 8)
          : pick(r, texts)
      const filter: RecordFilter = {
        profile: 'production',
        statuses: pick(r, statusSets),
        from: new Date(fromT).toISOString(),
        to: new Date(fromT + (30 + Math.floor(r() * 150)) * 86_400_000).toISOString(),
        text,
        sort: { field: pick(r, fields), dir: r() < 0.7 ? 'desc' : 'asc' },
        offset: r() < 0.2 ? 50 : 0,
      }
      t = performance.now()
      const page = ledger.query(filter)
      times.push(performance.now() - t)
      totals += page.total
    }
    const timed = (filters: RecordFilter[]): number[] =>
      filters.map((f) => {
        const start = performance.now()
        ledger.query(f)
        return performance.now() - start
      })
    const unbounded = timed(
      Array.from({ length: 40 }, () => ({
        profile: 'production',
        statuses: pick(r, statusSets),
        text: pick(r, ['silva', 'maria', 'gmail', 'lima']),
        sort: { field: pick(r, fields), dir: 'desc' as const },
      })),
    )
    const short = timed(
      Array.from({ length: 20 }, () => {
        const fromT = Date.parse('2024-01-01T00:00:00Z') + Math.floor(r() * 600) * 86_400_000
        return {
          profile: 'production',
          statuses: pick(r, statusSets),
          from: new Date(fromT).toISOString(),
          to: new Date(fromT + 90 * 86_400_000).toISOString(),
          text: pick(r, ['ro', 'a', '55', 'li']),
        }
      }),
    )
    const unfiltered = timed(
      Array.from({ length: 50 }, () => ({
        sort: { field: pick(r, fields), dir: 'desc' as const },
        offset: Math.floor(r() * 20) * 50,
      })),
    )

    t = performance.now()
    const open = ledger.listOpen()
    const listOpenMs = performance.now() - t

    const guard: number[] = []
    for (let i = 0; i < 50; i++) {
      const some = pick(r, allRecords)
      t = performance.now()
      ledger.findRecentSimilar({
        pixKey: some.pixKey,
        amountKind: some.amountKind,
        amountCents: some.amountCents,
        sinceIso: new Date(Date.parse(some.createdAt) - 7 * 86_400_000).toISOString(),
        profile: some.profile,
      })
      guard.push(performance.now() - t)
    }

    const creates: number[] = []
    for (let i = 0; i < 20; i++) {
      t = performance.now()
      const rec = ledger.insertSubmitting(
        {
          profile: 'bench',
          request: { pixKey: `bench${i}@x.com` },
          pixKey: `bench${i}@x.com`,
          amountKind: 'payout',
          amountCents: 1000,
        },
        'bench',
      )
      ledger.markCreated(rec.localId, {
        remoteId: `bench-${i}`,
        createResponse: { withdrawalId: `bench-${i}` },
        requestId: null,
      })
      creates.push(performance.now() - t)
    }

    t = performance.now()
    const chain = ledger.verifyAuditChain()
    const verifyChainMs = performance.now() - t
    if (!chain.ok) throw new Error(`audit chain broken in bench: ${chain.reason}`)
    ledger.close()

    return {
      rows: n,
      observations: seeded.observations,
      auditRows: seeded.auditRows,
      fileBytes: fs.statSync(file).size,
      seedMs: round(seedMs),
      openMs: round(openMs),
      queryP50Ms: round(percentile(times, 50)),
      queryP95Ms: round(percentile(times, 95)),
      queryMaxMs: round(Math.max(...times)),
      queryMeanTotal: Math.round(totals / times.length),
      unboundedCommonTextP50Ms: round(percentile(unbounded, 50)),
      unboundedCommonTextP95Ms: round(percentile(unbounded, 95)),
      shortTextP50Ms: round(percentile(short, 50)),
      unfilteredPageP50Ms: round(percentile(unfiltered, 50)),
      listOpenMs: round(listOpenMs),
      openRecords: open.length,
      duplicateGuardP50Ms: round(percentile(guard, 50)),
      durableCreateP50Ms: round(percentile(creates, 50)),
      verifyChainMs: round(verifyChainMs),
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

// Run directly (not imported by bench/run.ts): print. No top-level await: tsx loads this file as CommonJS.
if (path.basename(process.argv[1] ?? '') === 'ledger.bench.ts') {
  void run().then((res) => {
    console.log(JSON.stringify({ ...res, bytesPerRecord: Math.round(res.fileBytes / res.rows) }, null, 2))
    console.log(
      `open ${res.openMs} ms (target ≤ 300) · filtered page p50 ${res.queryP50Ms} ms / p95 ${res.queryP95Ms} ms (target p50 ≤ 20)`,
    )
  })
}
