/**
 * Ledger activity about no withdrawal of the profile `producao` — a deposit, a payment run, a withdrawal of the
 * profile `outro` created and observed — as happens between two exports in a real installation (anchors.test.ts,
 * test/main/app/review-older.test.ts).
 */
import type { Ledger } from '../../../src/main/ledger/sqlite/index'

/** A record of the other profile asked for, created and observed by the tracker: entries no export carries. */
export function observeOther(l: Ledger, i: number): void {
  const pixKey = `outro.${i}@example.com`
  const r = l.insertSubmitting(
    { profile: 'outro', pixKey, amountKind: 'payout', amountCents: 1_000 + i, request: { pixKey } },
    'ana',
  )
  l.markCreated(r.localId, { remoteId: `w-${i}`, createResponse: { id: `w-${i}` }, requestId: null })
  l.recordObservation(r.localId, { status: 'sent', body: { status: 'sent' } })
}

/** Another record's observation, a deposit, then a run: the run's entry (about no withdrawal) is last. */
export function unrelated(l: Ledger, i: number): void {
  observeOther(l, i)
  l.deposits.insertSubmitting(
    {
      profile: 'outro',
      request: { amountInCents: 5_000, depixAddress: 'ex1qq2jw3rjsfddfl5xu2ktlujm35t6k7a5z5m6q8l' },
    },
    'ana',
  )
  const draft = {
    pixKey: 'lote@example.com',
    taxNumber: '52998224725',
    amount: { kind: 'payout' as const, cents: 3_000 },
    refundAddress: 'ex1qq2jw3rjsfddfl5xu2ktlujm35t6k7a5z5m6q8l',
  }
  const row = {
    line: 2,
    draft,
    payee: { kind: 'none' as const, payeeId: null, name: null },
    refundFromProfile: false,
    duplicate: null,
    warnings: [],
  }
  l.runs.create({ profile: 'outro', name: 'Lote de teste', rows: [row] }, 'ana')
}
