/**
 * The review of a run: count, total payout, total DePix to send and fees (the same fee arithmetic as a single
 * payment, src/shared/fees.ts), per category and per cost centre; and the hash of the canonical rows that an
 * approval names. Dropped rows are outside the totals but inside the hash (dropping is part of what was approved).
 */
import { createHash } from 'node:crypto'
import { quoteWithdrawal } from '../../shared/fees'
import type { RunRowRecord } from '../../shared/run'
import { canonicalJson } from '../ledger/model/canonical-json'

export interface Totals {
  count: number
  payoutCents: number
  depositCents: number
  feeCents: number
}

export interface RunSummary extends Totals {
  byCategory: Array<{ key: string } & Totals>
  byCostCentre: Array<{ key: string } & Totals>
  /** Rows with a possible duplicate and no keep/drop decision yet. */
  undecided: number
  dropped: number
}

const zero = (): Totals => ({ count: 0, payoutCents: 0, depositCents: 0, feeCents: 0 })

function add(t: Totals, q: { depositCents: number; payoutCents: number; feeCents: number }): void {
  t.count += 1
  t.payoutCents += q.payoutCents
  t.depositCents += q.depositCents
  t.feeCents += q.feeCents
}

export function rowQuote(row: Pick<RunRowRecord, 'draft'>, rateBps: number) {
  const a = row.draft.amount
  return quoteWithdrawal(
    a.kind === 'deposit' ? { depositAmountInCents: a.cents } : { payoutAmountInCents: a.cents },
    rateBps,
  )
}

export function isDropped(row: Pick<RunRowRecord, 'decision' | 'state'>): boolean {
  return row.decision === 'drop' || row.state === 'dropped'
}

export function summarize(rows: readonly RunRowRecord[], rateBps: number): RunSummary {
  const total = zero()
  const cats = new Map<string, Totals>()
  const ccs = new Map<string, Totals>()
  let undecided = 0
  let dropped = 0
  for (const row of rows) {
    if (row.duplicate !== null && row.decision === null) undecided += 1
    if (isDropped(row)) {
      dropped += 1
      continue
    }
    const q = rowQuote(row, rateBps)
    add(total, q)
    const cat = row.draft.references?.category ?? ''
    const cc = row.draft.references?.costCentre ?? ''
    if (!cats.has(cat)) cats.set(cat, zero())
    if (!ccs.has(cc)) ccs.set(cc, zero())
    add(cats.get(cat) as Totals, q)
    add(ccs.get(cc) as Totals, q)
  }
  const list = (m: Map<string, Totals>) =>
    [...m]
      .map(([key, t]) => ({ key, ...t }))
      .sort((a, b) => b.payoutCents - a.payoutCents || a.key.localeCompare(b.key))
  return { ...total, byCategory: list(cats), byCostCentre: list(ccs), undecided, dropped }
}

/** SHA-256 of what an approval covers: every row's index, line, draft and decision, in order. */
export function rowsHash(rows: readonly RunRowRecord[]): string {
  const canonical = rows.map((r) => ({ idx: r.idx, line: r.line, draft: r.draft, decision: r.decision }))
  return createHash('sha256').update(canonicalJson(canonical), 'utf8').digest('hex')
}
