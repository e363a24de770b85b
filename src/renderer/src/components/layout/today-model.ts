/**
 * Pure pieces of the "Hoje" page: São Paulo day and month starts, and totals by meaning from main's per-status
 * totals. TODO(issue #13): switch to `meaningTotals` from shared/money once h13a's version lands.
 */
import { calendarDayOf, dayStartIso } from '../../../../shared/calendar-day'
import type { StatusTotal } from '../../../../shared/withdrawal-record'
import { normalizeStatus } from '../../../../shared/withdrawal-status'

export function todayStartIso(nowMs: number): string {
  return dayStartIso(calendarDayOf(nowMs)) ?? new Date(nowMs).toISOString()
}

export function monthStartIso(nowMs: number): string {
  const day = calendarDayOf(nowMs)
  return dayStartIso(`${day.slice(0, 8)}01`) ?? new Date(nowMs).toISOString()
}

export interface MeaningTotals {
  paidCount: number
  paidCents: number
  feeCents: number
  openDepositCents: number
  returnedDepositCents: number
}

const OPEN = new Set(['submitting', 'outcome_unknown', 'unsent', 'sending'])
const RETURNED = new Set(['refunded', 'expired', 'error', 'cancelled', 'canceled'])

/** Paid = sent without a refund (payout, and fee = deposit − payout); open and returned/expired by deposit. */
export function meaningOf(totals: readonly StatusTotal[]): MeaningTotals {
  const out: MeaningTotals = {
    paidCount: 0,
    paidCents: 0,
    feeCents: 0,
    openDepositCents: 0,
    returnedDepositCents: 0,
  }
  for (const t of totals) {
    const s = normalizeStatus(t.status)
    if (s === 'sent' && !t.hasRefund) {
      out.paidCount += t.count
      out.paidCents += t.payoutCents
      out.feeCents += Math.max(0, t.depositCents - t.payoutCents)
    } else if (t.hasRefund || RETURNED.has(s)) out.returnedDepositCents += t.depositCents
    else if (OPEN.has(s)) out.openDepositCents += t.depositCents
  }
  return out
}
