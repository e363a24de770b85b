/**
 * Totals of an export, computed from the rows actually written (never from a second query, which could see a
 * different ledger), and recomputed by the verifier from each file. Grouping is the ledger's `totalsByStatus`:
 * display status (the normalised remote status of a created record that has one, else the local state) and
 * whether a refund is recorded; best-knowledge amounts, null counting as 0; the fee withheld on refunds. What
 * the groups mean (paid, open, returned…) is decided by `meaningTotals` (shared/money-totals.ts), from these.
 */
import { meaningTotals, refundFeeCents, type MeaningTotals } from '../../shared/money-totals'
import type { RecordKindId } from '../../shared/record-kinds'
import type { StatusTotal, WithdrawalRecord } from '../../shared/withdrawal-record'
import { normalizeStatus } from '../../shared/withdrawal-status'
import { saoPauloDay } from './format'
import { escapeForTerminal } from './terminal-text'

/** normalizeStatus of the raw statuses seen, which are few: an export asks twice per record. */
const normalized = new Map<string, string>()

function normalizedStatus(raw: string): string {
  let s = normalized.get(raw)
  if (s === undefined) {
    s = normalizeStatus(raw)
    if (normalized.size >= 1000) normalized.clear()
    normalized.set(raw, s)
  }
  return s
}

/** Must equal `derive(r).display_status` in main/ledger/sqlite/rows.ts (a test holds them together). */
export function displayStatus(r: Pick<WithdrawalRecord, 'localState' | 'remoteStatus'>): string {
  return r.localState === 'created' && r.remoteStatus !== null
    ? normalizedStatus(r.remoteStatus)
    : r.localState
}

export interface DayTotal {
  /** São Paulo calendar day of createdAt, "YYYY-MM-DD"; '' when createdAt does not parse. */
  day: string
  /** The day's records by meaning: a day's "paid" is what was paid, not every amount created that day. */
  totals: MeaningTotals
}

export interface TotalsRow {
  status: string
  hasRefund: boolean
  depositCents: number | null
  payoutCents: number | null
  refundFeeCents: number
}

/** A withdrawal's group and amounts (kinds.ts `totalsRow`). */
export function withdrawalTotalsRow(r: WithdrawalRecord): TotalsRow {
  return {
    status: displayStatus(r),
    hasRefund: r.refund !== null,
    depositCents: r.depositAmountCents,
    payoutCents: r.payoutAmountCents,
    refundFeeCents: refundFeeCents(r.refund),
  }
}

const keyOf = (status: string, hasRefund: boolean): string => `${hasRefund ? 1 : 0}:${status}`

export class TotalsAccumulator {
  private readonly byStatus = new Map<string, StatusTotal>()
  count = 0

  add(row: TotalsRow): void {
    this.count += 1
    this.addGroup({
      status: row.status,
      hasRefund: row.hasRefund,
      count: 1,
      depositCents: row.depositCents ?? 0,
      payoutCents: row.payoutCents ?? 0,
      refundFeeCents: row.refundFeeCents,
    })
  }

  /**
   * A group's totals. A status the service made up may carry control or bidirectional characters; the manifest
   * refuses them in its strings (a verifier prints them), so totals group by the escaped form, here and in the
   * verifier alike. A group without a refund fee (a CSV's) leaves it absent.
   */
  addGroup(t: StatusTotal): void {
    const status = escapeForTerminal(t.status)
    const key = keyOf(status, t.hasRefund)
    const have = this.byStatus.get(key)
    if (!have) {
      this.byStatus.set(key, { ...t, status })
      return
    }
    have.count += t.count
    have.depositCents += t.depositCents
    have.payoutCents += t.payoutCents
    if (t.refundFeeCents !== undefined) have.refundFeeCents = (have.refundFeeCents ?? 0) + t.refundFeeCents
  }

  /** Sorted by status, then without refund before with: one order, so the signed manifest is reproducible. */
  result(): StatusTotal[] {
    return sortTotals([...this.byStatus.values()])
  }
}

export function sortTotals(totals: StatusTotal[]): StatusTotal[] {
  return totals.sort((a, b) =>
    a.status < b.status ? -1 : a.status > b.status ? 1 : Number(a.hasRefund) - Number(b.hasRefund),
  )
}

export class DayAccumulator {
  private readonly byDay = new Map<string, TotalsAccumulator>()

  constructor(private readonly kind: RecordKindId = 'withdrawal') {}

  addRow(createdAt: string, row: TotalsRow): void {
    const day = saoPauloDay(createdAt) ?? ''
    let t = this.byDay.get(day)
    if (!t) {
      t = new TotalsAccumulator()
      this.byDay.set(day, t)
    }
    t.add(row)
  }

  result(): DayTotal[] {
    return [...this.byDay.entries()]
      .map(([day, acc]) => ({ day, totals: meaningTotals(acc.result(), this.kind) }))
      .sort((a, b) => (a.day < b.day ? -1 : a.day > b.day ? 1 : 0))
  }
}

export function sumTotals(totals: readonly StatusTotal[]): {
  count: number
  depositCents: number
  payoutCents: number
} {
  let count = 0
  let depositCents = 0
  let payoutCents = 0
  for (const t of totals) {
    count += t.count
    depositCents += t.depositCents
    payoutCents += t.payoutCents
  }
  return { count, depositCents, payoutCents }
}

const describe = (t: StatusTotal | undefined): string =>
  t
    ? `count ${t.count}, deposit ${t.depositCents}, payout ${t.payoutCents}` +
      (t.refundFeeCents === undefined ? '' : `, refund fee ${t.refundFeeCents}`)
    : 'absent'

/** Equal groups. The refund fee is compared only when both sides carry it (a CSV file does not; older manifests neither). */
function sameTotal(e: StatusTotal, a: StatusTotal): boolean {
  return (
    e.count === a.count &&
    e.depositCents === a.depositCents &&
    e.payoutCents === a.payoutCents &&
    (e.refundFeeCents === undefined ||
      a.refundFeeCents === undefined ||
      e.refundFeeCents === a.refundFeeCents)
  )
}

/** One line per group that differs ("status sent (refund): manifest count 3, … ≠ file count 2, …"); [] when equal. */
export function diffTotals(expected: readonly StatusTotal[], actual: readonly StatusTotal[]): string[] {
  const exp = new Map(expected.map((t) => [keyOf(t.status, t.hasRefund), t]))
  const act = new Map(actual.map((t) => [keyOf(t.status, t.hasRefund), t]))
  const keys = [...new Set([...exp.keys(), ...act.keys()])].sort()
  const out: string[] = []
  for (const k of keys) {
    const e = exp.get(k)
    const a = act.get(k)
    if (e && a && sameTotal(e, a)) continue
    const label = (e ?? a) as StatusTotal
    out.push(
      `status "${label.status}"${label.hasRefund ? ' (refund)' : ''}: manifest ${describe(e)}; file ${describe(a)}`,
    )
  }
  return out
}
