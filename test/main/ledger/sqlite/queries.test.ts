import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import type { Ledger } from '../../../../src/main/ledger/sqlite/index'
import { LedgerError } from '../../../../src/main/ledger/sqlite/index'
import type { RecordFilter, WithdrawalRecord } from '../../../../src/shared/withdrawal-record'
import { normalizeStatus } from '../../../../src/shared/withdrawal-status'
import { businessError, newWithdrawal, steppingClock, T0, tempLedger } from './helpers'

const NAMES = ['Maria Silva', 'José Conceição', 'JOÃO SANTOS', 'Ana Lima', 'Lúcia Araújo', null]
const KEYS = [
  '529.982.247-25',
  '52998224725',
  'maria@example.com',
  'Joao.Santos@Example.com',
  '+5511999998888',
  'abc_100%',
]
const REMOTE = [
  'unsent',
  'Sending',
  'sent',
  'SENT',
  'error',
  'refunded',
  'expired',
  'canceled',
  'em-analise',
  null,
]
const STATUS_FILTERS = [
  'submitting',
  'created',
  'rejected',
  'outcome_unknown',
  'not_created',
  'sent',
  'Sending',
  'cancelled',
  'em_analise',
  'error',
]
const TEXTS = [
  'silva',
  'SILVA',
  'conceicao',
  'joão',
  'lu',
  'a',
  '529982',
  '529.982',
  '247-25',
  '99999',
  'example',
  '%',
  '_',
  'abc_1',
  'wd-1',
  'zzz',
  '"',
  'q-',
]

let ledger: Ledger
/** Insertion order = w.id order, the final tie-breaker. */
let all: WithdrawalRecord[]

const fold = (s: string): string =>
  s
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
const digitsOf = (s: string): string | null => {
  if (!/^[\d\s.\-/()+]+$/.test(s)) return null
  const d = s.replace(/\D/g, '')
  return d.length >= 3 && d !== s ? d : null
}

/** The filter semantics of RecordFilter, written the obvious way. */
function reference(f: RecordFilter): WithdrawalRecord[] {
  const statuses = (f.statuses ?? []).map(normalizeStatus)
  const text = fold(f.text ?? '').trim()
  const display = (r: WithdrawalRecord): string =>
    r.localState === 'created' && r.remoteStatus !== null ? normalizeStatus(r.remoteStatus) : r.localState
  const rows = all.filter((r) => {
    if (f.profile !== undefined && r.profile !== f.profile) return false
    if (statuses.length > 0 && !statuses.includes(r.localState) && !statuses.includes(display(r)))
      return false
    if (f.from !== undefined && r.createdAt < new Date(f.from).toISOString()) return false
    if (f.to !== undefined && r.createdAt >= new Date(f.to).toISOString()) return false
    if (text !== '') {
      const hay = [r.localId, r.remoteId, r.pixKey, digitsOf(r.pixKey), r.receiverName]
        .filter((x): x is string => !!x)
        .map(fold)
      const needles = [text, ...(text.length >= 3 && digitsOf(text) ? [digitsOf(text)!] : [])]
      if (!hay.some((h) => needles.some((n) => h.includes(n)))) return false
    }
    return true
  })
  const sort = f.sort ?? { field: 'createdAt', dir: 'desc' }
  const key = (r: WithdrawalRecord): Array<string | number> => {
    const id = all.indexOf(r)
    if (sort.field === 'amount') return [r.amountCents, id]
    if (sort.field === 'updatedAt') return [r.updatedAt, id]
    if (sort.field === 'status') return [display(r), r.createdAt, id]
    return [r.createdAt, id]
  }
  const cmp = (a: WithdrawalRecord, b: WithdrawalRecord): number => {
    const ka = key(a)
    const kb = key(b)
    for (let i = 0; i < ka.length; i++) {
      const x = ka[i]!
      const y = kb[i]!
      if (x !== y) return (x < y ? -1 : 1) * (sort.dir === 'asc' ? 1 : -1)
    }
    return 0
  }
  return rows.sort(cmp)
}

beforeAll(() => {
  const clock = steppingClock(T0, 60_000)
  ledger = tempLedger({ now: clock.now, scope: 'file' }).ledger
  const rnd = fc.sample(fc.tuple(fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000), fc.nat(1000)), {
    numRuns: 240,
    seed: 42,
  })
  for (const [i, [a, b, c, d, e]] of rnd.entries()) {
    const pixKey = KEYS[a % KEYS.length]!
    const localId = `rec-${String(i).padStart(3, '0')}`
    // Some records share a createdAt (clock set back), to exercise the id tie-break.
    if (i % 17 === 5) clock.set(T0 + (i - 1) * 60_000)
    ledger.insertSubmitting(
      newWithdrawal({
        localId,
        pixKey,
        profile: b % 4 === 0 ? 'production' : 'sandbox',
        amountCents: 200 + (c % 50) * 100,
      }),
      'ana',
    )
    const fate = d % 10
    if (fate === 0) continue
    if (fate === 1) {
      ledger.markRejected(localId, businessError)
      continue
    }
    if (fate === 2) {
      ledger.markOutcomeUnknown(localId, null, 'timeout')
      if (e % 2 === 0) ledger.resolveUnknown(localId, { notCreated: true }, 'ana')
      continue
    }
    ledger.markCreated(localId, {
      remoteId: `wd-${i}`,
      createResponse: { withdrawalId: `wd-${i}` },
      requestId: null,
    })
    const status = REMOTE[e % REMOTE.length]
    if (status === null || status === undefined) continue
    const name = NAMES[(a + e) % NAMES.length]
    ledger.recordObservation(localId, {
      status,
      body: {
        status,
        ...(name ? { receiverName: name } : {}),
        ...(status === 'refunded' ? { refund: { txId: 't' } } : {}),
      },
    })
  }
  all = ledger.query({ sort: { field: 'createdAt', dir: 'asc' }, limit: 1000 }).rows
  // Insertion order is createdAt order except for the deliberate ties, which keep insertion order via id.
  all.sort((x, y) => x.localId.localeCompare(y.localId))
})

const filterArb: fc.Arbitrary<RecordFilter> = fc.record(
  {
    profile: fc.constantFrom('production', 'sandbox'),
    statuses: fc.subarray(STATUS_FILTERS, { maxLength: 3 }),
    from: fc.integer({ min: -5, max: 260 }).map((m) => new Date(T0 + m * 60_000).toISOString()),
    to: fc
      .integer({ min: 0, max: 260 })
      .map((m) => new Date(T0 + m * 60_000 + (m % 2) * 30_000).toISOString()),
    text: fc.constantFrom(...TEXTS),
    sort: fc.record({
      field: fc.constantFrom('createdAt', 'amount', 'status', 'updatedAt'),
      dir: fc.constantFrom('asc', 'desc'),
    }),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<RecordFilter>

describe('query', () => {
  it('the dataset covers every state and several remote statuses', () => {
    const states = new Set(all.map((r) => r.localState))
    expect(states).toEqual(new Set(['submitting', 'created', 'rejected', 'outcome_unknown', 'not_created']))
    expect(new Set(all.map((r) => r.remoteStatus)).size).toBeGreaterThan(6)
  })

  it('property: filters, sort and totals match the reference semantics', () => {
    let nonEmpty = 0
    let multiPage = 0
    fc.assert(
      fc.property(filterArb, fc.constantFrom(0, 7, 50), (filter, offset) => {
        const expected = reference(filter)
        if (expected.length > 0) nonEmpty += 1
        if (expected.length > 25) multiPage += 1
        const page = ledger.query({ ...filter, limit: 25, offset })
        expect(page.total).toBe(expected.length)
        expect(page.rows.map((r) => r.localId)).toEqual(
          expected.slice(offset, offset + 25).map((r) => r.localId),
        )
      }),
      { numRuns: 300, seed: 7 },
    )
    // Not vacuous: many generated filters match something, some span pages.
    expect(nonEmpty).toBeGreaterThan(100)
    expect(multiPage).toBeGreaterThan(20)
  })

  it('property: iterate streams exactly the matching records in order, ignoring limit/offset', () => {
    fc.assert(
      fc.property(filterArb, (filter) => {
        const ids = [...ledger.iterate({ ...filter, limit: 1, offset: 3 })].map((r) => r.localId)
        expect(ids).toEqual(reference(filter).map((r) => r.localId))
      }),
      { numRuns: 100, seed: 11 },
    )
  })

  it('property: totalsByStatus adds up to the filtered count and amounts', () => {
    fc.assert(
      fc.property(filterArb, (filter) => {
        const totals = ledger.totalsByStatus(filter)
        const expected = reference(filter)
        expect(totals.reduce((s, t) => s + t.count, 0)).toBe(expected.length)
        expect(totals.reduce((s, t) => s + t.payoutCents, 0)).toBe(
          expected.reduce((s, r) => s + (r.payoutAmountCents ?? 0), 0),
        )
      }),
      { numRuns: 100, seed: 13 },
    )
  })

  it('pages tile the full result without repeats or gaps', () => {
    const filter: RecordFilter = { sort: { field: 'amount', dir: 'asc' } }
    const seen: string[] = []
    for (let offset = 0; ; offset += 50) {
      const page = ledger.query({ ...filter, offset })
      expect(page.total).toBe(all.length)
      if (page.rows.length === 0) break
      seen.push(...page.rows.map((r) => r.localId))
    }
    expect(seen).toEqual(reference(filter).map((r) => r.localId))
    expect(new Set(seen).size).toBe(all.length)
  })

  it('defaults: newest first, 50 rows', () => {
    const page = ledger.query()
    expect(page.rows).toHaveLength(50)
    expect(page.rows[0]?.localId).toBe(reference({})[0]?.localId)
  })

  it('text is case-, accent- and punctuation-insensitive where it should be', () => {
    const ids = (text: string): string[] =>
      ledger
        .query({ text, limit: 1000 })
        .rows.map((r) => r.localId)
        .sort()
    expect(ids('CONCEIÇÃO')).toEqual(ids('conceicao'))
    expect(ids('529.982.247-25')).toEqual(ids('52998224725'))
    expect(ids('529.982.247-25').length).toBeGreaterThan(ids('529.982').length - 1)
    expect(ids('rec-007')).toEqual(['rec-007'])
    // LIKE and FTS metacharacters are plain text.
    expect(ids('%')).toEqual(
      all
        .filter((r) => r.pixKey.includes('%'))
        .map((r) => r.localId)
        .sort(),
    )
    expect(ids('"wd')).toEqual([])
    expect(ids('c_1')).toEqual(ids('abc_1'))
    expect(ledger.query({ text: 'nothing-like-this' })).toEqual({ rows: [], total: 0 })
  })

  it('statuses: an empty list is no filter; "created" covers every created record', () => {
    expect(ledger.query({ statuses: [] }).total).toBe(all.length)
    expect(ledger.query({ statuses: ['created'] }).total).toBe(
      all.filter((r) => r.localState === 'created').length,
    )
    expect(ledger.query({ statuses: ['CANCELED'] }).total).toBe(
      all.filter((r) => r.remoteStatus === 'canceled').length,
    )
  })

  it('refuses an invalid filter', () => {
    for (const bad of [
      { from: 'yesterday' },
      { limit: 0 },
      { limit: 5000 },
      { sort: { field: 'pixKey', dir: 'asc' } },
    ]) {
      expect(() => ledger.query(bad as RecordFilter)).toThrow(LedgerError)
    }
  })

  it('iterate can stop early and the ledger stays usable, even when queried mid-iteration', () => {
    const it1 = ledger.iterate({ sort: { field: 'createdAt', dir: 'asc' } })
    const first = it1.next().value
    expect(ledger.query({ sort: { field: 'createdAt', dir: 'asc' }, limit: 1 }).rows[0]).toEqual(first)
    const second = it1.next().value
    expect(second?.localId).toBe(reference({ sort: { field: 'createdAt', dir: 'asc' } })[1]?.localId)
    it1.return(undefined)
    expect(ledger.query({ limit: 1 }).rows).toHaveLength(1)
  })
})
