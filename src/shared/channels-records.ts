/**
 * IPC of records exports: a signed export of the active profile's records into a folder main chose (a one-use
 * token, never a path), and this installation's signing key. Spread into `channels` and `events` (contract.ts);
 * imports nothing from contract.ts.
 */
import { z } from 'zod'
import { folderTokenSchema } from './folder-token'
import { recordKindSchema } from './record-kinds'
import { recordFilterSchema } from './withdrawal-record'

const none = z.undefined()

export const EXPORT_FORMATS = ['csv', 'json', 'html'] as const
export const exportRequestSchema = z.strictObject({
  /** From `dialog:chooseFolder` with purpose `export`; works once. */
  folder: folderTokenSchema,
  formats: z.array(z.enum(EXPORT_FORMATS)).min(1),
  filter: recordFilterSchema.omit({ limit: true, offset: true, sort: true }).optional(),
  csvDelimiter: z.enum([';', ',']).optional(),
  locale: z.enum(['pt-BR', 'en']).optional(),
  /** Issue #14: copy the records' stored receipts into the export (listed and hashed in the manifest). */
  includeReceipts: z.boolean().optional(),
  /** Issue #17: which record kind the export holds (default withdrawals; deposits are "compras de DePix"). */
  recordKind: recordKindSchema.optional(),
})
export const exportResultSchema = z.object({
  manifestPath: z.string(),
  files: z.array(z.string()),
  rowCount: z.number().int(),
})

export const recordsChannels = {
  'records:export': { input: exportRequestSchema, output: exportResultSchema },
  'records:publicKey': {
    input: none,
    output: z.object({ fingerprint: z.string(), publicKeyPem: z.string() }),
  },
} as const

export const recordsEvents = {
  'export:progress': z.object({ done: z.number().int(), total: z.number().int() }),
} as const
