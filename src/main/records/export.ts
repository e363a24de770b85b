/**
 * exportRecords / exportFrom: one pass over the ledger's records feeds every format at once (100k records never
 * sit in memory), each file hashed as written, then the signed manifest, written last: a folder without
 * manifest.json is an export that did not finish. A failed export removes its folder. The ledger is this
 * computer's SQLite file or the team's PostgreSQL server, read the same way (ledger/export-view.ts).
 *
 * Each record is read, redacted and serialised once (that JSON text is what records.json gets); its CSV line and
 * report row are written together from one reading of its columns (layout.ts); every file is hashed as it is
 * written (writer.ts).
 *
 * The ledger is read through one consistent view (a read transaction) while the app, and on a team every other
 * desk, keeps writing: what is committed after the view began is not in the export. The manifest's totals are
 * computed from the rows written, so an export is always consistent with itself. Nothing held grows with the
 * number of records: an entry of audit.jsonl is chosen by its subject in SQL (ledger/export-view.ts), not from the ids.
 */
import { mkdir, open, rm, unlink } from 'node:fs/promises'
import { basename, join, resolve } from 'node:path'
import { SYSTEM_OPERATOR, type AuditHead, type Ledger } from '../ledger/sqlite/index'
import { recordFilterSchema, type RecordFilter } from '../../shared/withdrawal-record'
import { anchorLines, anchorSeqs, ANCHORS_FILE } from './anchors'
import { AUDIT_FILE, auditLineOfText, redactedLine } from './audit-member'
import { csvHeader, csvLine, BOM, type CsvDelimiter } from './csv'
import type { ExportLocale } from './format'
import { REPORT_TAIL, reportHead } from './html'
import { jsonHead, JSON_SEPARATOR, JSON_TAIL } from './json'
import type { RecordKindId } from '../../shared/record-kinds'
import { recordsKind } from './kinds'
import { NO_EXTRAS } from './columns'
import { rowWriter } from './layout'
import {
  canonicalManifestBytes,
  EXPORT_FORMATS,
  exportFilterSchema,
  FILE_NAMES,
  MANIFEST_FILE,
  MANIFEST_SCHEMA,
  MANIFEST_VERSION,
  manifestFileText,
  type ExportFilter,
  type ExportFormat,
  type FileEntry,
  type Manifest,
  type UnsignedManifest,
} from './manifest'
import { makeRedactor } from './redact'
import { recordLine } from './record-line'
import { escapeForTerminal } from './terminal-text'
import { keyFingerprint, signBytes, signingKey, type SigningKeyPair } from './sign'
import { DayAccumulator, TotalsAccumulator } from './totals'
import { meaningTotals } from '../../shared/money-totals'
import { HashedFile, type WrittenFile } from './writer'
import { DATA_FILE_MAX_BYTES } from './safe-read'
import type { ExportLedger, ExportView } from '../ledger/export-view'
import { sqliteExportLedger } from '../ledger/sqlite/export-view'
import { writeReceiptEntries } from './receipts-member'
import type { WalletStatementFile } from './wallet-statement'
import { writeWalletStatementMembers } from './wallet-statement-member'

export interface ExportOptions {
  /** Parent folder; the export gets its own new subfolder in it. */
  dir: string
  formats: ExportFormat[]
  filter?: RecordFilter
  /** Default ';' for pt-BR (what Excel in Brazil expects), ',' for en. */
  csvDelimiter?: CsvDelimiter
  /** CSV and HTML formats; default pt-BR. */
  locale?: ExportLocale
  /** From the vault; the private key is used to sign and never written. */
  signer: SigningKeyPair
  appVersion: string
  profile: { name: string; network: string }
  onProgress?: (done: number, total: number) => void
  now?: () => Date
  /** Secret values that must never reach an export (client secret, refresh token…): redacted if found. */
  secrets?: readonly string[]
  /** Who asked for the export, for the ledger's audit row (default 'system'). */
  operator?: string
  /** Issue #14: copy the exported records' stored receipts into receipts/, listed and hashed in the manifest. */
  includeReceipts?: boolean
  /** The record kind exported (default withdrawals; deposits: "compras de DePix"). One export holds one kind. */
  kind?: RecordKindId
  /** The largest file an export may have (default: what a verifier reads, DATA_FILE_MAX_BYTES). */
  maxFileBytes?: number
  /** Issue #27: the treasury wallet's statement for the period (withdrawal exports; wallet-statement.ts). */
  walletStatement?: WalletStatementFile | null
}

export interface ExportResult {
  manifestPath: string
  /** Absolute paths of the data files (manifest not included). */
  files: string[]
  rowCount: number
  /** The export's own folder. */
  folder: string
  /** Strings replaced by "[redacted]" (see redact.ts); 0 in a healthy ledger. */
  redacted: number
}

export { FILE_NAMES } from './manifest'
const HTML_SCRATCH = '.report-rows.tmp'
const PROGRESS_EVERY = 1000
/** Records whose runs are read in one lookup: few, so a batch dies young (500 filled V8's old space with garbage). */
const RUN_LINK_BATCH = 100

/** `source` in arrays of at most `size`, in order. */
async function* batches<T>(source: AsyncIterable<T>, size: number): AsyncGenerator<T[]> {
  let batch: T[] = []
  for await (const item of source) {
    batch.push(item)
    if (batch.length >= size) {
      yield batch
      batch = []
    }
  }
  if (batch.length > 0) yield batch
}

export class ExportError extends Error {
  override readonly name = 'ExportError'
  constructor(
    message: string,
    readonly code: string = 'export_failed',
    readonly userMessage?: { 'pt-BR': string; en: string },
    /** The verifier's own (English) words, for "Detalhes técnicos": kept out of the pt-BR/en sentence. */
    readonly reason?: string,
  ) {
    super(message)
  }
}

/** The ledger's chain must verify before its records leave the machine: an export vouches for them. */
async function intactSnapshot(ledger: ExportLedger): Promise<ExportView> {
  const snap = await ledger.open()
  try {
    const chain = await snap.verify()
    if (!chain.ok) {
      throw new ExportError(
        `audit chain broken at seq ${chain.brokenAt}: ${chain.reason}`,
        'audit_chain_broken',
        ledger.shared
          ? {
              'pt-BR': `A trilha de auditoria do livro-caixa da equipe não confere; a exportação foi recusada. O banco de dados da equipe foi alterado fora do aplicativo: avise o responsável por ele antes de qualquer novo pagamento.`,
              en: `The team ledger's audit trail does not check out; the export was refused. The team's database was changed outside the app: tell whoever runs it before any further payment.`,
            }
          : {
              'pt-BR': `A trilha de auditoria do livro-caixa não confere; a exportação foi recusada. O livro-caixa foi alterado fora do aplicativo: restaure um backup em Configurações ou procure o responsável.`,
              en: `The ledger's audit trail does not check out; the export was refused. The ledger was changed outside the app: restore a backup in Settings or ask whoever is responsible.`,
            },
        // The sentences leave the verifier's English out; it is shown under "Detalhes técnicos".
        chain.reason,
      )
    }
    return snap
  } catch (e) {
    await snap.close()
    throw e
  }
}

/**
 * A file past what a verifier reads (safe-read.ts `DATA_FILE_MAX_BYTES`, 16 GiB: some 9 million records in
 * records.json) would make an export nobody can verify: refused while it is written, with the way out.
 */
function assertVerifiable(max: number, files: readonly HashedFile[]): void {
  for (const file of files) {
    if (file.size > max) {
      const name = file.name === HTML_SCRATCH ? FILE_NAMES.html : file.name
      throw new ExportError(`${name} passed ${max} bytes, more than a verifier reads`, 'export_too_large', {
        'pt-BR': `A exportação passaria de 16 GiB em um arquivo (${name}), mais do que um verificador lê; nada foi gravado. Exporte em partes: filtre por período.`,
        en: `The export would pass 16 GiB in one file (${name}), more than a verifier reads; nothing was written. Export it in parts: filter by date range.`,
      })
    }
  }
}

/** "Produção São Paulo!" → "producao-sao-paulo": safe on every file system, still recognisable. */
export function folderSlug(name: string): string {
  const slug = name
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '')
  return slug === '' ? 'perfil' : slug
}

/**
 * The folder's time stamp in the computer's local time, as the analyst's file manager and clock show it (issue
 * #26), with its UTC offset so the name stays unambiguous across zones and DST: `20250601T090000-0300`.
 * `offsetMinutes` is east of UTC (São Paulo −180); the computer's own by default.
 */
export function exportFolderStamp(at: Date, offsetMinutes: number = -at.getTimezoneOffset()): string {
  const local = new Date(at.getTime() + offsetMinutes * 60_000)
  const pad = (n: number): string => String(n).padStart(2, '0')
  const abs = Math.abs(offsetMinutes)
  const zone = `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}${pad(abs % 60)}`
  return (
    `${String(local.getUTCFullYear()).padStart(4, '0')}${pad(local.getUTCMonth() + 1)}${pad(local.getUTCDate())}` +
    `T${pad(local.getUTCHours())}${pad(local.getUTCMinutes())}${pad(local.getUTCSeconds())}${zone}`
  )
}

/** depix-export-<profile>-<local time, ISO basic, offset>[-n]: created exclusively, so nothing is overwritten. */
async function createFolder(parent: string, profile: string, at: Date): Promise<string> {
  await mkdir(parent, { recursive: true })
  const stamp = exportFolderStamp(at)
  const base = `depix-export-${folderSlug(profile)}-${stamp}`
  for (let n = 1; n <= 1000; n++) {
    const folder = join(parent, n === 1 ? base : `${base}-${n}`)
    try {
      await mkdir(folder)
      return folder
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
  }
  throw new ExportError(`too many exports named ${base} in ${parent}`)
}

function exportFilter(filter: RecordFilter | undefined): ExportFilter {
  const parsed = recordFilterSchema.safeParse(filter ?? {})
  if (!parsed.success) throw new ExportError(`filter: ${parsed.error.message}`)
  const { limit: _limit, offset: _offset, ...rest } = parsed.data
  const checked = exportFilterSchema.safeParse(rest)
  if (!checked.success) throw new ExportError(`filter: ${checked.error.message}`)
  return checked.data
}

async function syncDir(dir: string): Promise<void> {
  // Makes the new directory entries durable; best effort: not supported everywhere (Windows), where it is skipped.
  const fh = await open(dir, 'r').catch(() => null)
  await fh?.sync().catch(() => undefined)
  await fh?.close().catch(() => undefined)
}

/** An export of this computer's ledger. */
export function exportRecords(ledger: Ledger, o: ExportOptions): Promise<ExportResult> {
  return exportFrom(sqliteExportLedger(ledger), o)
}

/** An export of either engine's ledger (ledger/export-view.ts): the same files, manifest, signature and audit entry. */
export async function exportFrom(ledger: ExportLedger, o: ExportOptions): Promise<ExportResult> {
  const formats = [...new Set(o.formats)]
  if (formats.length === 0) throw new ExportError('no format chosen')
  for (const f of formats)
    if (!EXPORT_FORMATS.includes(f)) throw new ExportError(`unknown format ${String(f)}`)
  if (o.appVersion === '') throw new ExportError('appVersion is required')
  // Before anything is written: a key pair that does not match would only fail at the auditor's.
  const key = signingKey(o.signer)
  const fingerprint = keyFingerprint(o.signer.publicKeyPem)
  const filter = exportFilter(o.filter)
  // The manifest schema refuses control and bidirectional characters in what it shows: a profile name with one
  // (Settings refuses controls, not bidi marks) is written with it escaped, visibly, rather than refused.
  const profile = { name: escapeForTerminal(o.profile.name), network: escapeForTerminal(o.profile.network) }
  const locale: ExportLocale = o.locale ?? 'pt-BR'
  const delimiter: CsvDelimiter = o.csvDelimiter ?? (locale === 'pt-BR' ? ';' : ',')
  const exportedAt = (o.now ?? (() => new Date()))()
  const kind = recordsKind(o.kind)
  const maxBytes = o.maxFileBytes ?? DATA_FILE_MAX_BYTES
  const isDeposit = kind.id === 'deposit'
  // Records, audit entries and head all come from one snapshot, so each record is exactly the state its latest
  // entry names even while the tracker keeps writing.
  const snap = await intactSnapshot(ledger)
  let total: number
  let auditHead: AuditHead
  let folder: string
  try {
    auditHead = await snap.auditHead()
    total = await snap.count(kind.id, filter)
    folder = resolve(await createFolder(o.dir, o.profile.name, exportedAt))
  } catch (e) {
    await snap.close()
    throw e
  }
  const handles: HashedFile[] = []
  const track = async (name: string, hashed = true): Promise<HashedFile> => {
    const f = await HashedFile.create(join(folder, name), hashed)
    handles.push(f)
    return f
  }
  try {
    const csv = formats.includes('csv') ? await track(FILE_NAMES.csv) : null
    const json = formats.includes('json') ? await track(FILE_NAMES.json) : null
    const htmlRows = formats.includes('html') ? await track(HTML_SCRATCH, false) : null
    csv?.write(BOM + csvLine(csvHeader(locale, kind.csvColumns), delimiter))
    json?.write(jsonHead(kind))

    // Each record is written in the state layout (record-line.ts): the verifier hashes its bytes.
    const redact = makeRedactor(o.secrets, recordLine)
    const rows =
      csv || htmlRows
        ? rowWriter(locale, delimiter, { csv: csv !== null, html: htmlRows !== null }, kind)
        : null
    const totals = new TotalsAccumulator()
    const days = new DayAccumulator(kind.id)
    const wantReceipts = o.includeReceipts === true && !isDeposit
    // The ids exported, kept only for the receipts (at most a few thousand of them are copied).
    const receiptIds = new Set<string>()
    // The run each withdrawal came from ("Lote", only the CSV and report show it), read in the same view a batch
    // of records at a time: nothing kept grows with the export.
    const withRuns = rows !== null && kind.id === 'withdrawal'
    const redactedIds: string[] = []
    let first: string | null = null
    let last: string | null = null
    for await (const batch of batches(snap.records(kind.id, filter), RUN_LINK_BATCH)) {
      const runs = withRuns ? await snap.runLinksOf(batch.map((r) => r.localId)) : null
      for (const rec of batch) {
        if (wantReceipts) receiptIds.add(rec.localId)
        const redactedBefore = redact.count
        const { record, json: text } = redact(rec)
        if (redact.count > redactedBefore) redactedIds.push(rec.localId)
        if (rows) {
          const run = runs?.get(record.localId) ?? null
          const [c, h] = rows(record, run ? { run } : NO_EXTRAS, totals.count)
          if (c !== '') csv?.write(c)
          if (h !== '') htmlRows?.write(h)
        }
        if (json) {
          if (totals.count > 0) json.write(JSON_SEPARATOR)
          json.write(text)
        }
        const row = kind.totalsRow(record)
        totals.add(row)
        days.addRow(record.createdAt, row)
        if (first === null || record.createdAt < first) first = record.createdAt
        if (last === null || record.createdAt > last) last = record.createdAt
        if (totals.count % PROGRESS_EVERY === 0) {
          // The awaits also let the main process breathe between batches, and the writer catch up.
          await Promise.all([csv?.drain(), json?.drain(), htmlRows?.drain()])
          assertVerifiable(maxBytes, handles)
          o.onProgress?.(totals.count, Math.max(total, totals.count))
        }
      }
    }
    json?.write(JSON_TAIL)
    const audit = await track(AUDIT_FILE)
    let n = 0
    // The stored details text is spliced in as it is (canonical since appendAuditRow wrote it): no parse and
    // re-canonicalisation of 200k entries. A row edited by hand into another form shows at the verifier.
    for await (const { entry, detailsText } of snap.auditTextsOf(kind.id, filter)) {
      audit.write(auditLineOfText(entry, detailsText))
      if (++n % PROGRESS_EVERY === 0) {
        await audit.drain()
        assertVerifiable(maxBytes, [audit])
      }
    }
    if (redactedIds.length > 0) audit.write(redactedLine(redactedIds))
    const auditClosed = audit.close()
    auditClosed.catch(() => undefined)
    // Issue #12: every earlier export's head entry, from the same snapshot (anchors.ts).
    const anchors = await track(ANCHORS_FILE)
    const secretFree = makeRedactor(o.secrets)
    const clean = (line: string): boolean => {
      const entry = JSON.parse(line) as object
      return secretFree(entry).record === entry
    }
    // Earlier exports are few (one entry each): read whole, then written by the same rule as on any ledger.
    const exported = await snap.exportedEntries()
    const atSeqs = await snap.auditTextsAt(anchorSeqs(exported, auditHead))
    const anchorSource = { exportedEntries: () => exported, auditTextsAt: () => atSeqs }
    for (const line of anchorLines(anchorSource, auditHead, clean)) anchors.write(line)
    // Read in the view: on the team ledger the receipts' bytes are of the same moment as the records.
    const receipts = wantReceipts
      ? await writeReceiptEntries(folder, receiptIds, snap.receiptCandidates(receiptIds))
      : null
    await snap.close()
    const anchorsClosed = anchors.close()
    anchorsClosed.catch(() => undefined)

    const statusTotals = totals.result()
    const entries: FileEntry[] = []
    // Closed together: their fsyncs overlap each other and the report's assembly. (Each is awaited below; the
    // first failure is the one thrown.)
    const [csvClosed, jsonClosed, rowsClosed] = [csv?.close(), json?.close(), htmlRows?.close()]
    for (const c of [csvClosed, jsonClosed, rowsClosed]) c?.catch(() => undefined)
    let report: WrittenFile | null = null
    if (rowsClosed) {
      await rowsClosed
      const html = await track(FILE_NAMES.html)
      html.write(
        reportHead(
          {
            appVersion: o.appVersion,
            profile,
            filter,
            exportedAt: exportedAt.toISOString(),
            rowCount: totals.count,
            createdAtRange: { first, last },
            signerFingerprint: fingerprint,
          },
          statusTotals,
          days.result(),
          locale,
          kind,
        ),
      )
      await html.append(join(folder, HTML_SCRATCH))
      html.write(REPORT_TAIL)
      report = await html.close()
      await unlink(join(folder, HTML_SCRATCH))
    }
    // In the manifest's order (the verifier reports problems in it); a `WrittenFile` is its bytes and SHA-256.
    if (csvClosed)
      entries.push({ name: FILE_NAMES.csv, format: 'csv', ...(await csvClosed), delimiter, locale })
    if (jsonClosed) entries.push({ name: FILE_NAMES.json, format: 'json', ...(await jsonClosed) })
    entries.push({ name: AUDIT_FILE, format: 'audit', ...(await auditClosed) })
    entries.push({ name: ANCHORS_FILE, format: 'anchors', ...(await anchorsClosed) })
    if (report) entries.push({ name: FILE_NAMES.html, format: 'html', ...report, locale })
    if (receipts) entries.push(...receipts.entries)
    if (o.walletStatement && !isDeposit) {
      const csvOf = formats.includes('csv') ? { delimiter, locale } : null
      const htmlOf = formats.includes('html') ? { locale } : null
      entries.push(...(await writeWalletStatementMembers(track, o.walletStatement, csvOf, htmlOf)))
    }

    const unsigned: UnsignedManifest = {
      schema: MANIFEST_SCHEMA,
      // Version 2: records.json in the state layout, which the verifier requires of it (record-line.ts).
      version: MANIFEST_VERSION,
      appVersion: o.appVersion,
      profile,
      filter,
      createdAtRange: { first, last },
      exportedAt: exportedAt.toISOString(),
      rowCount: totals.count,
      totals: statusTotals,
      meaningTotals: meaningTotals(statusTotals, kind.id),
      ...(isDeposit ? { recordKind: kind.id } : {}),
      auditHead,
      files: entries,
      publicKey: o.signer.publicKeyPem,
    }
    const manifest: Manifest = { ...unsigned, signature: signBytes(key, canonicalManifestBytes(unsigned)) }
    const manifestPath = join(folder, MANIFEST_FILE)
    const mf = await track(MANIFEST_FILE)
    mf.write(manifestFileText(manifest))
    const written = await mf.close()
    await syncDir(folder)
    o.onProgress?.(totals.count, totals.count)

    await ledger.appendExported({
      operator: o.operator ?? SYSTEM_OPERATOR,
      action: 'records.exported',
      subject: null,
      details: {
        ...(isDeposit ? { recordKind: kind.id } : {}),
        folder: ledger.shared ? basename(folder) : folder,
        formats,
        filter,
        rowCount: totals.count,
        manifestSha256: written.sha256,
        signerFingerprint: fingerprint,
        // Issue #12: where a later export finds this one's head to anchor (anchors.ts).
        auditHead,
        redacted: redact.count,
        ...(receipts ? { receipts: receipts.entries.length, receiptsSkipped: receipts.skipped } : {}),
      },
    })
    return {
      manifestPath,
      files: entries.map((e) => join(folder, e.name)),
      rowCount: totals.count,
      folder,
      redacted: redact.count,
    }
  } catch (e) {
    await snap.close().catch(() => undefined)
    await Promise.all(handles.map((f) => f.abandon()))
    await rm(folder, { recursive: true, force: true })
    throw e
  }
}
