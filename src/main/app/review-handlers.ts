/**
 * The offline review's ledger check (issue #12): the export open in the review against this computer's ledger,
 * on a snapshot of its own so the tracker keeps writing meanwhile. See records/against-ledger.ts.
 */
import type { Handlers } from '../ipc/router'
import { checkAgainstLedger } from '../records/against-ledger'
import type { AppState } from './context'
import { AppError } from './errors'

type ReviewHandlers = Pick<Handlers, 'review:checkLedger'>

export function reviewHandlers(state: AppState): ReviewHandlers {
  return {
    'review:checkLedger': async () => {
      const review = state.review
      if (!review) throw new AppError('no_review', 'Open an export folder first.')
      const snap = state.ledger.snapshot()
      try {
        const r = await checkAgainstLedger(review.verification, snap)
        return { ...r, checkedAt: new Date().toISOString() }
      } finally {
        snap.close()
      }
    },
  }
}
