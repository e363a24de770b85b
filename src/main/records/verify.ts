/**
 * verifyExport: every check runs and every problem is reported (which file, which check), never only the first.
 *
 * manifest.json — missing; schema (not JSON, not the v1 schema, or not byte-identical to its normal layout);
 *   signature (bad public key, invalid signature, or not the expected key); totals (status totals do not add up
 *   to rowCount).
 * each listed file — missing; hash (size or SHA-256 differ); schema (not UTF-8, CSV without BOM/with a wrong
 *   header/ragged rows, JSON not the records schema); row_count (rows ≠ rowCount); totals (CSV and JSON only,
 *   recomputed from the rows ≠ manifest totals).
 * Files in the folder that the manifest does not list are returned in `unlisted`, not as problems: the
 * signature does not cover them, so they cannot be trusted, but an auditor's own notes next to an export do
 * not make it tampered.
 */
import { isUtf8 } from 'node:buffer'
import { open, readdir, readFile, stat } from 'node:fs/promises'
import { basename, dirname, join, resolve } from 'node:path'
import type { StatusTotal } from '../../shared/withdrawal-record'
import { columnIndex } from './columns'
import { BOM, csvHeader, YES_NO } from './csv'
import { countReportRows } from './html'
import { readRecordsFile, type ExportedRecord } from './json'
import { recordStateHash } from '../ledger/state-hash'
import {
  AUDIT_FILE,
  compareRecords,
  readAuditMember,
  recordFixedHash,
  type AuditCollected,
  type Head,
} from './audit-member'
import {
  canonicalManifestBytes,
  fileEntrySchema,
  MANIFEST_FILE,
  manifestFileText,
  manifestSchema,
  statusTotalSchema,
  type FileEntry,
  type Manifest,
} from './manifest'
import { keyFingerprint, normalizeFingerprint, verifyBytes } from './sign'
import { createChecker, type Checker } from './checker'
import { diffTotals, sortTotals, sumTotals, TotalsAccumulator } from './totals'

export type VerificationCheck = 'missing' | 'hash' | 'signature' | 'schema' | 'row_count' | 'totals' | 'audit'

export interface VerificationProblem {
  /** File name in the export folder (the manifest's own name for manifest-level problems). */
  file: string
  check: VerificationCheck
  detail: string
}

export interface ExportVerification {
  ok: boolean
  problems: VerificationProblem[]
  /** Fingerprint of the manifest's public key ('' when it has none that parses). See keyFingerprint. */
  signerFingerprint: string
  /** The manifest when it matched the schema (shown even if other checks failed), else null. */
  manifest: Manifest | null
  /** The records of the JSON file that passed the schema, when asked for (`keepRecords`). */
  records?: ExportedRecord[]
  /** Files in the folder that the manifest does not list (not covered by the signature). */
  unlisted: string[]
  /** The audit member as read, and the exported records' state hashes (for --against); see audit-member.ts. */
  audit?: AuditCollected
}

export interface VerifyOptions {
  /** The fingerprint the signer must have (from Settings, compared out of band); spaces and case ignored. */
  expectFingerprint?: string
  /** Return the JSON records (review mode). */
  keepRecords?: boolean
}

interface Expectation {
  rowCount: number | null
  totals: StatusTotal[] | null
  auditHead: Head | null
  /** Filled by the file checks when the manifest lists an audit member. */
  audit: AuditCollected | null
}

const MAX_LISTED = 5
const BOM_BYTES = Buffer.from(BOM, 'utf8')

/** Strict UTF-8 (simdutf, fast): a lone bad byte is reported, not silently turned into U+FFFD. */
function decode(buf: Buffer): string | null {
  return isUtf8(buf) ? buf.toString('utf8') : null
}

/** A manifest given as a folder means the folder's manifest.json. */
async function manifestLocation(p: string): Promise<string> {
  const abs = resolve(p)
  try {
    if ((await stat(abs)).isDirectory()) return join(abs, MANIFEST_FILE)
  } catch {
    // reported as missing below
  }
  return abs
}

export async function verifyExport(manifestPath: string, o: VerifyOptions = {}): Promise<ExportVerification> {
  const path = await manifestLocation(manifestPath)
  const dir = dirname(path)
  const mname = basename(path)
  const problems: VerificationProblem[] = []
  const add = (file: string, check: VerificationCheck, detail: string): void => {
    problems.push({ file, check, detail })
  }
  const done = (extra: Partial<ExportVerification>): ExportVerification => ({
    ok: problems.length === 0,
    problems,
    signerFingerprint: '',
    manifest: null,
    unlisted: [],
    ...extra,
  })

  let text: string | null
  try {
    const buf = await readFile(path)
    text = decode(buf)
  } catch {
    add(mname, 'missing', `${path} does not exist or cannot be read`)
    return done({})
  }
  let raw: unknown
  try {
    if (text === null) throw new Error('not valid UTF-8')
    raw = JSON.parse(text)
  } catch (e) {
    add(mname, 'schema', `not JSON: ${(e as Error).message}`)
    return done({ unlisted: await unlistedFiles(dir, mname, []) })
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) {
    add(mname, 'schema', 'not a JSON object')
    return done({ unlisted: await unlistedFiles(dir, mname, []) })
  }
  const obj = raw as Record<string, unknown>
  if (manifestFileText(obj) !== text) {
    add(
      mname,
      'schema',
      'bytes differ from the normal layout of its content (edited outside the signed values)',
    )
  }

  const parsed = manifestSchema.safeParse(obj)
  const manifest = parsed.success ? parsed.data : null
  if (!parsed.success) {
    for (const i of parsed.error.issues.slice(0, 10)) {
      add(mname, 'schema', `${i.path.map(String).join('.') || '(root)'}: ${i.message}`)
    }
  }

  const signerFingerprint = checkSignature(obj, mname, add, o.expectFingerprint)

  // What the files are compared with: from the valid manifest, or what can be salvaged from an invalid one.
  const expect: Expectation = {
    rowCount: manifest?.rowCount ?? (Number.isSafeInteger(obj.rowCount) ? (obj.rowCount as number) : null),
    totals: manifest?.totals ?? salvageTotals(obj.totals),
    auditHead: manifest?.auditHead ?? null,
    audit: null,
  }
  const entries = manifest?.files ?? salvageEntries(obj.files)
  if (entries.some((e) => e.format === 'audit')) {
    expect.audit = { summary: null, stateHashes: null, fixedHashes: null }
  }
  checkManifestTotals(manifest, mname, add)
  const names = new Set<string>()
  for (const e of entries) {
    if (names.has(e.name)) add(mname, 'schema', `${e.name} is listed twice`)
    names.add(e.name)
  }

  let records: ExportedRecord[] | undefined
  const checker = createChecker()
  try {
    // Each file is read (and hashed, on the checker's thread) while the one before it is checked; the CSV is
    // checked on that thread too, while this one reads the JSON. Problems are reported in the manifest's order.
    const reads: Array<Promise<FileRead> | undefined> = []
    const read = (i: number): Promise<FileRead> | undefined => {
      const entry = entries[i]
      if (entry) reads[i] ??= readEntry(dir, entry, checker)
      return reads[i]
    }
    const outcomes: Array<Promise<FileOutcome>> = []
    for (const [i, entry] of entries.entries()) {
      const current = read(i) as Promise<FileRead>
      void read(i + 1)
      const outcome = checkFile(entry, await current, expect, o.keepRecords === true, checker)
      // Not awaited here (a CSV check runs on), but never left unhandled if an earlier one throws.
      outcome.catch(() => undefined)
      outcomes.push(outcome)
      reads[i] = undefined
    }
    for (const outcome of outcomes) {
      const got = await outcome
      for (const p of got.problems) add(...p)
      if (got.records && records === undefined) records = got.records
    }
  } finally {
    await checker.close()
  }
  const audit = expect.audit
  if (audit?.summary && audit.stateHashes) {
    // A record that differs from its entry is reported on the records file: that is where the auditor looks.
    const name = entries.find((e) => e.format === 'json')?.name ?? AUDIT_FILE
    for (const p of compareRecords(audit.summary, audit.stateHashes)) add(name, 'audit', p)
  }
  return done({
    signerFingerprint,
    manifest,
    unlisted: await unlistedFiles(dir, mname, entries),
    ...(o.keepRecords ? { records: records ?? [] } : {}),
    ...(audit ? { audit } : {}),
  })
}

type Add = (file: string, check: VerificationCheck, detail: string) => void

function checkSignature(obj: Record<string, unknown>, mname: string, add: Add, expected?: string): string {
  const { publicKey, signature } = obj
  if (typeof publicKey !== 'string' || typeof signature !== 'string') {
    add(mname, 'signature', 'no publicKey or signature')
    return ''
  }
  let fingerprint = ''
  try {
    fingerprint = keyFingerprint(publicKey)
    if (!verifyBytes(publicKey, canonicalManifestBytes(obj), signature)) {
      add(mname, 'signature', 'the signature does not match the manifest content')
    }
  } catch (e) {
    add(mname, 'signature', `public key unusable: ${(e as Error).message}`)
  }
  if (expected !== undefined && normalizeFingerprint(expected) !== normalizeFingerprint(fingerprint)) {
    add(mname, 'signature', `signed by key ${fingerprint || '(none)'}, expected ${expected}`)
  }
  return fingerprint
}

function checkManifestTotals(m: Manifest | null, mname: string, add: Add): void {
  if (!m) return
  const seen = new Set<string>()
  for (const t of m.totals) {
    const k = `${t.status}\u0000${t.hasRefund}`
    if (seen.has(k)) add(mname, 'schema', `totals list status "${t.status}" twice`)
    seen.add(k)
  }
  const sum = sumTotals(m.totals)
  if (sum.count !== m.rowCount) {
    add(mname, 'totals', `status totals count ${sum.count} records, rowCount is ${m.rowCount}`)
  }
}

function salvageTotals(v: unknown): StatusTotal[] | null {
  if (!Array.isArray(v)) return null
  const out: StatusTotal[] = []
  for (const t of v) {
    const r = statusTotalSchema.safeParse(t)
    if (!r.success) return null
    out.push(r.data)
  }
  return out
}

function salvageEntries(v: unknown): FileEntry[] {
  if (!Array.isArray(v)) return []
  return v.flatMap((e) => {
    const r = fileEntrySchema.safeParse(e)
    return r.success ? [r.data] : []
  })
}

async function unlistedFiles(dir: string, mname: string, entries: readonly FileEntry[]): Promise<string[]> {
  const listed = new Set([mname, ...entries.map((e) => e.name)])
  try {
    return (await readdir(dir)).filter((n) => !listed.has(n)).sort()
  } catch {
    return []
  }
}

type FileRead = { buf: Buffer; sha256: Promise<string> } | { missing: string }

/**
 * The file's bytes, and its SHA-256 computed from those very bytes on the checker's thread (they are read into
 * shared memory, so the thread reads them where they are).
 */
async function readEntry(dir: string, entry: FileEntry, checker: Checker): Promise<FileRead> {
  const path = join(dir, entry.name)
  let buf: Buffer
  try {
    if (!(await stat(path)).isFile()) return { missing: 'not a regular file' }
    buf = await readShared(path)
  } catch {
    return { missing: 'listed in the manifest but not in the folder' }
  }
  const sha256 = checker.sha256(buf)
  // Reported (as a hash problem) when awaited.
  sha256.catch(() => undefined)
  return { buf, sha256 }
}

/** Like readFile, into a SharedArrayBuffer; a plain readFile when the file changes size while read. */
async function readShared(path: string): Promise<Buffer> {
  const fh = await open(path, 'r')
  try {
    const { size } = await fh.stat()
    const buf = Buffer.from(new SharedArrayBuffer(size))
    let off = 0
    while (off < size) {
      // One read call takes at most 2 GiB.
      const { bytesRead } = await fh.read(buf, off, Math.min(size - off, 1 << 30), off)
      if (bytesRead === 0) break
      off += bytesRead
    }
    const more = await fh.read(Buffer.alloc(1), 0, 1, off)
    if (off < size || more.bytesRead > 0) return await readFile(path)
    return buf
  } finally {
    await fh.close()
  }
}

interface FileOutcome {
  problems: Array<Parameters<Add>>
  /** The JSON file's valid records, in review mode. */
  records?: ExportedRecord[]
}

/**
 * A file's problems: hash first, then content. The JSON and HTML checks run before this returns its promise;
 * the CSV check on the checker's thread.
 */
async function checkFile(
  entry: FileEntry,
  read: FileRead,
  expect: Expectation,
  keep: boolean,
  checker: Checker,
): Promise<FileOutcome> {
  const problems: Array<Parameters<Add>> = []
  if ('missing' in read) {
    problems.push([entry.name, 'missing', read.missing])
    return { problems }
  }
  const { buf } = read
  const content: Array<Parameters<Add>> = []
  let records: ExportedRecord[] | undefined
  try {
    records = await checkContent(entry, buf, expect, (...p) => content.push(p), keep, checker)
  } finally {
    const sha = await read.sha256.catch((e: unknown) => `(not computed: ${(e as Error).message})`)
    const diffs: string[] = []
    if (buf.length !== entry.bytes) diffs.push(`${buf.length} bytes, manifest says ${entry.bytes}`)
    if (sha !== entry.sha256) diffs.push(`SHA-256 ${sha}, manifest says ${entry.sha256}`)
    if (diffs.length > 0) problems.push([entry.name, 'hash', diffs.join('; ')])
    problems.push(...content)
  }
  return { problems, records }
}

async function checkContent(
  entry: FileEntry,
  buf: Buffer,
  expect: Expectation,
  add: Add,
  keep: boolean,
  checker: Checker,
): Promise<ExportedRecord[] | undefined> {
  if (!isUtf8(buf)) {
    add(entry.name, 'schema', 'not valid UTF-8')
    return undefined
  }
  const rows = (n: number, what: string): void => {
    if (expect.rowCount !== null && n !== expect.rowCount) {
      add(entry.name, 'row_count', `${n} ${what}, manifest rowCount is ${expect.rowCount}`)
    }
  }
  const totals = (actual: StatusTotal[]): void => {
    if (expect.totals === null) return
    const d = diffTotals(expect.totals, actual)
    if (d.length > 0) {
      const more = d.length > MAX_LISTED ? ` (+${d.length - MAX_LISTED} more)` : ''
      add(entry.name, 'totals', d.slice(0, MAX_LISTED).join('; ') + more)
    }
  }
  switch (entry.format) {
    case 'csv':
      await checkCsv(entry, buf, add, rows, totals, checker)
      return undefined
    case 'json': {
      const ids = new Set<string>()
      const acc = new TotalsAccumulator()
      const kept: ExportedRecord[] | undefined = keep ? [] : undefined
      const stateHashes = expect.audit ? new Map<string, string>() : null
      const fixedHashes = expect.audit ? new Map<string, string>() : null
      let dup = 0
      const read = readRecordsFile(
        buf,
        (r) => {
          if (ids.has(r.localId)) dup += 1
          ids.add(r.localId)
          stateHashes?.set(r.localId, recordStateHash(r))
          fixedHashes?.set(r.localId, recordFixedHash(r))
          acc.addRecord(r)
          kept?.push(r)
        },
        { exact: keep },
      )
      for (const issue of read.issues) add(entry.name, 'schema', issue)
      if (!read.readable) return undefined
      if (dup > 0) add(entry.name, 'schema', `${dup} records repeat a localId`)
      if (expect.audit) Object.assign(expect.audit, { stateHashes, fixedHashes })
      rows(read.entries, 'records')
      totals(acc.result())
      return kept
    }
    case 'html':
      rows(countReportRows(buf), 'report rows')
      return undefined
    case 'audit': {
      const summary = readAuditMember(buf.toString('utf8'), expect.auditHead)
      for (const p of summary.problems) add(entry.name, 'audit', p)
      if (expect.audit) expect.audit.summary = summary
      return undefined
    }
  }
}

async function checkCsv(
  entry: Extract<FileEntry, { format: 'csv' }>,
  buf: Buffer,
  add: Add,
  rows: (n: number, what: string) => void,
  totals: (t: StatusTotal[]) => void,
  checker: Checker,
): Promise<void> {
  const bom = buf.subarray(0, BOM_BYTES.length).equals(BOM_BYTES)
  if (!bom) add(entry.name, 'schema', 'no UTF-8 byte order mark')
  const r = await checker.checkCsv(bom ? buf.subarray(BOM_BYTES.length) : buf, {
    delimiter: entry.delimiter,
    locale: entry.locale,
    header: csvHeader(entry.locale),
    at: {
      status: columnIndex('status'),
      refunded: columnIndex('refunded'),
      deposit: columnIndex('deposit_amount'),
      payout: columnIndex('payout_amount'),
    },
    yesNo: [...YES_NO[entry.locale]],
    maxListed: MAX_LISTED,
  })
  if (r.headerMismatch !== null) {
    add(entry.name, 'schema', `header differs from the ${entry.locale} columns at column ${r.headerMismatch}`)
  }
  if (r.syntaxError !== null) {
    add(entry.name, 'schema', `not valid CSV: ${r.syntaxError}`)
    return
  }
  if (r.malformed > 0) add(entry.name, 'schema', `${r.malformed} malformed rows: ${r.listed.join('; ')}`)
  rows(r.dataRows, 'data rows')
  if (r.headerMismatch === null) totals(sortTotals(r.totals))
}
