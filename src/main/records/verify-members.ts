/**
 * The listed members of an export, each read once as it streams (issue #30): its SHA-256 and its content check
 * are fed the same chunks, so a verification holds one chunk and one line or row at a time whatever the
 * member's size (safe-read.ts: CHUNK_BYTES, HELD_MAX_BYTES). verify.ts says what each check means.
 */
import { isUtf8 } from 'node:buffer'
import { createHash } from 'node:crypto'
import { join } from 'node:path'
import type { StatusTotal } from '../../shared/withdrawal-record'
import { bytesMatch } from '../receipts/fetch'
import { recordStateHash } from '../ledger/model/state-hash'
import { readAnchorsMember } from './anchors'
import { auditLines, type AuditCollected, type Head } from './audit-member'
import { RecordStates } from './audit-tables'
import { BOM, checkCsvRows, csvHeader, csvLine } from './csv'
import { ROW_START } from './html'
import { readRecordsFile, type RecordsReader } from './json'
import type { AnyRecord, RecordsKind } from './kinds'
import type { FileEntry } from './manifest'
import { provenPrefix, STATE_LAYOUT_VERSION, stateHashInBytes } from './record-line'
import { HELD_MAX_BYTES, memberMaxBytes, openChecked, readChunks } from './safe-read'
import { diffTotals, TotalsAccumulator } from './totals'
import { checkWalletStatement } from './wallet-statement'

export type VerificationCheck = 'missing' | 'hash' | 'signature' | 'schema' | 'row_count' | 'totals' | 'audit'
export type Add = (file: string, check: VerificationCheck, detail: string) => void
type AddHere = (check: VerificationCheck, detail: string) => void

export interface Expectation {
  /** The record kind the manifest names (absent: withdrawals): schema, columns and totals rule of the files. */
  kind: RecordsKind
  rowCount: number | null
  totals: StatusTotal[] | null
  auditHead: Head | null
  /** Manifest version 2 on: records.json must be in the state layout (record-line.ts), its bytes hashed. */
  stateLayout: boolean
  /** Filled by the file checks when the manifest lists an audit member. */
  audit: AuditCollected | null
  /** anchors.jsonl as read (anchors.ts), when listed and readable. */
  anchors: Map<number, string> | null
  /** Whether the JSON check computes the records' fixed hashes (VerifyOptions.fixedHashes). */
  fixedHashes: boolean
  /** The JSON file's valid records, collected when asked for (VerifyOptions.keepRecords). */
  kept: AnyRecord[] | null
  /** Its first `firstCount` valid records as zod outputs them (the review's first page). */
  first: AnyRecord[]
  firstCount: number
  /** records.json's path and SHA-256 when its content was read to the end (the review loads those bytes). */
  recordsRead: { path: string; sha256: string; bytes: number } | null
}

export const MAX_LISTED = 5
const BOM_BYTES = Buffer.from(BOM, 'utf8')
const EMPTY: Buffer = Buffer.alloc(0)

/** A member's content check, fed as it streams (see RecordsReader.take); `finish` adds its problems. */
interface Checker {
  take(buf: Buffer, final: boolean): number
  finish(add: AddHere): void
  /** The problem when one line or row (or a member read whole) would pass HELD_MAX_BYTES. */
  tooLong?: string
  /** Not text: no UTF-8 check. */
  binary?: boolean
}

/**
 * Strict UTF-8 over a stream (simdutf: a lone bad byte is reported, not turned into U+FFFD): each chunk is cut
 * before a sequence that may go on in the next one, which is checked with that next one's first bytes.
 */
function utf8Stream(): { take(chunk: Buffer): boolean; end(): boolean } {
  let pending = EMPTY
  return {
    take(chunk) {
      let k = 0
      while (k < 3 && k < chunk.length && ((chunk[k] as number) & 0xc0) === 0x80) k += 1
      const straddle = Buffer.concat([pending, chunk.subarray(0, k)])
      // A chunk of a byte or two may not finish the character: it waits for the next one.
      if (k === chunk.length && straddle.length < 4) {
        pending = straddle
        return true
      }
      if (straddle.length > 0 && !isUtf8(straddle)) return false
      let cut = chunk.length - 1
      while (cut > k && ((chunk[cut] as number) & 0xc0) === 0x80) cut -= 1
      if (cut < k || (chunk[cut] as number) < 0xc0) cut = chunk.length
      pending = Buffer.from(chunk.subarray(cut))
      return isUtf8(chunk.subarray(k, cut))
    },
    end: () => isUtf8(pending),
  }
}

/** Checks one listed member: refused unread (safe-read.ts), else its hash, then its content. */
export async function checkMember(
  dir: string,
  entry: FileEntry,
  expect: Expectation,
  chunkBytes: number,
): Promise<Array<Parameters<Add>>> {
  const problems: Array<Parameters<Add>> = []
  const add: AddHere = (check, detail) => problems.push([entry.name, check, detail])
  const file = await openChecked(join(dir, entry.name), {
    maxBytes: memberMaxBytes(entry.name),
    expectBytes: entry.bytes,
  })
  if ('refused' in file) {
    const { kind, detail } = file.refused
    if (kind === 'missing') add('missing', 'listed in the manifest but not in the folder')
    else add(kind === 'size' ? 'hash' : 'missing', detail)
    return problems
  }
  const checker = checkerOf(entry, expect)
  const sha = createHash('sha256')
  const utf8 = utf8Stream()
  let carry: Buffer | null = null
  // The carried bytes and the next chunk, joined in one buffer reused while it is large enough.
  let joint = EMPTY
  const joined = (chunk: Buffer): Buffer => {
    if (!carry) return chunk
    const len = carry.length + chunk.length
    if (joint.length < len) {
      const next = Buffer.allocUnsafeSlow(Math.max(len, joint.length * 2))
      carry.copy(next, 0)
      joint = next
    } else carry.copy(joint, 0) // may overlap the carry (a view of `joint`): copy moves it safely
    chunk.copy(joint, carry.length)
    return joint.subarray(0, len)
  }
  /** Why the content is not checked (then it is the one content problem), else null. */
  let stopped: string | null = null
  const feed = (buf: Buffer, final: boolean): void => {
    if (stopped !== null) return
    const used = checker.take(buf, final)
    carry = used < buf.length ? buf.subarray(used) : null
    if (carry && carry.length > HELD_MAX_BYTES) {
      stopped = checker.tooLong ?? `holds more than ${HELD_MAX_BYTES} bytes without a line end`
      carry = null
    }
  }
  let refused
  try {
    refused = await readChunks(
      file,
      chunkBytes,
      (chunk) => {
        sha.update(chunk)
        if (!checker.binary && stopped === null && !utf8.take(chunk)) stopped = 'not valid UTF-8'
        feed(joined(chunk), false)
      },
      true,
    )
    if (!checker.binary && stopped === null && !utf8.end()) stopped = 'not valid UTF-8'
    if (!refused) feed(carry ?? EMPTY, true)
  } finally {
    await file.fh.close()
  }
  if (refused) {
    add('missing', refused.detail)
    return problems
  }
  const digest = sha.digest('hex')
  if (digest !== entry.sha256) add('hash', `SHA-256 ${digest}, expected ${entry.sha256} (manifest.json)`)
  if (stopped !== null) add('schema', stopped)
  else {
    checker.finish(add)
    if (entry.format === 'json')
      expect.recordsRead = { path: join(dir, entry.name), sha256: digest, bytes: file.size }
  }
  return problems
}

/** All of a member, held (at most HELD_MAX_BYTES) and checked at the end. */
function whole(check: (buf: Buffer, add: AddHere) => void): Checker {
  const parts: Buffer[] = []
  let size = 0
  return {
    take(buf) {
      size += buf.length
      // A copy: the chunk's buffer is read into again.
      if (size <= HELD_MAX_BYTES) parts.push(Buffer.from(buf))
      return buf.length
    },
    finish(add) {
      if (size > HELD_MAX_BYTES) add('schema', `more than the ${HELD_MAX_BYTES} bytes a verifier reads whole`)
      else check(Buffer.concat(parts), add)
    },
  }
}

/** Each line (without its line feed) to `onLine`; `end` is told whether the last one had its line feed. */
function lines(onLine: (text: string) => void, end: (terminated: boolean) => void): Checker['take'] {
  return (buf, final) => {
    let i = 0
    for (let nl = buf.indexOf(0x0a); nl !== -1; nl = buf.indexOf(0x0a, i)) {
      onLine(buf.toString('utf8', i, nl))
      i = nl + 1
    }
    if (!final) return i
    if (i < buf.length) onLine(buf.toString('utf8', i))
    end(i === buf.length)
    return buf.length
  }
}

function checkerOf(entry: FileEntry, expect: Expectation): Checker {
  const rows = (add: AddHere, n: number, what: string): void => {
    if (expect.rowCount !== null && n !== expect.rowCount) {
      add('row_count', `${n} ${what}, manifest rowCount is ${expect.rowCount}`)
    }
  }
  const totals = (add: AddHere, actual: StatusTotal[]): void => {
    if (expect.totals === null) return
    const d = diffTotals(expect.totals, actual)
    if (d.length > 0) {
      const more = d.length > MAX_LISTED ? ` (+${d.length - MAX_LISTED} more)` : ''
      add('totals', d.slice(0, MAX_LISTED).join('; ') + more)
    }
  }
  switch (entry.format) {
    case 'receipt': {
      // Issue #14: bytes and hash are checked like any file's; the content must still be what the type says.
      let head = EMPTY
      return {
        binary: true,
        take(buf) {
          if (head.length < 512) head = Buffer.concat([head, buf.subarray(0, 512 - head.length)])
          return buf.length
        },
        finish(add) {
          if (!bytesMatch(head, entry.mediaType)) add('schema', `not a ${entry.mediaType} document`)
        },
      }
    }
    case 'csv':
      return csvChecker(entry, expect, rows, totals)
    case 'json':
      return recordsChecker(expect, rows, totals)
    case 'html': {
      // Record rows counted on bytes (the report is never decoded); a row start may straddle two chunks.
      const start = Buffer.from(ROW_START, 'utf8')
      let n = 0
      return {
        take(buf, final) {
          const limit = final ? buf.length : Math.max(0, buf.length - start.length + 1)
          for (let i = buf.indexOf(start); i !== -1 && i < limit; i = buf.indexOf(start, i + start.length))
            n += 1
          return limit
        },
        finish: (add) => rows(add, n, 'report rows'),
      }
    }
    case 'audit': {
      const reader = auditLines(expect.auditHead)
      let summary: ReturnType<typeof reader.end> | null = null
      return {
        take: lines(reader.line, (terminated) => (summary = reader.end(terminated))),
        finish(add) {
          for (const p of summary?.problems ?? []) add('audit', p)
          if (expect.audit) expect.audit.summary = summary
        },
        tooLong: `a line longer than ${HELD_MAX_BYTES} bytes: not an audit entry`,
      }
    }
    case 'anchors':
      return whole((buf, add) => {
        const read = readAnchorsMember(buf.toString('utf8'), expect.auditHead)
        for (const p of read.problems) add('audit', p)
        expect.anchors = read.anchors
      })
    case 'wallet-statement':
      return whole((buf, add) => {
        for (const p of checkWalletStatement(buf)) add('totals', p)
      })
    case 'wallet-statement-csv':
    case 'wallet-statement-html':
      // Hashed and signed like every member; their numbers are the JSON's.
      return { take: (buf) => buf.length, finish: () => undefined }
  }
}

type Rows = (add: AddHere, n: number, what: string) => void
type Totals = (add: AddHere, actual: StatusTotal[]) => void

/**
 * records.json: the schema of every record, the row count and totals, and each record's state hash for the
 * comparison with audit.jsonl, which is read before it (verify.ts), so its entries are known here.
 */
function recordsChecker(expect: Expectation, rows: Rows, totals: Totals): Checker {
  const acc = new TotalsAccumulator()
  const { kind, kept, first } = expect
  const stateHashes = expect.audit ? new RecordStates(expect.audit.summary?.latest ?? null) : null
  // The localIds seen: the state hashes' keys when they are collected (each record sets one), else a set.
  const ids: { has(id: string): boolean; add?(id: string): unknown } = stateHashes ?? new Set<string>()
  const fixedHashes = expect.audit && expect.fixedHashes ? new Map<string, string>() : null
  let dup = 0
  const layout = expect.stateLayout ? { off: 0, first: [] as string[] } : null
  const latest = expect.audit?.summary?.latest
  const redacted = expect.audit?.summary?.redacted
  const reader: RecordsReader = readRecordsFile(
    (r, source) => {
      if (ids.has(r.localId)) dup += 1
      else ids.add?.(r.localId)
      if (layout) {
        // The state's bytes are hashed as they are in the file. Bytes that hash to the state the record's
        // latest entry recorded prove the line (record-line.ts stateHashInBytes); any other line must be
        // exactly what it parsed to (provenPrefix) before its hash is compared with that entry.
        const inBytes = stateHashInBytes(source.buf, source.start, source.stop, source.raw)
        const matched = inBytes !== null && latest?.stateIs(latest.ids.find(r.localId), inBytes) === true
        if (matched && !redacted?.has(r.localId)) stateHashes?.set(r.localId, inBytes)
        else if (inBytes === null || provenPrefix(source.line, source.raw) === null) {
          layout.off += 1
          if (layout.first.length < MAX_LISTED) layout.first.push(r.localId)
          stateHashes?.set(r.localId, recordStateHash(r))
        } else stateHashes?.set(r.localId, inBytes)
      } else stateHashes?.set(r.localId, recordStateHash(r))
      fixedHashes?.set(r.localId, kind.fixedHash(r))
      acc.add(kind.totalsRow(r))
      kept?.push(r)
      if (first.length < expect.firstCount) first.push(kind.recordSchema.parse(r) as AnyRecord)
    },
    { kind, exact: kept !== null },
  )
  return {
    take: (buf, final) => reader.take(buf, final),
    tooLong: `a line longer than ${HELD_MAX_BYTES} bytes: not read`,
    finish(add) {
      const read = reader.result()
      for (const issue of read.issues) add('schema', issue)
      if (!read.readable) return
      if (dup > 0) add('schema', `${dup} records repeat a localId`)
      if (layout && layout.off > 0) {
        add(
          'schema',
          `${layout.off} records are not written as export format ${STATE_LAYOUT_VERSION} requires (one record ` +
            `per line, remoteCheckedAt first, then its state in canonical JSON): ${layout.first.join(', ')}`,
        )
      }
      if (expect.audit) Object.assign(expect.audit, { stateHashes, fixedHashes })
      rows(add, read.entries, 'records')
      totals(add, acc.result())
    },
  }
}

/**
 * The header the file must have, and where its status, refund and amounts are: the current one, or one of the
 * kind's exports made before it (RecordsKind.csvEarlier: before issue #26 put the people's columns first, and for
 * withdrawals the older headers before that), when the file starts with that. Either way every cell, row and total
 * is checked the same.
 */
function expectedHeader(
  body: Buffer,
  entry: Extract<FileEntry, { format: 'csv' }>,
  kind: RecordsKind,
): { header: string[]; at: RecordsKind['csvAt'] } {
  // Earlier headers, whole lines (CRLF included), so the current header never passes for one of them.
  for (const earlier of kind.csvEarlier(entry.locale)) {
    const line = Buffer.from(csvLine(earlier.header, entry.delimiter), 'utf8')
    if (body.subarray(0, line.length).equals(line)) return earlier
  }
  return { header: csvHeader(entry.locale, kind.csvColumns), at: kind.csvAt }
}

function csvChecker(
  entry: Extract<FileEntry, { format: 'csv' }>,
  expect: Expectation,
  rows: Rows,
  totals: Totals,
): Checker {
  let bom = true
  let check: ReturnType<typeof checkCsvRows> | null = null
  return {
    take(buf, final) {
      if (check) return check.take(buf, final)
      // The header is known once its line is here (the first line end, or the end of the file).
      if (buf.indexOf(0x0a) === -1 && !final) return 0
      bom = buf.subarray(0, BOM_BYTES.length).equals(BOM_BYTES)
      const body = bom ? buf.subarray(BOM_BYTES.length) : buf
      const expected = expectedHeader(body, entry, expect.kind)
      check = checkCsvRows({
        delimiter: entry.delimiter,
        locale: entry.locale,
        header: expected.header,
        at: expected.at,
        maxListed: MAX_LISTED,
      })
      return buf.length - body.length + check.take(body, final)
    },
    tooLong: `not valid CSV: a row longer than ${HELD_MAX_BYTES} bytes`,
    finish(add) {
      if (!bom) add('schema', 'no UTF-8 byte order mark')
      const r = check?.result()
      if (!r) return
      if (r.headerMismatch !== null) {
        add('schema', `header differs from the ${entry.locale} columns at column ${r.headerMismatch}`)
      }
      if (r.syntaxError !== null) return add('schema', `not valid CSV: ${r.syntaxError}`)
      if (r.malformed > 0) add('schema', `${r.malformed} malformed rows: ${r.listed.join('; ')}`)
      rows(add, r.dataRows, 'data rows')
      if (r.headerMismatch === null) totals(add, r.totals)
    },
  }
}
