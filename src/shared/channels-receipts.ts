/**
 * IPC of issue #14 part B: local receipts (state, bytes, save, print) and the event a clicked desktop
 * notification sends. Receipt bytes cross as base64 with their checked media type: the renderer never gets a
 * file path or a URL to load.
 */
import { z } from 'zod'

const localIdInput = z.strictObject({ localId: z.string().min(1).max(100) })
const mediaTypeSchema = z.enum(['application/pdf', 'text/html'])

export const receiptViewSchema = z.discriminatedUnion('state', [
  z.object({ state: z.literal('none') }),
  z.object({
    state: z.enum(['pending', 'gave_up']),
    attempts: z.number().int(),
    lastError: z.string().nullable(),
    nextAttemptAt: z.string().nullable(),
  }),
  z.object({
    state: z.literal('stored'),
    sha256: z.string(),
    size: z.number().int(),
    mediaType: mediaTypeSchema,
    fetchedAt: z.string(),
  }),
  z.object({ state: z.literal('damaged'), reason: z.enum(['missing', 'hash_mismatch']), sha256: z.string() }),
])
export type ReceiptViewDto = z.infer<typeof receiptViewSchema>

export const receiptsChannels = {
  'receipts:get': { input: localIdInput, output: receiptViewSchema },
  /** The stored bytes after their hash was checked again. */
  'receipts:bytes': {
    input: localIdInput,
    output: z.object({ mediaType: mediaTypeSchema, sha256: z.string(), base64: z.string() }),
  },
  /** Save dialog in main; false when the operator cancelled. */
  'receipts:save': { input: localIdInput, output: z.object({ saved: z.boolean() }) },
  /** Printed by main from the stored bytes (no scripts, no network). */
  'receipts:print': { input: localIdInput, output: z.object({ printed: z.boolean() }) },
} as const

export const receiptsEvents = {
  /** A receipt was stored or given up on: the detail page refreshes its receipt panel. */
  'receipt:changed': z.object({ localId: z.string() }),
  /** The operator clicked a desktop notification: open this record's detail page. */
  'notification:open': z.object({ localId: z.string() }),
} as const
