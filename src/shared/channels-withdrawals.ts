/**
 * IPC of withdrawals (Pix payments): the review and its one-use create intent, the create, the live list, the
 * detail with funding instructions, and what the operator does to a record; `liquid:check` checks an address
 * typed in a form. Spread into `channels` and `events` (contract.ts); imports nothing from contract.ts.
 */
import { z } from 'zod'
import { fundingAlertSchema } from './funding-alert'
import { expectedPayeeSchema } from './payee'
import { liquidNetworkSchema } from './profile'
import { runLinkSchema, runLinksSchema } from './run-link'
import { withdrawalDraftSchema } from './withdrawal'
import {
  recordFilterSchema,
  statusObservationSchema,
  unknownResolutionSchema,
  withdrawalRecordSchema,
} from './withdrawal-record'

const localIdInput = z.strictObject({ localId: z.string().min(1).max(100) })

export const liquidCheckSchema = z.union([
  z.object({
    ok: z.literal(true),
    address: z.string(),
    network: liquidNetworkSchema,
    confidential: z.boolean(),
    kind: z.string(),
    scriptPubKey: z.string(),
  }),
  z.object({
    ok: z.literal(false),
    reason: z.string(),
    message: z.string(),
    actualNetwork: liquidNetworkSchema.optional(),
  }),
])
export type LiquidCheck = z.infer<typeof liquidCheckSchema>

export const withdrawalQuoteSchema = z.object({
  /** The exact JSON body that will be sent. */
  request: z.looseObject({}),
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
  feeCents: z.number().int(),
  partnerRateBps: z.number().int(),
  refundAddress: liquidCheckSchema,
  /** Similar records (same Pix key and amount) in the last 24 h: creating needs an explicit confirmation. */
  duplicates: z.array(withdrawalRecordSchema),
  /** The payee-book entry the draft named, as the book has it now (issue #14); null when none. */
  payee: expectedPayeeSchema.nullable().optional(),
  /**
   * The one-use authority to create exactly this request on this profile, given the duplicates above. Valid for
   * `expiresInSeconds`; a create with it is refused once it was used or when a new similar record appeared.
   */
  intent: z.object({ id: z.string(), expiresInSeconds: z.number().int() }),
  /**
   * Team ledger only (issue #16): the amount is above the team's threshold, so the payment is not created but
   * sent for another analyst's approval (`approvals:request`, src/shared/channels-team.ts). Absent: false.
   */
  needsApproval: z.boolean().optional(),
})
export type WithdrawalQuote = z.infer<typeof withdrawalQuoteSchema>

export const fundingInstructionsSchema = z.object({
  localId: z.string(),
  address: z.string(),
  confidential: z.boolean(),
  network: liquidNetworkSchema,
  cents: z.number().int(),
  /** Exactly 8 decimals. */
  depixAmount: z.string(),
  assetId: z.string(),
  uri: z.string(),
  qrSvg: z.string(),
  expiration: z.string().nullable(),
  toleranceBps: z.number().int(),
})
export type FundingInstructions = z.infer<typeof fundingInstructionsSchema>

export const withdrawalDetailSchema = z.object({
  record: withdrawalRecordSchema,
  observations: z.array(statusObservationSchema),
  funding: fundingInstructionsSchema.nullable(),
  /** Why there are no funding instructions (e.g. `deposit_address_invalid`, `not_created`, `no_deposit_address`). */
  fundingProblem: z.string().nullable(),
  /** Set with `fundingProblem` `funding_mismatch` / `funding_unconfirmed`: what the service's answer said. */
  fundingAlert: fundingAlertSchema.nullable(),
  /** The payment run ("lote") this payment came from; null when it was made alone. */
  run: runLinkSchema.nullable(),
})
export type WithdrawalDetail = z.infer<typeof withdrawalDetailSchema>

export const statusTotalSchema = z.object({
  status: z.string(),
  hasRefund: z.boolean(),
  count: z.number().int(),
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
})

export const recordPageSchema = z.object({
  rows: z.array(withdrawalRecordSchema),
  total: z.number().int(),
  totals: z.array(statusTotalSchema),
  /** The run each row came from, by local id (absent: none of them, or a list that does not say). */
  runs: runLinksSchema.optional(),
})
export type RecordPageView = z.infer<typeof recordPageSchema>

export const withdrawalsChannels = {
  'liquid:check': { input: z.strictObject({ address: z.string().max(4096) }), output: liquidCheckSchema },

  'withdrawals:quote': {
    input: z.strictObject({ draft: withdrawalDraftSchema }),
    output: withdrawalQuoteSchema,
  },
  'withdrawals:create': {
    input: z.strictObject({
      draft: withdrawalDraftSchema,
      /** `withdrawals:quote`'s `intent.id`. */
      intentId: z.string().min(1).max(100),
      /** Local ids of the similar records the operator confirmed as not duplicates (all of them, or refused). */
      confirmedDuplicates: z.array(z.string().min(1).max(100)).max(100).optional(),
      /** The amount typed again on a live profile above the desk limit (issue #26), in cents. */
      confirmedAmountCents: z.number().int().nonnegative().optional(),
    }),
    output: withdrawalRecordSchema,
  },
  'withdrawals:list': { input: recordFilterSchema, output: recordPageSchema },
  'withdrawals:get': { input: localIdInput, output: withdrawalDetailSchema },
  'withdrawals:markFunded': {
    input: z.strictObject({
      localId: z.string().min(1).max(100),
      txId: z.string().trim().max(128).optional(),
    }),
    output: withdrawalRecordSchema,
  },
  'withdrawals:resolveUnknown': {
    input: z.strictObject({ localId: z.string().min(1).max(100), resolution: unknownResolutionSchema }),
    output: withdrawalRecordSchema,
  },
  'withdrawals:refresh': { input: localIdInput, output: withdrawalRecordSchema },
  /** "Devoluções a conciliar": marks a returned payment reconciled (one audit entry; twice is a no-op). */
  'withdrawals:reconcileRefund': {
    input: localIdInput,
    output: z.object({ at: z.string(), operator: z.string() }),
  },
  /** Which of these returned payments were marked reconciled (Hoje leaves them out of its list). */
  'withdrawals:reconciledRefunds': {
    input: z.strictObject({ localIds: z.array(z.string().min(1).max(100)).max(100) }),
    output: z.array(z.string()),
  },
} as const

export const withdrawalsEvents = {
  'withdrawal:changed': withdrawalRecordSchema,
} as const
