/** The "Precisa de ação" filter: outcome unknown, a flagged address or key, or a deadline ≤ 10 min away. */
import { describe, expect, it } from 'vitest'
import { ATTENTION_DEADLINE_MS } from '../../../../src/shared/withdrawal-record'
import { newWithdrawal, tempLedger } from './helpers'

describe('attention filter', () => {
  it('matches exactly the records that need the operator, and combines with the other filters', () => {
    const { ledger } = tempLedger()
    const created = (localId: string, body: Record<string, unknown> | null): void => {
      ledger.insertSubmitting(newWithdrawal({ localId }), 'ana')
      ledger.markCreated(localId, { remoteId: `wd-${localId}`, createResponse: {}, requestId: null })
      if (body) ledger.recordObservation(localId, { status: String(body['status']), body })
    }
    const at = (ms: number): string => new Date(Date.now() + ms).toISOString()
    ledger.insertSubmitting(newWithdrawal({ localId: 'unknown' }), 'ana')
    ledger.markOutcomeUnknown('unknown', null, 'timeout')
    created('soon', { status: 'unsent', expiration: at(ATTENTION_DEADLINE_MS / 2) })
    created('past', { status: 'unsent', expiration: at(-60_000) })
    created('later', { status: 'unsent', expiration: at(ATTENTION_DEADLINE_MS * 6) })
    created('no-deadline', { status: 'unsent' })
    // A paid record whose deadline was near: finished, nothing to do.
    created('paid', { status: 'sent', expiration: at(60_000) })
    created('flagged', { status: 'sending' })
    ledger.setFlags('flagged', ['deposit_address_changed'], 'ana')
    created('other-flag', { status: 'sending' })
    ledger.setFlags('other-flag', ['remote_status_conflict'], 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 'rejected' }), 'ana')

    const ids = (f: Parameters<typeof ledger.query>[0]): string[] =>
      ledger
        .query(f)
        .rows.map((r) => r.localId)
        .sort()
    expect(ids({ attention: true })).toEqual(['flagged', 'past', 'soon', 'unknown'])
    expect(ids({ attention: false })).toHaveLength(9)
    expect(ids({ attention: true, statuses: ['unsent'] })).toEqual(['past', 'soon'])
    expect(ledger.totalsByStatus({ attention: true }).reduce((n, t) => n + t.count, 0)).toBe(4)
  })
})
