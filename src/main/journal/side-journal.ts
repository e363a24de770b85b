/**
 * The side journal (issue #11): where a create's 2xx answer goes when the ledger cannot store it (disk full, I/O
 * error), for every record kind. Without it the new id would live only in an error message: the API has no list
 * endpoint for withdrawals, so a created withdrawal whose id is lost can be found again only through support (and
 * a deposit's QR would be paid with nothing here to follow it).
 *
 *   <ledger file>.created.jsonl   one JSON object per line, UTF-8, fsynced after every entry
 *
 * It is append-only in the sense that an entry is never rewritten: a new one goes right after the last. The file
 * is kept padded with RESERVE_BYTES of newlines, written and fsynced while the disk still had room, and entries
 * are written into that padding, so an append needs no new blocks on a full disk (on file systems that overwrite
 * in place; tmpfs, ext4, NTFS do). Blank lines are padding; a line that is not a valid entry (a write torn by a
 * crash) is counted and skipped. Every line read back is checked with zod.
 *
 * Replay (at start, and before each create) applies each entry with `ledger.applyJournaledCreate`, which is
 * idempotent; the file is then rewritten (temporary file, fsync, rename) with only the entries the ledger refused.
 * A failed rewrite leaves the file as it was: the next replay applies nothing twice.
 */
import fs from 'node:fs'
import path from 'node:path'
import { z } from 'zod'
import { recordKindSchema, type RecordKindId } from '../../shared/record-kinds'
import { createdOutcomeSchema, LedgerError, type CreatedOutcome, type Ledger } from '../ledger/sqlite'

export const SIDE_JOURNAL_SUFFIX = '.created.jsonl'
/** Room for ~150 entries of a full create answer; refilled after every replay. */
export const RESERVE_BYTES = 64 * 1024
const NL = 0x0a

export const sideJournalEntrySchema = z.object({
  v: z.literal(1),
  kind: z.literal('created'),
  /** Every record kind's creates are journaled; an entry without `record` is a withdrawal's (entries before deposits). */
  record: recordKindSchema.optional(),
  localId: z.string().min(1).max(100),
  profile: z.string().min(1).max(200),
  /** When the answer arrived (wall clock, ISO 8601). */
  at: z.iso.datetime({ offset: true }),
  outcome: createdOutcomeSchema,
})
export type SideJournalEntry = z.infer<typeof sideJournalEntrySchema>

/** Null for an in-memory ledger: there is no disk beside it. */
export function sideJournalPath(ledgerFile: string): string | null {
  if (ledgerFile === '' || ledgerFile === ':memory:' || ledgerFile.startsWith('file::memory:')) return null
  return `${ledgerFile}${SIDE_JOURNAL_SUFFIX}`
}

/** Index just past the last entry byte (0 when the file holds only padding). */
function contentEnd(buf: Buffer): number {
  let i = buf.length - 1
  while (i >= 0 && buf[i] === NL) i--
  return i + 1
}

function fsyncDir(file: string): void {
  // Windows cannot open a directory for fsync; there the rename is already durable enough for NTFS.
  if (process.platform === 'win32') return
  const fd = fs.openSync(path.dirname(file), 'r')
  try {
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
}

/** Appends one entry and fsyncs it. Throws when it could not be made durable. */
export function appendSideJournal(file: string, entry: SideJournalEntry): void {
  const line = Buffer.from(`${JSON.stringify(sideJournalEntrySchema.parse(entry))}\n`, 'utf8')
  const existed = fs.existsSync(file)
  const fd = fs.openSync(file, existed ? 'r+' : 'wx', 0o600)
  try {
    const buf = existed ? fs.readFileSync(fd) : Buffer.alloc(0)
    const end = contentEnd(buf)
    // After the last entry's own newline; at 0 when there is none.
    const at = end === 0 ? 0 : end + 1
    let written = 0
    while (written < line.length) {
      written += fs.writeSync(fd, line, written, line.length - written, at + written)
    }
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  if (!existed) fsyncDir(file)
}

export interface SideJournalRead {
  entries: SideJournalEntry[]
  /** Lines that were neither padding nor a valid entry (e.g. torn by a crash mid-write), kept as they are. */
  invalid: string[]
}

export function readSideJournal(file: string): SideJournalRead {
  let text: string
  try {
    text = fs.readFileSync(file, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { entries: [], invalid: [] }
    throw e
  }
  const entries: SideJournalEntry[] = []
  const invalid: string[] = []
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue
    let json: unknown
    try {
      json = JSON.parse(line)
    } catch {
      invalid.push(line)
      continue
    }
    const parsed = sideJournalEntrySchema.safeParse(json)
    if (parsed.success) entries.push(parsed.data)
    else invalid.push(line)
  }
  return { entries, invalid }
}

/** Rewrites the journal as `lines` plus fresh padding, atomically. Throws on failure (the old file stays). */
function rewrite(file: string, lines: readonly string[]): void {
  const body = lines.map((l) => `${l}\n`).join('')
  const buf = Buffer.concat([Buffer.from(body, 'utf8'), Buffer.alloc(RESERVE_BYTES, NL)])
  const tmp = `${file}.tmp`
  const fd = fs.openSync(tmp, 'w', 0o600)
  try {
    fs.writeSync(fd, buf)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  fs.renameSync(tmp, file)
  fsyncDir(file)
}

/** Makes sure the padding is there. Best effort: on a full disk it throws and the journal stays as it is. */
export function ensureSideJournalReserve(file: string): void {
  const existed = fs.existsSync(file)
  const fd = fs.openSync(file, existed ? 'r+' : 'wx', 0o600)
  try {
    const buf = existed ? fs.readFileSync(fd) : Buffer.alloc(0)
    if (buf.length - contentEnd(buf) >= RESERVE_BYTES / 2) return
    // Padding goes after whatever is there: nothing is ever overwritten.
    fs.writeSync(fd, Buffer.alloc(RESERVE_BYTES, NL), 0, RESERVE_BYTES, buf.length)
    fs.fsyncSync(fd)
  } finally {
    fs.closeSync(fd)
  }
  if (!existed) fsyncDir(file)
}

export interface ReplayResult {
  /** Entries written into the ledger now. */
  applied: SideJournalEntry[]
  /** Entries the ledger refused (another id, a record resolved as not created): kept in the journal. */
  refused: Array<{ entry: SideJournalEntry; reason: string }>
  /** Lines that are not valid entries: kept in the journal for a person to read. */
  invalidLines: number
}

/**
 * Applies every entry to the ledger. A ledger refusal (LedgerError) keeps the entry and is reported; any other
 * failure (the disk is still full) stops the replay and throws, leaving the journal untouched.
 */
export function replaySideJournal(ledger: Ledger): ReplayResult {
  const result: ReplayResult = { applied: [], refused: [], invalidLines: 0 }
  const file = sideJournalPath(ledger.file)
  if (file === null) return result
  const { entries, invalid } = readSideJournal(file)
  result.invalidLines = invalid.length
  if (entries.length === 0) return result
  for (const entry of entries) {
    try {
      const apply =
        entry.record === 'deposit'
          ? ledger.deposits.applyJournaledCreate(entry.localId, entry.outcome)
          : ledger.applyJournaledCreate(entry.localId, entry.outcome)
      if (apply.applied) result.applied.push(entry)
    } catch (e) {
      if (!(e instanceof LedgerError)) throw e
      result.refused.push({ entry, reason: e.code })
    }
  }
  return keepRefused(file, result, invalid)
}

/** Rewrites the journal with only what the ledger refused and the unreadable lines. */
function keepRefused(file: string, result: ReplayResult, invalid: readonly string[]): ReplayResult {
  try {
    rewrite(file, [...result.refused.map((r) => JSON.stringify(r.entry)), ...invalid])
  } catch {
    // The ledger holds the answers now; a journal left as it was only costs a no-op replay next time.
  }
  return result
}

/**
 * `replaySideJournal` for an async record store (the team ledger, src/main/ledger/pg): `apply` writes one
 * entry (idempotent); the same rules for refusals, failures and the rewrite.
 */
export async function replaySideJournalInto(
  file: string | null,
  apply: (entry: SideJournalEntry) => Promise<{ applied: boolean }>,
): Promise<ReplayResult> {
  const result: ReplayResult = { applied: [], refused: [], invalidLines: 0 }
  if (file === null) return result
  const { entries, invalid } = readSideJournal(file)
  result.invalidLines = invalid.length
  if (entries.length === 0) return result
  for (const entry of entries) {
    try {
      if ((await apply(entry)).applied) result.applied.push(entry)
    } catch (e) {
      if (!(e instanceof LedgerError)) throw e
      result.refused.push({ entry, reason: e.code })
    }
  }
  return keepRefused(file, result, invalid)
}

export function createdEntry(
  localId: string,
  profile: string,
  at: string,
  outcome: CreatedOutcome,
  record: RecordKindId = 'withdrawal',
): SideJournalEntry {
  // A withdrawal's entry keeps the shape it always had (no `record`), so older readers still take it.
  const base = { v: 1 as const, kind: 'created' as const, localId, profile, at, outcome }
  return record === 'withdrawal' ? base : { ...base, record }
}
