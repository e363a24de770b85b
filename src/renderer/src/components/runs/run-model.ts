/**
 * What a run's state word says once creation is over: main's `completed` means "every row was handled", not "paid",
 * so the screen reads the rows' outcomes: still moving → "Em processamento", some paid → "Parcialmente pago", all
 * that were sent paid → "Liquidado". Rows that never left (dropped, held, refused, not created) do not count.
 */
import type { RowOutcome, RunState } from '../../../../shared/run'
import type { ChipTone } from '../ui/StatusChip'

export type RunSettlement = 'processing' | 'partial' | 'settled' | 'unpaid'

const NEVER_SENT: readonly RowOutcome[] = ['dropped', 'held', 'rejected', 'not_created']
const STILL_MOVING: readonly RowOutcome[] = [
  'pending',
  'queued',
  'in_flight',
  'outcome_unknown',
  'created',
  'funded',
]

/** Null while the run's own state says it all (draft, approved, creating, awaiting, paused). */
export function runSettlement(
  state: RunState,
  counts: Partial<Record<RowOutcome, number>>,
): RunSettlement | null {
  if (state !== 'completed' && state !== 'cancelled') return null
  const n = (o: RowOutcome): number => counts[o] ?? 0
  const entries = Object.entries(counts) as Array<[RowOutcome, number]>
  const sent = entries.filter(([o]) => !NEVER_SENT.includes(o)).reduce((a, [, c]) => a + c, 0)
  if (sent === 0) return null
  if (STILL_MOVING.some((o) => n(o) > 0)) return 'processing'
  const paid = n('paid')
  if (paid === sent) return 'settled'
  return paid > 0 ? 'partial' : 'unpaid'
}

export function runTone(state: RunState, settlement: RunSettlement | null): ChipTone {
  if (settlement === 'settled') return 'success'
  if (settlement === 'partial' || settlement === 'unpaid') return 'attention'
  if (settlement === 'processing') return 'pending'
  if (state === 'cancelled') return 'neutral'
  if (state === 'paused' || state === 'draft') return 'attention'
  return 'pending'
}
