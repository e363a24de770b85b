/**
 * The hash of one audit entry (see audit.ts). A leaf module: the export verifier recomputes it without loading
 * the ledger (node:sqlite).
 */
import { hash } from 'node:crypto'
import type { AuditEntry } from '../../../shared/withdrawal-record'
import { canonicalJson } from './canonical-json'

export function auditHash(e: Omit<AuditEntry, 'hash'>): string {
  return auditHashOfText(e, canonicalJson(e.details))
}

/**
 * The same hash from the details' canonical text as it is stored (audit_log.details) or exported: no parse, no
 * re-canonicalisation. Equal to auditHash(e) exactly when `detailsText` is canonicalJson(e.details); callers that
 * cannot vouch for that fall back to auditHash (verify-chain.ts, audit-member.ts).
 */
export function auditHashOfText(e: Omit<AuditEntry, 'hash' | 'details'>, detailsText: string): string {
  const fields: unknown[] = [e.seq, e.at, e.operator, e.action, e.subject, detailsText, e.prevHash]
  // Entries written before migration 5 have no state hash and keep the hash they were written with.
  if (typeof e.stateHash === 'string') fields.push(e.stateHash)
  return hash('sha256', JSON.stringify(fields))
}
