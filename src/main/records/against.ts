/**
 * A newer export checked against an older one an auditor kept (its manifest head and audit.jsonl): the CLI's
 * `verify-export --against` (against) and the review page's "Comparar com uma exportação anterior"
 * (compareWithOlderExport). Both exports must verify on their own; then compareWithOlder (below) checks
 * that the newer one only added to the history the older one showed. What this proves and what it does not:
 * docs/RECORDS.md.
 * The newer export must have been verified with `{ fixedHashes: true }` (a plain verification skips them).
 */
import type { OlderCheckVerdict } from '../../shared/channels-review'
import { MAX_PROBLEMS, type AuditSummary, type Head } from './audit-member'
import type { Table } from './audit-tables'
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

const problemLine = (p: VerificationProblem): string => `${p.file} [${p.check}] ${p.detail}`

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

/**
 * The hash an export shows for entry `seq`: from audit.jsonl, else from anchors.jsonl (anchors.ts); undefined
 * when it carries neither.
 */
function knownHash(
  audit: { hashes: Table<number, { hash: string }> },
  anchors: ReadonlyMap<number, string> | undefined,
  seq: number,
): string | undefined {
  return audit.hashes.get(seq)?.hash ?? anchors?.get(seq)
}

/** One side of compareWithOlder: the manifest head, audit.jsonl, the records' fixed hashes, anchors.jsonl. */
interface ComparedSide {
  head: Head | null
  audit: AuditSummary
  fixed: ReadonlyMap<string, string>
  anchors?: ReadonlyMap<number, string> | undefined
}

/**
 * The newer export against an older one (its manifest head, audit entries and anchors): the head did not go
 * back; the entry at the older head, when the newer export carries it (audit.jsonl or anchors.jsonl), is the
 * same; every entry the older export carried that is about a record both exports cover is in the newer one
 * unchanged, and no entry about such a record appeared at or before the older head; any other entry both show
 * (an anchor, an entry of another record) has the same hash in both; and what a record both cover asked for
 * (recordFixedHash) is the same in both.
 */
function compareWithOlder(newer: ComparedSide, older: ComparedSide): string[] {
  const newerRecords = newer.fixed
  const olderRecords = older.fixed
  const problems: string[] = []
  if (!older.head || !newer.head) return ['an export has no audit head to compare']
  if (newer.head.seq < older.head.seq) {
    problems.push(`audit head went back: seq ${newer.head.seq}, the older export had ${older.head.seq}`)
  }
  if (newer.head.seq === older.head.seq && newer.head.hash !== older.head.hash) {
    problems.push(`same audit head seq ${newer.head.seq} with a different hash: history was rewritten`)
  }
  const atOldHead = knownHash(newer.audit, newer.anchors, older.head.seq)
  if (atOldHead !== undefined && atOldHead !== older.head.hash) {
    problems.push(`entry ${older.head.seq} (the older export's head) differs: history was rewritten`)
  }
  const common = (s: string | null): boolean => s !== null && olderRecords.has(s) && newerRecords.has(s)
  for (const [localId, fixed] of olderRecords) {
    const now = newerRecords.get(localId)
    if (now !== undefined && now !== fixed) {
      problems.push(
        `record ${localId}: its Pix key, amount or request differ from the older export (rewritten)`,
      )
    }
  }
  for (const [seq, e] of older.audit.hashes) {
    if (!common(e.subject)) continue
    const now = newer.audit.hashes.get(seq)
    if (!now) problems.push(`entry ${seq} about ${e.subject} is gone`)
    else if (now.hash !== e.hash || now.subject !== e.subject) {
      problems.push(`entry ${seq} about ${e.subject} was rewritten`)
    }
    if (problems.length >= MAX_PROBLEMS) return problems
  }
  for (const [seq, e] of newer.audit.hashes) {
    if (seq > older.head.seq || !common(e.subject)) continue
    if (!older.audit.hashes.has(seq)) {
      problems.push(`entry ${seq} about ${e.subject} appeared before the older export's head`)
      if (problems.length >= MAX_PROBLEMS) return problems
    }
  }
  // Any other entry both exports show (anchors, entries about records only one of them covers): one ledger has
  // one entry per seq, so a different hash is a rewritten history. The older head was checked above.
  const olderSeqs = new Set([...older.audit.hashes.keys(), ...(older.anchors?.keys() ?? [])])
  for (const seq of olderSeqs) {
    if (seq === older.head.seq || common(older.audit.hashes.get(seq)?.subject ?? null)) continue
    const then = knownHash(older.audit, older.anchors, seq)
    const now = knownHash(newer.audit, newer.anchors, seq)
    if (now !== undefined && now !== then) {
      problems.push(`entry ${seq} differs from the older export's: history was rewritten`)
      if (problems.length >= MAX_PROBLEMS) return problems
    }
  }
  return problems
}
