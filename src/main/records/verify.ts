/**
 * verifyExport: every check runs and every problem is reported (which file, which check), never only the first.
 *
 * The folder is hostile until checked: every file is read through safe-read.ts (no link followed, no blocking
 * open, regular files only, sizes capped and compared before reading).
 *
 * manifest.json — missing (or refused unread: a link, a FIFO, a device); schema (over 1 MiB or 16 levels deep,
 *   not JSON, not the v1 schema, or not byte-identical to its normal layout); signature (bad public key, invalid
 *   signature, or not the expected key); totals (status totals do not add up to rowCount, or its totals by
 *   meaning are not `meaningTotals` of its status totals).
 * each listed file — missing (or refused unread); hash (size, then unread, or SHA-256 differ); schema (not
 *   UTF-8, CSV without BOM/with a wrong header/ragged rows, JSON not the records schema or, from manifest
 *   version 2, a record not in the state layout of record-line.ts); row_count (rows ≠
 *   rowCount); totals (CSV and JSON only, recomputed from the rows ≠ manifest totals; the refund fee only from
 *   JSON, the CSV has no column for it).
 * audit.jsonl and anchors.jsonl — audit: each entry and anchor checked on its own (audit-member.ts, anchors.ts),
 *   then the records against their entries and the anchors against audit.jsonl.
 * Files in the folder that the manifest does not list are returned in `unlisted`, not as problems: the
 * signature does not cover them, so they cannot be trusted, but an auditor's own notes next to an export do
 * not make it tampered.
 */
import { isUtf8 } from 'node:buffer'
import { createHash } from 'node:crypto'
import { basename, dirname, join, resolve } from 'node:path'
import type { StatusTotal } from '../../shared/withdrawal-record'
import { BOM, csvHeader, csvLine, YES_NO } from './csv'
import { countReportRows } from './html'
import { readRecordsFile, type ExportedRecord } from './json'
import { recordsKind, type AnyRecord, type RecordsKind } from './kinds'
import type { DepositRecord } from '../../shared/deposit-record'
import { recordStateHash } from '../ledger/model/state-hash'
import { provenPrefix, STATE_LAYOUT_VERSION, stateHashInBytes } from './record-line'
import { AUDIT_FILE, compareRecords, type AuditCollected, type Head } from './audit-member'
import { auditSummary } from './audit-kernel'
import { csvReader } from './kernel'
import {
  canonicalManifestBytes,
  fileListSchema,
  MANIFEST_FILE,
  manifestFileText,
  manifestSchema,
  statusTotalSchema,
  type FileEntry,
  type Manifest,
  RECEIPTS_DIR,
} from './manifest'
import { compareAnchorsWithAudit, readAnchorsMember } from './anchors'
import {
  jsonTooDeepAt,
  MANIFEST_MAX_BYTES,
  MANIFEST_MAX_DEPTH,
  memberMaxBytes,
  otherNames,
  pathKind,
  readRegularFile,
  type Refusal,
} from './safe-read'
import { bytesMatch } from '../receipts/fetch'
import { checkWalletStatement } from './wallet-statement'
import { keyFingerprint, normalizeFingerprint, verifyBytes } from './sign'
import { diffTotals, escapedTotals, sumTotals, TotalsAccumulator } from './totals'
import { MEANINGS, meaningTotals, type MeaningTotals } from '../../shared/money-totals'

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
  /** Same, for a deposit export (`recordKind: "deposit"`): its records, for the review's ledger. */
  depositRecords?: DepositRecord[]
  /** records.json's bytes as read and checked, when asked for (`keepRecordsBytes`): the review pages them. */
  recordsBytes?: Buffer
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
  /** Return records.json's bytes, read once and checked here (the offline review loads them afterwards). */
  keepRecordsBytes?: boolean
  /**
   * Collect every record's fixed hash (recordFixedHash) in `audit.fixedHashes`: only --against compares them,
   * and computing them costs a canonical JSON and a SHA-256 per record on every verification otherwise.
   */
  fixedHashes?: boolean
}

interface Expectation {
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
}

const MAX_LISTED = 5
const BOM_BYTES = Buffer.from(BOM, 'utf8')

/** Strict UTF-8 (simdutf, fast): a lone bad byte is reported, not silently turned into U+FFFD. */
function decode(buf: Buffer): string | null {
  return isUtf8(buf) ? buf.toString('utf8') : null
}

/**
 * The manifest's path: a folder means its manifest.json. A link, as the path given or as the folder, is refused
 * (safe-read.ts): what an export's files are must not depend on where a link points.
 */
async function manifestLocation(p: string): Promise<{ path: string; refused?: Refusal }> {
  const abs = resolve(p)
  const kind = await pathKind(abs)
  if (kind === 'folder') return { path: join(abs, MANIFEST_FILE) }
  if (kind !== 'file') return { path: abs, refused: kind.refused }
  const folder = await pathKind(dirname(abs))
  return typeof folder === 'object'
    ? { path: abs, refused: { ...folder.refused, detail: `its folder ${folder.refused.detail}` } }
    : { path: abs }
}

/** The manifest's text, refused (see safe-read.ts) when it is not a small regular UTF-8 file of shallow JSON. */
async function readManifestText(
  location: { path: string; refused?: Refusal },
  mname: string,
  add: Add,
): Promise<{ text: string } | { stop: 'missing' | 'schema' }> {
  const { path } = location
  const got = location.refused
    ? { refused: location.refused }
    : await readRegularFile(path, { maxBytes: MANIFEST_MAX_BYTES })
  if ('refused' in got) {
    const { kind, detail } = got.refused
    if (kind === 'size') {
      add(mname, 'schema', `${detail}: not a manifest`)
      return { stop: 'schema' }
    }
    add(
      mname,
      'missing',
      kind === 'missing' ? `${path} does not exist or cannot be read` : `${path} ${detail}`,
    )
    return { stop: 'missing' }
  }
  const text = decode(got.buf)
  if (text === null) {
    add(mname, 'schema', 'not JSON: not valid UTF-8')
    return { stop: 'schema' }
  }
  const deep = jsonTooDeepAt(text, MANIFEST_MAX_DEPTH)
  if (deep >= 0) {
    add(
      mname,
      'schema',
      `nested deeper than ${MANIFEST_MAX_DEPTH} levels (at character ${deep}): not a manifest`,
    )
    return { stop: 'schema' }
  }
  return { text }
}

export async function verifyExport(manifestPath: string, o: VerifyOptions = {}): Promise<ExportVerification> {
  const location = await manifestLocation(manifestPath)
  const { path } = location
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

  const read = await readManifestText(location, mname, add)
  if ('stop' in read) {
    return done(read.stop === 'missing' ? {} : { unlisted: await unlistedFiles(dir, mname, []) })
  }
  const { text } = read
  let raw: unknown
  try {
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
    kind: recordsKind(manifest?.recordKind ?? (obj.recordKind === 'deposit' ? 'deposit' : undefined)),
    rowCount: manifest?.rowCount ?? (Number.isSafeInteger(obj.rowCount) ? (obj.rowCount as number) : null),
    totals: manifest?.totals ?? salvageTotals(obj.totals),
    auditHead: manifest?.auditHead ?? null,
    // From an invalid manifest too: a version 2 file is not let off its check because the manifest is broken.
    stateLayout: (manifest?.version ?? obj.version) === STATE_LAYOUT_VERSION,
    audit: null,
    anchors: null,
    fixedHashes: o.fixedHashes === true,
  }
  // A file list that is not valid as a whole (too long, a name twice, a name not an export's) reads no file.
  const entries = manifest?.files ?? salvageEntries(obj.files)
  if (entries.some((e) => e.format === 'audit')) {
    expect.audit = { summary: null, stateHashes: null, fixedHashes: null }
  }
  checkManifestTotals(manifest, mname, add)

  let records: AnyRecord[] | undefined
  let recordsBytes: Buffer | undefined
  // Each file is read while the one before it is checked (at most two in memory). audit.jsonl goes first: the
  // records are checked against its entries as they are read. Problems are reported in the manifest's order.
  const order = [...entries.keys()].sort(
    (a, b) => Number(entries[b]!.format === 'audit') - Number(entries[a]!.format === 'audit'),
  )
  const reads: Array<Promise<FileRead> | undefined> = []
  const readAt = (i: number | undefined): Promise<FileRead> | undefined => {
    const entry = i === undefined ? undefined : entries[i]
    if (i !== undefined && entry) reads[i] ??= readEntry(dir, entry)
    return i === undefined ? undefined : reads[i]
  }
  const found: Array<Array<Parameters<Add>>> = []
  for (const [k, i] of order.entries()) {
    const entry = entries[i]!
    const current = await (readAt(i) as Promise<FileRead>)
    void readAt(order[k + 1])?.catch(() => undefined)
    reads[i] = undefined
    if (o.keepRecordsBytes && entry.format === 'json' && 'buf' in current) recordsBytes = current.buf
    const got = checkFile(entry, current, expect, o.keepRecords === true)
    found[i] = got.problems
    if (got.records && records === undefined) records = got.records
  }
  for (const ps of found) for (const p of ps ?? []) add(...p)
  const audit = expect.audit
  if (audit?.summary && audit.stateHashes) {
    // A record that differs from its entry is reported on the records file: that is where the auditor looks.
    const name = entries.find((e) => e.format === 'json')?.name ?? AUDIT_FILE
    for (const p of compareRecords(audit.summary, audit.stateHashes)) add(name, 'audit', p)
  }
  if (audit && expect.anchors) {
    audit.anchors = expect.anchors
    const name = entries.find((e) => e.format === 'anchors')?.name ?? ''
    if (audit.summary)
      for (const p of compareAnchorsWithAudit(expect.anchors, audit.summary)) add(name, 'audit', p)
  }
  return done({
    signerFingerprint,
    manifest,
    unlisted: await unlistedFiles(dir, mname, entries),
    ...(!o.keepRecords
      ? {}
      : expect.kind.id === 'deposit'
        ? { records: [], depositRecords: (records ?? []) as DepositRecord[] }
        : { records: (records ?? []) as ExportedRecord[] }),
    ...(audit ? { audit } : {}),
    ...(recordsBytes ? { recordsBytes } : {}),
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
  const twice: string[] = []
  for (const t of m.totals) {
    const k = `${t.status}\u0000${t.hasRefund}`
    if (seen.has(k)) twice.push(t.status)
    seen.add(k)
  }
  // One problem however many: a 1 MiB manifest could repeat a status ten thousand times.
  for (const s of twice.slice(0, MAX_LISTED)) add(mname, 'schema', `totals list status "${s}" twice`)
  if (twice.length > MAX_LISTED) {
    add(mname, 'schema', `totals repeat ${twice.length - MAX_LISTED} more statuses`)
  }
  const sum = sumTotals(m.totals)
  if (sum.count !== m.rowCount) {
    add(mname, 'totals', `status totals count ${sum.count} records, rowCount is ${m.rowCount}`)
  }
  if (m.meaningTotals !== undefined) {
    const kind = recordsKind(m.recordKind).id
    for (const d of diffMeaningTotals(m.meaningTotals, meaningTotals(m.totals, kind))) add(mname, 'totals', d)
  }
}

/** Where the manifest's totals by meaning differ from those recomputed from its status totals. */
function diffMeaningTotals(stated: MeaningTotals, recomputed: MeaningTotals): string[] {
  const out: string[] = []
  for (const k of MEANINGS) {
    const s = stated[k]
    const r = recomputed[k]
    if (s.count !== r.count || s.depositCents !== r.depositCents || s.payoutCents !== r.payoutCents) {
      out.push(
        `meaning total "${k}": manifest count ${s.count}, deposit ${s.depositCents}, payout ${s.payoutCents}; ` +
          `from status totals count ${r.count}, deposit ${r.depositCents}, payout ${r.payoutCents}`,
      )
    }
  }
  for (const k of ['feesPaidCents', 'feesWithheldCents'] as const) {
    if (stated[k] !== recomputed[k])
      out.push(`${k}: manifest ${stated[k]}, from status totals ${recomputed[k]}`)
  }
  return out
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
  const r = fileListSchema.safeParse(v)
  return r.success ? r.data : []
}

/** Folder entries other than the manifest and its files; a bounded list (safe-read.ts). */
async function unlistedFiles(dir: string, mname: string, entries: readonly FileEntry[]): Promise<string[]> {
  // The receipts/ subfolder is the receipts' place (its files are listed one by one, each hashed).
  const receipts = entries.some((e) => e.format === 'receipt') ? [RECEIPTS_DIR] : []
  const other = await otherNames(dir, new Set([mname, ...receipts, ...entries.map((e) => e.name)]))
  if (other.more > 0 || other.stopped) {
    other.names.push(`(and ${other.more}${other.stopped ? ' or more' : ''} other names, not shown)`)
  }
  return other.names
}

type FileRead = { buf: Buffer } | { refused: [VerificationCheck, string] }

/**
 * The file's bytes; not read at all when it is not a regular file in the folder or not the size the manifest
 * says (safe-read.ts).
 */
async function readEntry(dir: string, entry: FileEntry): Promise<FileRead> {
  const got = await readRegularFile(join(dir, entry.name), {
    maxBytes: memberMaxBytes(entry.name),
    expectBytes: entry.bytes,
  })
  if ('refused' in got) {
    const { kind, detail } = got.refused
    if (kind === 'missing') return { refused: ['missing', 'listed in the manifest but not in the folder'] }
    return { refused: [kind === 'size' ? 'hash' : 'missing', detail] }
  }
  return { buf: got.buf }
}

interface FileOutcome {
  problems: Array<Parameters<Add>>
  /** The JSON file's valid records, in review mode. */
  records?: AnyRecord[]
}

/** A file's problems: hash first, then content. */
function checkFile(entry: FileEntry, read: FileRead, expect: Expectation, keep: boolean): FileOutcome {
  const problems: Array<Parameters<Add>> = []
  if ('refused' in read) {
    problems.push([entry.name, ...read.refused])
    return { problems }
  }
  const { buf } = read
  const sha = createHash('sha256').update(buf).digest('hex')
  const diffs: string[] = []
  if (buf.length !== entry.bytes) diffs.push(`${buf.length} bytes, expected ${entry.bytes} (manifest.json)`)
  if (sha !== entry.sha256) diffs.push(`SHA-256 ${sha}, expected ${entry.sha256} (manifest.json)`)
  if (diffs.length > 0) problems.push([entry.name, 'hash', diffs.join('; ')])
  const records = checkContent(entry, buf, expect, (...p) => problems.push(p), keep)
  return { problems, records }
}

function checkContent(
  entry: FileEntry,
  buf: Buffer,
  expect: Expectation,
  add: Add,
  keep: boolean,
): AnyRecord[] | undefined {
  if (entry.format === 'receipt') {
    // Issue #14: bytes and hash were checked like any file's; the content must still be what the type says.
    if (!bytesMatch(buf, entry.mediaType)) add(entry.name, 'schema', `not a ${entry.mediaType} document`)
    return undefined
  }
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
      checkCsv(entry, buf, add, rows, totals, expect.kind)
      return undefined
    case 'json': {
      const ids = new Set<string>()
      const acc = new TotalsAccumulator()
      const kept: AnyRecord[] | undefined = keep ? [] : undefined
      const kind = expect.kind
      const stateHashes = expect.audit ? new Map<string, string>() : null
      const fixedHashes = expect.audit && expect.fixedHashes ? new Map<string, string>() : null
      let dup = 0
      const layout = expect.stateLayout ? { off: 0, first: [] as string[] } : null
      // audit.jsonl is checked before records.json (verifyExport), so its entries are known here.
      const latest = expect.audit?.summary?.latest
      const redacted = expect.audit?.summary?.redacted
      const read = readRecordsFile(
        buf,
        (r, source) => {
          if (ids.has(r.localId)) dup += 1
          ids.add(r.localId)
          if (layout) {
            // The state's bytes are hashed as they are in the file. Bytes that hash to the state the record's
            // latest entry recorded prove the line (record-line.ts stateHashInBytes); any other line must be
            // exactly what it parsed to (provenPrefix) before its hash is compared with that entry.
            const inBytes =
              source.line === null ? null : stateHashInBytes(buf, source.start, source.stop, source.raw)
            const entry = latest?.get(r.localId)
            if (inBytes !== null && entry?.stateHash === inBytes && !redacted?.has(r.localId)) {
              stateHashes?.set(r.localId, inBytes)
            } else if (inBytes === null || provenPrefix(source.line ?? '', source.raw) === null) {
              layout.off += 1
              if (layout.first.length < MAX_LISTED) layout.first.push(r.localId)
              stateHashes?.set(r.localId, recordStateHash(r))
            } else stateHashes?.set(r.localId, inBytes)
          } else stateHashes?.set(r.localId, recordStateHash(r))
          fixedHashes?.set(r.localId, kind.fixedHash(r))
          acc.add(kind.totalsRow(r))
          kept?.push(r)
        },
        { exact: keep, kind },
      )
      for (const issue of read.issues) add(entry.name, 'schema', issue)
      if (!read.readable) return undefined
      if (dup > 0) add(entry.name, 'schema', `${dup} records repeat a localId`)
      if (layout && layout.off > 0) {
        add(
          entry.name,
          'schema',
          `${layout.off} records are not written as export format ${STATE_LAYOUT_VERSION} requires (one record ` +
            `per line, remoteCheckedAt first, then its state in canonical JSON): ${layout.first.join(', ')}`,
        )
      }
      if (expect.audit) {
        Object.assign(expect.audit, {
          stateHashes,
          fixedHashes,
        })
      }
      rows(read.entries, 'records')
      totals(acc.result())
      return kept
    }
    case 'html':
      rows(countReportRows(buf), 'report rows')
      return undefined
    case 'audit': {
      const summary = auditSummary(buf, expect.auditHead)
      for (const p of summary.problems) add(entry.name, 'audit', p)
      if (expect.audit) expect.audit.summary = summary
      return undefined
    }
    case 'anchors': {
      const read = readAnchorsMember(buf.toString('utf8'), expect.auditHead)
      for (const p of read.problems) add(entry.name, 'audit', p)
      expect.anchors = read.anchors
      return undefined
    }
    case 'wallet-statement':
      for (const p of checkWalletStatement(buf)) add(entry.name, 'totals', p)
      return undefined
    case 'wallet-statement-csv':
    case 'wallet-statement-html':
      return undefined // hashed and signed like every member; their numbers are the JSON's
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

function checkCsv(
  entry: Extract<FileEntry, { format: 'csv' }>,
  buf: Buffer,
  add: Add,
  rows: (n: number, what: string) => void,
  totals: (t: StatusTotal[]) => void,
  kind: RecordsKind,
): void {
  const bom = buf.subarray(0, BOM_BYTES.length).equals(BOM_BYTES)
  if (!bom) add(entry.name, 'schema', 'no UTF-8 byte order mark')
  const body = bom ? buf.subarray(BOM_BYTES.length) : buf
  const expected = expectedHeader(body, entry, kind)
  const r = csvReader.checkCsvRows(body, {
    delimiter: entry.delimiter,
    locale: entry.locale,
    header: expected.header,
    at: expected.at,
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
  if (r.headerMismatch === null) totals(escapedTotals(r.totals))
}
