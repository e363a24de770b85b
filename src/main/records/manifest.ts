/**
 * manifest.json: what was exported, from where, with what totals, and the SHA-256 of every file, signed.
 *
 * Signed bytes: the UTF-8 of the manifest object WITHOUT its `signature` member, in canonical JSON: members
 * sorted by key (UTF-16 code units; every key here is ASCII), no whitespace, strings escaped as JSON.stringify
 * does (only " \ and control characters; non-ASCII raw). For the values a manifest holds (strings, integers,
 * booleans, null) this equals RFC 8785 (JCS) and Python's
 * `json.dumps(m, sort_keys=True, separators=(',', ':'), ensure_ascii=False)`.
 *
 * File layout: the same object with the same key order, JSON.stringify(…, null, 2) and a final LF. The verifier
 * re-serialises what it parsed and requires the identical bytes, so an edit that leaves the signed content
 * unchanged (whitespace, an escape, a duplicate key) is still reported.
 */
import { z } from 'zod'
import { recordKindSchema } from '../../shared/record-kinds'
import { recordFilterSchema } from '../../shared/withdrawal-record'
import { canonicalJson } from '../ledger/model/canonical-json'
import { EXPORT_LOCALES } from './format'
import { DATA_FILE_MAX_BYTES } from './safe-read'
import { findUnsafeChar } from './terminal-text'

import { AUDIT_FILE } from './audit-member'
import { ANCHORS_FILE, ANCHORS_MAX_BYTES } from './anchors'
import { STATE_LAYOUT_VERSION } from './record-line'
import { WALLET_STATEMENT_CSV, WALLET_STATEMENT_FILE, WALLET_STATEMENT_HTML } from './wallet-statement'

/** Issue #14: the subfolder of an export that holds the included receipts. */
export const RECEIPTS_DIR = 'receipts'
const RECEIPT_NAME = /^receipts\/[0-9a-f]{64}\.(pdf|html)$/
export const receiptMemberName = (sha: string, mediaType: 'application/pdf' | 'text/html'): string =>
  `${RECEIPTS_DIR}/${sha}.${mediaType === 'application/pdf' ? 'pdf' : 'html'}`

export const MANIFEST_SCHEMA = 'tesouraria-depix/export-manifest'
/**
 * 1: records.json holds JSON.stringify of each record. 2 (record-line.ts): each record in the state layout, its
 * state's bytes hashable as they are. Both are read and verified: auditors keep old exports.
 */
export const MANIFEST_VERSION = STATE_LAYOUT_VERSION
export const MANIFEST_FILE = 'manifest.json'

export const EXPORT_FORMATS = ['csv', 'json', 'html'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** The name of each format's file in an export: the only names a manifest may list, each at most once. */
export const FILE_NAMES: Readonly<Record<ExportFormat, string>> = {
  csv: 'records.csv',
  json: 'records.json',
  html: 'report.html',
}

/** The name of a `format` file: exactly FILE_NAMES[format], so a manifest cannot point anywhere else. */
const fileName = (format: ExportFormat) =>
  z
    .string()
    .refine((n) => n === FILE_NAMES[format], `must be ${FILE_NAMES[format]} (the name of a ${format} file)`)
/**
 * A string the verifier prints or the review shows: no control, DEL or bidirectional character (terminal-text.ts).
 * Printing escapes them anyway; refusing them here makes a manifest that carries one a problem in itself.
 */
const shownText = z.string().superRefine((s, ctx) => {
  const bad = findUnsafeChar(s)
  if (bad) {
    ctx.addIssue({
      code: 'custom',
      message: `contains ${bad.description} at position ${bad.index} (only printable text is allowed)`,
    })
  }
})
/**
 * The public key as Node writes an SPKI PEM: the only line breaks a manifest string may hold are the PEM's own.
 */
const SPKI_PEM =
  /^-----BEGIN PUBLIC KEY-----\n(?:[A-Za-z0-9+/]{1,64}={0,2}\n){1,20}-----END PUBLIC KEY-----\n?$/
const BASE64 = /^[A-Za-z0-9+/]{1,4096}={0,2}$/
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits')
const count = z.number().int().nonnegative()
const bytes = count.max(
  DATA_FILE_MAX_BYTES,
  `more than ${DATA_FILE_MAX_BYTES} bytes: larger than any file a verifier reads (export in parts)`,
)
const locale = z.enum(EXPORT_LOCALES)
const iso = z.iso.datetime({ offset: true })

/** A member of `format` named `name`, with its size and SHA-256 and what else that format carries. */
const member = <N extends z.ZodType<string>, F extends string, X extends z.ZodRawShape>(
  name: N,
  format: F,
  extra: X,
) => z.strictObject({ name, format: z.literal(format), bytes, sha256, ...extra })
const csvMember = { delimiter: z.enum([';', ',']), locale }

export const fileEntrySchema = z.discriminatedUnion('format', [
  member(fileName('csv'), 'csv', csvMember),
  member(fileName('json'), 'json', {}),
  member(fileName('html'), 'html', { locale }),
  /** audit.jsonl: the audit entries of the exported records (audit-member.ts). */
  member(z.literal(AUDIT_FILE), 'audit', {}),
  /** Issue #12: anchors.jsonl, the head entries of every earlier export of the ledger (anchors.ts). Optional. */
  member(z.literal(ANCHORS_FILE), 'anchors', {
    bytes: count.max(ANCHORS_MAX_BYTES, `more than ${ANCHORS_MAX_BYTES} bytes: larger than anchors ever are`),
  }),
  /** Issue #27: the treasury wallet's statement for the period (wallet-statement.ts). Optional. */
  member(z.literal(WALLET_STATEMENT_FILE), 'wallet-statement', {}),
  member(z.literal(WALLET_STATEMENT_CSV), 'wallet-statement-csv', csvMember),
  member(z.literal(WALLET_STATEMENT_HTML), 'wallet-statement-html', { locale }),
  /**
   * Issue #14: a record's stored receipt (receipts-member.ts), when the export included receipts. Its name is
   * its own hash in the receipts/ subfolder, so a manifest cannot point anywhere else.
   */
  z
    .strictObject({
      name: z.string().regex(RECEIPT_NAME, 'must be receipts/<sha256>.pdf or .html'),
      format: z.literal('receipt'),
      localId: shownText.pipe(z.string().min(1).max(100)),
      mediaType: z.enum(['application/pdf', 'text/html']),
      bytes,
      sha256,
    })
    .refine(
      (f) => f.name === receiptMemberName(f.sha256, f.mediaType),
      'the name must be the SHA-256 and extension of the receipt it lists',
    ),
])
export type FileEntry = z.infer<typeof fileEntrySchema>

/**
 * The data files: one to one per format, each format once. The count is checked before the entries are (a
 * manifest of 3,000 entries is one problem, not 3,000), and a repeated format is named once.
 */
/** The data formats plus the audit member (audit.jsonl) and the anchors (anchors.jsonl). */
const MAX_FILES = EXPORT_FORMATS.length + 2 + 3 // + the wallet statement's three (issue #27)
/** Issue #14: receipts are counted apart, as many as a 1 MiB manifest can list. */
export const MAX_RECEIPTS = 3000

const isReceiptEntry = (v: unknown): boolean =>
  typeof v === 'object' && v !== null && (v as { format?: unknown }).format === 'receipt'

export const fileListSchema = z
  .array(z.unknown())
  .min(1, 'lists no file')
  .superRefine((files, ctx) => {
    const receipts = files.filter(isReceiptEntry).length
    if (files.length - receipts > MAX_FILES) {
      ctx.addIssue({ code: 'custom', message: `lists more files than an export has (${MAX_FILES} at most)` })
    }
    if (receipts > MAX_RECEIPTS) {
      ctx.addIssue({
        code: 'custom',
        message: `lists more receipts than an export has (${MAX_RECEIPTS} at most)`,
      })
    }
  })
  .pipe(
    z.array(fileEntrySchema).superRefine((files, ctx) => {
      const seen = new Set<string>()
      for (const [i, f] of files.entries()) {
        // Receipts: one per record (two records may share one file, same bytes); other formats: once each.
        const key = f.format === 'receipt' ? `receipt\u0000${f.localId}` : f.format
        if (seen.has(key)) ctx.addIssue({ code: 'custom', path: [i], message: `${f.name} is listed twice` })
        seen.add(key)
      }
    }),
  )

/** The filter as exported: paging does not apply to an export. */
export const exportFilterSchema = recordFilterSchema
  .omit({ limit: true, offset: true })
  .strict()
  .superRefine((f, ctx) => {
    const strings: Array<[PropertyKey[], string | undefined]> = [
      [['profile'], f.profile],
      [['text'], f.text],
      ...(f.statuses ?? []).map((s, i): [PropertyKey[], string] => [['statuses', i], s]),
    ]
    for (const [path, s] of strings) {
      const bad = s === undefined ? null : findUnsafeChar(s)
      if (bad)
        ctx.addIssue({
          code: 'custom',
          path,
          message: `contains ${bad.description} at position ${bad.index}`,
        })
    }
  })
export type ExportFilter = z.infer<typeof exportFilterSchema>

export const statusTotalSchema = z.strictObject({
  /** The display status, escaped as the terminal shows it (totals.ts): never a control character. */
  status: shownText,
  hasRefund: z.boolean(),
  count,
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
  /** Optional: exports made before fees were totalled do not have it. */
  refundFeeCents: count.optional(),
})

const meaningGroupSchema = z.strictObject({
  count,
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
})

/**
 * `meaningTotals(totals)` (shared/money-totals.ts), written out so a reader of the manifest sees what was paid
 * without re-deriving it. Redundant by design: the verifier requires it to equal the recomputation from `totals`.
 * Optional: exports made before it existed do not have it.
 */
export const meaningTotalsSchema = z.strictObject({
  paid: meaningGroupSchema,
  open: meaningGroupSchema,
  returned: meaningGroupSchema,
  ended: meaningGroupSchema,
  other: meaningGroupSchema,
  feesPaidCents: z.number().int(),
  feesWithheldCents: count.nullable(),
})

export const manifestSchema = z.strictObject({
  schema: z.literal(MANIFEST_SCHEMA),
  version: z.union([z.literal(1), z.literal(MANIFEST_VERSION)]),
  appVersion: shownText.min(1),
  profile: z.strictObject({ name: shownText, network: shownText }),
  filter: exportFilterSchema,
  /** Earliest and latest createdAt among the exported records (null when none). */
  createdAtRange: z.strictObject({ first: shownText.nullable(), last: shownText.nullable() }),
  exportedAt: iso,
  rowCount: count,
  totals: z.array(statusTotalSchema),
  meaningTotals: meaningTotalsSchema.optional(),
  /**
   * Which record kind the export holds (records/kinds.ts). Absent: withdrawals, as every export made before
   * deposits; written only for other kinds, so a withdrawal export's manifest is unchanged.
   */
  recordKind: recordKindSchema.optional(),
  /** The ledger's audit-chain head when the export was made: anchors the chain outside the database file. */
  auditHead: z.strictObject({ seq: count, hash: shownText }).nullable(),
  files: fileListSchema,
  /** SPKI PEM of the Ed25519 key that signed. */
  publicKey: z
    .string()
    .regex(SPKI_PEM, 'must be one PEM "PUBLIC KEY" block (base64 lines of at most 64 characters)'),
  /** Base64 Ed25519 signature of the canonical manifest without this member. */
  signature: z.string().regex(BASE64, 'must be base64'),
})
export type Manifest = z.infer<typeof manifestSchema>
export type UnsignedManifest = Omit<Manifest, 'signature'>

/** The signed bytes (see the header comment). `signature`, if present, is left out. */
export function canonicalManifestBytes(manifest: Record<string, unknown>): Buffer {
  const { signature: _signature, ...unsigned } = manifest
  return Buffer.from(canonicalJson(unsigned), 'utf8')
}

function sortKeysDeep(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortKeysDeep)
  if (v !== null && typeof v === 'object') {
    return Object.fromEntries(
      Object.keys(v)
        .sort()
        .map((k) => [k, sortKeysDeep((v as Record<string, unknown>)[k])]),
    )
  }
  return v
}

/** The manifest file's bytes for a (parsed or built) manifest object. */
export function manifestFileText(manifest: Record<string, unknown>): string {
  return `${JSON.stringify(sortKeysDeep(manifest), null, 2)}\n`
}
