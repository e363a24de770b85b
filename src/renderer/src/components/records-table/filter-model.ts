/**
 * Pure pieces of the records table's filters: what the operator typed → the `RecordFilter` main understands.
 * Dates are São Paulo calendar days (the operators' day, and the one printed next to every time in the app),
 * turned into an inclusive `from` instant and an exclusive `to` instant.
 */
import {
  LOCAL_STATES,
  type DateBasis,
  type RecordFilter,
  type SORT_FIELDS,
} from '../../../../shared/withdrawal-record'
import { KNOWN_STATUSES } from '../../../../shared/withdrawal-status'
import { dayStartIso, nextCalendarDay, parseCalendarDay } from '../../../../shared/calendar-day'

export type SortField = (typeof SORT_FIELDS)[number]
export interface SortState {
  field: SortField
  dir: 'asc' | 'desc'
}
export const DEFAULT_SORT: SortState = { field: 'createdAt', dir: 'desc' }

/** What the filter controls hold. Days are `YYYY-MM-DD` as <input type="date"> gives them, '' when empty. */
export interface FilterInput {
  statuses: string[]
  /** Only records that need action (main's `attention` filter). */
  attention: boolean
  fromDay: string
  toDay: string
  /** Which date the day range reads: the creation or the day the Pix was paid (main's `dateBasis`). */
  dateBasis: DateBasis
  text: string
  /** Only one payment run's withdrawals (opened from the run's page); its name is shown on the chip. */
  run: { id: string; name: string } | null
}
export const EMPTY_FILTER: FilterInput = {
  statuses: [],
  attention: false,
  fromDay: '',
  toDay: '',
  dateBasis: 'created',
  text: '',
  run: null,
}

/**
 * The list's status chips: one choice at a time, each a set of statuses (local states or normalised remote
 * statuses, main's rule) or the needs-action filter. "all" is no status filter.
 */
export const STATUS_CHIPS: ReadonlyArray<{ id: string; statuses: readonly string[]; attention?: true }> = [
  { id: 'all', statuses: [] },
  { id: 'attention', statuses: [], attention: true },
  { id: 'awaiting', statuses: ['unsent'] },
  { id: 'processing', statuses: ['submitting', 'sending'] },
  { id: 'paid', statuses: ['sent'] },
  { id: 'returned', statuses: ['refunded'] },
  { id: 'failed', statuses: ['error'] },
  { id: 'expired', statuses: ['expired', 'cancelled'] },
  { id: 'notCreated', statuses: ['not_created', 'rejected'] },
]

/** The chip the filter input matches, or null when its statuses are not one chip's. */
export function chipOf(input: Pick<FilterInput, 'statuses' | 'attention'>): string | null {
  const same = (a: readonly string[], b: readonly string[]): boolean =>
    a.length === b.length && a.every((x) => b.includes(x))
  const chip = STATUS_CHIPS.find(
    (c) => (c.attention ?? false) === input.attention && same(c.statuses, input.statuses),
  )
  return chip?.id ?? null
}

export function chipFilter(id: string): Pick<FilterInput, 'statuses' | 'attention'> {
  const chip = STATUS_CHIPS.find((c) => c.id === id) ?? STATUS_CHIPS[0]!
  return { statuses: [...chip.statuses], attention: chip.attention ?? false }
}

/**
 * Options of the status filter, in lifecycle order. `created` matches every created record (main's rule), so it
 * comes first among the remote statuses as "any created".
 */
export const STATUS_FILTER_OPTIONS: ReadonlyArray<{ value: string; group: 'local' | 'remote' }> = [
  ...LOCAL_STATES.map((value) => ({ value, group: 'local' as const })),
  ...KNOWN_STATUSES.map((value) => ({ value, group: 'remote' as const })),
]

export type DateRangeProblem = 'from_invalid' | 'to_invalid' | 'to_before_from'

export function dateRangeProblem(input: Pick<FilterInput, 'fromDay' | 'toDay'>): DateRangeProblem | null {
  if (input.fromDay !== '' && !parseCalendarDay(input.fromDay)) return 'from_invalid'
  if (input.toDay !== '' && !parseCalendarDay(input.toDay)) return 'to_invalid'
  if (input.fromDay !== '' && input.toDay !== '' && input.toDay < input.fromDay) return 'to_before_from'
  return null
}

/**
 * The filter main gets. The "to" day is inclusive for the operator, so `to` is the start of the next day
 * (exclusive). An invalid range is dropped rather than sent: the form shows why.
 */
export function toRecordFilter(input: FilterInput, sort: SortState): RecordFilter {
  const f: RecordFilter = { sort: { field: sort.field, dir: sort.dir } }
  if (input.statuses.length > 0) f.statuses = [...input.statuses]
  if (input.attention) f.attention = true
  const text = input.text.trim().slice(0, 200)
  if (text !== '') f.text = text
  if (input.run) f.runId = input.run.id
  if (dateRangeProblem(input) === null) {
    const from = input.fromDay === '' ? null : dayStartIso(input.fromDay)
    const after = input.toDay === '' ? null : nextCalendarDay(input.toDay)
    const to = after === null ? null : dayStartIso(after)
    if (from) f.from = from
    if (to) f.to = to
    // Only with a range: "paid" without days would silently drop every record not paid yet.
    if ((from || to) && input.dateBasis === 'paid') f.dateBasis = 'paid'
  }
  return f
}

/** A stable key for "the same query": pages cached under one key never answer another. */
export function queryKey(filter: RecordFilter): string {
  return JSON.stringify([
    filter.statuses ?? [],
    filter.attention ?? false,
    filter.from ?? '',
    filter.to ?? '',
    filter.dateBasis ?? 'created',
    filter.text ?? '',
    filter.runId ?? '',
    filter.sort ?? null,
  ])
}
