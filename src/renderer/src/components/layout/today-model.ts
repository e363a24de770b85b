/**
 * Pure pieces of the "Hoje" page: São Paulo day and month starts, and the page's view of the totals by meaning
 * (shared/money-totals.ts, the one place that grouping lives).
 */
import { calendarDayOf, dayStartIso } from '../../../../shared/calendar-day'
import type { StatusTotal } from '../../../../shared/withdrawal-record'
import { meaningTotals } from '../../../../shared/money-totals'

export function todayStartIso(nowMs: number): string {
  return dayStartIso(calendarDayOf(nowMs)) ?? new Date(nowMs).toISOString()
}

export function monthStartIso(nowMs: number): string {
  const day = calendarDayOf(nowMs)
  return dayStartIso(`${day.slice(0, 8)}01`) ?? new Date(nowMs).toISOString()
}

export interface TodayTotals {
  paidCount: number
  paidCents: number
  feeCents: number
  openDepositCents: number
  returnedDepositCents: number
}

/**
 * Paid (payout and fee) from the totals of what was paid in the period (`dateBasis: 'paid'`), open by deposit and
 * returned or ended (expired, cancelled, failed) by deposit from the totals of what was created in it.
 */
export function todayTotals(paid: readonly StatusTotal[], created: readonly StatusTotal[]): TodayTotals {
  const p = meaningTotals(paid)
  const c = meaningTotals(created)
  return {
    paidCount: p.paid.count,
    paidCents: p.paid.payoutCents,
    feeCents: p.feesPaidCents,
    openDepositCents: c.open.depositCents,
    returnedDepositCents: c.returned.depositCents + c.ended.depositCents,
  }
}

/**
 * "Devoluções a conciliar" without the refunds already marked reconciled (issue #26): they leave the list and its
 * count. The marks are read for the rows shown only, so the count drops by those found among them.
 */
export function withoutReconciled<P extends { rows: Array<{ localId: string }>; total: number }>(
  page: P,
  reconciled: readonly string[],
): P {
  const done = new Set(reconciled)
  const rows = page.rows.filter((r) => !done.has(r.localId))
  return { ...page, rows, total: Math.max(0, page.total - (page.rows.length - rows.length)) }
}
