/**
 * Migration 11 computes audited state hashes in the database: `canonical_json` is ledger/model/canonical-json.ts in SQL,
 * `withdrawal_state` / `deposit_state` are the row readers (pg/rows.ts, pg/deposit-rows.ts) in SQL. Both are checked
 * here against the TypeScript functions on many varied values and rows: unicode (astral characters, keys that sort
 * differently by code point and by UTF-16 unit, escapes), nulls, nesting, numbers JavaScript writes in exponent form.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PgLedgerStore } from '../../../../src/main/ledger/engines'
import { DEPOSIT_SELECT, rowToDeposit } from '../../../../src/main/ledger/pg/deposit-rows'
import { RECORD_SELECT, rowToRecord } from '../../../../src/main/ledger/pg/rows'
import { canonicalJson } from '../../../../src/main/ledger/model/canonical-json'
import { recordStateHash } from '../../../../src/main/ledger/model/state-hash'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

announceSkip('migration 11: state hashes computed by the database (postgres)')

/** A small deterministic generator: the same values on every run, so a failure is reproducible. */
function rng(seed: number): () => number {
  let s = seed >>> 0
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0
    return s / 2 ** 32
  }
}

const STRINGS = [
  '',
  'a',
  'ção',
  'Ünïcödé',
  '\u2028\u2029',
  '"quoted" \\ back',
  '\t\n\r\b\f',
  '\u0001\u001f\u007f',
  '😀',
  '\ud834\udd1e',
  '\ue000',
  '\uffff',
  'R$ 1.234,56',
  '日本語',
  '<script>',
]
const NUMBERS = [
  0,
  -0,
  1,
  -1,
  42,
  1_234_567_890,
  Number.MAX_SAFE_INTEGER,
  -Number.MAX_SAFE_INTEGER,
  2 ** 53 + 2,
  1.5,
  -0.25,
  0.1,
  0.30000000000000004,
  123456.789,
  1e21,
  1.5e21,
  -2e22,
  1e-7,
  1.5e-7,
  0.000001,
  0.0000012,
  1e300,
  5e-324,
  2.5e-10,
  Number('12345678901234567890'),
]

function value(r: () => number, depth: number): unknown {
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!
  const kind = depth > 3 ? Math.floor(r() * 4) : Math.floor(r() * 6)
  switch (kind) {
    case 0:
      return pick(STRINGS) + (r() < 0.3 ? pick(STRINGS) : '')
    case 1:
      return pick(NUMBERS)
    case 2:
      return r() < 0.5 ? null : r() < 0.5
    case 3:
      return pick(STRINGS)
    case 4:
      return Array.from({ length: Math.floor(r() * 4) }, () => value(r, depth + 1))
    default: {
      const o: Record<string, unknown> = {}
      const n = Math.floor(r() * 5)
      for (let i = 0; i < n; i++)
        o[pick([...STRINGS, 'b', 'A', 'aa', '10', '9', 'z😀', 'z\ue000'])] = value(r, depth + 1)
      return o
    }
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('state hashes computed by the database (migration 11)', () => {
  let team: Team
  let owner: pg.Client
  let ana: PgLedgerStore
  beforeAll(async () => {
    team = await startTeam()
    owner = await team.owner()
    ana = await team.desk('ana')
  }, 120_000)
  afterAll(async () => team?.stop())

  it('canonical_json writes what canonicalJson writes, value for value', async () => {
    const r = rng(24)
    const values: unknown[] = [
      ...NUMBERS,
      ...STRINGS,
      { b: 1, a: [1, { d: null, c: '😀' }], '\ue000': 1, '😀': 2, z: { '': 0 } },
      { '10': 'x', '9': 'y', a: 'z' },
      [],
      {},
      [null, [[]], {}],
    ]
    for (let i = 0; i < 400; i++) values.push(value(r, 0))
    // As a desk sends it: JSON.stringify of the value, read back by JSON.parse (what the ledger stores and reads).
    const texts = values.map((v) => JSON.stringify(v))
    const got = await owner.query(
      'SELECT i, canonical_json(t::jsonb) AS c FROM unnest($1::text[]) WITH ORDINALITY AS u(t, i) ORDER BY i',
      [texts],
    )
    const mismatches = got.rows
      .map((row, i) => ({ text: texts[i], sql: row.c as string, ts: canonicalJson(JSON.parse(texts[i]!)) }))
      .filter((m) => m.sql !== m.ts)
    expect(mismatches).toEqual([])
  })

  it('withdrawal_state and deposit_state hash as the desk hashes the row it reads', async () => {
    const r = rng(2024)
    const ids: string[] = []
    for (let i = 0; i < 40; i++) {
      const pixKey = `${randomUUID()}@exämple.com`
      const rec = await ana.insertSubmitting(
        {
          localId: randomUUID(),
          profile: i % 2 ? 'main' : 'perfil ção 😀',
          request: { pixKey, payoutAmountInCents: 1_000 + i, extra: value(r, 1) },
          pixKey,
          amountKind: 'payout',
          amountCents: 1_000 + i,
          ...(i % 4 === 0 ? { references: { invoice: `NF ${i} ção`, note: 'x' } } : {}),
        },
        i % 5 ? 'Ana' : 'Ana “aspas” 😀',
      )
      ids.push(rec.localId)
      if (i % 3 === 0) continue
      await ana.markCreated(rec.localId, {
        remoteId: `w-${randomUUID()}`,
        createResponse: { weird: value(r, 1), n: NUMBERS[i % NUMBERS.length] },
        requestId: i % 2 ? null : `req-${i}`,
        depositAddress: i % 2 ? `lq1${i}` : null,
        status: 'unsent',
      })
      const refund = i % 4 === 1 ? { txid: 'ab'.repeat(32), amounts: [1.5e-7, 1e21, null] } : undefined
      await ana.recordObservation(rec.localId, {
        status: refund ? 'refunded' : i % 2 ? 'sent' : 'Estado Novo',
        body: { status: 'x', receiverName: STRINGS[i % STRINGS.length], nested: value(r, 0), refund },
      })
    }
    const deps: string[] = []
    for (let i = 0; i < 12; i++) {
      const d = await ana.deposits.insertSubmitting(
        { profile: 'main', request: { amountInCents: 500 + i, depixAddress: `lq1${i}`, z: 'ç', a: [1, 2] } },
        'Ana',
      )
      deps.push(d.localId)
      if (i % 2) continue
      const remoteId = `q-${randomUUID()}`
      await ana.deposits.markCreated(d.localId, {
        remoteId,
        createResponse: { id: remoteId, qrCopyPaste: `000201${i}`, odd: value(r, 1) },
        requestId: null,
        status: 'pending',
      })
      await ana.deposits.recordObservation(d.localId, {
        status: 'depix_sent',
        body: { payerName: STRINGS[i % STRINGS.length], blockchainTxID: `tx${i}`, more: value(r, 0) },
      })
    }
    const w = await owner.query(
      `SELECT ${RECORD_SELECT}, state_hash(withdrawal_state(w)) AS db_hash FROM withdrawals w
       WHERE w.local_id = ANY($1)`,
      [ids],
    )
    expect(w.rows).toHaveLength(ids.length)
    for (const row of w.rows)
      expect([row.local_id, row.db_hash]).toEqual([row.local_id, recordStateHash(rowToRecord(row))])
    const d = await owner.query(
      `SELECT ${DEPOSIT_SELECT}, state_hash(deposit_state(d)) AS db_hash FROM deposits d WHERE d.local_id = ANY($1)`,
      [deps],
    )
    expect(d.rows).toHaveLength(deps.length)
    for (const row of d.rows)
      expect([row.local_id, row.db_hash]).toEqual([row.local_id, recordStateHash(rowToDeposit(row))])
    // And the chain the database wrote checks with the desk's verifier.
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })
})
