/**
 * Everything the team's audit chain covers, checked on one connection: the chain with every record and deposit
 * against its latest entry (audit.ts), then the payee book (payees.ts). The store's `verifyAuditChain` and an
 * export's view (export-view.ts) both call this, so an export vouches for what the start-up check checks.
 */
import type { AuditVerification } from '../../../shared/withdrawal-record'
import { verifyChain } from './audit'
import { verifyPgPayees } from './payees'
import type { Tx } from './tx'

export async function verifyTeamLedger(c: Tx['c']): Promise<AuditVerification> {
  const v = await verifyChain(c)
  if (!v.ok) return v
  const p = await verifyPgPayees(c)
  return p ? { ok: false, brokenAt: v.rows, reason: `payee ${p.id} ${p.reason}` } : v
}
