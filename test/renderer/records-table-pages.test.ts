import { describe, expect, it } from 'vitest'
import { PageCache } from '../../src/renderer/src/components/records-table/page-cache'
import { badgePropsOfTotal, sumTotals } from '../../src/renderer/src/components/records-table/StatusTotals'
import { shortId } from '../../src/renderer/src/components/records-table/columns'
import type { WithdrawalRecord } from '../../src/shared/withdrawal-record'

const rec = (i: number): WithdrawalRecord =>
  ({ localId: `id-${i}`, remoteStatus: 'unsent' }) as WithdrawalRecord
const page = (offset: number, n: number): WithdrawalRecord[] =>
  Array.from({ length: n }, (_, i) => rec(offset + i))

describe('PageCache', () => {
  it('asks only for the missing pages covering a range, within the total', () => {
    const c = new PageCache(200, 10)
    expect(c.missing(0, 30, 100_000)).toEqual([0])
    expect(c.missing(190, 410, 100_000)).toEqual([0, 200, 400])
    expect(c.missing(99_990, 100_020, 100_000)).toEqual([99_800])
    expect(c.missing(0, 10, 0)).toEqual([])
    c.markPending(0)
    expect(c.missing(0, 30, 100_000)).toEqual([])
    c.set(0, page(0, 200))
    expect(c.get(0)?.localId).toBe('id-0')
    expect(c.get(199)?.localId).toBe('id-199')
    expect(c.get(200)).toBeUndefined()
    expect(c.missing(150, 250, 100_000)).toEqual([200])
  })

  it('lets a failed page be asked for again', () => {
    const c = new PageCache(200, 10)
    c.markPending(400)
    c.clearPending(400)
    expect(c.missing(400, 401, 1000)).toEqual([400])
  })

  it('keeps a bounded number of pages, evicting the least recently used', () => {
    const c = new PageCache(10, 3)
    c.set(0, page(0, 10))
    c.set(10, page(10, 10))
    c.set(20, page(20, 10))
    c.touch(0, 5) // page 0 used again: page 10 is now the oldest
    c.set(30, page(30, 10))
    expect(c.size).toBe(3)
    expect(c.get(5)).toBeDefined()
    expect(c.get(15)).toBeUndefined()
    expect(c.get(35)).toBeDefined()
  })

  it('keeps the run (Lote) of each cached row from a run, and drops it with its page', () => {
    const c = new PageCache(10, 1)
    const run = { runId: 'run-1', name: 'Folha de novembro', line: 3, payee: 'Fornecedora Beta' }
    // A link for a row not on the page is not kept.
    c.set(0, page(0, 10), { 'id-2': run, 'id-50': run })
    expect(c.runOf('id-2')).toEqual(run)
    expect(c.runOf('id-3')).toBeUndefined()
    expect(c.runOf('id-50')).toBeUndefined()
    c.set(10, page(10, 10))
    expect(c.get(2)).toBeUndefined()
    expect(c.runOf('id-2')).toBeUndefined()
  })

  it('replaces a cached record in place, and says when it is not cached', () => {
    const c = new PageCache(10, 3)
    c.set(0, page(0, 10))
    expect(c.replace({ ...rec(3), remoteStatus: 'sent' })).toBe(true)
    expect(c.get(3)?.remoteStatus).toBe('sent')
    expect(c.replace(rec(99))).toBe(false)
  })
})

describe('totals', () => {
  it('map a display status to the badge: local states as local, the rest as remote (raw kept)', () => {
    const base = { count: 1, depositCents: 0, payoutCents: 0 }
    expect(badgePropsOfTotal({ ...base, status: 'outcome_unknown', hasRefund: false })).toEqual({
      status: null,
      localState: 'outcome_unknown',
      hasRefund: false,
    })
    expect(badgePropsOfTotal({ ...base, status: 'sent', hasRefund: false })).toEqual({
      status: 'sent',
      localState: 'created',
      hasRefund: false,
    })
    expect(badgePropsOfTotal({ ...base, status: 'em_analise', hasRefund: true }).status).toBe('em_analise')
  })

  it('add up counts and sums in integer cents', () => {
    expect(
      sumTotals([
        { status: 'sent', hasRefund: false, count: 2, depositCents: 20_202, payoutCents: 20_000 },
        { status: 'refunded', hasRefund: true, count: 1, depositCents: 101, payoutCents: 0 },
      ]),
    ).toEqual({ count: 3, depositCents: 20_303, payoutCents: 20_000 })
    expect(sumTotals([])).toEqual({ count: 0, depositCents: 0, payoutCents: 0 })
  })
})

describe('shortId', () => {
  it('keeps short ids whole and marks cut ones', () => {
    expect(shortId('abc')).toBe('abc')
    expect(shortId('c821c801-37c4-48db')).toBe('c821c801…')
  })
})
