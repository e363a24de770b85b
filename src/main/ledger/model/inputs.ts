/**
 * What the ledger accepts from its callers, validated with zod at the boundary (callers pass API data): the same
 * inputs on both engines.
 */
import { z } from 'zod'
import type { DepositRecord } from '../../../shared/deposit-record'
import { expectedPayeeSchema } from '../../../shared/payee'
import {
  amountKindSchema,
  withdrawalErrorInfoSchema,
  type WithdrawalRecord,
} from '../../../shared/withdrawal-record'

const rawObject = z.record(z.string(), z.unknown())
const cents = z.number().int().nonnegative()

export const newWithdrawalSchema = z.object({
  /** Generated when absent. */
  localId: z.string().min(1).max(100).optional(),
  profile: z.string().min(1),
  /** The exact JSON body about to be POSTed to /withdraw. */
  request: rawObject,
  pixKey: z.string().min(1),
  amountKind: amountKindSchema,
  amountCents: z.number().int().positive(),
  flags: z.array(z.string()).optional(),
  /** What the payment is for (already normalised: trimmed, blank fields dropped). Kept, never sent. */
  references: z
    .strictObject({
      invoice: z.string().min(1).optional(),
      costCentre: z.string().min(1).optional(),
      category: z.string().min(1).optional(),
      note: z.string().min(1).optional(),
    })
    .optional(),
  /** The payee-book entry the payment is for, as it is now (the name check compares with it). */
  expectedPayee: expectedPayeeSchema.optional(),
})
export type NewWithdrawal = z.infer<typeof newWithdrawalSchema>

export const createdOutcomeSchema = z.object({
  remoteId: z.string().min(1),
  /** The `response` object of the 2xx answer, raw. */
  createResponse: rawObject.nullable(),
  requestId: z.string().nullable(),
  nonce: z.string().nullable().optional(),
  depositAddress: z.string().nullable().optional(),
  depositAmountCents: cents.nullable().optional(),
  payoutAmountCents: cents.nullable().optional(),
  expiration: z.string().nullable().optional(),
  /** Status in the create response, if it carried one; recorded as the first observation. */
  status: z.string().nullable().optional(),
})
export type CreatedOutcome = z.infer<typeof createdOutcomeSchema>

export const unknownResolutionSchema = z.union([
  z.object({ withdrawalId: z.string().min(1), note: z.string().optional() }),
  z.object({ notCreated: z.literal(true), note: z.string().optional() }),
])
export type UnknownResolution = z.infer<typeof unknownResolutionSchema>

export const observationInputSchema = z.object({
  /** Raw status string from the body ('' if it had none). */
  status: z.string(),
  body: rawObject.nullable(),
  requestId: z.string().nullable().optional(),
  nonce: z.string().nullable().optional(),
  /** When the answer arrived, ISO 8601; defaults to now. */
  observedAt: z.iso.datetime({ offset: true }).optional(),
})
export type ObservationInput = z.infer<typeof observationInputSchema>

/** What recording one status answer did, for every record kind. */
export interface ObservationResult<R = WithdrawalRecord> {
  /** False when the answer equals the last stored observation (nothing stored). */
  changed: boolean
  /** True when it became the record's current remote status. */
  applied: boolean
  record: R
  /** Flags this answer raised (e.g. `payee_mismatch`, `med_reversal`). */
  raised: string[]
}

export const similarQuerySchema = z.object({
  pixKey: z.string().min(1),
  amountKind: amountKindSchema,
  amountCents: z.number().int(),
  sinceIso: z.iso.datetime({ offset: true }),
  /**
   * The window's length: the team ledger then takes its bound from the server's clock (which stamped its records),
   * not `sinceIso` from this desk's. The desk ledger keeps `sinceIso` (its own clock stamped its records).
   */
  windowMs: z.number().int().positive().optional(),
  profile: z.string().optional(),
  /**
   * The fee rule's rate (basis points) that turns either amount kind into what the payee receives: records match
   * by payout, whichever kind they or the query carry. Default: the profile default.
   */
  partnerRateBps: z.number().int().min(0).max(9999).optional(),
})
export type SimilarQuery = z.infer<typeof similarQuerySchema>

export const errorInfoOrNull = withdrawalErrorInfoSchema.nullable()

export const newDepositSchema = z.object({
  /** Generated (`dep-<uuid>`) when absent. */
  localId: z.string().min(1).max(100).optional(),
  profile: z.string().min(1),
  /** The exact JSON body about to be POSTed to /deposit. */
  request: rawObject,
  flags: z.array(z.string()).optional(),
})
export type NewDeposit = z.infer<typeof newDepositSchema>

/** A deposit made outside the app, found by reconciliation: imported with the status answer that proved it. */
export const importedDepositSchema = z.object({
  profile: z.string().min(1),
  remoteId: z.string().min(1).max(200),
  /** The GET /deposit-status answer, raw. */
  status: z.string(),
  body: rawObject,
  requestId: z.string().nullable().optional(),
  nonce: z.string().nullable().optional(),
})
export type ImportedDeposit = z.infer<typeof importedDepositSchema>

export const depositResolutionSchema = z.union([
  z.object({ depositId: z.string().min(1).max(200), note: z.string().optional() }),
  z.object({ notCreated: z.literal(true), note: z.string().optional() }),
])
export type DepositResolution = z.infer<typeof depositResolutionSchema>

export type DepositObservationResult = ObservationResult<DepositRecord>
