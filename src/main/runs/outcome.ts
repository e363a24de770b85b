/** Where a run row stands, from its own state and, once submitted, its withdrawal record. */
import { ROW_OUTCOMES, type RowOutcome, type RunRowRecord } from '../../shared/run'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { statusCategory } from '../../shared/withdrawal-status'

export { ROW_OUTCOMES, type RowOutcome }

export function rowOutcome(row: RunRowRecord, record: WithdrawalRecord | undefined): RowOutcome {
  if (row.state !== 'submitted') return row.state
  if (!record) return 'outcome_unknown'
  switch (record.localState) {
    case 'submitting':
      return 'in_flight'
    case 'rejected':
    case 'outcome_unknown':
    case 'not_created':
      return record.localState
    case 'created':
      break
  }
  const category = statusCategory(record.remoteStatus ?? 'unsent', record.refund !== null)
  switch (category) {
    case 'paid':
      return 'paid'
    case 'refunded':
      return 'returned'
    case 'processing':
      return 'funded'
    case 'expired':
    case 'failed':
    case 'cancelled':
      return category
    default:
      return record.fundedAt !== null ? 'funded' : 'created'
  }
}

export interface RunProgress {
  total: number
  counts: Record<RowOutcome, number>
  /** Created at the service (every outcome from `created` on). */
  created: number
  funded: number
  paid: number
  returned: number
}

const AFTER_CREATED: ReadonlySet<RowOutcome> = new Set([
  'created',
  'funded',
  'paid',
  'returned',
  'expired',
  'failed',
  'cancelled',
])
const AFTER_FUNDED: ReadonlySet<RowOutcome> = new Set(['funded', 'paid', 'returned'])

export function progressOf(outcomes: readonly RowOutcome[]): RunProgress {
  const counts = Object.fromEntries(ROW_OUTCOMES.map((o) => [o, 0])) as Record<RowOutcome, number>
  for (const o of outcomes) counts[o] += 1
  return {
    total: outcomes.length,
    counts,
    created: outcomes.filter((o) => AFTER_CREATED.has(o)).length,
    funded: outcomes.filter((o) => AFTER_FUNDED.has(o)).length,
    paid: counts.paid,
    returned: counts.returned,
  }
}
