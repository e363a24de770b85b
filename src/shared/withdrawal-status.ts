/**
 * Remote withdrawal statuses (docs/API-CONTRACT.md#s3-2). The API contract shows only `sent` and `refunded` and says the full set is "not
 * shown", so every function here accepts any string: a status we do not know is kept raw, ranked low, never
 * terminal, and grouped as 'unknown' — never guessed into a known meaning.
 *
 * Pure: imported by main (ledger, status tracker) and by the renderer (badges, grouping).
 */
import {
  decideByVocabulary,
  type StatusDecision,
  type StatusPoint,
  type StatusVocabulary,
} from './status-order'

/** Lower-case, surrounding blanks dropped, runs of '-', '_' and whitespace folded into one '_'. 'canceled' and
 * 'cancelled' are one status (both spellings occur in payment APIs), so the normal form is 'cancelled'. */
export function normalizeStatus(raw: string): string {
  const s = raw
    .trim()
    .toLowerCase()
    .replace(/[\s_-]+/g, '_')
  return s === 'canceled' ? 'cancelled' : s
}

/** Statuses whose meaning we know. Anything else is an "unknown status". */
export const KNOWN_STATUSES = [
  'unsent',
  'sending',
  'sent',
  'error',
  'refunded',
  'expired',
  'cancelled',
] as const
export type KnownStatus = (typeof KNOWN_STATUSES)[number]

export function isKnownStatus(raw: string): boolean {
  return (KNOWN_STATUSES as readonly string[]).includes(normalizeStatus(raw))
}

/**
 * Progress order. Every lifecycle path the service can take is strictly increasing here
 * (unsent → sending → sent; unsent → [sending →] error → refunded; unsent → expired; unsent → cancelled), so among
 * observations of one withdrawal the highest rank is the newest, whatever order they arrived in.
 * `refunded` outranks `sent`: a recorded return of the token is the last word on where the money is.
 */
const RANKS: Readonly<Record<KnownStatus, number>> = {
  unsent: 0,
  sending: 1,
  error: 2,
  sent: 3,
  expired: 3,
  cancelled: 3,
  refunded: 4,
}

/**
 * An unknown status ranks just above `unsent`. Rank only orders known statuses: between a known and an unknown
 * status the order of observation decides (see `decideStatus`), because our observations come from polling, one
 * request per record at a time, so the later answer is the newer state.
 */
export const UNKNOWN_STATUS_RANK = 0.5

export function statusRank(raw: string): number {
  const s = normalizeStatus(raw) as KnownStatus
  return Object.hasOwn(RANKS, s) ? RANKS[s] : UNKNOWN_STATUS_RANK
}

/**
 * Terminal statuses cannot move forward through the payout: `decideStatus` never replaces one by a non-terminal
 * status, and funding instructions are not shown for them. `error` is terminal only once a refund is recorded
 * (docs/API-CONTRACT.md#s3-2: a failed payout without a refund waits for the operator, and may still be refunded). Unknown is never
 * terminal.
 */
export function isTerminalStatus(raw: string, hasRefund: boolean): boolean {
  switch (normalizeStatus(raw)) {
    case 'sent':
    case 'refunded':
    case 'expired':
    case 'cancelled':
      return true
    case 'error':
      return hasRefund
    default:
      return false
  }
}

/**
 * Terminal-looking statuses the service can still move: a deposit that arrives after expiry or cancellation is
 * returned to the refund address (`refunded`, with a `refund` object once the return is sent), and a `refunded`
 * whose `refund` object is not there yet will gain its txid. The tracker keeps asking about these, slowly.
 */
export function isLingeringStatus(raw: string, hasRefund: boolean): boolean {
  if (hasRefund) return false
  const s = normalizeStatus(raw)
  return s === 'expired' || s === 'cancelled' || s === 'refunded'
}

/**
 * Settled: nothing about the money can change any more, so the status tracker stops. The payout was made
 * (`sent`), or the return of the token is recorded (a `refund` object, whatever the status string says).
 * Everything else, unknown statuses included, is still asked about: a poll costs one request, stopping early
 * could hide money movement.
 */
export function isSettledStatus(raw: string, hasRefund: boolean): boolean {
  return hasRefund || normalizeStatus(raw) === 'sent'
}

export const STATUS_CATEGORIES = [
  'awaiting_funding',
  'processing',
  'paid',
  'failed',
  'refunded',
  'expired',
  'cancelled',
  'unknown',
] as const
export type StatusCategory = (typeof STATUS_CATEGORIES)[number]

/** UI grouping. A present refund wins over any status: the token came back, whatever the status string says. */
export function statusCategory(raw: string, hasRefund: boolean): StatusCategory {
  if (hasRefund) return 'refunded'
  switch (normalizeStatus(raw)) {
    case 'unsent':
      return 'awaiting_funding'
    case 'sending':
      return 'processing'
    case 'sent':
      return 'paid'
    case 'error':
      return 'failed'
    case 'refunded':
      return 'refunded'
    case 'expired':
      return 'expired'
    case 'cancelled':
      return 'cancelled'
    default:
      return 'unknown'
  }
}

export type { StatusDecision, StatusPoint } from './status-order'

/** A deposit after expiry or cancellation is returned: these lead to `refunded` without contradicting it. */
const NORMAL_TERMINAL_MOVES = new Set(['error>refunded', 'expired>refunded', 'cancelled>refunded'])

/**
 * Whether an observed status replaces the current one. Out-of-order reports (webhooks are unordered, docs/API-CONTRACT.md#s6-2
 * rule 6; a create's own status check can cross a tracker poll) must never move a record backwards:
 * - a terminal status is never replaced by a non-terminal one;
 * - between two known statuses, a higher rank replaces, a lower rank does not;
 * - when either status is unknown, the later observation replaces: rank says nothing about a status we do not
 *   know, and our observations come from polling, whose order is the true order;
 * - equal rank: the later observation replaces (same status with fresher fields), except that one terminal
 *   status never replaces a different terminal status of equal rank (sent vs expired vs cancelled): the first
 *   stays and the disagreement is reported as a conflict.
 * `error`, `expired` or `cancelled` → `refunded` is a normal end (the token came back); any other change between
 * two different terminal statuses is a conflict, applied or not.
 */
export function decideStatus(current: StatusPoint | null, next: StatusPoint): StatusDecision {
  return decideByVocabulary(VOCABULARY, current, next)
}

const VOCABULARY: StatusVocabulary = {
  normalize: normalizeStatus,
  isKnown: isKnownStatus,
  rank: statusRank,
  isTerminal: isTerminalStatus,
  normalTerminalMoves: NORMAL_TERMINAL_MOVES,
}
