/** The payment run of each withdrawal (ledger/model/run-links.ts) on the team ledger. */
import type { RunLink } from '../../../shared/run-link'
import { runLinksOf, runLinksSelect } from '../model/run-links'

const RUN_LINKS_SELECT = runLinksSelect("rr.payee ->> 'name'")
import type { Queryable } from './queryable'

/** The links of the given records (a page); run_rows.local_id is unique, so each is one index lookup. */
export async function runLinksFor(c: Queryable, localIds: readonly string[]): Promise<Map<string, RunLink>> {
  if (localIds.length === 0) return new Map()
  const r = await c.query(`${RUN_LINKS_SELECT} WHERE rr.local_id = ANY($1::text[])`, [[...localIds]])
  return runLinksOf(r.rows)
}
