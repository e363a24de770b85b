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
import { recordFilterSchema } from '../../shared/withdrawal-record'
import { canonicalJson } from '../ledger/canonical-json'
import { EXPORT_LOCALES } from './format'

export const MANIFEST_SCHEMA = 'tesouraria-depix/export-manifest'
export const MANIFEST_VERSION = 1
export const MANIFEST_FILE = 'manifest.json'

export const EXPORT_FORMATS = ['csv', 'json', 'html'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** A bare file name in the export folder: no separators, no leading dot, so a manifest cannot point elsewhere. */
const fileName = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'must be a plain file name in the export folder')
  .refine((n) => n !== MANIFEST_FILE, 'must not be the manifest itself')
const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'must be 64 lower-case hex digits')
const count = z.number().int().nonnegative()
const locale = z.enum(EXPORT_LOCALES)
const iso = z.iso.datetime({ offset: true })

export const fileEntrySchema = z.discriminatedUnion('format', [
  z.strictObject({
    name: fileName,
    format: z.literal('csv'),
    bytes: count,
    sha256,
    delimiter: z.enum([';', ',']),
    locale,
  }),
  z.strictObject({ name: fileName, format: z.literal('json'), bytes: count, sha256 }),
  z.strictObject({ name: fileName, format: z.literal('html'), bytes: count, sha256, locale }),
  /** audit.jsonl: the audit entries of the exported records (audit-member.ts). */
  z.strictObject({ name: fileName, format: z.literal('audit'), bytes: count, sha256 }),
])
export type FileEntry = z.infer<typeof fileEntrySchema>

/** The filter as exported: paging does not apply to an export. */
export const exportFilterSchema = recordFilterSchema.omit({ limit: true, offset: true }).strict()
export type ExportFilter = z.infer<typeof exportFilterSchema>

export const statusTotalSchema = z.strictObject({
  status: z.string(),
  hasRefund: z.boolean(),
  count,
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
})

export const manifestSchema = z.strictObject({
  schema: z.literal(MANIFEST_SCHEMA),
  version: z.literal(MANIFEST_VERSION),
  appVersion: z.string().min(1),
  profile: z.strictObject({ name: z.string(), network: z.string() }),
  filter: exportFilterSchema,
  /** Earliest and latest createdAt among the exported records (null when none). */
  createdAtRange: z.strictObject({ first: z.string().nullable(), last: z.string().nullable() }),
  exportedAt: iso,
  rowCount: count,
  totals: z.array(statusTotalSchema),
  /** The ledger's audit-chain head when the export was made: anchors the chain outside the database file. */
  auditHead: z.strictObject({ seq: count, hash: z.string() }).nullable(),
  files: z.array(fileEntrySchema).min(1),
  /** SPKI PEM of the Ed25519 key that signed. */
  publicKey: z.string().min(1),
  /** Base64 Ed25519 signature of the canonical manifest without this member. */
  signature: z.string(),
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
