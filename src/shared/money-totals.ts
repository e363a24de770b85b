/**
 * Totals by meaning: what a treasury analyst reconciles. A sum over every status would add pending, refunded and
 * expired records to what was paid; here each display status (and whether a refund is recorded) goes to exactly
 * one group, and only `paid` is money that reached a payee.
 *
 * The one place this grouping lives. Pure: the list and the offline review (renderer), the HTML report, the
 * manifest and the verifier (main) all call `meaningTotals` on the same per-status totals, so they cannot disagree.
 * docs/GLOSSARY.md names the groups; docs/RECORDS.md says how exports and the verifier use them.
 */
import type { StatusTotal } from './withdrawal-record'
import type { RecordKindId } from './record-kinds'

/**
 * - paid: the payout was made (`sent`) and no refund is recorded;
 * - open: still moving (awaiting deposit, Pix in progress, created without a status yet, submitting, or a create
 *   whose outcome is unknown);
 * - returned: the DePix came back (`refunded`, or any record that carries a refund, whatever its status says);
 * - ended: nothing was paid and nothing is moving (expired, cancelled, payout failed without a refund yet,
 *   refused by the service, declared not created);
 * - other: a status this app does not know. Counted and shown, never summed as paid.
 */
export const MEANINGS = ['paid', 'open', 'returned', 'ended', 'other'] as const
export type Meaning = (typeof MEANINGS)[number]

const BY_STATUS: Readonly<Record<string, Meaning>> = {
  sent: 'paid',
  refunded: 'returned',
  unsent: 'open',
  sending: 'open',
  created: 'open',
  submitting: 'open',
  outcome_unknown: 'open',
  expired: 'ended',
  cancelled: 'ended',
  error: 'ended',
  rejected: 'ended',
  not_created: 'ended',
}

/**
 * Deposits ("compras de DePix"): `paid` is DePix that reached the treasury (`depix_sent`); a Pix received whose
 * DePix is still on its way (`approved`, `delayed`) or a QR not paid yet (`pending`) is open; a MED reversal
 * (`refunded`) is returned; an expired QR, a refusal or a create declared not made ended.
 */
const BY_DEPOSIT_STATUS: Readonly<Record<string, Meaning>> = {
  depix_sent: 'paid',
  pending: 'open',
  approved: 'open',
  delayed: 'open',
  created: 'open',
  submitting: 'open',
  outcome_unknown: 'open',
  refunded: 'returned',
  expired: 'ended',
  rejected: 'ended',
  not_created: 'ended',
}

/** Keyed by the one kind id (shared/record-kinds.ts): a kind added there without a meaning table fails to compile. */
const BY_KIND: Readonly<Record<RecordKindId, Readonly<Record<string, Meaning>>>> = {
  withdrawal: BY_STATUS,
  deposit: BY_DEPOSIT_STATUS,
}

/** `status` is a display status (normalised remote status of a created record, else the local state). */
export function meaningOf(status: string, hasRefund: boolean, kind: RecordKindId = 'withdrawal'): Meaning {
  if (hasRefund) return 'returned'
  const table = BY_KIND[kind]
  return Object.hasOwn(table, status) ? (table[status] as Meaning) : 'other'
}

export interface MeaningGroup {
  count: number
  depositCents: number
  payoutCents: number
}

export interface MeaningTotals {
  paid: MeaningGroup
  open: MeaningGroup
  returned: MeaningGroup
  ended: MeaningGroup
  other: MeaningGroup
  /** The service's fee on what was paid: deposit minus payout of the `paid` group. */
  feesPaidCents: number
  /**
   * Fees the service kept out of returns (the refund's fee, summed). Null when the totals do not carry it (an
   * export made before this field existed): unknown, not zero.
   */
  feesWithheldCents: number | null
}

const emptyGroup = (): MeaningGroup => ({ count: 0, depositCents: 0, payoutCents: 0 })

/**
 * Groups per-status totals by meaning (see MEANINGS). For deposits `depositCents` is the Pix amount and there is
 * no payout: the fees are 0 (the contract reports no fee per deposit).
 */
export function meaningTotals(
  totals: readonly StatusTotal[],
  kind: RecordKindId = 'withdrawal',
): MeaningTotals {
  const out: MeaningTotals = {
    paid: emptyGroup(),
    open: emptyGroup(),
    returned: emptyGroup(),
    ended: emptyGroup(),
    other: emptyGroup(),
    feesPaidCents: 0,
    feesWithheldCents: 0,
  }
  for (const t of totals) {
    const g = out[meaningOf(t.status, t.hasRefund, kind)]
    g.count += t.count
    g.depositCents += t.depositCents
    g.payoutCents += t.payoutCents
    if (t.refundFeeCents === undefined) {
      if (t.hasRefund) out.feesWithheldCents = null
    } else if (out.feesWithheldCents !== null) {
      out.feesWithheldCents += t.refundFeeCents
    }
  }
  out.feesPaidCents = kind === 'deposit' ? 0 : out.paid.depositCents - out.paid.payoutCents
  return out
}

/**
 * Names the refund's fee may have. The API contract shows only `txId` and `reason` of a refund ("names of the other
 * fields: not shown"); `feeInCents` is what the service sends today, the others are read in case it renames.
 * The ledger's SQL sum (main/ledger/sqlite/queries.ts) reads the same names in the same order.
 */
export const REFUND_FEE_KEYS = ['feeInCents', 'feeWithheldInCents', 'withheldFeeInCents'] as const

/** The fee withheld on a refund, in cents: the first of REFUND_FEE_KEYS holding a non-negative safe integer; 0 when none. */
export function refundFeeCents(refund: Readonly<Record<string, unknown>> | null | undefined): number {
  if (!refund) return 0
  for (const key of REFUND_FEE_KEYS) {
    if (!Object.hasOwn(refund, key)) continue
    const v = refund[key]
    if (typeof v === 'number' && Number.isSafeInteger(v) && v >= 0) return v
  }
  return 0
}
