/** The payment run of each withdrawal (ledger/model/run-links.ts) on this computer's ledger. */
import type { RunLink } from '../../../shared/run-link'
import { runLinksOf, runLinksSelect } from '../model/run-links'

const RUN_LINKS_SELECT = runLinksSelect("json_extract(rr.payee, '$.name')")
import type { Db } from './db'

/** The links of the given records (a page); run_rows.local_id is unique, so each is one index lookup. */
export function runLinksFor(db: Db, localIds: readonly string[]): Map<string, RunLink> {
  if (localIds.length === 0) return new Map()
  return runLinksOf(
    db
      .stmt(`${RUN_LINKS_SELECT} WHERE rr.local_id IN (SELECT value FROM json_each(?))`)
      .all(JSON.stringify(localIds)),
  )
}
