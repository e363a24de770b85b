/**
 * The import's check against the ledger, asynchronously: the same query the create's guard runs (`findRecentSimilar`
 * of the store), so on a team ledger a run being planned sees every desk's recent payments, not only this desk's.
 * The file's own duplicates are marked by the importer (import/validate.ts); this adds the ledger's, keeping them.
 */
import { payoutCentsOf } from '../../shared/fees'
import type { ImportedRow } from '../../shared/run'
import type { SimilarQuery } from '../ledger/sqlite'
import type { LedgerStore } from '../ledger/ports'
import { canonicalKey } from './import/validate'

export async function markLedgerDuplicates(
  rows: ImportedRow[],
  find: LedgerStore['findRecentSimilar'],
  o: { sinceIso: string; windowMs?: number; profile?: string; partnerRateBps: number },
): Promise<void> {
  const cache = new Map<string, Promise<string[]>>()
  for (const row of rows) {
    const key = canonicalKey(row.draft.pixKey, row.draft.pixKeyType)
    const k = `${key.toLowerCase()}|${payoutCentsOf(row.draft.amount.kind, row.draft.amount.cents, o.partnerRateBps)}`
    let ids = cache.get(k)
    if (ids === undefined) {
      const q: SimilarQuery = {
        pixKey: key,
        amountKind: row.draft.amount.kind,
        amountCents: row.draft.amount.cents,
        sinceIso: o.sinceIso,
        ...(o.windowMs === undefined ? {} : { windowMs: o.windowMs }),
        partnerRateBps: o.partnerRateBps,
        ...(o.profile === undefined ? {} : { profile: o.profile }),
      }
      ids = find(q).then((found) => found.map((w) => w.localId))
      cache.set(k, ids)
    }
    const ledger = await ids
    if (ledger.length > 0) row.duplicate = { lines: row.duplicate?.lines ?? [], ledger }
  }
}
