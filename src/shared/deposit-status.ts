/**
 * Remote deposit statuses (docs/API-CONTRACT.md#s3-1). The API contract shows `approved`, `depix_sent`, `delayed` and `refunded` and says
 * the complete set is "not shown"; the sandbox also reports `pending` (QR not paid yet) and `expired` (QR not paid
 * in time), which a real account may or may not send. Every function accepts any string: an unknown status is kept
 * raw, ranked low, never terminal, never guessed into a known meaning.
 *
 * Pure: imported by main (ledger, tracker) and by the renderer (badges, grouping).
 */
import { decideByVocabulary, type StatusDecision, type StatusPoint } from './status-order'
import { normalizeStatus } from './withdrawal-status'

export const DEPOSIT_STATUSES = [
  'pending',
  'delayed',
  'approved',
  'depix_sent',
  'expired',
  'refunded',
] as const
export type DepositStatus = (typeof DEPOSIT_STATUSES)[number]

export function normalizeDepositStatus(raw: string): string {
  return normalizeStatus(raw)
}

export function isKnownDepositStatus(raw: string): boolean {
  return (DEPOSIT_STATUSES as readonly string[]).includes(normalizeDepositStatus(raw))
}

/**
 * Progress order: pending → (delayed →) approved → depix_sent, pending → expired, and any paid deposit → refunded
 * (a MED, docs/API-CONTRACT.md#s3-1). `refunded` outranks everything: a MED reversal is the last word on the money.
 */
const RANKS: Readonly<Record<DepositStatus, number>> = {
  pending: 0,
  delayed: 1,
  approved: 2,
  depix_sent: 3,
  expired: 3,
  refunded: 4,
}
const UNKNOWN_RANK = 0.5

export function depositStatusRank(raw: string): number {
  const s = normalizeDepositStatus(raw) as DepositStatus
  return Object.hasOwn(RANKS, s) ? RANKS[s] : UNKNOWN_RANK
}

/**
 * Terminal for ordering: `expired` (never paid) and `refunded` (reversed). `depix_sent` is not terminal here: a MED
 * can still reverse it, and a later `refunded` must replace it.
 */
export function isTerminalDepositStatus(raw: string): boolean {
  const s = normalizeDepositStatus(raw)
  return s === 'expired' || s === 'refunded'
}

/** The Pix was received: the deposit was paid (whatever happened to the DePix afterwards). */
export function isPaidDepositStatus(raw: string): boolean {
  const s = normalizeDepositStatus(raw)
  return s === 'approved' || s === 'depix_sent' || s === 'delayed' || s === 'refunded'
}

/**
 * A deposit whose DePix was sent can still be reversed by a MED for a long time: the tracker keeps asking about
 * it slowly (and the reconciliation sweep sees it too), instead of stopping.
 */
export function isLingeringDepositStatus(raw: string): boolean {
  return normalizeDepositStatus(raw) === 'depix_sent'
}

/** Nothing can change any more: never paid (expired) or already reversed (refunded). */
export function isSettledDepositStatus(raw: string): boolean {
  return isTerminalDepositStatus(raw)
}

export function decideDepositStatus(current: StatusPoint | null, next: StatusPoint): StatusDecision {
  return decideByVocabulary(
    {
      normalize: normalizeDepositStatus,
      isKnown: isKnownDepositStatus,
      rank: depositStatusRank,
      isTerminal: (s) => isTerminalDepositStatus(s),
      // A paid deposit reversed after its DePix went out is not a contradiction: that is what a MED is.
      normalTerminalMoves: new Set(['depix_sent>refunded']),
    },
    current,
    next,
  )
}

/** Why the service held or refused a deposit (docs/API-CONTRACT.md#s2-2 `rejectionReasons`). Others are shown raw. */
export const REJECTION_REASONS = [
  'PAST_DAILY_LIMIT',
  'BLOCKED_USER',
  'HIGH_VELOCITY',
  'PAYER_MISMATCH',
] as const
