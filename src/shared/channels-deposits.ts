/**
 * The IPC channels and events of deposits ("Comprar DePix", issue #17), spread into `channels` and `events` of
 * contract.ts. Same rules as every channel: input validated in main, output parsed before it leaves (only the
 * fields named here cross to the renderer).
 */
import { z } from 'zod'
import { depositDraftSchema } from './deposit-draft'
import { depositRecordSchema, outsideDepositSchema } from './deposit-record'
import { fundingAlertSchema } from './funding-alert'
import { liquidNetworkSchema } from './profile'
import { recordFilterSchema, statusObservationSchema } from './withdrawal-record'

const localId = z.string().min(1).max(100)
const localIdInput = z.strictObject({ localId })

/** The Liquid check of the destination, as `liquid:check` answers it. */
const addressCheckSchema = z.union([
  z.object({
    ok: z.literal(true),
    address: z.string(),
    network: liquidNetworkSchema,
    confidential: z.boolean(),
  }),
  z.object({ ok: z.literal(false), reason: z.string(), message: z.string() }),
])

export const depositQuoteSchema = z.object({
  /** The exact JSON body that will be sent to POST /deposit. */
  request: z.looseObject({}),
  address: addressCheckSchema,
  /** Similar deposits (same amount and destination) in the last 24 h: creating needs an explicit confirmation. */
  duplicates: z.array(depositRecordSchema),
  intent: z.object({ id: z.string(), expiresInSeconds: z.number().int() }),
  /** Team ledger: above the team's limit or to an unregistered address, it waits for another analyst (Aprovações). */
  needsApproval: z.boolean().default(false),
})
export type DepositQuote = z.infer<typeof depositQuoteSchema>

/** The QR as main read it: the picture only when the payload is a BR Code whose CRC holds. */
export const depositQrSchema = z.object({
  payload: z.string(),
  /** SVG of the payload; null when the payload is damaged (CRC) or not a BR Code. */
  svg: z.string().nullable(),
  crcValid: z.boolean(),
  /** Field 54 of the payload, when it carries one. */
  amountCents: z.number().int().nullable(),
  /** False when the payload's amount differs from the deposit's: the operator must not pay it. */
  amountMatches: z.boolean(),
})
export type DepositQr = z.infer<typeof depositQrSchema>

export const depositDetailSchema = z.object({
  record: depositRecordSchema,
  observations: z.array(statusObservationSchema),
  /** Null while the deposit waits for no Pix, or when the service did not confirm it (`qrAlert`). */
  qr: depositQrSchema.nullable(),
  /** Funding shown is funding checked (issue #24): why no QR is shown for a deposit that waits for its Pix. */
  qrAlert: fundingAlertSchema.nullable(),
  /** Why the service refused the top-up, in both languages, from its stored codes (never its free text). */
  refusal: z.object({ 'pt-BR': z.string(), en: z.string() }).nullable(),
})
export type DepositDetail = z.infer<typeof depositDetailSchema>

const statusTotalSchema = z.object({
  status: z.string(),
  hasRefund: z.boolean(),
  count: z.number().int(),
  depositCents: z.number().int(),
  payoutCents: z.number().int(),
})

export const depositPageSchema = z.object({
  rows: z.array(depositRecordSchema),
  total: z.number().int(),
  totals: z.array(statusTotalSchema),
})
export type DepositPage = z.infer<typeof depositPageSchema>

export const reconciliationSchema = z.object({
  /** When the sweep finished (ISO 8601). */
  checkedAt: z.string(),
  /** The window swept: [from, to). */
  from: z.string(),
  to: z.string(),
  /** Rows the service returned in all. */
  rows: z.number().int(),
  /** Deposits the service knows and this ledger does not: made outside the app. */
  outside: z.array(outsideDepositSchema),
  /** Our deposits whose status in the sweep differs from the ledger's: each was asked about again. */
  refreshed: z.number().int(),
  /** True when a part of the window still held 200 rows at the smallest split: some rows may be missing. */
  incomplete: z.boolean(),
})
export type Reconciliation = z.infer<typeof reconciliationSchema>

export const userInfoViewSchema = z.object({
  euid: z.string(),
  maxDailyCents: z.number().int().nullable(),
  usedTodayCents: z.number().int().nullable(),
  /** ISO 8601, as reported. */
  resetsAt: z.string().nullable(),
})
export type UserInfoView = z.infer<typeof userInfoViewSchema>

export const depositDefaultsSchema = z.object({
  /** The profile's own Liquid address (Settings), if any. */
  depixAddress: z.string().nullable(),
  network: liquidNetworkSchema,
})

const resolutionSchema = z.union([
  z.strictObject({ depositId: z.string().trim().min(1).max(200) }),
  z.strictObject({ notCreated: z.literal(true) }),
])

export const depositsChannels = {
  'deposits:defaults': { input: z.undefined(), output: depositDefaultsSchema },
  'deposits:quote': { input: z.strictObject({ draft: depositDraftSchema }), output: depositQuoteSchema },
  'deposits:create': {
    input: z.strictObject({
      draft: depositDraftSchema,
      intentId: z.string().min(1).max(100),
      confirmedDuplicates: z.array(localId).max(100).optional(),
    }),
    output: depositRecordSchema,
  },
  'deposits:list': { input: recordFilterSchema, output: depositPageSchema },
  'deposits:get': { input: localIdInput, output: depositDetailSchema },
  'deposits:refresh': { input: localIdInput, output: depositRecordSchema },
  'deposits:resolveUnknown': {
    input: z.strictObject({ localId, resolution: resolutionSchema }),
    output: depositRecordSchema,
  },
  /** GET /deposits over the last days, compared with the ledger. */
  'deposits:reconcile': {
    input: z.strictObject({ days: z.number().int().min(1).max(90).optional() }),
    output: reconciliationSchema,
  },
  /** The last reconciliation of this profile (on demand or scheduled); null before the first. */
  'deposits:reconciliation': { input: z.undefined(), output: reconciliationSchema.nullable() },
  /** Imports a deposit the reconciliation found, after one GET /deposit-status proves it. */
  'deposits:import': {
    input: z.strictObject({ qrId: z.string().trim().min(1).max(200) }),
    output: depositRecordSchema,
  },
  /** The deposits of the opened offline review (a deposit export loaded into the review's own ledger). */
  'deposits:reviewList': { input: recordFilterSchema, output: depositPageSchema },
  'deposits:userInfo': {
    input: z.strictObject({ euid: z.string().trim().min(1).max(200) }),
    output: userInfoViewSchema,
  },

  /** Sandbox tools: the payer pays this deposit's QR. */
  'sandbox:payDeposit': { input: localIdInput, output: depositRecordSchema },
  /** Sandbox tools: a MED reverses this paid deposit. */
  'sandbox:fileMed': { input: localIdInput, output: depositRecordSchema },
  /** Sandbox tools: a deposit made outside the app (for reconciliation), optionally paid. */
  'sandbox:outsideDeposit': {
    input: z.strictObject({ amountCents: z.number().int().min(1).max(100_000_000), pay: z.boolean() }),
    output: z.object({ qrId: z.string() }),
  },
} as const

export const depositsEvents = {
  'deposit:changed': depositRecordSchema,
  'deposits:reconciled': reconciliationSchema,
} as const
