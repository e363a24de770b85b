/**
 * The offline review's "check with this computer's ledger": the export's audit trail must be part of this
 * ledger's own history. What `verify-export --against` does between two exports (against.ts), done here against
 * the live ledger, whose chain is the reference:
 *
 * 1. the ledger's own chain verifies (on a snapshot, pausing for the event loop; an unverifiable reference
 *    proves nothing);
 * 2. the export's audit head is an entry of this ledger with the same hash — since every entry's hash covers the
 *    one before it, the whole history up to that head is then the same (ledger.verifyExtends' reasoning);
 * 3. every entry the export carries is this ledger's entry of the same seq, and no entry of this ledger up to the
 *    head about an exported record is missing from the export (a forged or dropped entry inside a re-signed
 *    export shows even when the head matches).
 *
 * An export from another ledger fails at 2 (its head names an entry this ledger does not have, or a different
 * one); so does one made from a copy of this ledger that went on separately (a fork), or when this ledger was
 * replaced by an older copy (the export goes beyond it). The details are English, for "Detalhes técnicos".
 */
import type { ExportVerification } from './verify'
import type { AuditVerification } from '../../shared/withdrawal-record'
import type { AuditHead } from '../ledger/sqlite/audit'

/**
 * The ledger as the check reads it: this computer's snapshot (ledger/sqlite/snapshot.ts, synchronous) or the team's
 * read-only view (ledger/pg/export-view.ts, async), both one consistent moment of a live ledger.
 */
export interface LedgerCheckSource {
  auditHead(): AuditHead | Promise<AuditHead>
  auditHashesUpTo(
    seq: number,
  ):
    | Iterable<{ seq: number; hash: string; subject: string | null }>
    | AsyncIterable<{ seq: number; hash: string; subject: string | null }>
  verify(): Promise<AuditVerification>
}

export type LedgerCheckVerdict =
  'match' | 'not_in_ledger' | 'different_history' | 'entries_differ' | 'ledger_broken' | 'no_audit'

export interface LedgerCheck {
  verdict: LedgerCheckVerdict
  exportHead: { seq: number; hash: string } | null
  ledgerHead: { seq: number; hash: string }
  /** Entries of the export found in this ledger with the same hash. */
  entriesMatched: number
  /** English, for the technical details; at most MAX_PROBLEMS. */
  problems: string[]
}

const MAX_PROBLEMS = 20
const STEP_ROWS = 5_000

export async function checkAgainstLedger(
  v: Pick<ExportVerification, 'manifest' | 'audit'>,
  snap: LedgerCheckSource,
): Promise<LedgerCheck> {
  const ledgerHead = await snap.auditHead()
  const exportHead = v.manifest?.auditHead ?? null
  const summary = v.audit?.summary ?? null
  const base = { exportHead, ledgerHead, entriesMatched: 0 }
  if (!exportHead || !summary) {
    return {
      ...base,
      verdict: 'no_audit',
      problems: ['the export has no audit head or no audit.jsonl (made before the audit trail)'],
    }
  }
  const chain = await snap.verify()
  if (!chain.ok) {
    return {
      ...base,
      verdict: 'ledger_broken',
      problems: [`this ledger's audit chain is broken at seq ${chain.brokenAt}: ${chain.reason}`],
    }
  }
  if (exportHead.seq > ledgerHead.seq) {
    return {
      ...base,
      verdict: 'not_in_ledger',
      problems: [
        `the export's audit head is entry ${exportHead.seq}; this ledger ends at entry ${ledgerHead.seq}`,
      ],
    }
  }

  const records = v.audit?.stateHashes
  const problems: string[] = []
  const add = (p: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(p)
  }
  let headHash: string | null = null
  let matched = 0
  let seen = 0
  let n = 0
  for await (const row of snap.auditHashesUpTo(exportHead.seq)) {
    if (++n % STEP_ROWS === 0) await new Promise<void>((resolve) => setImmediate(resolve))
    if (row.seq === exportHead.seq) headHash = row.hash
    const e = summary.hashes.get(row.seq)
    if (e) {
      seen += 1
      if (e.hash === row.hash && e.subject === row.subject) matched += 1
      else add(`entry ${row.seq}: the export's differs from this ledger's`)
    } else if (row.subject !== null && records?.has(row.subject)) {
      add(`entry ${row.seq} about ${row.subject} is in this ledger but not in the export`)
    }
  }
  if (headHash !== exportHead.hash) {
    return {
      ...base,
      entriesMatched: matched,
      verdict: 'different_history',
      problems: [
        headHash === null
          ? `this ledger has no entry ${exportHead.seq}, the export's audit head`
          : `entry ${exportHead.seq} (the export's audit head) is not this ledger's: another ledger, or history rewritten`,
        ...problems,
      ].slice(0, MAX_PROBLEMS),
    }
  }
  if (seen < summary.hashes.size) {
    add(`${summary.hashes.size - seen} entries of the export are not in this ledger`)
  }
  return {
    ...base,
    entriesMatched: matched,
    verdict: problems.length === 0 ? 'match' : 'entries_differ',
    problems,
  }
}
