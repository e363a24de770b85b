/**
 * The date a RecordFilter's `from`/`to` range is read on (`dateBasis`), as one SQL clause both engines use (the
 * desk's SQLite ledger and the team's PostgreSQL ledger store `created_at` and `observed_at` as the same ISO text).
 *
 * - `created`: when the record was created (`created_at`).
 * - `paid`: when the money moved, i.e. the first observation of a "paid" status in the record's status history
 *   (a withdrawal's `sent`, a top-up's Pix received). A record never seen paid has no paid date and is left out.
 *   The first observation, not the latest: a later refund or a repeated answer does not move the day it was paid.
 */
import type { RecordFilter } from '../../../shared/withdrawal-record'
import { LedgerError } from './errors'

export interface DateRangeKind {
  /** The record table's alias (`w`, `d`). */
  alias: string
  /** The status-history table (`observations`, `deposit_observations`). */
  observations: 'observations' | 'deposit_observations'
  /** Normalised statuses that mean "paid" for this kind; constants of ours, inlined as SQL literals. */
  paidStatuses: readonly string[]
}

export const WITHDRAWAL_DATES: DateRangeKind = {
  alias: 'w',
  observations: 'observations',
  paidStatuses: ['sent'],
}

/** A top-up is paid when the service says the payer's Pix arrived (the DePix may still be held or on its way). */
export const DEPOSIT_DATES: DateRangeKind = {
  alias: 'd',
  observations: 'deposit_observations',
  paidStatuses: ['delayed', 'approved', 'depix_sent'],
}

/** Stored timestamps are `toISOString()` output; a bound must be in the same form to compare as strings. */
export function canonicalIso(iso: string): string {
  const t = Date.parse(iso)
  if (Number.isNaN(t)) throw new LedgerError('invalid_input', `not a date: ${iso}`)
  return new Date(t).toISOString()
}

/**
 * The clause for the filter's date range on its basis, or null when the filter has no range and counts every date.
 * `p` binds one parameter and returns its placeholder (`?` on SQLite, `$n` on PostgreSQL), in clause order.
 */
export function dateRangeClause(
  f: Pick<RecordFilter, 'from' | 'to' | 'dateBasis'>,
  k: DateRangeKind,
  p: (v: string) => string,
): string | null {
  const a = k.alias
  if ((f.dateBasis ?? 'created') === 'created') {
    const parts: string[] = []
    if (f.from !== undefined) parts.push(`${a}.created_at >= ${p(canonicalIso(f.from))}`)
    if (f.to !== undefined) parts.push(`${a}.created_at < ${p(canonicalIso(f.to))}`)
    return parts.length > 0 ? parts.join(' AND ') : null
  }
  const having: string[] = []
  if (f.from !== undefined) having.push(`min(o.observed_at) >= ${p(canonicalIso(f.from))}`)
  if (f.to !== undefined) having.push(`min(o.observed_at) < ${p(canonicalIso(f.to))}`)
  const statuses = k.paidStatuses.map((s) => `'${s.replace(/'/g, "''")}'`).join(', ')
  // Raw statuses are stored as the service sent them; lower/trim is normalizeStatus for these plain words.
  return (
    `${a}.local_id IN (SELECT o.local_id FROM ${k.observations} o ` +
    `WHERE lower(trim(o.remote_status)) IN (${statuses}) GROUP BY o.local_id` +
    `${having.length > 0 ? ` HAVING ${having.join(' AND ')}` : ''})`
  )
}
