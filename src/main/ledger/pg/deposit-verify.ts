/**
 * The deposits' part of the team ledger's integrity check (audit.ts verifyChain): every deposit row must still
 * hash to the state its latest audit entry recorded, as the SQLite ledger checks its deposits. A row edited
 * outside the app, or edited into something that is not a deposit at all, breaks the check.
 */
import type { AuditVerification } from '../../../shared/withdrawal-record'
import { recordStateHash } from '../model/state-hash'
import type { Queryable } from './queryable'
import { DEPOSIT_SELECT, rowToDeposit } from './deposit-rows'

const BATCH = 5000

/** Null when every deposit matches; otherwise the failed verification (`rows`: the chain's length). */
export async function verifyDepositStates(c: Queryable, rows: number): Promise<AuditVerification | null> {
  let lastId = 0
  for (;;) {
    const recs = await c.query(
      `SELECT d.id, ${DEPOSIT_SELECT},
         (SELECT a.state_hash FROM audit_log a WHERE a.subject = d.local_id AND a.state_hash IS NOT NULL
           ORDER BY a.seq DESC LIMIT 1) AS last_state
       FROM deposits d WHERE d.id > $1 ORDER BY d.id LIMIT ${BATCH}`,
      [lastId],
    )
    for (const row of recs.rows) {
      lastId = Number(row.id)
      let hash: string | null
      try {
        hash = recordStateHash(rowToDeposit(row))
      } catch {
        hash = null
      }
      if (hash === null || row.last_state !== hash) {
        return {
          ok: false,
          brokenAt: rows,
          reason: `record ${String(row.local_id)} differs from its latest audit entry`,
        }
      }
    }
    if (recs.rows.length < BATCH) return null
  }
}
