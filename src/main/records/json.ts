/**
 * records.json: `{ "schema": "tesouraria-depix/records", "version": 1, "records": [ WithdrawalRecord, … ] }`.
 * Written as a stream, UTF-8, one record per line (diff- and grep-friendly), but it is plain JSON: readers
 * should not rely on the line layout. Our verifier does, from manifest version 2: each line in the state layout
 * (record-line.ts), whose bytes it hashes. Records are the ledger's WithdrawalRecord objects (after redaction, see redact.ts);
 * reading validates each one with the shared zod schema, strictly (an unknown member is an error).
 */
import type { z } from 'zod'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { WITHDRAWAL_KIND, type AnyRecord, type RecordsKind } from './kinds'
import { compileSchemaPrecheck } from './schema-precheck'

export const RECORDS_SCHEMA = WITHDRAWAL_KIND.jsonSchema
export const RECORDS_VERSION = 1

export type ExportedRecord = WithdrawalRecord

/** The head of a kind's records.json; `schema` names the kind (withdrawals: tesouraria-depix/records). */
export function jsonHead(kind: Pick<RecordsKind, 'jsonSchema'>): string {
  return `{"schema":"${kind.jsonSchema}","version":${RECORDS_VERSION},"records":[\n`
}

export const JSON_HEAD = jsonHead(WITHDRAWAL_KIND)
export const JSON_TAIL = '\n]}\n'
export const JSON_SEPARATOR = ',\n'

/** Where a record came from: JSON.parse's value, and its line. */
export interface RecordSource {
  raw: unknown
  line: string
  /** The bytes the line is in, and its range [start, stop) there without its separating comma. */
  buf: Buffer
  start: number
  stop: number
}

export interface RecordsFileRead {
  /** Number of entries in `records`, valid or not: what row counts compare. */
  entries: number
  /** Human-readable problems, first ones only (see MAX_ISSUES). */
  issues: string[]
  /** False when the text is not JSON or the envelope is wrong: nothing was read. */
  readable: boolean
}

/** A records file read as it streams (readRecordsFile). */
export interface RecordsReader {
  /**
   * Takes the bytes not consumed before plus the next ones; returns how many it consumed (always at a line
   * end, so a UTF-8 character is never split; all of them when `final`). The rest comes back with more.
   */
  take(buf: Buffer, final: boolean): number
  result(): RecordsFileRead
}

const MAX_ISSUES = 20

function describeIssues(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((i) => `${prefix}${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`)
}

/**
 * Parses and validates a records file as it streams, calling `onRecord` with each schema-valid record in file
 * order. Never throws on bad input: everything wrong is an issue.
 *
 * Every record is validated against the kind's schema: by the fast check derived from it where that accepts
 * the record, else by zod (whose issues are reported). `exact`: `onRecord` gets zod's output for every record
 * (members in the schema's order, as the review ledger stores them); otherwise a record the fast check
 * accepted is passed as parsed.
 *
 * The file must be in the layout this module writes, as every export since the first (head line, one record per
 * line, tail): it is parsed line by line, the same result as JSON.parse of the whole (a JSON string cannot hold a
 * raw line break, so a record cannot span lines), holding one line at a time. Any other text is an issue (issue
 * #30: a file is never held whole).
 */
export function readRecordsFile<R extends AnyRecord = ExportedRecord>(
  onRecord: (r: R, source: RecordSource) => void,
  o: { exact?: boolean; kind?: RecordsKind<R> } = {},
): RecordsReader {
  const kind = (o.kind ?? WITHDRAWAL_KIND) as unknown as RecordsKind
  const issues: string[] = []
  let entries = 0
  let invalid = 0
  let readable = true
  // Accepts only what the schema accepts (schema-precheck.ts); null if the schema outgrows it. Compiled per file:
  // it walks the schema's definition once, a fraction of a millisecond.
  const fast = o.exact === true ? null : compileSchemaPrecheck(kind.recordSchema)
  const take = (raw: unknown, line: string, buf: Buffer, start: number, stop: number): void => {
    if (fast?.(raw)) {
      onRecord(raw as R, { raw, line, buf, start, stop })
      entries += 1
      return
    }
    const r = kind.recordSchema.safeParse(raw)
    if (r.success) onRecord(r.data as R, { raw, line, buf, start, stop })
    else {
      invalid += 1
      if (issues.length < MAX_ISSUES)
        issues.push(...describeIssues(r.error, `records[${entries}]`).slice(0, 3))
    }
    entries += 1
  }
  const unreadable = (issue: string[]): void => {
    readable = false
    issues.push(...issue)
  }
  // 'start': nothing read yet; 'lines': the exporter's layout; 'end': its last record line was read, `]}` is
  // next; 'tail': `]}` was read, nothing may follow; 'done': read, or reading stopped.
  let mode: 'start' | 'lines' | 'end' | 'tail' | 'done' = 'start'
  const head = Buffer.from(jsonHead(kind), 'utf8')
  return {
    take(buf, final) {
      if (mode === 'start') {
        if (buf.length < head.length && !final) return 0
        if (buf.subarray(0, head.length).equals(head)) {
          mode = 'lines'
          return head.length + this.take(buf.subarray(head.length), final)
        }
        unreadable([`line 1: not the head the exporter writes (${head.toString('utf8').trim()})`])
        mode = 'done'
      }
      if (mode === 'tail' || mode === 'done') {
        if (mode === 'tail' && buf.length > 0) {
          unreadable([`line ${entries + 3}: not one JSON record per line as exported (text after the end)`])
        }
        mode = 'done'
        return buf.length
      }
      let i = 0
      const n = buf.length
      while (mode === 'lines' || mode === 'end') {
        const nl = buf.indexOf(0x0a, i)
        if (nl === -1) break
        if (mode === 'end') {
          // Only `]}` and the final line end may follow the last record.
          if (nl - i !== 2 || buf[i] !== 0x5d || buf[i + 1] !== 0x7d || nl !== n - 1) break
          mode = 'tail'
          return n
        }
        // Every record line but the last ends with the separating comma; the last is followed by `]}`.
        const comma = nl > i && buf[nl - 1] === 0x2c
        const stop = comma ? nl - 1 : nl
        if (!comma) mode = 'end'
        if (comma || stop > i || entries > 0) {
          let raw: unknown
          let line: string
          try {
            line = buf.toString('utf8', i, stop)
            raw = JSON.parse(line)
          } catch (e) {
            unreadable([
              `line ${entries + 2}: not one JSON record per line as exported (${(e as Error).message})`,
            ])
            mode = 'done'
            return n
          }
          take(raw, line, buf, i, stop)
        }
        i = nl + 1
      }
      if (mode === 'end' && buf.indexOf(0x0a, i) !== -1) {
        unreadable([
          `line ${entries + 2}: not one JSON record per line as exported (text after the last record)`,
        ])
        mode = 'done'
        return n
      }
      if (final) {
        // The file ended before its tail: not what the exporter writes.
        unreadable([`line ${entries + 2}: not one JSON record per line as exported (no "]}" at the end)`])
        mode = 'done'
        return n
      }
      return i
    },
    result() {
      if (readable && invalid > 0) issues.push(`${invalid} of ${entries} records are invalid`)
      return readable ? { entries, issues, readable } : { entries: 0, issues, readable }
    },
  }
}
