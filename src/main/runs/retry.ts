/**
 * What the run page may do with a row that was not created (issue #25): retry it (a new create, journaled like any
 * other, through the next wave) only once its old outcome is known to be "not created" — refused for a transient
 * reason (by status and code, never by the message text) or an unknown outcome resolved as never created — and
 * resolve a row whose outcome is unknown, through the single payment's own resolution.
 */
import type { RowOutcome, RunRowRecord } from '../../shared/run'
import type { WithdrawalErrorInfo, WithdrawalRecord } from '../../shared/withdrawal-record'

/** Envelope codes the service uses for "try again later" (spec: 520 NETWORK_WALLET_UNAVAILABLE). */
const TRANSIENT_CODES: ReadonlySet<string> = new Set(['NETWORK_WALLET_UNAVAILABLE'])
/** Client error kinds that, for a create, mean "nothing was created, the cause passes" (journal/create.ts). */
const TRANSIENT_KINDS: ReadonlySet<string> = new Set([
  'rate_limited',
  'maintenance',
  'network',
  'aborted_before_send',
])

export function transientRefusal(e: WithdrawalErrorInfo | null): boolean {
  if (e === null) return false
  if (e.status === 429) return true
  if (TRANSIENT_KINDS.has(e.kind)) return true
  return e.messageCode !== null && TRANSIENT_CODES.has(e.messageCode)
}

/** The row's create is known not to have created anything, and nothing about the payment itself refused it. */
export function retryable(row: RunRowRecord, record: WithdrawalRecord | undefined): boolean {
  if (row.state !== 'submitted' || record === undefined) return false
  if (record.localState === 'not_created') return true
  return record.localState === 'rejected' && transientRefusal(record.error)
}

/** Outcomes that are not (yet) a payment at the service: a run that ends with one is "partially paid". */
const NOT_CREATED: ReadonlySet<RowOutcome> = new Set([
  'pending',
  'queued',
  'in_flight',
  'held',
  'rejected',
  'outcome_unknown',
  'not_created',
])

export function unpaidOutcome(o: RowOutcome): boolean {
  return NOT_CREATED.has(o)
}
