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
import { createHash } from 'node:crypto'
import { closeSync, constants, fstatSync, mkdtempSync, openSync, readSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import type { RecordFilter, StatusTotal, WithdrawalRecord } from '../../shared/withdrawal-record'
import type { DepositRecord } from '../../shared/deposit-record'
import { openLedger, type Ledger } from '../ledger/sqlite/index'
import { importSteps } from '../ledger/sqlite/import'
import { importDepositRecords } from '../ledger/sqlite/deposit-import'
import { LatestTable, RecordStates } from './audit-tables'
import { recordsKind, type AnyRecord, type RecordsKind } from './kinds'
import { CHUNK_BYTES, HELD_MAX_BYTES } from './safe-read'
import { isFingerprint, normalizeFingerprint } from './sign'
import { verifyExport, type ExportVerification } from './verify'

/** Records kept from the open for the list's first page (the renderer's page is 200 rows). */
export const FIRST_PAGE = 200
/** Records parsed and written between two pauses of the load. */
const BATCH = 1000
/** The load's SQLite page cache (KiB): its unique indexes' pages, not the whole file (the verification is held too). */
const REVIEW_CACHE_KIB = 8 << 10

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

/**
 * records.json read again for the load, from the file the verifier read (no link followed, regular files only),
 * and only the bytes it verified: a first pass hashes the file (it must still have the verified SHA-256) and
 * each block of BATCH lines; the records then come last line first, a block at a time, each block read again
 * and compared with its hash. The review ledger's row ids thus run opposite to the file, so its default order
 * (newest first, then the higher id) is the file's order, ties included. Memory: one block.
 */
function recordsSource(read: { path: string; sha256: string; bytes: number }, kind: RecordsKind) {
  const { path, sha256, bytes } = read
  const fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0) | (constants.O_NONBLOCK ?? 0))
  const blocks: Array<{ start: number; stop: number; sha256: string }> = []
  let changed = !fstatSync(fd).isFile()
  let open = true
  const close = (): void => {
    if (open) closeSync(fd)
    open = false
  }
  const fail = (): never => {
    throw new Error('records.json changed after it was verified')
  }
  return {
    /** The first pass, a chunk per step. */
    *hash(): Generator<void> {
      const whole = createHash('sha256')
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES)
      let block = createHash('sha256')
      let [start, lines, pos] = [0, 0, 0]
      // At most the verified size and one byte more: a file that grows is not read on.
      const next = (): number =>
        changed || pos > bytes ? 0 : readSync(fd, chunk, 0, Math.min(chunk.length, bytes + 1 - pos), pos)
      for (let n = next(); n > 0;) {
        const got = chunk.subarray(0, n)
        whole.update(got)
        let from = 0
        for (let nl = got.indexOf(0x0a); nl !== -1; nl = got.indexOf(0x0a, nl + 1)) {
          if (++lines % BATCH !== 0) continue
          block.update(got.subarray(from, nl + 1))
          blocks.push({ start, stop: pos + nl + 1, sha256: block.digest('hex') })
          ;[start, from, block] = [pos + nl + 1, nl + 1, createHash('sha256')]
        }
        block.update(got.subarray(from))
        pos += n
        yield
        n = next()
      }
      if (pos > start) blocks.push({ start, stop: pos, sha256: block.digest('hex') })
      changed ||= pos !== bytes || whole.digest('hex') !== sha256
    },
    /** The valid records, last line first (read as the verifier reads them: json.ts). */
    *records(): Generator<AnyRecord> {
      try {
        if (changed) fail()
        for (const b of blocks.reverse()) {
          if (b.stop - b.start > HELD_MAX_BYTES) fail()
          const buf = Buffer.allocUnsafe(b.stop - b.start)
          if (readSync(fd, buf, 0, buf.length, b.start) !== buf.length) fail()
          if (createHash('sha256').update(buf).digest('hex') !== b.sha256) fail()
          const out: AnyRecord[] = []
          for (const line of buf.toString('utf8').split('\n')) {
            let raw: unknown
            try {
              raw = JSON.parse(line.endsWith(',') ? line.slice(0, -1) : line)
            } catch {
              continue // the head, the tail: not records
            }
            const r = kind.recordSchema.safeParse(raw)
            if (r.success) out.push(r.data as AnyRecord)
          }
          yield* out.reverse()
        }
      } finally {
        close()
      }
    },
    close,
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
  o: { expectFingerprint?: string; chunkBytes?: number } = {},
): Promise<Review> {
  const verification = await verifyExport(manifestPath, { firstRecords: FIRST_PAGE, ...o })
  const { recordsRead, firstRecords, audit } = verification
  delete verification.recordsRead
  delete verification.firstRecords
  if (audit?.summary && audit.stateHashes instanceof RecordStates) {
    // Each record's state hash was compared by the verification; the review's comparisons read the entries and
    // which records were exported (1,000,000 records reviewed in 400 MB: issue #30).
    audit.summary.latest = new LatestTable(audit.summary.latest.ids)
    audit.stateHashes = audit.stateHashes.exportedOnly()
  }
  const kind = recordsKind(verification.manifest?.recordKind)
  const dir = mkdtempSync(join(tmpdir(), 'depix-review-'))
  const file = join(dir, 'review.sqlite')
  const details = { source: 'review', manifest: basename(manifestPath) }
  const m = verification.manifest
  const first =
    m && verification.ok && recordsRead && kind.id === 'withdrawal' && m.filter.sort === undefined
      ? ((firstRecords ?? []) as WithdrawalRecord[])
      : null
  let source: ReturnType<typeof recordsSource> | null = null
  try {
    source = recordsRead ? recordsSource(recordsRead, kind) : null
  } catch {
    // Gone or replaced since it was verified: nothing to load (the records step says so below).
  }
  const src = source
  const records = (): Iterable<AnyRecord> => {
    if (src) return src.records()
    if (recordsRead) throw new Error('records.json changed after it was verified')
    return []
  }

  /** The load, in steps; null once done or failed. Deposit exports are small: loaded in one step. */
  let steps: Iterator<void, unknown> | null = (function* () {
    if (src) yield* src.hash()
    if (kind.id === 'deposit') importDepositRecords(file, records() as Iterable<DepositRecord>, { details })
    else
      yield* importSteps(file, records() as Iterable<WithdrawalRecord>, {
        details,
        validated: true,
        scratch: true,
        oneEntry: true,
        cacheKiB: REVIEW_CACHE_KIB,
      })
  })()
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
      src?.close()
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
        src?.close()
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
