/**
 * verifyExport: every check runs and every problem is reported (which file, which check), never only the first.
 *
 * The folder is hostile until checked: every file is read through safe-read.ts (no link followed, no blocking
 * open, regular files only, sizes capped and compared before reading), each data file streamed once through its
 * hash and its checks (verify-members.ts), so memory does not grow with the files.
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
import { basename, dirname, join, resolve } from 'node:path'
import type { StatusTotal } from '../../shared/withdrawal-record'
import type { ExportedRecord } from './json'
import { recordsKind, type AnyRecord } from './kinds'
import type { DepositRecord } from '../../shared/deposit-record'
import { STATE_LAYOUT_VERSION } from './record-line'
import { AUDIT_FILE, compareRecords, type AuditCollected } from './audit-member'
import { RecordStates } from './audit-tables'
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
import { compareAnchorsWithAudit } from './anchors'
import {
  CHUNK_BYTES,
  jsonTooDeepAt,
  MANIFEST_MAX_BYTES,
  MANIFEST_MAX_DEPTH,
  otherNames,
  pathKind,
  readRegularFile,
  type Refusal,
} from './safe-read'
import { checkMember, MAX_LISTED, type Add, type Expectation, type VerificationCheck } from './verify-members'
import { keyFingerprint, normalizeFingerprint, verifyBytes } from './sign'
import { sumTotals } from './totals'
import { MEANINGS, meaningTotals, type MeaningTotals } from '../../shared/money-totals'

export type { VerificationCheck } from './verify-members'

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
  /** The first valid records of records.json, when asked for (`firstRecords`): the review's first page. */
  firstRecords?: AnyRecord[]
  /** records.json's path and SHA-256 as read, when its content was checked: the review loads those bytes. */
  recordsRead?: { path: string; sha256: string; bytes: number }
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
  /** Return the first this many valid records of records.json (`firstRecords`). */
  firstRecords?: number
  /** Bytes read at a time from a member (safe-read.ts CHUNK_BYTES); smaller only to test the streaming. */
  chunkBytes?: number
  /**
   * Collect every record's fixed hash (recordFixedHash) in `audit.fixedHashes`: only --against compares them,
   * and computing them costs a canonical JSON and a SHA-256 per record on every verification otherwise.
   */
  fixedHashes?: boolean
}

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
    kept: o.keepRecords ? [] : null,
    first: [],
    firstCount: o.firstRecords ?? 0,
    recordsRead: null,
  }
  // A file list that is not valid as a whole (too long, a name twice, a name not an export's) reads no file.
  const entries = manifest?.files ?? salvageEntries(obj.files)
  if (entries.some((e) => e.format === 'audit')) {
    expect.audit = { summary: null, stateHashes: null, fixedHashes: null }
  }
  checkManifestTotals(manifest, mname, add)

  // One file at a time, streamed (verify-members.ts). audit.jsonl goes first: the records are checked against
  // its entries as they are read. Problems are reported in the manifest's order.
  const order = [...entries.keys()].sort(
    (a, b) => Number(entries[b]!.format === 'audit') - Number(entries[a]!.format === 'audit'),
  )
  const found: Array<Array<Parameters<Add>>> = []
  for (const i of order) found[i] = await checkMember(dir, entries[i]!, expect, o.chunkBytes ?? CHUNK_BYTES)
  for (const ps of found) for (const p of ps ?? []) add(...p)
  const audit = expect.audit
  if (audit?.summary && audit.stateHashes instanceof RecordStates) {
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
  const records = expect.kept ?? []
  return done({
    signerFingerprint,
    manifest,
    unlisted: await unlistedFiles(dir, mname, entries),
    ...(!o.keepRecords
      ? {}
      : expect.kind.id === 'deposit'
        ? { records: [], depositRecords: records as DepositRecord[] }
        : { records: records as ExportedRecord[] }),
    ...(audit ? { audit } : {}),
    ...(o.firstRecords ? { firstRecords: expect.first } : {}),
    ...(expect.recordsRead ? { recordsRead: expect.recordsRead } : {}),
  })
}

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
