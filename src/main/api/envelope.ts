/**
 * zod schemas for every body the service sends (docs/API-CONTRACT.md#s2). Objects are `.loose()`: unknown fields are kept and
 * handed to the caller, because "not shown" fields exist and the ledger stores observations raw. Status strings
 * are plain strings: an unknown status is data, not an error. Amounts must be safe integers; a float amount is a
 * broken contract (the money model is integer cents).
 */
import { z } from 'zod'

const cents = z.number().int()
/** Optional fields may also arrive as null; both mean "absent". */
const optString = z.string().nullish()
const optCents = cents.nullish()

// ---- Success bodies (under `response`) ----

export const pingSchema = z
  .object({
    msg: z.string(),
    claims_for_token_debug: z.object({}).loose(),
  })
  .loose()
export type Ping = z.infer<typeof pingSchema>

/** The create response may carry only `withdrawalId` (docs/API-CONTRACT.md#s4-6: other fields not shown). */
export const withdrawCreatedSchema = z
  .object({
    withdrawalId: z.string().min(1),
    depositAddress: optString,
    depositAmountInCents: optCents,
    payoutAmountInCents: optCents,
    expiration: optString,
    status: optString,
  })
  .loose()
export type WithdrawCreated = z.infer<typeof withdrawCreatedSchema>

/**
 * One field of a status answer: a value that breaks the contract becomes undefined (absent) instead of failing the
 * whole answer. Status answers are facts about money; one odd field must not hide the others (a refund's txid
 * next to a fractional amount). Which fields were dropped is read back with `invalidFields`.
 */
const field = <T extends z.ZodType>(schema: T) => schema.optional().catch(undefined)

/** docs/API-CONTRACT.md#s2-3: names beyond `txId` and `reason` are not shown, so the object is kept whole. */
export const refundSchema = z
  .object({
    txId: field(optString),
    reason: field(optString),
  })
  .loose()
export type WithdrawalRefund = z.infer<typeof refundSchema>

/**
 * GET /withdraw-status, read field by field: only `id` is required (an answer about no known withdrawal cannot be
 * attributed); every other known field is dropped alone when its value breaks the contract, and `status` is then
 * undefined. The answer as received is `ApiResult.raw`; the ledger stores that.
 */
export const withdrawalStatusSchema = z
  .object({
    id: z.string().min(1),
    status: field(z.string()),
    pixKey: field(optString),
    expiration: field(optString),
    depositAddress: field(optString),
    depositAmountInCents: field(optCents),
    payoutAmountInCents: field(optCents),
    blockchainTxID: field(optString),
    receiptUrl: field(optString),
    receiverName: field(optString),
    receiverTaxNumber: field(optString),
    transferDate: field(optString),
    centralBankId: field(optString),
    refundAddress: field(optString),
    refund: field(refundSchema.nullable()),
  })
  .loose()
export type WithdrawalStatus = z.infer<typeof withdrawalStatusSchema>

/** docs/API-CONTRACT.md#s4-2: the deposit `id`; further fields not shown, kept loose. */
export const depositCreatedSchema = z
  .object({
    id: z.string().min(1),
    qrId: optString,
    status: optString,
    expiration: optString,
    valueInCents: optCents,
  })
  .loose()
export type DepositCreated = z.infer<typeof depositCreatedSchema>

export const depositStatusSchema = z
  .object({
    qrId: z.string().min(1),
    status: z.string(),
    bankTxId: optString,
    blockchainTxID: optString,
    customerMessage: optString,
    payerName: optString,
    payerTaxNumber: optString,
    pixKey: optString,
    valueInCents: optCents,
    expiration: optString,
    payerEUID: optString,
    delayUntil: optString,
    // Values outside the API contract's list are kept raw (the list may grow).
    rejectionReasons: z.array(z.string()).nullish(),
  })
  .loose()
export type DepositStatus = z.infer<typeof depositStatusSchema>

export const depositRowSchema = z
  .object({
    qrId: z.string().min(1),
    status: z.string(),
    bankTxId: optString,
  })
  .loose()
export type DepositRow = z.infer<typeof depositRowSchema>

/**
 * docs/API-CONTRACT.md#s4-4 says "rows" without naming the container: a bare array, or an object holding the array under
 * `deposits`. Anything else is a contract break.
 */
export const depositsSchema = z.union([
  z.array(depositRowSchema),
  z
    .object({ deposits: z.array(depositRowSchema) })
    .loose()
    .transform((o) => o.deposits),
])

export const userInfoSchema = z
  .object({
    maxDailyInCents: optCents,
    dailyVolumeInCents: optCents,
    dailyLimitResetTime: optString,
  })
  .loose()
export type UserInfo = z.infer<typeof userInfoSchema>

/** `{ response, async: false }` (docs/API-CONTRACT.md#s2-1). `async: true` would mean a model the API no longer has. */
export function successEnvelope<T extends z.ZodType>(response: T) {
  return z.object({ response, async: z.literal(false).optional() }).loose()
}

// ---- Authentication bodies (flat, docs/API-CONTRACT.md#s5-2) ----

export const tokenResponseSchema = z
  .object({
    access_token: z.string().min(1),
    token_type: z.string().optional(),
    expires_in: z.number().int().positive(),
    refresh_token: z.string().min(1),
    refresh_expires_in: z.number().int().positive().optional(),
    scope: z
      .union([z.array(z.string()), z.string().transform((s) => s.split(/\s+/).filter(Boolean))])
      .optional(),
  })
  .loose()
export type TokenResponse = z.infer<typeof tokenResponseSchema>

// ---- Error bodies ----

/** A field of the wrong type is dropped, not fatal: an error must still be reported when its body is odd. */
const lenientString = z.string().optional().catch(undefined)
const errorFields = {
  errorMessage: lenientString,
  messageCode: lenientString,
  denialCode: lenientString,
  denialMessage: lenientString,
}
const errorBodySchema = z
  .object({
    ...errorFields,
    error: lenientString,
    response: z.object(errorFields).loose().optional().catch(undefined),
  })
  .loose()

export interface ErrorFields {
  errorMessage?: string
  messageCode?: string
  denialCode?: string
  denialMessage?: string
  authError?: string
}

/**
 * Operation errors nest under `response`; 401/403/429 and the auth endpoints are flat (docs/API-CONTRACT.md#s2-1). Both levels
 * are read, whichever is present. Non-JSON bodies (a 502 from a proxy) give no fields.
 */
export function readErrorBody(text: string): ErrorFields {
  const json = parseJson(text)
  if (json === undefined) return {}
  const parsed = errorBodySchema.safeParse(json)
  if (!parsed.success) return {}
  const top = parsed.data
  const inner = top.response
  const out: ErrorFields = {}
  const set = (key: keyof ErrorFields, value: string | undefined) => {
    if (value !== undefined && value !== '') out[key] = value
  }
  set('errorMessage', top.errorMessage ?? inner?.errorMessage)
  set('messageCode', inner?.messageCode ?? top.messageCode)
  set('denialCode', inner?.denialCode ?? top.denialCode)
  set('denialMessage', inner?.denialMessage ?? top.denialMessage)
  set('authError', top.error)
  return out
}

/**
 * Known fields present in the raw answer whose value the lenient schema dropped (wrong type, fractional cents), and
 * `status` when it is missing or not a string. Nested: `refund.txId`.
 */
export function invalidFields(raw: unknown, parsed: Record<string, unknown>, shape: z.ZodObject): string[] {
  if (typeof raw !== 'object' || raw === null) return []
  const r = raw as Record<string, unknown>
  const out: string[] = []
  for (const key of Object.keys(shape.shape)) {
    const given = r[key]
    const kept = parsed[key]
    if (given !== undefined && kept === undefined) out.push(key)
    else if (key === 'refund' && isPlainObject(given) && isPlainObject(kept)) {
      for (const sub of invalidFields(given, kept, refundSchema)) out.push(`refund.${sub}`)
    }
  }
  if (shape === withdrawalStatusSchema && typeof parsed.status !== 'string' && !out.includes('status')) {
    out.push('status')
  }
  return out
}

/** The fields of a GET /withdraw-status answer that were dropped as invalid (see `invalidFields`). */
export function invalidStatusFields(raw: unknown, parsed: WithdrawalStatus): string[] {
  return invalidFields(raw, parsed, withdrawalStatusSchema)
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v)
}

/** undefined when the text is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

/** For a create whose body broke the contract: the new id, if one can still be read, to help link the record. */
export function salvageCreatedId(json: unknown, key: 'withdrawalId' | 'id'): string | undefined {
  if (typeof json !== 'object' || json === null) return undefined
  const response = (json as { response?: unknown }).response
  if (typeof response !== 'object' || response === null) return undefined
  const id = (response as Record<string, unknown>)[key]
  return typeof id === 'string' && id !== '' && id.length <= 200 ? id : undefined
}
