/**
 * The withdrawal record: what the ledger remembers about one withdrawal we tried to create. The API has no
 * idempotency and no list endpoint (docs/API-CONTRACT.md#s1-6), so this record is the only memory of what was created.
 * One name for the concept across main, IPC and renderer: `WithdrawalRecord`.
 *
 * Remote data (create response, status bodies, refund) is kept raw with unknown fields intact: the API contract marks most
 * of it "not shown", so nothing here may drop or reinterpret what the service sent.
 */
import { z } from 'zod'
import { expectedPayeeSchema } from './payee'
import type { RunLinks } from './run-link'

/**
 * Our side of the lifecycle (docs/adr/0004-an-unknown-outcome-is-resolved-by-a-person.md):
 * submitting → created | rejected | outcome_unknown; outcome_unknown → created (operator links an id from
 * support) | not_created (operator declares it never existed). Everything after `created` is the remote status.
 */
export const LOCAL_STATES = ['submitting', 'created', 'rejected', 'outcome_unknown', 'not_created'] as const
export const localStateSchema = z.enum(LOCAL_STATES)
export type LocalState = z.infer<typeof localStateSchema>

export const LOCAL_TRANSITIONS: Readonly<Record<LocalState, readonly LocalState[]>> = {
  submitting: ['created', 'rejected', 'outcome_unknown'],
  outcome_unknown: ['created', 'not_created'],
  created: [],
  rejected: [],
  not_created: [],
}

export function canTransition(from: LocalState, to: LocalState): boolean {
  return LOCAL_TRANSITIONS[from].includes(to)
}

export const AMOUNT_KINDS = ['deposit', 'payout'] as const
export const amountKindSchema = z.enum(AMOUNT_KINDS)
/** Which of the two mutually exclusive amounts the request carried (docs/API-CONTRACT.md#s4-6 rule 2). */
export type AmountKind = z.infer<typeof amountKindSchema>

/** Flags raised on a record. Open-ended: the list names the ones the app raises itself. */
export const RECORD_FLAGS = {
  /** The Liquid helper refused the deposit address: never show funding instructions for it. */
  depositAddressInvalid: 'deposit_address_invalid',
  /** A status body reported a deposit address other than the one we had. */
  depositAddressChanged: 'deposit_address_changed',
  /** A status body reported a Pix key other than the one we sent. */
  pixKeyMismatch: 'pix_key_mismatch',
  /** Two different terminal statuses were reported (e.g. sent, then expired). */
  remoteStatusConflict: 'remote_status_conflict',
  /** The receiver name or CPF/CNPJ the service reported is not the payee the payment was created for. */
  payeeMismatch: 'payee_mismatch',
} as const

const rawObject = z.record(z.string(), z.unknown())
const isoString = z.string().min(1)

/** Why a create did not end in `created`. Codes are kept as sent; `message` is free text, shown, never parsed. */
export const withdrawalErrorInfoSchema = z
  .object({
    /** ApiError kind (business, compliance, outcome_unknown, network, …). */
    kind: z.string(),
    /** HTTP status, when a response arrived. */
    status: z.number().int().nullable(),
    messageCode: z.string().nullable(),
    denialCode: z.string().nullable(),
    requestId: z.string().nullable(),
    message: z.string().nullable().optional(),
  })
  .loose()
export type WithdrawalErrorInfo = z.infer<typeof withdrawalErrorInfoSchema>

export const withdrawalRecordSchema = z.object({
  localId: z.string().min(1),
  profile: z.string().min(1),
  /** Who submitted it. */
  operator: z.string(),
  createdAt: isoString,
  updatedAt: isoString,
  localState: localStateSchema,
  /** The exact JSON body of POST /withdraw, as sent. */
  request: z.looseObject({}),
  pixKey: z.string(),
  amountKind: amountKindSchema,
  /** The amount the request carried, of `amountKind`, in cents. */
  amountCents: z.number().int(),
  /** The `response` object of POST /withdraw, raw. */
  createResponse: rawObject.nullable(),
  remoteId: z.string().nullable(),
  /** Last applied remote status, raw as sent (display it raw; normalise only to compare). */
  remoteStatus: z.string().nullable(),
  remoteStatusAt: isoString.nullable(),
  /** When the service was last asked about this record, changed or not. */
  remoteCheckedAt: isoString.nullable(),
  /** Last applied GET /withdraw-status body, raw. */
  lastRemote: rawObject.nullable(),
  depositAddress: z.string().nullable(),
  /** Best knowledge: the request's amount until the service reports one. */
  depositAmountCents: z.number().int().nullable(),
  /** Best knowledge; the service may recalculate it from what arrived (docs/API-CONTRACT.md#s2-3). */
  payoutAmountCents: z.number().int().nullable(),
  expiration: z.string().nullable(),
  /** When the operator declared the token sent to `depositAddress`. */
  fundedAt: isoString.nullable(),
  fundingTxId: z.string().nullable(),
  /** The `refund` object, raw, once any observation carried one (a refund never un-happens). */
  refund: rawObject.nullable(),
  receiverName: z.string().nullable(),
  error: withdrawalErrorInfoSchema.nullable(),
  /** X-Request-ID of the create call. */
  requestId: z.string().nullable(),
  flags: z.array(z.string()),
  /**
   * What the payment is for (payment-references.ts), as stored at creation; absent when none was given. Plain
   * strings here: the draft schema checked them on the way in, and exports are read back with this schema.
   */
  references: z
    .strictObject({
      invoice: z.string().optional(),
      costCentre: z.string().optional(),
      category: z.string().optional(),
      note: z.string().optional(),
    })
    .optional(),
  /** The payee-book entry the payment was made to, with its name and CPF/CNPJ then; absent when none was chosen. */
  expectedPayee: expectedPayeeSchema.optional(),
})
export type WithdrawalRecord = z.infer<typeof withdrawalRecordSchema>

/** One GET /withdraw-status answer (or the create response), kept as history. */
export const statusObservationSchema = z.object({
  id: z.number().int(),
  localId: z.string(),
  observedAt: isoString,
  /** Raw status string; '' when the body had none. */
  remoteStatus: z.string(),
  body: rawObject.nullable(),
  requestId: z.string().nullable(),
  nonce: z.string().nullable(),
  /** False when the observation was older than what the record already showed (out of order). */
  applied: z.boolean(),
})
export type StatusObservation = z.infer<typeof statusObservationSchema>

export const auditEntrySchema = z.object({
  seq: z.number().int().positive(),
  at: isoString,
  operator: z.string(),
  action: z.string(),
  /** What the action concerns, e.g. a withdrawal localId; null for app-wide actions. */
  subject: z.string().nullable(),
  details: rawObject,
  prevHash: z.string(),
  hash: z.string(),
  /** Hash of the record state this entry produced (see ledger/model/state-hash.ts); absent for entries that changed no record. */
  stateHash: z.string().nullable().optional(),
})
export type AuditEntry = z.infer<typeof auditEntrySchema>

export type AuditVerification = { ok: true; rows: number } | { ok: false; brokenAt: number; reason: string }

/** "Deadline within 10 minutes" of the needs-action filter. */
export const ATTENTION_DEADLINE_MS = 10 * 60_000
/** Flags that make a record need action: money could go to the wrong place. */
export const ATTENTION_FLAGS = [
  'deposit_address_invalid',
  'deposit_address_changed',
  'pix_key_mismatch',
  'payee_mismatch',
] as const

/** The dates a filter can range over; every total, filter and export says which one it used. */
export const DATE_BASES = ['created', 'paid'] as const
export type DateBasis = (typeof DATE_BASES)[number]

export const SORT_FIELDS = ['createdAt', 'amount', 'status', 'updatedAt'] as const
export const RECORD_PAGE_SIZE = 50
export const RECORD_PAGE_MAX = 1000

export const recordFilterSchema = z.object({
  profile: z.string().optional(),
  /** Matches the local state or the normalised remote status ('created' matches every created record). */
  statuses: z.array(z.string()).optional(),
  /** The date ≥ from (ISO 8601); which date is `dateBasis`. */
  from: z.iso.datetime({ offset: true }).optional(),
  /** The date < to (ISO 8601, exclusive). */
  to: z.iso.datetime({ offset: true }).optional(),
  /**
   * Which date `from`/`to` read (main's ledger/model/date-range.ts): 'created' (default) the creation, 'paid' the first
   * time the service reported the record paid. With 'paid', records never paid are left out even without a range.
   */
  dateBasis: z.enum(DATE_BASES).optional(),
  /**
   * Substring of Pix key, receiver name, local id or remote id, the expected payee's name or CPF/CNPJ, or a
   * reference (invoice, cost centre, category, note); case- and accent-insensitive.
   */
  text: z.string().max(200).optional(),
  /**
   * Only records that need the operator ("Precisa de ação"): outcome unknown, a flagged deposit address, Pix
   * key or payee name, or still awaiting the deposit with the deadline at most ATTENTION_DEADLINE_MS away (or past).
   */
  attention: z.boolean().optional(),
  /** Only the withdrawals created by this payment run (issue #15). */
  runId: z.string().max(100).optional(),
  limit: z.number().int().min(1).max(RECORD_PAGE_MAX).optional(),
  offset: z.number().int().min(0).optional(),
  sort: z.object({ field: z.enum(SORT_FIELDS), dir: z.enum(['asc', 'desc']) }).optional(),
})
export type RecordFilter = z.infer<typeof recordFilterSchema>

export interface RecordPage {
  rows: WithdrawalRecord[]
  total: number
  /** The run each row came from, by local id (issue #26's "Lote"); rows not from a run are absent. */
  runs?: RunLinks
}

/**
 * One group of `totalsByStatus`. `status` is the display status: the normalised remote status of a created
 * record that has one, otherwise the local state. Sums use best-knowledge amounts (null counts as 0).
 */
export interface StatusTotal {
  status: string
  hasRefund: boolean
  count: number
  depositCents: number
  payoutCents: number
  /**
   * Fees withheld on the group's refunds (money-totals.ts `refundFeeCents`). Absent in the totals of exports made
   * before it existed, and in totals recomputed from a CSV file (which has no refund-fee column).
   */
  refundFeeCents?: number
}

/** The operator's resolution of an `outcome_unknown` record, as IPC takes it (a single payment, or a run's row). */
export const unknownResolutionSchema = z.union([
  z.strictObject({ withdrawalId: z.string().trim().min(1).max(200) }),
  z.strictObject({ notCreated: z.literal(true) }),
])
