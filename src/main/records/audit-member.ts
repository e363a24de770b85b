/**
 * audit.jsonl: the audit entries of the exported records (every entry whose subject is one of them, up to the
 * manifest's `auditHead`), one canonical-JSON entry per line, in seq order. Listed in the manifest with its
 * hash like every file, so the signature covers it.
 *
 * What the verifier checks: each entry's own hash; seq strictly increasing and never past the head (the entry
 * at the head's seq, if present, is the head's); consecutive entries (seq n, n+1) linked by prevHash; every
 * subject is an exported record; every exported record has an entry carrying a state hash, and the latest one
 * equals the hash of the record as exported (ledger/model/state-hash.ts). So a record changed in the ledger without
 * its entry, or an entry changed afterwards, shows. `compareWithOlder` (verify-export --against) checks that a
 * later export only added to an earlier one: see docs/RECORDS.md for what that does and does not prove.
 *
 * Leaf imports only (no node:sqlite): the auditor's verifier runs without the ledger.
 */
import { hash } from 'node:crypto'
import { z } from 'zod'
import { auditEntrySchema, type AuditEntry, type WithdrawalRecord } from '../../shared/withdrawal-record'
import { auditHashOfText } from '../ledger/model/audit-hash'
import { canonicalJson } from '../ledger/model/canonical-json'
import { EntryTable, IdTable, LatestTable, type RecordStates, type Table } from './audit-tables'

export const AUDIT_FILE = 'audit.jsonl'

export interface Head {
  seq: number
  hash: string
}

export function auditLine(e: AuditEntry): string {
  return `${canonicalJson(e)}\n`
}

/**
 * auditLine(e) from the entry's fields and its details' canonical text, without parsing or canonicalising the
 * details: the members in canonicalJson's (sorted) order, `stateHash` left out when absent as canonicalJson
 * leaves out undefined. Equal to auditLine(e) when `detailsText` is canonicalJson(e.details) (a test holds the
 * two together). The export splices the ledger's stored text (always canonicalJson's output, appendAuditRow),
 * the verifier the text it canonicalised once for both the line and the hash.
 */
export function auditLineOfText(e: Omit<AuditEntry, 'details'>, detailsText: string): string {
  const state = e.stateHash === undefined ? '' : `"stateHash":${JSON.stringify(e.stateHash)},`
  return (
    `{"action":${JSON.stringify(e.action)},"at":${JSON.stringify(e.at)},"details":${detailsText},` +
    `"hash":${JSON.stringify(e.hash)},"operator":${JSON.stringify(e.operator)},` +
    `"prevHash":${JSON.stringify(e.prevHash)},"seq":${JSON.stringify(e.seq)},${state}` +
    `"subject":${JSON.stringify(e.subject)}}\n`
  )
}

/**
 * The last line, when the export redacted a secret inside some records (redact.ts): their ids. Those records
 * no longer hash to their entries' state, by design; the signer says so here and the verifier names them
 * instead of calling them changed.
 */
export function redactedLine(localIds: readonly string[]): string {
  return `${canonicalJson({ redacted: localIds })}\n`
}

export interface AuditSummary {
  entries: number
  /** Latest entry carrying a state hash, per subject (audit-tables.ts, as every table here). */
  latest: LatestTable
  /** seq → hash of every entry (for --against). */
  hashes: EntryTable
  /** Records the exporter redacted (see redactedLine): not compared with their entries. */
  redacted: Set<string>
  problems: string[]
}

/** What verifyExport collects: the member as read, and localId → state hash of every exported JSON record. */
export interface AuditCollected {
  summary: AuditSummary | null
  stateHashes: Table<string, string> | null
  /** localId → hash of the fields no write ever changes after the record is created (recordFixedHash). */
  fixedHashes: Map<string, string> | null
  /** seq → hash of every entry anchors.jsonl carries (anchors.ts), when the export has that member. */
  anchors?: Map<number, string>
}

/**
 * What was asked for, by whom and when never changes after insertSubmitting: two exports showing one record
 * with different values here prove an edit, whatever the audit entries say.
 */
export function recordFixedHash(r: WithdrawalRecord): string {
  const fixed = [
    r.localId,
    r.profile,
    r.operator,
    r.createdAt,
    r.request,
    r.pixKey,
    r.amountKind,
    r.amountCents,
    // Also fixed at creation (issue #14); appended only when present, so older records keep their hash.
    ...(r.references ? [{ references: r.references }] : []),
    ...(r.expectedPayee ? [{ expectedPayee: r.expectedPayee }] : []),
  ]
  return hash('sha256', canonicalJson(fixed))
}

const MAX_PROBLEMS = 20
const redactedSchema = z.strictObject({ redacted: z.array(z.string()) })
// Built once: a zod schema compiles its parser on first use, and this runs for every line.
const entrySchema = auditEntrySchema.strict()

/**
 * One line of audit.jsonl or anchors.jsonl (anchors.ts), parsed as `value`: an audit entry (`refused` when not),
 * and whether the line is its canonical form and its hash matches its content. `what` names it in a problem.
 */
export function checkEntryLine(
  line: string,
  value: unknown,
  lineNo: number,
  what: 'entry' | 'anchor',
): { entry: AuditEntry; problems: string[] } | { refused: string } {
  const parsed = entrySchema.safeParse(value)
  if (!parsed.success) {
    return { refused: `line ${lineNo}: not an audit entry (${parsed.error.issues[0]?.message ?? 'schema'})` }
  }
  const e = parsed.data
  const problems: string[] = []
  // The details canonicalised once, for both checks (the line's canonical form and the entry's hash).
  const details = canonicalJson(e.details)
  if (auditLineOfText(e, details) !== `${line}\n`) problems.push(`${what} ${e.seq}: not in canonical form`)
  if (auditHashOfText(e, details) !== e.hash) {
    problems.push(`${what} ${e.seq}: its hash does not match its content`)
  }
  return { entry: e, problems }
}

/**
 * The hash an export shows for entry `seq`: from audit.jsonl, else from anchors.jsonl (anchors.ts); undefined
 * when it carries neither.
 */
export function knownHash(
  audit: { hashes: Table<number, { hash: string }> },
  anchors: ReadonlyMap<number, string> | undefined,
  seq: number,
): string | undefined {
  return audit.hashes.get(seq)?.hash ?? anchors?.get(seq)
}

/** A JSON-lines member's lines; a last line without its line feed is a problem (the line is still read). */
export function memberLines(text: string, problem: (p: string) => void): string[] {
  const lines = text.split('\n')
  if (lines[lines.length - 1] === '') lines.pop()
  else if (lines.length > 0) problem('the last line does not end with a line feed')
  return lines
}

/** The entry before the one being read (seq and hash), and what was collected so far. */
export interface AuditLineState {
  prev: Head | null
  out: AuditSummary
}

/**
 * A check of one line that can only say yes (audit-kernel.ts): true when the line is an entry (or, `last`, the
 * redaction line) that the wording pass below accepts without a problem, `state` then updated as it would be.
 */
export type FastAuditLine = (line: string, last: boolean, head: Head | null, state: AuditLineState) => boolean

/** audit.jsonl read line by line as it streams: `line` per line (without its line feed), then `end`. */
export interface AuditLines {
  line(text: string): void
  /** `terminated`: the member ended with a line feed (or was empty). */
  end(terminated: boolean): AuditSummary
}

/** A summary with nothing read yet: its tables share one table of ids. */
export function emptySummary(): AuditSummary {
  const ids = new IdTable()
  return {
    entries: 0,
    latest: new LatestTable(ids),
    hashes: new EntryTable(ids),
    redacted: new Set(),
    problems: [],
  }
}

/** Reads and checks audit.jsonl on its own (the records are compared in `compareRecords`). */
export function auditLines(head: Head | null, fast?: FastAuditLine): AuditLines {
  const state: AuditLineState = { prev: null, out: emptySummary() }
  const { out } = state
  const problem = (p: string): void => {
    if (out.problems.length < MAX_PROBLEMS) out.problems.push(p)
  }
  const wording = (line: string, lineNo: number, last: boolean): void => {
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      problem(`line ${lineNo}: not JSON`)
      return
    }
    const red = last ? redactedSchema.safeParse(value) : null
    if (red?.success && redactedLine(red.data.redacted) === `${line}\n`) {
      for (const id of red.data.redacted) out.redacted.add(id)
      return
    }
    const checked = checkEntryLine(line, value, lineNo, 'entry')
    if ('refused' in checked) {
      problem(checked.refused)
      return
    }
    const e = checked.entry
    const prev = state.prev
    out.entries += 1
    for (const p of checked.problems) problem(p)
    if (prev && e.seq <= prev.seq) problem(`entry ${e.seq}: out of order (after ${prev.seq})`)
    if (prev && e.seq === prev.seq + 1 && e.prevHash !== prev.hash) {
      problem(`entry ${e.seq}: prevHash does not link to entry ${prev.seq}`)
    }
    if (head && e.seq > head.seq) problem(`entry ${e.seq}: after the manifest's audit head (${head.seq})`)
    if (head && e.seq === head.seq && e.hash !== head.hash) {
      problem(`entry ${e.seq}: is not the manifest's audit head`)
    }
    if (!head) problem(`entry ${e.seq}: the manifest has no audit head`)
    out.hashes.set(e.seq, { hash: e.hash, subject: e.subject })
    if (e.subject !== null && typeof e.stateHash === 'string') {
      out.latest.set(e.subject, { seq: e.seq, stateHash: e.stateHash })
    }
    state.prev = { seq: e.seq, hash: e.hash }
  }
  // Each line is read once the next one (or the end) is seen: only the last line may be the redaction line.
  let pending: string | null = null
  let lineNo = 0
  const one = (line: string, last: boolean): void => {
    if (!fast?.(line, last, head, state)) wording(line, lineNo, last)
  }
  return {
    line(text) {
      if (pending !== null) one(pending, false)
      pending = text
      lineNo += 1
    },
    end(terminated) {
      if (pending !== null) one(pending, true)
      pending = null
      if (!terminated) {
        out.problems.unshift('the last line does not end with a line feed')
        out.problems.length = Math.min(out.problems.length, MAX_PROBLEMS)
      }
      return out
    },
  }
}

/** Reads and checks audit.jsonl on its own, all of it in `text` (auditLines). */
export function readAuditMember(text: string, head: Head | null, fast?: FastAuditLine): AuditSummary {
  const reader = auditLines(head, fast)
  const lines = text.split('\n')
  const terminated = lines[lines.length - 1] === ''
  if (terminated) lines.pop()
  for (const line of lines) reader.line(line)
  return reader.end(terminated)
}

/** Every exported record (localId → state hash of the record as exported) against its latest entry. */
export function compareRecords(summary: AuditSummary, records: RecordStates): string[] {
  const problems: string[] = []
  const add = (p: string): void => {
    if (problems.length < MAX_PROBLEMS) problems.push(p)
  }
  // A record that hashes to its latest entry's state was matched as it was read (RecordStates).
  for (const [localId, stateHash] of records.unmatched()) {
    if (summary.redacted.has(localId)) continue
    const entry = summary.latest.get(localId)
    if (!entry) add(`record ${localId}: no audit entry records its state`)
    else if (entry.stateHash !== stateHash) {
      add(`record ${localId}: differs from the state its last audit entry (seq ${entry.seq}) recorded`)
    }
  }
  const stray = summary.hashes.subjectWhere((i) => !records.isRecord(i))
  if (typeof stray === 'string') add(`entry about ${stray}, which is not an exported record`)
  return problems
}

/** One side of compareWithOlder: the manifest head, audit.jsonl, the records' fixed hashes, anchors.jsonl. */
export interface ComparedSide {
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
export function compareWithOlder(newer: ComparedSide, older: ComparedSide): string[] {
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
