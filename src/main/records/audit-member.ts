/**
 * audit.jsonl: the audit entries of the exported records (every entry whose subject is one of them, up to the
 * manifest's `auditHead`), one canonical-JSON entry per line, in seq order. Listed in the manifest with its
 * hash like every file, so the signature covers it.
 *
 * What the verifier checks: each entry's own hash; seq strictly increasing and never past the head (the entry
 * at the head's seq, if present, is the head's); consecutive entries (seq n, n+1) linked by prevHash; every
 * subject is an exported record; every exported record has an entry carrying a state hash, and the latest one
 * equals the hash of the record as exported (ledger/model/state-hash.ts). So a record changed in the ledger without
 * its entry, or an entry changed afterwards, shows. `compareWithOlder` (against.ts, verify-export --against) checks
 * that a later export only added to an earlier one: see docs/RECORDS.md for what that does and does not prove.
 *
 * Leaf imports only (no node:sqlite): the auditor's verifier runs without the ledger.
 */
import { hash as sha256Of } from 'node:crypto'
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
  return sha256Of('sha256', canonicalJson(fixed))
}

/** Problems listed per member: the first ones say what is wrong; a flood says nothing more. */
export const MAX_PROBLEMS = 20
const redactedSchema = z.strictObject({ redacted: z.array(z.string()) })
// Built once: a zod schema compiles its parser on first use, and this runs for every line.
const entrySchema = auditEntrySchema.strict()

/**
 * One line of audit.jsonl or anchors.jsonl (anchors.ts), parsed as `value`, by the wording pass: an audit entry
 * (else null) in canonical form whose hash matches its content, after `prev` in seq order and linked to it, and
 * within `head`. Each problem goes to `problem`, naming the line `what`.
 */
export function wordEntryLine(
  line: string,
  value: unknown,
  lineNo: number,
  what: 'entry' | 'anchor',
  at: { prev: Head | null; head: Head | null },
  problem: (p: string) => void,
): AuditEntry | null {
  const parsed = entrySchema.safeParse(value)
  if (!parsed.success) {
    problem(`line ${lineNo}: not an audit entry (${parsed.error.issues[0]?.message ?? 'schema'})`)
    return null
  }
  const e = parsed.data
  const { prev, head } = at
  // The details canonicalised once, for both checks (the line's canonical form and the entry's hash).
  const details = canonicalJson(e.details)
  if (auditLineOfText(e, details) !== `${line}\n`) problem(`${what} ${e.seq}: not in canonical form`)
  if (auditHashOfText(e, details) !== e.hash) problem(`${what} ${e.seq}: its hash does not match its content`)
  // anchors.jsonl words a repeated seq apart; audit.jsonl calls any seq not after the one before out of order.
  if (prev && e.seq === prev.seq && what === 'anchor') problem(`anchor ${e.seq}: seq repeated`)
  else if (prev && e.seq <= prev.seq) problem(`${what} ${e.seq}: out of order (after ${prev.seq})`)
  if (prev && e.seq === prev.seq + 1 && e.prevHash !== prev.hash) {
    problem(`${what} ${e.seq}: prevHash does not link to ${what} ${prev.seq}`)
  }
  if (head && e.seq > head.seq) problem(`${what} ${e.seq}: after the manifest's audit head (${head.seq})`)
  if (head && e.seq === head.seq && e.hash !== head.hash) {
    problem(`${what} ${e.seq}: is not the manifest's audit head`)
  }
  return e
}

/** The entry before the one being read (seq and hash), and what was collected so far. */
export interface AuditLineState {
  prev: Head | null
  out: AuditSummary
}

/** A check of one line that can only say yes (fastAuditLine). */
export type FastAuditLine = (line: string, last: boolean, head: Head | null, state: AuditLineState) => boolean

/** audit.jsonl read line by line as it streams: `line` per line (without its line feed), then `end`. */
export interface AuditLines {
  line(text: string): void
  /** `terminated`: the member ended with a line feed (or was empty). */
  end(terminated: boolean): AuditSummary
}

/** A summary with nothing read yet: its tables share one table of ids. */
function emptySummary(): AuditSummary {
  const ids = new IdTable()
  return {
    entries: 0,
    latest: new LatestTable(ids),
    hashes: new EntryTable(ids),
    redacted: new Set(),
    problems: [],
  }
}

// The members of an entry in canonical (sorted) order, with and without stateHash.
const WITH = ['action', 'at', 'details', 'hash', 'operator', 'prevHash', 'seq', 'stateHash', 'subject']
const WITHOUT = ['action', 'at', 'details', 'hash', 'operator', 'prevHash', 'seq', 'subject']

/** A loop, not a join: it runs for every line, and joining costs several times more. */
function sameKeys(keys: string[], want: string[]): boolean {
  if (keys.length !== want.length) return false
  for (let i = 0; i < keys.length; i++) if (keys[i] !== want[i]) return false
  return true
}

/** JSON.stringify(v) is its canonical JSON, and nothing a schema's copy could change (no `__proto__`). */
function canonicalAsParsed(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return true
  if (Array.isArray(v)) {
    for (const x of v) if (!canonicalAsParsed(x)) return false
    return true
  }
  const o = v as Record<string, unknown>
  const keys = Object.keys(o)
  for (let i = 0; i < keys.length; i++) {
    if (keys[i] === '__proto__') return false
    if (i > 0 && !(keys[i - 1]! < keys[i]!)) return false
  }
  for (const k of keys) if (!canonicalAsParsed(o[k])) return false
  return true
}

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)

/**
 * The fast check of one line: one JSON.parse, one JSON.stringify (the line is its canonical form) and the
 * entry's hash, without zod or re-canonicalising the details (most of the wording pass's cost). It only says
 * yes: true when the line is an exact, strict entry in canonical form whose hash matches, after the one before
 * it, linked, within the head (or, `last`, the redaction line) — what the wording pass in auditLines accepts
 * without a problem — `state` then updated as that pass would. Anything else, or anything it is not sure of (a
 * `__proto__` key, array-index keys, an unsafe seq), is left to the wording pass, which words its problems: so
 * it can be stricter than that pass, never laxer.
 */
export const fastAuditLine: FastAuditLine = (line, last, head, state) => {
  if (!head) return false
  let v: unknown
  try {
    v = JSON.parse(line)
  } catch {
    return false
  }
  if (!isObject(v) || JSON.stringify(v) !== line) return false
  const keys = Object.keys(v)
  const { out, prev } = state
  if (last && keys.length === 1 && keys[0] === 'redacted') {
    const ids = v.redacted
    if (!Array.isArray(ids) || !ids.every((id) => typeof id === 'string')) return false
    for (const id of ids as string[]) out.redacted.add(id)
    return true
  }
  const { action, at, details, hash, operator, seq, stateHash, subject } = v
  if (!sameKeys(keys, stateHash === undefined ? WITHOUT : WITH)) return false
  if (typeof action !== 'string' || typeof operator !== 'string') return false
  if (typeof at !== 'string' || at.length === 0) return false
  if (typeof hash !== 'string' || typeof v.prevHash !== 'string') return false
  if (typeof seq !== 'number' || !Number.isSafeInteger(seq) || seq <= 0) return false
  if (subject !== null && typeof subject !== 'string') return false
  if (stateHash !== undefined && stateHash !== null && typeof stateHash !== 'string') return false
  if (!isObject(details) || !canonicalAsParsed(details)) return false
  // audit-hash.ts auditHashOfText, over the details' canonical text: the line is canonical, so that text is
  // in it, between the keys `details` and `hash` (the first and the last match: a quote in a value is escaped).
  const detailsText = line.slice(line.indexOf(',"details":') + 11, line.lastIndexOf(',"hash":"'))
  const fields: unknown[] = [seq, at, operator, action, subject, detailsText, v.prevHash]
  if (typeof stateHash === 'string') fields.push(stateHash)
  if (sha256Of('sha256', JSON.stringify(fields)) !== hash) return false
  if (prev && seq <= prev.seq) return false
  if (prev && seq === prev.seq + 1 && v.prevHash !== prev.hash) return false
  if (seq > head.seq || (seq === head.seq && hash !== head.hash)) return false
  out.entries += 1
  out.hashes.set(seq, { hash, subject })
  if (subject !== null && typeof stateHash === 'string') out.latest.set(subject, { seq, stateHash })
  state.prev = { seq, hash }
  return true
}

/**
 * Reads and checks audit.jsonl on its own (the records are compared in `compareRecords`): each line by the fast
 * check when it passes, else by the wording pass, which words its problems (`fast` null: the wording pass alone).
 */
export function auditLines(head: Head | null, fast: FastAuditLine | null = fastAuditLine): AuditLines {
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
    const e = wordEntryLine(line, value, lineNo, 'entry', { prev: state.prev, head }, problem)
    if (!e) return
    out.entries += 1
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
