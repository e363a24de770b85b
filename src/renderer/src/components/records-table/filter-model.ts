/**
 * Pure pieces of the records table's filters: what the operator typed → the `RecordFilter` main understands.
 * Dates are São Paulo calendar days (the operators' day, and the one printed next to every time in the app),
 * turned into an inclusive `from` instant and an exclusive `to` instant.
 */
import { LOCAL_STATES, type RecordFilter, type SORT_FIELDS } from '../../../../shared/withdrawal-record'
import { KNOWN_STATUSES } from '../../../../shared/withdrawal-status'
import { DISPLAY_TIME_ZONE } from '../format'

export type SortField = (typeof SORT_FIELDS)[number]
export interface SortState {
  field: SortField
  dir: 'asc' | 'desc'
}
export const DEFAULT_SORT: SortState = { field: 'createdAt', dir: 'desc' }

/** What the filter controls hold. Days are `YYYY-MM-DD` as <input type="date"> gives them, '' when empty. */
export interface FilterInput {
  statuses: string[]
  fromDay: string
  toDay: string
  text: string
}
export const EMPTY_FILTER: FilterInput = { statuses: [], fromDay: '', toDay: '', text: '' }

/**
 * Options of the status filter, in lifecycle order. `created` matches every created record (main's rule), so it
 * comes first among the remote statuses as "any created".
 */
export const STATUS_FILTER_OPTIONS: ReadonlyArray<{ value: string; group: 'local' | 'remote' }> = [
  ...LOCAL_STATES.map((value) => ({ value, group: 'local' as const })),
  ...KNOWN_STATUSES.map((value) => ({ value, group: 'remote' as const })),
]

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/

function parseDay(day: string): { y: number; m: number; d: number } | null {
  const match = DAY.exec(day)
  if (!match) return null
  const y = Number(match[1])
  const m = Number(match[2])
  const d = Number(match[3])
  const probe = new Date(Date.UTC(y, m - 1, d))
  // Reject days that do not exist (2025-02-30 would otherwise roll over silently).
  if (probe.getUTCFullYear() !== y || probe.getUTCMonth() !== m - 1 || probe.getUTCDate() !== d) return null
  return { y, m, d }
}

const partsFormatter = new Intl.DateTimeFormat('en-US', {
  timeZone: DISPLAY_TIME_ZONE,
  hourCycle: 'h23',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
})

/** Minutes São Paulo is ahead of UTC at `utcMs` (negative: -180 today; -120 in its former summer time). */
export function saoPauloOffsetMinutes(utcMs: number): number {
  const p: Record<string, number> = {}
  for (const part of partsFormatter.formatToParts(new Date(utcMs))) {
    if (part.type !== 'literal') p[part.type] = Number(part.value)
  }
  const asUtc = Date.UTC(
    p['year'] ?? 0,
    (p['month'] ?? 1) - 1,
    p['day'] ?? 1,
    p['hour'] ?? 0,
    p['minute'] ?? 0,
    p['second'] ?? 0,
  )
  return Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / 60000)
}

/** The instant a São Paulo calendar day starts, as a UTC ISO string; null for a malformed or impossible day. */
export function saoPauloDayStart(day: string): string | null {
  const p = parseDay(day)
  if (!p) return null
  const wall = Date.UTC(p.y, p.m - 1, p.d)
  // Two passes: the offset at the guess can differ from the offset at the answer across a clock change.
  const guess = wall - saoPauloOffsetMinutes(wall) * 60000
  return new Date(wall - saoPauloOffsetMinutes(guess) * 60000).toISOString()
}

/** The day after `day`, `YYYY-MM-DD`. */
export function nextDay(day: string): string | null {
  const p = parseDay(day)
  if (!p) return null
  return new Date(Date.UTC(p.y, p.m - 1, p.d + 1)).toISOString().slice(0, 10)
}

export type DateRangeProblem = 'from_invalid' | 'to_invalid' | 'to_before_from'

export function dateRangeProblem(input: Pick<FilterInput, 'fromDay' | 'toDay'>): DateRangeProblem | null {
  if (input.fromDay !== '' && !parseDay(input.fromDay)) return 'from_invalid'
  if (input.toDay !== '' && !parseDay(input.toDay)) return 'to_invalid'
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
  const text = input.text.trim().slice(0, 200)
  if (text !== '') f.text = text
  if (dateRangeProblem(input) === null) {
    const from = input.fromDay === '' ? null : saoPauloDayStart(input.fromDay)
    const after = input.toDay === '' ? null : nextDay(input.toDay)
    const to = after === null ? null : saoPauloDayStart(after)
    if (from) f.from = from
    if (to) f.to = to
  }
  return f
}

/** A stable key for "the same query": pages cached under one key never answer another. */
export function queryKey(filter: RecordFilter): string {
  return JSON.stringify([
    filter.statuses ?? [],
    filter.from ?? '',
    filter.to ?? '',
    filter.text ?? '',
    filter.sort ?? null,
  ])
}
