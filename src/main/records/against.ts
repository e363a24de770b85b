/**
 * verify-export --against: a newer export checked against an older one an auditor kept (its manifest head and
 * audit.jsonl). Both must verify on their own; then compareWithOlder (audit-member.ts) checks that the newer
 * one only added to the history the older one showed. What this proves and what it does not: docs/RECORDS.md.
 * The newer export must have been verified with `{ fixedHashes: true }` (a plain verification skips them).
 */
import { compareWithOlder } from './audit-member'
import { verifyExport, type ExportVerification, type VerificationProblem } from './verify'

export async function checkAgainst(
  newer: ExportVerification,
  olderManifestPath: string,
): Promise<VerificationProblem[]> {
  const file = 'against'
  if (newer.audit?.summary && newer.audit.stateHashes && !newer.audit.fixedHashes) {
    // A caller's mistake, never a pass: without them nothing fixed at creation would be compared.
    return [{ file, check: 'audit', detail: 'the newer export was verified without its fixed hashes' }]
  }
  const older = await verifyExport(olderManifestPath, { fixedHashes: true })
  if (!older.ok) {
    return [
      {
        file,
        check: 'audit',
        detail: `the older export does not verify (${older.problems.length} problems): ${older.problems
          .slice(0, 3)
          .map((p) => `${p.file} [${p.check}] ${p.detail}`)
          .join('; ')}`,
      },
    ]
  }
  const o = older.audit
  const n = newer.audit
  if (!o?.summary || !o.fixedHashes || !n?.summary || !n.fixedHashes) {
    return [{ file, check: 'audit', detail: 'both exports need records.json and audit.jsonl to be compared' }]
  }
  const problems = compareWithOlder(
    { head: newer.manifest?.auditHead ?? null, audit: n.summary, fixed: n.fixedHashes },
    { head: older.manifest?.auditHead ?? null, audit: o.summary, fixed: o.fixedHashes },
  )
  return problems.map((detail) => ({ file, check: 'audit', detail }))
}
