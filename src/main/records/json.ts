/**
 * records.json: `{ "schema": "tesouraria-depix/records", "version": 1, "records": [ WithdrawalRecord, … ] }`.
 * Written as a stream, UTF-8, one record per line (diff- and grep-friendly), but it is plain JSON: readers
 * should not rely on the line layout. Our verifier does, from manifest version 2: each line in the state layout
 * (record-line.ts), whose bytes it hashes. Records are the ledger's WithdrawalRecord objects (after redaction, see redact.ts);
 * reading validates each one with the shared zod schema, strictly (an unknown member is an error).
 */
import { z } from 'zod'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { WITHDRAWAL_KIND, type AnyRecord, type RecordsKind } from './kinds'
import { compileSchemaPrecheck } from './schema-precheck'

export const RECORDS_SCHEMA = WITHDRAWAL_KIND.jsonSchema
export const RECORDS_VERSION = 1

export type ExportedRecord = WithdrawalRecord
export const exportedRecordSchema = WITHDRAWAL_KIND.recordSchema

/** The head of a kind's records.json; `schema` names the kind (withdrawals: tesouraria-depix/records). */
export function jsonHead(kind: Pick<RecordsKind, 'jsonSchema'>): string {
  return `{"schema":"${kind.jsonSchema}","version":${RECORDS_VERSION},"records":[\n`
}

export const JSON_HEAD = jsonHead(WITHDRAWAL_KIND)
export const JSON_TAIL = '\n]}\n'
export const JSON_SEPARATOR = ',\n'
const TAIL_BYTES = Buffer.from(JSON_TAIL, 'utf8')

/** Per kind: the fast check compiled from its schema (null if the schema outgrows it), the envelope schema. */
const readers = new Map<
  string,
  { fast: ((v: unknown) => boolean) | null; envelope: z.ZodType; head: Buffer }
>()

function readerOf(kind: RecordsKind) {
  let r = readers.get(kind.id)
  if (!r) {
    r = {
      // Accepts only what the schema accepts (schema-precheck.ts).
      fast: compileSchemaPrecheck(kind.recordSchema),
      envelope: z.strictObject({
        schema: z.literal(kind.jsonSchema),
        version: z.literal(RECORDS_VERSION),
        records: z.array(z.unknown()),
      }),
      head: Buffer.from(jsonHead(kind), 'utf8'),
    }
    readers.set(kind.id, r)
  }
  return r
}

/** Where a record came from: JSON.parse's value, and its line when the file was read line by line (else null). */
export interface RecordSource {
  raw: unknown
  line: string | null
  /** The line's bytes in the file, [start, stop) without its separating comma; -1 when `line` is null. */
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

const MAX_ISSUES = 20

function describeIssues(error: z.ZodError, prefix: string): string[] {
  return error.issues.map((i) => `${prefix}${i.path.map((p) => `.${String(p)}`).join('')}: ${i.message}`)
}

/**
 * Parses and validates a records file, calling `onRecord` with each schema-valid record in file order. Never
 * throws on bad input: everything wrong is an issue.
 *
 * Every record is validated against `exportedRecordSchema`: by the fast check derived from it where that
 * accepts the record, else by zod (whose issues are reported). `exact`: `onRecord` gets zod's output for every
 * record (members in the schema's order, as the review ledger stores them); otherwise a record the fast check
 * accepted is passed as parsed.
 *
 * A file in the layout this module writes (head line, one record per line, tail) is parsed line by line: the
 * same result as JSON.parse of the whole (a JSON string cannot hold a raw line break, so a record cannot span
 * lines), without 100k records alive at once. Any other text is parsed whole.
 */
export function readRecordsFile<R extends AnyRecord = ExportedRecord>(
  buf: Buffer,
  onRecord: (r: R, source: RecordSource) => void,
  o: { exact?: boolean; kind?: RecordsKind<R> } = {},
): RecordsFileRead {
  const kind = (o.kind ?? WITHDRAWAL_KIND) as unknown as RecordsKind
  const reader = readerOf(kind)
  const issues: string[] = []
  let entries = 0
  let invalid = 0
  const fast = o.exact === true ? null : reader.fast
  const take = (raw: unknown, line: string | null, start = -1, stop = -1): void => {
    if (fast?.(raw)) {
      onRecord(raw as R, { raw, line, start, stop })
      entries += 1
      return
    }
    const r = kind.recordSchema.safeParse(raw)
    if (r.success) onRecord(r.data as R, { raw, line, start, stop })
    else {
      invalid += 1
      if (issues.length < MAX_ISSUES)
        issues.push(...describeIssues(r.error, `records[${entries}]`).slice(0, 3))
    }
    entries += 1
  }
  const finish = (): RecordsFileRead => {
    if (invalid > 0) issues.push(`${invalid} of ${entries} records are invalid`)
    return { entries, issues, readable: true }
  }

  // Line by line on the bytes: V8 decodes a 180 MB UTF-8 string several times slower than many small ones.
  const HEAD_BYTES = reader.head
  const head = HEAD_BYTES.length
  const tail = TAIL_BYTES.length
  if (
    buf.length >= head + tail &&
    buf.subarray(0, head).equals(HEAD_BYTES) &&
    buf.subarray(buf.length - tail).equals(TAIL_BYTES)
  ) {
    const end = buf.length - tail
    let i = head
    let fastOk = true
    while (i < end) {
      let nl = buf.indexOf(0x0a, i)
      if (nl === -1 || nl > end) nl = end
      // Every line but the last ends with the separating comma.
      const stop = nl === end ? nl : buf[nl - 1] === 0x2c ? nl - 1 : -1
      let raw: unknown
      let line: string
      try {
        if (stop < 0) throw new SyntaxError('no comma at the end of the line')
        line = buf.toString('utf8', i, stop)
        raw = JSON.parse(line)
      } catch (e) {
        if (entries === 0) {
          fastOk = false
          break
        }
        // Nothing written by the exporter gets here (and the hash check will say so as well).
        issues.push(`line ${entries + 2}: not one JSON record per line as exported (${(e as Error).message})`)
        return { entries, issues, readable: false }
      }
      take(raw, line, i, stop)
      i = nl + 1
    }
    if (fastOk) return finish()
  }

  const text = buf.toString('utf8')
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch (e) {
    return { entries: 0, issues: [`not JSON: ${(e as Error).message}`], readable: false }
  }
  const env = reader.envelope.safeParse(parsed)
  if (!env.success) {
    return { entries: 0, issues: describeIssues(env.error, '').slice(0, MAX_ISSUES), readable: false }
  }
  for (const raw of (env.data as { records: unknown[] }).records) take(raw, null)
  return finish()
}
