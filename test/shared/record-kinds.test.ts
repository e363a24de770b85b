/**
 * One kind id for every layer: the descriptors of the ledger, the journal, the export and the totals answer to
 * the ids of shared/record-kinds.ts and nothing else, so a layer that drifts to a name of its own fails here.
 */
import { describe, expect, it } from 'vitest'
import { sideJournalEntrySchema } from '../../src/main/journal/side-journal'
import { DEPOSIT_KIND, WITHDRAWAL_KIND } from '../../src/main/ledger/model/kinds'
import { recordsKind } from '../../src/main/records/kinds'
import { meaningOf } from '../../src/shared/money-totals'
import { RECORD_KINDS, recordKindSchema } from '../../src/shared/record-kinds'

describe('the one record kind id', () => {
  it('is withdrawal and deposit, and a boundary accepts nothing else', () => {
    expect(RECORD_KINDS).toEqual(['withdrawal', 'deposit'])
    for (const id of RECORD_KINDS) expect(recordKindSchema.parse(id)).toBe(id)
    for (const bad of ['payout', 'Withdrawal', 'deposits', '', null, 1])
      expect(recordKindSchema.safeParse(bad).success).toBe(false)
  })

  it('names the ledger descriptors (their audit prefix)', () => {
    expect([WITHDRAWAL_KIND.action, DEPOSIT_KIND.action]).toEqual([...RECORD_KINDS])
  })

  it('selects the export descriptor of the same id; none is a withdrawal export', () => {
    for (const id of RECORD_KINDS) expect(recordsKind(id).id).toBe(id)
    expect(recordsKind(undefined).id).toBe('withdrawal')
    expect(recordsKind('deposit').jsonSchema).toBe('tesouraria-depix/deposits')
  })

  it("is the journal's `record`", () => {
    const record = sideJournalEntrySchema.shape.record
    for (const id of RECORD_KINDS) expect(record.parse(id)).toBe(id)
    expect(record.parse(undefined)).toBeUndefined()
    expect(record.safeParse('payout').success).toBe(false)
  })

  it("selects the kind's own meaning table in the totals", () => {
    expect(meaningOf('depix_sent', false, 'deposit')).toBe('paid')
    expect(meaningOf('depix_sent', false, 'withdrawal')).toBe('other')
    expect(meaningOf('sent', false, 'withdrawal')).toBe('paid')
    expect(meaningOf('sent', false, 'deposit')).toBe('other')
    expect(meaningOf('sent', false)).toBe('paid')
  })
})
