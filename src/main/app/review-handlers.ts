/**
 * The offline review's checks of history (issue #12). `review:checkLedger`: the export open in the review against
 * the active profile's ledger — this computer's, or the team's on a team profile (issue #16) — on a snapshot of its
 * own so the tracker and the other desks keep writing meanwhile (records/against-ledger.ts).
 * `review:compareOlder`: the open export against an older export the auditor kept, whose folder comes only from
 * main's dialog through a one-use token and is read like any hostile folder (verify.ts, safe-read.ts); see
 * records/against.ts.
 */
import { join } from 'node:path'
import type { Handlers } from '../ipc/router'
import { checkAgainstLedger } from '../records/against-ledger'
import { compareWithOlderExport } from '../records/against'
import { MANIFEST_FILE } from '../records/manifest'
import { verifyExport } from '../records/verify'
import type { AppState } from './context'
import { AppError } from './errors'

type ReviewHandlers = Pick<Handlers, 'review:checkLedger' | 'review:compareOlder'>

const noReview = (): AppError => new AppError('no_review', 'Open an export folder first.')

export function reviewHandlers(state: AppState): ReviewHandlers {
  return {
    'review:checkLedger': async () => {
      const review = state.review
      if (!review) throw noReview()
      const team = state.runtime().team
      if (team) {
        if (!team.pg) throw team.refusal()
        const view = await team.pg.openView()
        try {
          const r = await checkAgainstLedger(review.verification, view)
          return { ...r, checkedAt: new Date().toISOString() }
        } finally {
          await view.close()
        }
      }
      const snap = state.ledger.snapshot()
      try {
        const r = await checkAgainstLedger(review.verification, snap)
        return { ...r, checkedAt: new Date().toISOString() }
      } finally {
        snap.close()
      }
    },
    'review:compareOlder': async ({ folder }) => {
      const review = state.review
      // Checked before the token is spent, so a press with nothing open does not cost the folder choice.
      if (!review) throw noReview()
      const chosen = state.folders.take(folder, 'review', state.runtime().profile.id)
      // The verification kept from review:open: the open export is not read again (it may have changed since;
      // what the page shows is what was verified).
      const older = await verifyExport(join(chosen, MANIFEST_FILE), { fixedHashes: true })
      review.addFixedHashes()
      const r = compareWithOlderExport(review.verification, older)
      const m = older.ok ? older.manifest : null
      return {
        ...r,
        older: m ? { exportedAt: m.exportedAt, profile: m.profile.name, rowCount: m.rowCount } : null,
        checkedAt: new Date().toISOString(),
      }
    },
  }
}
