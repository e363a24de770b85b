/**
 * The channels of the offline review (src/shared/channels-review.ts, issue #12). `review:open` verifies an export
 * folder main's dialog chose (a one-use token) and holds it, one at a time; the renderer lists its records and
 * compares its signer with a fingerprint it got out of band.
 *
 * The checks of history. `review:checkLedger`: the export open in the review against the active profile's ledger —
 * this computer's, or the team's on a team profile (issue #16) — on a snapshot of its own so the tracker and the
 * other desks keep writing meanwhile (records/against-ledger.ts). `review:compareOlder`: the open export against an
 * older export the auditor kept, whose folder comes only from main's dialog through a one-use token and is read
 * like any hostile folder (verify.ts, safe-read.ts); see records/against.ts.
 */
import { join } from 'node:path'
import type { reviewChannels } from '../../shared/channels-review'
import type { HandlersOf } from '../ipc/router'
import { normalizeFingerprint, openReview } from '../records'
import { checkAgainstLedger } from '../records/against-ledger'
import { compareWithOlderExport } from '../records/against'
import { MANIFEST_FILE } from '../records/manifest'
import { compareSigner } from '../records/review'
import { openPgLedgerView } from '../ledger/engines'
import { verifyExport } from '../records/verify'
import type { ReviewDeps } from './deps'
import { engineOf } from './engine'
import { AppError } from './errors'
import { localFingerprint } from './signing-key'

const noReview = (): AppError => new AppError('no_review', 'Open an export folder first.')

/** "AB12CD34…" as typed → "ab12 cd34 …", the way keyFingerprint prints it. */
function displayFingerprint(input: string): string {
  const hex = normalizeFingerprint(input)
  return hex.match(/.{4}/g)?.join(' ') ?? hex
}

export function reviewHandlers(deps: ReviewDeps): HandlersOf<typeof reviewChannels> {
  const { review: slot, vault } = deps

  /** Prefilled only when the export carries this installation's own key; otherwise nothing is trusted. */
  const ownSigner = (signerFingerprint: string) => {
    const own = localFingerprint(vault)
    if (own === null || signerFingerprint === '' || compareSigner(signerFingerprint, own) !== 'match') {
      return { match: 'none', expected: null, source: null } as const
    }
    return { match: 'match', expected: own, source: 'this_computer' } as const
  }

  return {
    'review:open': async ({ folder }) => {
      const chosen = deps.folders.take(folder, 'review', deps.runtime().profile.id)
      slot.current?.close()
      slot.current = null
      const review = await openReview(join(chosen, MANIFEST_FILE))
      slot.current = review
      const v = review.verification
      const m = v.manifest
      return {
        dir: chosen,
        ok: v.ok,
        problems: v.problems,
        signerFingerprint: v.signerFingerprint,
        signer: ownSigner(v.signerFingerprint),
        manifest: m
          ? {
              appVersion: m.appVersion,
              profile: m.profile.name,
              network: m.profile.network,
              exportedAt: m.exportedAt,
              rowCount: m.rowCount,
              ...(m.recordKind ? { recordKind: m.recordKind } : {}),
            }
          : null,
        // Issue #30: the verified count while the ledger loads (an intact export's ledger holds exactly those).
        rowCount:
          v.ok && m
            ? m.rowCount
            : m?.recordKind === 'deposit'
              ? review.ledger.deposits.query({ limit: 1 }).total
              : review.ledger.query({ limit: 1 }).total,
      }
    },
    'review:checkSigner': ({ expected }) => {
      const review = slot.current
      if (!review) throw noReview()
      let match
      try {
        match = compareSigner(review.verification.signerFingerprint, expected)
      } catch {
        throw new AppError('fingerprint_invalid', 'A key fingerprint is 32 hexadecimal digits.', {
          fields: { expected: 'fingerprint_invalid' },
        })
      }
      if (match === 'none') return { match, expected: null, source: null }
      const own = localFingerprint(vault)
      const fromHere = own !== null && compareSigner(own, expected) === 'match'
      return { match, expected: displayFingerprint(expected), source: fromHere ? 'this_computer' : 'entered' }
    },
    'review:list': async (filter) => {
      const review = slot.current
      if (!review) throw noReview()
      // The first page while the ledger loads (review.ts); anything else waits for the load.
      const first = review.firstPage(filter)
      if (first) return first
      const wasOk = review.verification.ok
      await review.loaded
      // Only a forged export verifies and then fails to load (two records with one remote id): never an empty
      // list under a green verdict.
      if (wasOk && !review.verification.ok) {
        throw new AppError(
          'review_not_loadable',
          review.verification.problems.at(-1)?.detail ?? 'not loadable',
        )
      }
      const page = review.ledger.query(filter)
      return { rows: page.rows, total: page.total, totals: review.ledger.totalsByStatus(filter) }
    },
    'review:close': () => {
      slot.current?.close()
      slot.current = null
      return null
    },

    'review:checkLedger': async () => {
      const review = slot.current
      if (!review) throw noReview()
      const engine = engineOf(deps.runtime())
      if (engine.kind === 'postgres') {
        const view = await openPgLedgerView(engine.connected().pool)
        try {
          const r = await checkAgainstLedger(review.verification, view)
          return { ...r, checkedAt: new Date().toISOString() }
        } finally {
          await view.close()
        }
      }
      const snap = deps.ledger.snapshot()
      try {
        const r = await checkAgainstLedger(review.verification, snap)
        return { ...r, checkedAt: new Date().toISOString() }
      } finally {
        snap.close()
      }
    },
    'review:compareOlder': async ({ folder }) => {
      const review = slot.current
      // Checked before the token is spent, so a press with nothing open does not cost the folder choice.
      if (!review) throw noReview()
      const chosen = deps.folders.take(folder, 'review', deps.runtime().profile.id)
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
