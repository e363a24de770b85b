/**
 * anchors.jsonl (issue #12): the full audit entries at the head of every earlier export made from this ledger,
 * plus this export's own head entry, one canonical-JSON entry per line (as audit.jsonl), in seq order. Listed
 * in the manifest like every file, so the signature covers it.
 *
 * Why: audit.jsonl carries only the exported records' entries, and an earlier export's head is often about
 * something else (a `records.exported`, an import, a run…). With its head entry here, `--against` finds the
 * older head's (seq, hash) in the newer export: the same hash proves the history up to it is unchanged (every
 * hash covers the one before it); another hash proves it was rewritten. What that does and does not prove:
 * docs/RECORDS.md.
 *
 * Earlier exports are the ledger's `records.exported` entries: their details carry the export's `auditHead`
 * (from issue #12 on); an older one without it names the entry just before it (seq − 1), the head when that
 * export was made unless something was appended while it ran (docs/history/DECISIONS.md).
 *
 * Anchors are not about exported records: audit.jsonl's "entry about X which is not an exported record" rule
 * does not apply to them. Leaf imports only (no node:sqlite): the auditor's verifier reads this too.
 */
import { z } from 'zod'
import type { AuditEntry } from '../../shared/withdrawal-record'
import { auditLineOfText, MAX_PROBLEMS, wordEntryLine, type AuditSummary, type Head } from './audit-member'

export const ANCHORS_FILE = 'anchors.jsonl'
/**
 * A few hundred bytes per anchor: 8 MiB is some 10,000 earlier exports, and bounds what a hostile folder makes
 * the verifier read for this member (safe-read.ts memberMaxBytes).
 */
export const ANCHORS_MAX_BYTES = 8 << 20

/** What the export needs from the ledger snapshot (ledger/sqlite/snapshot.ts). */
export interface AnchorSource {
  exportedEntries(): Iterable<{ seq: number; detailsText: string }>
  auditTextsAt(seqs: readonly number[]): Iterable<{ entry: Omit<AuditEntry, 'details'>; detailsText: string }>
}

// Only the member this needs; other details (folder, filter…) are whatever that export wrote.
const exportedDetailsSchema = z.object({
  auditHead: z.strictObject({ seq: z.number().int().positive(), hash: z.string() }),
})

/** The seqs to anchor, ascending: every earlier export's head (see the header) and `head`'s own. */
export function anchorSeqs(exported: Iterable<{ seq: number; detailsText: string }>, head: Head): number[] {
  const seqs = new Set<number>()
  for (const { seq, detailsText } of exported) {
    let at = seq - 1
    try {
      const d = exportedDetailsSchema.safeParse(JSON.parse(detailsText))
      if (d.success) at = d.data.auditHead.seq
    } catch {
      // Stored details are canonical JSON (appendAuditRow); the chain was verified before the export.
    }
    if (at >= 1 && at <= head.seq) seqs.add(at)
  }
  if (head.seq >= 1) seqs.add(head.seq)
  return [...seqs].sort((a, b) => a - b)
}

/**
 * anchors.jsonl's lines, from the export's snapshot (the same one its head and audit.jsonl come from). An anchor
 * for which `clean(line)` is false (a secret in it: redact.ts) is left out, not redacted — its hash would no
 * longer match — and that older export then stays unproven (amber). Hence the verifier does not require the
 * head's own anchor, only that one at the head's seq be the head.
 */
export function* anchorLines(
  source: AnchorSource,
  head: Head,
  clean: (line: string) => boolean = () => true,
): Generator<string, void, undefined> {
  for (const { entry, detailsText } of source.auditTextsAt(anchorSeqs(source.exportedEntries(), head))) {
    const line = auditLineOfText(entry, detailsText)
    if (clean(line)) yield line
  }
}

export interface AnchorsRead {
  /** seq → hash of each well-formed anchor. */
  anchors: Map<number, string>
  problems: string[]
}

/**
 * Reads and checks anchors.jsonl on its own: every line an audit entry in canonical form whose hash matches its
 * content; seqs strictly increasing and never past the manifest's head; the one at the head's seq, if any, is the
 * head; consecutive anchors linked by prevHash.
 */
export function readAnchorsMember(text: string, head: Head | null): AnchorsRead {
  const out: AnchorsRead = { anchors: new Map(), problems: [] }
  const problem = (p: string): void => {
    if (out.problems.length < MAX_PROBLEMS) out.problems.push(p)
  }
  if (!head) {
    problem('the manifest has no audit head to anchor')
    return out
  }
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  else if (lines.length > 0) problem('the last line does not end with a line feed')
  let prev: AuditEntry | null = null
  for (const [i, line] of lines.entries()) {
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      problem(`line ${i + 1}: not JSON`)
      continue
    }
    const e = wordEntryLine(line, value, i + 1, 'anchor', { prev, head }, problem)
    if (!e) continue
    // A repeated seq keeps its first hash: the problem above already fails the export.
    if (!out.anchors.has(e.seq)) out.anchors.set(e.seq, e.hash)
    prev = e
  }
  return out
}

/** An anchor that is also in audit.jsonl must be the very same entry there. */
export function compareAnchorsWithAudit(anchors: ReadonlyMap<number, string>, audit: AuditSummary): string[] {
  const problems: string[] = []
  for (const [seq, hash] of anchors) {
    const there = audit.hashes.get(seq)
    if (there && there.hash !== hash) problems.push(`anchor ${seq}: differs from entry ${seq} in audit.jsonl`)
    if (problems.length >= MAX_PROBLEMS) break
  }
  return problems
}
