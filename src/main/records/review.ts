/**
 * Offline review of an export: verify it, then load its JSON records into a throwaway ledger so the live list's
 * own query, filter and totals code serves the review (no second implementation to drift). No sign-in, no
 * network. The records are loaded even when verification failed, so a reviewer can look at what is there; the
 * UI must then show the problems above the list, never the list alone. Without a readable JSON file the ledger
 * is empty (the CSV and HTML carry fewer fields than a WithdrawalRecord).
 *
 * What the auditor waits for is the verdict and the first page (issue #30): `openReview` returns after the
 * verification, with the first FIRST_PAGE records of records.json (read from the very bytes verified), and the
 * ledger is loaded from those bytes afterwards, a batch at a time between the app's other work. Reading
 * `ledger` before that has finished finishes it at once. The load writes one audit entry (`records.imported`),
 * not one per record: nothing ever writes to or checks this ledger.
 *
 * The ledger lives in a new temporary folder (node:sqlite needs a file for a second connection; the import and
 * the Ledger are two) and is deleted by close(). Writes to it go nowhere.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { RecordFilter, StatusTotal, WithdrawalRecord } from '../../shared/withdrawal-record'
import type { DepositRecord } from '../../shared/deposit-record'
import { openLedger, type Ledger } from '../ledger/sqlite/index'
import { importSteps } from '../ledger/sqlite/import'
import { importDepositRecords } from '../ledger/sqlite/deposit-import'
import { jsonHead, JSON_TAIL, readRecordsFile } from './json'
import { recordsKind, type AnyRecord, type RecordsKind } from './kinds'
import { isFingerprint, normalizeFingerprint } from './sign'
import { verifyExport, type ExportVerification } from './verify'

/** Records kept from the open for the list's first page (the renderer's page is 200 rows). */
export const FIRST_PAGE = 200
/** Records parsed and written between two pauses of the load. */
const BATCH = 1000

export interface Review {
  /** Verification of the export. */
  verification: ExportVerification
  /** The review's ledger; reading it before `loaded` has resolved finishes the load on the spot. */
  readonly ledger: Ledger
  /** Resolves when the ledger is loaded (a failure is a problem added to `verification`); never rejects. */
  readonly loaded: Promise<void>
  /**
   * The list's first page while the ledger loads: the first records of records.json, when they are that page —
   * an intact withdrawal export in the list's default order, asked for with no filter. Else null: ask the ledger.
   */
  firstPage(filter: RecordFilter): { rows: WithdrawalRecord[]; total: number; totals: StatusTotal[] } | null
  /**
   * Adds the records' fixed hashes to `verification.audit` (from the loaded ledger): only the comparison with an
   * earlier export needs them, so opening does not compute them.
   */
  addFixedHashes(): void
  /** Closes the ledger and deletes its temporary folder. Idempotent. */
  close(): void
}

/** Line ranges [start, stop) of a records.json in the exporter's layout (json.ts), null for any other text. */
function lineRanges(buf: Buffer, kind: RecordsKind): Array<[number, number]> | null {
  const head = Buffer.from(jsonHead(kind), 'utf8')
  const tail = Buffer.from(JSON_TAIL, 'utf8')
  if (buf.length < head.length + tail.length) return null
  if (!buf.subarray(0, head.length).equals(head) || !buf.subarray(buf.length - tail.length).equals(tail))
    return null
  const end = buf.length - tail.length
  const out: Array<[number, number]> = []
  for (let i = head.length; i < end;) {
    let nl = buf.indexOf(0x0a, i)
    if (nl === -1 || nl > end) nl = end
    out.push([i, nl === end ? nl : nl - 1])
    i = nl + 1
  }
  return out
}

/** The valid records of some lines, read by readRecordsFile exactly as the verifier reads the whole file. */
function readLines(buf: Buffer, kind: RecordsKind, lines: Array<[number, number]>): AnyRecord[] {
  const parts: Buffer[] = [Buffer.from(jsonHead(kind), 'utf8')]
  for (const [k, [start, stop]] of lines.entries()) {
    if (k > 0) parts.push(Buffer.from(',\n'))
    parts.push(buf.subarray(start, stop))
  }
  parts.push(Buffer.from(JSON_TAIL, 'utf8'))
  const out: AnyRecord[] = []
  readRecordsFile(Buffer.concat(parts), (r) => out.push(r), { exact: true, kind })
  return out
}

/**
 * The records, last line first, a batch at a time: the review ledger's row ids then run opposite to the file,
 * so its default order (newest first, then the higher id) is the file's order, ties included.
 */
function* newestLast(buf: Buffer, kind: RecordsKind): Generator<AnyRecord> {
  const lines = lineRanges(buf, kind)
  if (!lines) {
    const all: AnyRecord[] = []
    readRecordsFile(buf, (r) => all.push(r), { exact: true, kind })
    yield* all.reverse()
    return
  }
  for (let end = lines.length; end > 0; end -= BATCH) {
    yield* readLines(buf, kind, lines.slice(Math.max(0, end - BATCH), end)).reverse()
  }
}

const noFilter = (f: RecordFilter): boolean =>
  (f.statuses ?? []).length === 0 &&
  (f.text ?? '') === '' &&
  f.from === undefined &&
  f.to === undefined &&
  f.profile === undefined &&
  (f.offset ?? 0) === 0 &&
  (f.limit ?? FIRST_PAGE) <= FIRST_PAGE &&
  (f.sort === undefined || (f.sort.field === 'createdAt' && f.sort.dir === 'desc'))

export async function openReview(
  manifestPath: string,
  o: { expectFingerprint?: string } = {},
): Promise<Review> {
  const verification = await verifyExport(manifestPath, { keepRecordsBytes: true, ...o })
  const bytes = verification.recordsBytes ?? null
  delete verification.recordsBytes
  const kind = recordsKind(verification.manifest?.recordKind)
  const dir = mkdtempSync(join(tmpdir(), 'depix-review-'))
  const file = join(dir, 'review.sqlite')
  const details = { source: 'review', manifest: basename(manifestPath) }
  const m = verification.manifest
  const lines = bytes ? lineRanges(bytes, kind) : null
  const first =
    bytes && lines && m && verification.ok && kind.id === 'withdrawal' && m.filter.sort === undefined
      ? (readLines(bytes, kind, lines.slice(0, FIRST_PAGE)) as WithdrawalRecord[])
      : null

  /** The load, in steps; null once done or failed. Deposit exports are small: loaded in one step. */
  let steps: Iterator<void, unknown> | null =
    kind.id === 'deposit'
      ? {
          next: () => {
            const records = bytes ? (newestLast(bytes, kind) as Iterable<DepositRecord>) : []
            importDepositRecords(file, records, { details })
            return { done: true, value: undefined }
          },
        }
      : importSteps(file, bytes ? (newestLast(bytes, kind) as Iterable<WithdrawalRecord>) : [], {
          details,
          validated: true,
          scratch: true,
          oneEntry: true,
        })
  const step = (): void => {
    if (!steps) return
    try {
      if (steps.next().done) steps = null
    } catch (e) {
      steps = null
      // Only a tampered file gets here (e.g. two records sharing a remote id). The import is one transaction,
      // so the file is a migrated, empty ledger: say why, review nothing.
      verification.problems.push({
        file: m?.files.find((f) => f.format === 'json')?.name ?? 'records.json',
        check: 'schema',
        detail: `records cannot be loaded for review: ${(e as Error).message}`,
      })
      verification.ok = false
    }
  }
  let ledger: Ledger | null = null
  let closed = false
  const finish = (): Ledger => {
    if (closed) throw new Error('review: closed')
    while (steps) step()
    ledger ??= openLedger(file)
    return ledger
  }
  // A failed verification is loaded at once: its problems are complete when the page first shows them.
  if (!verification.ok) {
    try {
      finish()
    } catch (e) {
      rmSync(dir, { recursive: true, force: true })
      throw e
    }
  }
  const loaded = new Promise<void>((resolve) => {
    const tick = (): void => {
      if (!closed) step()
      if (steps && !closed) setImmediate(tick)
      else resolve()
    }
    setImmediate(tick)
  })
  return {
    verification,
    get ledger() {
      return finish()
    },
    loaded,
    firstPage(filter) {
      if (!first || !m || !steps || !noFilter(filter)) return null
      const totals = [...m.totals].sort((a, b) => b.count - a.count || (a.status < b.status ? -1 : 1))
      return { rows: first.slice(0, filter.limit ?? FIRST_PAGE), total: m.rowCount, totals }
    },
    addFixedHashes() {
      const audit = verification.audit
      if (!audit || audit.fixedHashes) return
      const snap = finish().snapshot()
      try {
        const fixed = new Map<string, string>()
        const all = kind.id === 'deposit' ? snap.iterateDeposits({}) : snap.iterate({})
        for (const r of all) fixed.set(r.localId, kind.fixedHash(r))
        audit.fixedHashes = fixed
      } finally {
        snap.close()
      }
    },
    close() {
      if (closed) return
      closed = true
      // An unfinished load is rolled back (its transaction) before the folder goes.
      ;(steps as Generator<void> | null)?.return?.(undefined)
      steps = null
      try {
        ledger?.close()
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    },
  }
}

/**
 * A valid signature only proves the manifest was signed by the key it carries, which anyone can make. Trust needs
 * the expected signer, got out of band: `none` (nothing to compare) and `mismatch` must not look like `match`.
 */
export type SignerMatch = 'match' | 'mismatch' | 'none'

/** `expected` as typed (spaces, colons, case ignored); null or blank compares nothing. Throws on a non-fingerprint. */
export function compareSigner(signerFingerprint: string, expected: string | null): SignerMatch {
  if (expected === null || expected.trim() === '') return 'none'
  if (!isFingerprint(expected)) throw new RangeError('not a key fingerprint (32 hexadecimal digits)')
  if (signerFingerprint === '') return 'mismatch'
  return normalizeFingerprint(expected) === normalizeFingerprint(signerFingerprint) ? 'match' : 'mismatch'
}
