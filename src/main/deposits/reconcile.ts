/**
 * Reconciliation of deposits (docs/API-CONTRACT.md#s4-4, §6.2 rule 9): `GET /deposits` over a window, compared with the ledger.
 * - A row this profile's ledger does not hold is a deposit made outside the app: listed, never mixed with ours,
 *   importable for tracking (resolve.ts) where it is marked as such.
 * - A row of ours whose status differs from the ledger's is asked about again with GET /deposit-status (the row
 *   carries no time, so it is not stored as an observation itself): this is how a MED on a deposit whose DePix
 *   was sent long ago is found even after its tracker stopped asking.
 *
 * The endpoint returns at most 200 rows (docs/API-CONTRACT.md#s8-2) and no paging: a window that comes back full is split in
 * halves until each part holds fewer, down to one minute; a minute still full is reported as incomplete.
 * GET /deposits has its own allowance (12/min); a sweep spends at most MAX_REQUESTS requests, spaced by the limiter.
 */
import { DEPOSITS_MAX_ROWS } from '../../shared/api-limits'
import type { Reconciliation } from '../../shared/channels-deposits'
import type { OutsideDeposit } from '../../shared/deposit-record'
import { normalizeDepositStatus } from '../../shared/deposit-status'
import type { DepixClient, DepositRow } from '../api'
import type { DepositStore } from '../ledger/deposit-store'

const MINUTE = 60_000
const DAY = 24 * 60 * MINUTE
/**
 * Requests one sweep may spend. A treasury's week of deposits is one request; a window that must be split spends
 * more, and the client's limiter spaces them within the 12/min allowance (a full sweep then takes a minute or two).
 */
export const MAX_REQUESTS = 24
export const DEFAULT_DAYS = 7

export interface ReconcileCtx {
  store: DepositStore
  client: Pick<DepixClient, 'deposits'>
  profile: string
  now: () => number
  /** Asks the service about one of our deposits again (the tracker's "check now"). */
  refresh: (localId: string) => Promise<unknown>
  onError: (e: unknown, localId: string | null) => void
}

async function sweep(
  ctx: ReconcileCtx,
  from: number,
  to: number,
  budget: { left: number },
  out: { rows: DepositRow[]; incomplete: boolean },
): Promise<void> {
  budget.left -= 1
  const res = await ctx.client.deposits({
    start: new Date(from).toISOString(),
    end: new Date(to).toISOString(),
  })
  const rows = res.data
  if (rows.length < DEPOSITS_MAX_ROWS) {
    out.rows.push(...rows)
    return
  }
  // Full: some rows may be missing. Split, if the window and the budget allow, else keep what came.
  const mid = from + Math.floor((to - from) / 2)
  if (to - from <= MINUTE || budget.left < 2) {
    out.rows.push(...rows)
    out.incomplete = true
    return
  }
  await sweep(ctx, from, mid, budget, out)
  await sweep(ctx, mid, to, budget, out)
}

export async function reconcileDeposits(ctx: ReconcileCtx, days = DEFAULT_DAYS): Promise<Reconciliation> {
  const to = ctx.now() + MINUTE
  const from = to - days * DAY
  const found = { rows: [] as DepositRow[], incomplete: false }
  await sweep(ctx, from, to, { left: MAX_REQUESTS }, found)

  const byId = new Map<string, DepositRow>()
  for (const row of found.rows) byId.set(row.qrId, row)
  const known = await ctx.store.knownRemoteIds(ctx.profile, [...byId.keys()])
  const outside: OutsideDeposit[] = []
  let refreshed = 0
  for (const row of byId.values()) {
    if (!known.has(row.qrId)) {
      outside.push({ qrId: row.qrId, status: row.status, bankTxId: row.bankTxId ?? null })
      continue
    }
    const rec = await ctx.store.findByRemoteId(ctx.profile, row.qrId)
    if (rec === undefined || rec.localState !== 'created') continue
    const mine = rec.remoteStatus === null ? null : normalizeDepositStatus(rec.remoteStatus)
    if (mine === normalizeDepositStatus(row.status)) continue
    try {
      await ctx.refresh(rec.localId)
      refreshed += 1
    } catch (e) {
      ctx.onError(e, rec.localId)
    }
  }
  return {
    checkedAt: new Date(ctx.now()).toISOString(),
    from: new Date(from).toISOString(),
    to: new Date(to).toISOString(),
    rows: byId.size,
    outside,
    refreshed,
    incomplete: found.incomplete,
  }
}
