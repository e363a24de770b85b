/**
 * IPC of the offline review (issue #12): `review:open` verifies an export folder main chose (a one-use token) and
 * holds it; the renderer lists its records and compares its signer with a fingerprint it got out of band. The
 * checks of history (issue #12). `review:checkLedger`: the open export against this
 * computer's ledger; no input, main checks the review it holds against the ledger it holds. `review:compareOlder`:
 * the open export against an older export the auditor kept; its folder is a one-use token from main's own dialog
 * (`dialog:chooseFolder`, purpose `review`), never a path. Either way the renderer names no file and no head.
 */
import { z } from 'zod'
import { folderTokenSchema } from './folder-token'
import { recordPageSchema } from './channels-withdrawals'
import { recordFilterSchema } from './withdrawal-record'

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

export const verifyProblemSchema = z.object({
  file: z.string(),
  check: z.enum(['missing', 'hash', 'signature', 'schema', 'row_count', 'totals', 'audit']),
  detail: z.string(),
})
/** Whether the export's signer is the key the reviewer expected (a valid signature alone proves nothing). */
export const reviewSignerSchema = z.object({
  /** `none`: no expected fingerprint given, so "signed by an unknown key". */
  match: z.enum(['match', 'mismatch', 'none']),
  /** The fingerprint compared with, as keyFingerprint prints it; null when none. */
  expected: z.string().nullable(),
  /** `this_computer`: prefilled because the export carries this installation's own key. */
  source: z.enum(['this_computer', 'entered']).nullable(),
})
export type ReviewSigner = z.infer<typeof reviewSignerSchema>

export const reviewSummarySchema = z.object({
  dir: z.string(),
  ok: z.boolean(),
  problems: z.array(verifyProblemSchema),
  signerFingerprint: z.string(),
  signer: reviewSignerSchema,
  /** Facts read from the manifest (shown even when verification failed, marked as such). */
  manifest: z
    .object({
      appVersion: z.string().optional(),
      profile: z.string().optional(),
      network: z.string().optional(),
      exportedAt: z.string().optional(),
      rowCount: z.number().optional(),
    })
    .loose()
    .nullable(),
  rowCount: z.number().int(),
})
export type ReviewSummary = z.infer<typeof reviewSummarySchema>

export const reviewChannels = {
  'review:open': {
    input: z.strictObject({ folder: folderTokenSchema }),
    output: reviewSummarySchema,
  },
  /** Compares the open review's signer with a fingerprint the reviewer got out of band; empty clears it. */
  'review:checkSigner': {
    input: z.strictObject({ expected: z.string().max(200) }),
    output: reviewSignerSchema,
  },
  'review:list': { input: recordFilterSchema, output: recordPageSchema },
  'review:close': { input: z.undefined(), output: z.null() },
  /** Whether the open export's audit trail is part of this ledger's history (see records/against-ledger.ts). */
  'review:checkLedger': { input: z.undefined(), output: reviewLedgerCheckSchema },
  /** Whether the open export's history grew from an older export's audit head (see records/against.ts). */
  'review:compareOlder': {
    input: z.strictObject({ folder: folderTokenSchema }),
    output: reviewOlderCheckSchema,
  },
} as const
