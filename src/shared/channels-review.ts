/**
 * IPC of the offline review's checks of history (issue #12). `review:checkLedger`: the open export against this
 * computer's ledger; no input, main checks the review it holds against the ledger it holds. `review:compareOlder`:
 * the open export against an older export the auditor kept; its folder is a one-use token from main's own dialog
 * (`dialog:chooseFolder`, purpose `review`), never a path. Either way the renderer names no file and no head.
 */
import { z } from 'zod'
import { folderTokenSchema } from './folder-token'

const headSchema = z.object({ seq: z.number().int(), hash: z.string() })

export const LEDGER_CHECK_VERDICTS = [
  'match',
  'not_in_ledger',
  'different_history',
  'entries_differ',
  'ledger_broken',
  'no_audit',
] as const

export const reviewLedgerCheckSchema = z.object({
  verdict: z.enum(LEDGER_CHECK_VERDICTS),
  exportHead: headSchema.nullable(),
  ledgerHead: headSchema,
  entriesMatched: z.number().int(),
  /** English, for "Detalhes técnicos". */
  problems: z.array(z.string()),
  checkedAt: z.string(),
})
export type ReviewLedgerCheck = z.infer<typeof reviewLedgerCheckSchema>

/** See records/against.ts compareWithOlderExport: the first that applies, `extends` the only green one. */
export const OLDER_CHECK_VERDICTS = [
  'extends',
  'head_not_carried',
  'older_is_newer',
  'diverged',
  'other_signer',
  'older_not_intact',
  'open_not_intact',
  'no_audit',
] as const
export type OlderCheckVerdict = (typeof OLDER_CHECK_VERDICTS)[number]

export const reviewOlderCheckSchema = z.object({
  verdict: z.enum(OLDER_CHECK_VERDICTS),
  openHead: headSchema.nullable(),
  olderHead: headSchema.nullable(),
  /** Records both exports carry. */
  commonRecords: z.number().int(),
  /** The older export's signer fingerprint ('' when none parses). */
  olderSigner: z.string(),
  /** Facts of the older export as its manifest states them (null when it has none that parses). */
  older: z.object({ exportedAt: z.string(), profile: z.string(), rowCount: z.number().int() }).nullable(),
  /** English, for "Detalhes técnicos". */
  problems: z.array(z.string()),
  checkedAt: z.string(),
})
export type ReviewOlderCheck = z.infer<typeof reviewOlderCheckSchema>

export const reviewChannels = {
  /** Whether the open export's audit trail is part of this ledger's history (see records/against-ledger.ts). */
  'review:checkLedger': { input: z.undefined(), output: reviewLedgerCheckSchema },
  /** Whether the open export's history grew from an older export's audit head (see records/against.ts). */
  'review:compareOlder': {
    input: z.strictObject({ folder: folderTokenSchema }),
    output: reviewOlderCheckSchema,
  },
} as const
