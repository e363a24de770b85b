/**
 * IPC of the offline review's ledger check (issue #12): the open export against this computer's ledger. No
 * input: main checks the review it holds against the ledger it holds, so the renderer names no file and no head.
 */
import { z } from 'zod'

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

export const reviewChannels = {
  /** Whether the open export's audit trail is part of this ledger's history (see records/against-ledger.ts). */
  'review:checkLedger': { input: z.undefined(), output: reviewLedgerCheckSchema },
} as const
