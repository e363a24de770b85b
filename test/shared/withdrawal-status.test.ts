import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  decideStatus,
  isKnownStatus,
  isLingeringStatus,
  isSettledStatus,
  isTerminalStatus,
  normalizeStatus,
  statusCategory,
  statusRank,
  UNKNOWN_STATUS_RANK,
  type StatusPoint,
} from '../../src/shared/withdrawal-status'

describe('normalizeStatus', () => {
  it('lower-cases and folds separators', () => {
    expect(normalizeStatus('SENT')).toBe('sent')
    expect(normalizeStatus('  Awaiting-Funding ')).toBe('awaiting_funding')
    expect(normalizeStatus('awaiting  funding')).toBe('awaiting_funding')
    expect(normalizeStatus('awaiting__-funding')).toBe('awaiting_funding')
  })
  it('treats both spellings of cancelled as one', () => {
    expect(normalizeStatus('Canceled')).toBe('cancelled')
    expect(normalizeStatus('CANCELLED')).toBe('cancelled')
  })
  it('keeps unknown statuses (only normalised, never mapped)', () => {
    expect(normalizeStatus('Em Análise')).toBe('em_análise')
    expect(isKnownStatus('Em Análise')).toBe(false)
    expect(normalizeStatus('')).toBe('')
  })
})

describe('isTerminalStatus', () => {
  it.each(['sent', 'refunded', 'expired', 'cancelled', 'canceled', 'SENT'])('%s is terminal', (s) => {
    expect(isTerminalStatus(s, false)).toBe(true)
  })
  it('error is terminal only once a refund is present', () => {
    expect(isTerminalStatus('error', false)).toBe(false)
    expect(isTerminalStatus('error', true)).toBe(true)
  })
  it.each(['unsent', 'sending', 'pending_review', ''])('%s is not terminal', (s) => {
    expect(isTerminalStatus(s, false)).toBe(false)
    if (s !== 'unsent' && s !== 'sending') expect(isTerminalStatus(s, true)).toBe(false)
  })
})

describe('isLingeringStatus and isSettledStatus', () => {
  it('expired, cancelled and refunded without a refund object can still change', () => {
    for (const st of ['expired', 'Canceled', 'cancelled', 'refunded']) {
      expect(isLingeringStatus(st, false)).toBe(true)
      expect(isSettledStatus(st, false)).toBe(false)
      expect(isLingeringStatus(st, true)).toBe(false)
      expect(isSettledStatus(st, true)).toBe(true)
    }
  })
  it('sent is settled; error, unknown and in-progress statuses are neither settled nor lingering', () => {
    expect(isSettledStatus('sent', false)).toBe(true)
    expect(isLingeringStatus('sent', false)).toBe(false)
    for (const st of ['unsent', 'sending', 'error', 'em_analise', '']) {
      expect(isSettledStatus(st, false)).toBe(false)
      expect(isLingeringStatus(st, false)).toBe(false)
    }
  })
})

describe('statusRank', () => {
  it('orders each lifecycle path', () => {
    expect(statusRank('unsent')).toBeLessThan(statusRank('sending'))
    expect(statusRank('sending')).toBeLessThan(statusRank('sent'))
    expect(statusRank('unsent')).toBeLessThan(statusRank('error'))
    expect(statusRank('error')).toBeLessThan(statusRank('refunded'))
    expect(statusRank('unsent')).toBeLessThan(statusRank('expired'))
    expect(statusRank('sent')).toBeLessThan(statusRank('refunded'))
  })
  it('puts unknown statuses just above unsent and below everything else', () => {
    expect(statusRank('whatever')).toBe(UNKNOWN_STATUS_RANK)
    expect(statusRank('unsent')).toBeLessThan(UNKNOWN_STATUS_RANK)
    for (const s of ['sending', 'error', 'sent', 'expired', 'cancelled', 'refunded']) {
      expect(statusRank(s)).toBeGreaterThan(UNKNOWN_STATUS_RANK)
    }
  })
})

describe('statusCategory', () => {
  it('groups known statuses', () => {
    expect(statusCategory('unsent', false)).toBe('awaiting_funding')
    expect(statusCategory('Sending', false)).toBe('processing')
    expect(statusCategory('sent', false)).toBe('paid')
    expect(statusCategory('error', false)).toBe('failed')
    expect(statusCategory('refunded', false)).toBe('refunded')
    expect(statusCategory('expired', false)).toBe('expired')
    expect(statusCategory('canceled', false)).toBe('cancelled')
    expect(statusCategory('mystery', false)).toBe('unknown')
  })
  it('a refund wins over the status string', () => {
    expect(statusCategory('error', true)).toBe('refunded')
    expect(statusCategory('mystery', true)).toBe('refunded')
  })
})

const at = (n: number): string => new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString()
const point = (status: string, n: number, hasRefund = false): StatusPoint => ({
  status,
  hasRefund,
  at: at(n),
})

/** Applies observations in the given order, as the ledger does, and returns the status left standing. */
function settle(obs: StatusPoint[]): StatusPoint | null {
  let cur = null as StatusPoint | null
  let refund = false
  for (const o of obs) {
    refund ||= o.hasRefund
    if (decideStatus(cur, o).replace) cur = { ...o, hasRefund: refund }
    else if (cur) cur = { ...cur, hasRefund: refund }
  }
  return cur
}

describe('decideStatus', () => {
  it('takes the first status', () => {
    expect(decideStatus(null, point('unsent', 1))).toEqual({ replace: true, conflict: false })
  })
  it('never lets an older status overwrite a newer one', () => {
    expect(decideStatus(point('sent', 5), point('sending', 9)).replace).toBe(false)
    expect(decideStatus(point('sending', 5), point('unsent', 9)).replace).toBe(false)
    expect(decideStatus(point('refunded', 5, true), point('error', 9)).replace).toBe(false)
  })
  it('never replaces a terminal status by a non-terminal or unknown one', () => {
    for (const t of ['sent', 'expired', 'cancelled', 'refunded']) {
      for (const n of ['unsent', 'sending', 'error', 'brand_new_status']) {
        expect(decideStatus(point(t, 1), point(n, 2)).replace).toBe(false)
      }
    }
    expect(decideStatus(point('error', 1, true), point('brand_new', 2)).replace).toBe(false)
  })
  it('between a known and an unknown status, the later observation wins (polling order is the true order)', () => {
    expect(decideStatus(point('unsent', 1), point('em_analise', 2)).replace).toBe(true)
    expect(decideStatus(point('sending', 1), point('em_analise', 2)).replace).toBe(true)
    expect(decideStatus(point('error', 1), point('em_analise', 2)).replace).toBe(true)
    expect(decideStatus(point('sending', 2), point('em_analise', 1)).replace).toBe(false)
    expect(decideStatus(point('em_analise', 1), point('sending', 2)).replace).toBe(true)
    expect(decideStatus(point('em_analise', 1), point('unsent', 2)).replace).toBe(true)
    expect(decideStatus(point('em_analise', 2), point('unsent', 1)).replace).toBe(false)
    expect(decideStatus(point('em_analise', 1), point('outro', 2)).replace).toBe(true)
  })
  it('a deposit after expiry or cancellation is returned: → refunded is applied without a conflict', () => {
    for (const t of ['expired', 'cancelled']) {
      expect(decideStatus(point(t, 1), point('refunded', 2))).toEqual({ replace: true, conflict: false })
      expect(decideStatus(point(t, 1), point('refunded', 2, true))).toEqual({
        replace: true,
        conflict: false,
      })
    }
  })
  it('equal rank: the later observation wins, an earlier one does not', () => {
    expect(decideStatus(point('sent', 1), point('sent', 2)).replace).toBe(true)
    expect(decideStatus(point('sent', 2), point('sent', 1)).replace).toBe(false)
    expect(decideStatus(point('error', 1), point('error', 2, true)).replace).toBe(true)
  })
  it('keeps the first of two different terminal statuses of equal rank and reports a conflict', () => {
    expect(decideStatus(point('sent', 1), point('expired', 2))).toEqual({ replace: false, conflict: true })
    expect(decideStatus(point('expired', 1), point('cancelled', 2))).toEqual({
      replace: false,
      conflict: true,
    })
  })
  it('error with refund → refunded is the normal end, not a conflict', () => {
    expect(decideStatus(point('error', 1, true), point('refunded', 2, true))).toEqual({
      replace: true,
      conflict: false,
    })
  })
  it('sent → refunded is applied (the refund is the last word) but flagged', () => {
    expect(decideStatus(point('sent', 1), point('refunded', 2, true))).toEqual({
      replace: true,
      conflict: true,
    })
  })

  const paths: StatusPoint[][] = [
    [point('unsent', 1), point('sending', 2), point('sent', 3)],
    [
      point('unsent', 1),
      point('sending', 2),
      point('error', 3),
      point('error', 4, true),
      point('refunded', 5, true),
    ],
    [point('unsent', 1), point('error', 2), point('refunded', 3, true)],
    [point('unsent', 1), point('expired', 2)],
    [point('unsent', 1), point('cancelled', 2)],
    [point('unsent', 1), point('sending', 2), point('sending', 3)],
  ]
  it('property: any arrival order of one lifecycle settles on its last status', () => {
    fc.assert(
      fc.property(
        fc
          .constantFrom(...paths)
          .chain((p) =>
            fc.shuffledSubarray(p, { minLength: p.length, maxLength: p.length }).map((s) => [p, s] as const),
          ),
        ([path, shuffled]) => {
          const last = path[path.length - 1]
          const settled = settle(shuffled)
          expect(settled?.status).toBe(last?.status)
          expect(settled?.at).toBe(last?.at)
        },
      ),
    )
  })
  it('property: once terminal, a record never shows a non-terminal status again', () => {
    const statuses = [
      'unsent',
      'sending',
      'sent',
      'error',
      'refunded',
      'expired',
      'cancelled',
      'weird',
      'Sent',
    ]
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ status: fc.constantFrom(...statuses), hasRefund: fc.boolean(), n: fc.nat(1000) }),
          {
            maxLength: 30,
          },
        ),
        (xs) => {
          let cur = null as StatusPoint | null
          let wasTerminal = false
          for (const x of xs) {
            const p = point(x.status, x.n, x.hasRefund)
            // As the ledger does: a refund, once seen, stays with the record.
            if (decideStatus(cur, p).replace)
              cur = { ...p, hasRefund: p.hasRefund || (cur?.hasRefund ?? false) }
            else if (cur && p.hasRefund) cur = { ...cur, hasRefund: true }
            if (cur && isTerminalStatus(cur.status, cur.hasRefund)) wasTerminal = true
            else if (wasTerminal) return false
          }
          return true
        },
      ),
      { numRuns: 2000 },
    )
  })
})
