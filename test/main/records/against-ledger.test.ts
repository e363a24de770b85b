/**
 * checkAgainstLedger (records/against-ledger.ts) on its own, with a hand-made snapshot: the verdicts the router
 * test (test/main/app/review-ledger-check.test.ts) cannot reach with a real export.
 */
import { describe, expect, it } from 'vitest'
import { checkAgainstLedger } from '../../../src/main/records/against-ledger'
import type { AuditSummary } from '../../../src/main/records/audit-member'
import type { Manifest } from '../../../src/main/records/manifest'

const h = (n: number): string => n.toString(16).padStart(64, '0')
/** A ledger of `n` entries, entry i hashing to h(i), entries 2 and 4 about record "r1". */
function snapshot(n: number, ok = true) {
  const rows = Array.from({ length: n }, (_, i) => ({
    seq: i + 1,
    hash: h(i + 1),
    subject: i + 1 === 2 || i + 1 === 4 ? 'r1' : null,
  }))
  return {
    auditHead: () => ({ seq: n, hash: h(n) }),
    *auditHashesUpTo(seq: number) {
      yield* rows.filter((r) => r.seq <= seq)
    },
    verify: () =>
      Promise.resolve(
        ok ? ({ ok: true, rows: n } as const) : ({ ok: false, brokenAt: 3, reason: 'edited' } as const),
      ),
  }
}
function exported(head: { seq: number; hash: string } | null, entries: Array<[number, string]>) {
  const summary = {
    hashes: new Map(entries.map(([seq, hash]) => [seq, { hash, subject: 'r1' }])),
  } as unknown as AuditSummary
  return {
    manifest: { auditHead: head } as unknown as Manifest,
    audit: { summary, stateHashes: new Map([['r1', 'x']]), fixedHashes: null },
  }
}

describe('checkAgainstLedger', () => {
  it('matches when the head and every entry are this ledger’s', async () => {
    const r = await checkAgainstLedger(
      exported({ seq: 5, hash: h(5) }, [
        [2, h(2)],
        [4, h(4)],
      ]),
      snapshot(6),
    )
    expect(r).toMatchObject({ verdict: 'match', entriesMatched: 2, problems: [] })
  })
  it('an export without an audit trail: no_audit, and the chain is not even walked', async () => {
    const snap = { ...snapshot(6), verify: () => Promise.reject(new Error('not called')) }
    expect((await checkAgainstLedger(exported(null, []), snap)).verdict).toBe('no_audit')
    const noMember = { manifest: { auditHead: { seq: 1, hash: h(1) } } as unknown as Manifest }
    expect((await checkAgainstLedger(noMember, snap)).verdict).toBe('no_audit')
  })
  it('a broken ledger is no reference', async () => {
    const r = await checkAgainstLedger(exported({ seq: 5, hash: h(5) }, [[2, h(2)]]), snapshot(6, false))
    expect(r.verdict).toBe('ledger_broken')
    expect(r.problems[0]).toContain('broken at seq 3')
  })
  it('an entry that differs, or one the ledger lacks, with the head matching: entries_differ', async () => {
    const changed = await checkAgainstLedger(
      exported({ seq: 5, hash: h(5) }, [
        [2, h(2)],
        [4, h(99)],
      ]),
      snapshot(6),
    )
    expect(changed.verdict).toBe('entries_differ')
    expect(changed.problems).toEqual(["entry 4: the export's differs from this ledger's"])
    const missing = await checkAgainstLedger(exported({ seq: 5, hash: h(5) }, [[4, h(4)]]), snapshot(6))
    expect(missing.problems).toEqual(['entry 2 about r1 is in this ledger but not in the export'])
  })
  it('a head past this ledger, or naming another entry', async () => {
    expect((await checkAgainstLedger(exported({ seq: 9, hash: h(9) }, []), snapshot(6))).verdict).toBe(
      'not_in_ledger',
    )
    const other = await checkAgainstLedger(
      exported({ seq: 5, hash: h(50) }, [
        [2, h(2)],
        [4, h(4)],
      ]),
      snapshot(6),
    )
    expect(other.verdict).toBe('different_history')
    expect(other.entriesMatched).toBe(2)
  })
})
