/**
 * A newer export checked against an older one an auditor kept (its manifest head and audit.jsonl): the CLI's
 * `verify-export --against` (against) and the review page's "Comparar com uma exportação anterior"
 * (compareWithOlderExport). Both exports must verify on their own; then compareWithOlder (audit-member.ts) checks
 * that the newer one only added to the history the older one showed. What this proves and what it does not:
 * docs/RECORDS.md.
 * The newer export must have been verified with `{ fixedHashes: true }` (a plain verification skips them).
 */
import type { OlderCheckVerdict } from '../../shared/channels-review'
import { compareWithOlder, knownHash, type Head } from './audit-member'
import { normalizeFingerprint } from './sign'
import { verifyExport, type ExportVerification, type VerificationProblem } from './verify'

/**
 * What `verify-export --against` reports: `problems` (the newer export then does not verify: exit status 1) and
 * `notes` (printed, not failures): what the review page shows amber and is no fault of the newer export — its
 * history cannot be linked to the older head from these two files, or the two were signed by different keys.
 */
export interface AgainstOutcome {
  problems: VerificationProblem[]
  notes: string[]
}

export async function against(newer: ExportVerification, olderManifestPath: string): Promise<AgainstOutcome> {
  const file = 'against'
  if (newer.audit?.summary && newer.audit.stateHashes && !newer.audit.fixedHashes) {
    // A caller's mistake, never a pass: without them nothing fixed at creation would be compared.
    return {
      problems: [{ file, check: 'audit', detail: 'the newer export was verified without its fixed hashes' }],
      notes: [],
    }
  }
  const older = await verifyExport(olderManifestPath, { fixedHashes: true })
  if (!older.ok) {
    return {
      problems: [
        {
          file,
          check: 'audit',
          detail: `the older export does not verify (${older.problems.length} problems): ${older.problems
            .slice(0, 3)
            .map(problemLine)
            .join('; ')}`,
        },
      ],
      notes: [],
    }
  }
  const o = older.audit
  const n = newer.audit
  if (!o?.summary || !o.fixedHashes || !n?.summary || !n.fixedHashes) {
    return {
      problems: [
        { file, check: 'audit', detail: 'both exports need records.json and audit.jsonl to be compared' },
      ],
      notes: [],
    }
  }
  const problems = compareWithOlder(
    { head: newer.manifest?.auditHead ?? null, audit: n.summary, fixed: n.fixedHashes, anchors: n.anchors },
    { head: older.manifest?.auditHead ?? null, audit: o.summary, fixed: o.fixedHashes, anchors: o.anchors },
  )
  const seen = compareWithOlderExport(newer, older)
  const amber = seen.verdict === 'head_not_carried' || seen.verdict === 'other_signer'
  return {
    problems: problems.map((detail) => ({ file, check: 'audit', detail })),
    notes: amber ? seen.problems : [],
  }
}

/** The problems of `against` alone. */
export async function checkAgainst(
  newer: ExportVerification,
  olderManifestPath: string,
): Promise<VerificationProblem[]> {
  return (await against(newer, olderManifestPath)).problems
}

const problemLine = (p: VerificationProblem): string => `${p.file} [${p.check}] ${p.detail}`

const MAX_PROBLEMS = 20

export interface OlderComparison {
  verdict: OlderCheckVerdict
  openHead: Head | null
  olderHead: Head | null
  /** Records both exports carry (what the entry-by-entry comparison covers). */
  commonRecords: number
  /** The older export's signer ('' when it has no usable key). */
  olderSigner: string
  /** English, for "Detalhes técnicos"; at most MAX_PROBLEMS. */
  problems: string[]
}

type Compared = Pick<ExportVerification, 'ok' | 'problems' | 'signerFingerprint' | 'manifest' | 'audit'>

/**
 * The review page's comparison: the export open in the review (`open`, verified when it was opened) against an
 * older one (`older`, verified just now with the same hostile-folder-proof reader). One verdict, the first that
 * applies, so the page can say precisely why growth is not proven:
 *
 * - `open_not_intact` / `older_not_intact`: a comparison of a file that does not verify proves nothing;
 * - `no_audit`: one of them has no audit head, audit.jsonl or records.json (made before the audit trail);
 * - `other_signer`: the two were signed by different keys, so they are not known to be one installation's;
 * - `older_is_newer`: the "older" export's head is after the open one's (chosen the wrong way round, or the
 *   open one's history went back);
 * - `diverged`: compareWithOlder found the history rewritten (an entry or a record both show differs, the entry
 *   at the older head differs, or one appeared before it);
 * - `head_not_carried`: nothing contradicts growth, but the open export carries the older export's head entry
 *   neither in audit.jsonl (only its records' entries) nor in anchors.jsonl (made before anchors, issue #12, or
 *   the older export is not in this ledger's `records.exported` entries), so the link between the two heads
 *   cannot be shown from these two files: amber, not green;
 * - `extends`: all of the above hold and the open export's history passes through the older head (the same
 *   head, or its entry at that seq — in audit.jsonl or anchors.jsonl — has the same hash: every hash covers the
 *   one before it).
 */
export function compareWithOlderExport(open: Compared, older: Compared): OlderComparison {
  const openHead = open.manifest?.auditHead ?? null
  const olderHead = older.manifest?.auditHead ?? null
  const base = { openHead, olderHead, commonRecords: 0, olderSigner: older.signerFingerprint }
  const say = (verdict: OlderCheckVerdict, problems: string[]): OlderComparison => ({
    ...base,
    verdict,
    problems: problems.slice(0, MAX_PROBLEMS),
  })
  if (!open.ok) {
    return say('open_not_intact', [
      `this export does not verify (${open.problems.length} problems): nothing to compare`,
    ])
  }
  if (!older.ok) {
    return say('older_not_intact', [
      `the older export does not verify (${older.problems.length} problems)`,
      ...older.problems.map(problemLine),
    ])
  }
  const n = open.audit
  const o = older.audit
  if (!openHead || !olderHead || !n?.summary || !n.fixedHashes || !o?.summary || !o.fixedHashes) {
    const which = !openHead || !n?.summary || !n.fixedHashes ? 'this' : 'the older'
    return say('no_audit', [
      `${which} export has no audit head, audit.jsonl or records.json (made before the audit trail)`,
    ])
  }
  if (normalizeFingerprint(open.signerFingerprint) !== normalizeFingerprint(older.signerFingerprint)) {
    return say('other_signer', [
      `the older export was signed by key ${older.signerFingerprint}, this one by ${open.signerFingerprint}`,
    ])
  }
  let common = 0
  for (const id of o.fixedHashes.keys()) if (n.fixedHashes.has(id)) common += 1
  base.commonRecords = common
  if (olderHead.seq > openHead.seq) {
    return say('older_is_newer', [
      `the older export's audit head is entry ${olderHead.seq}, after this export's (${openHead.seq})`,
    ])
  }
  const diverged = compareWithOlder(
    { head: openHead, audit: n.summary, fixed: n.fixedHashes, anchors: n.anchors },
    { head: olderHead, audit: o.summary, fixed: o.fixedHashes, anchors: o.anchors },
  )
  if (diverged.length > 0) return say('diverged', diverged)
  const sameHead = openHead.seq === olderHead.seq && openHead.hash === olderHead.hash
  // Found in audit.jsonl or, from issue #12 on, in anchors.jsonl (anchors.ts): a different hash was `diverged`.
  if (!sameHead && knownHash(n.summary, n.anchors, olderHead.seq) !== olderHead.hash) {
    return say('head_not_carried', [
      `this export does not carry entry ${olderHead.seq} (the older export's audit head): ` +
        `${common} records both exports carry agree, but the link between the two heads cannot be shown`,
    ])
  }
  return say('extends', [])
}
