/**
 * The deposit status tracker: the shared engine (src/main/tracking/engine.ts) polling GET /deposit-status within
 * that endpoint's own allowance (60/min, shared with nothing else). What is the deposit's own:
 * - a QR waiting to be paid, or paid and waiting for its DePix, is "hot" for the QR's life (35 min from creation):
 *   polled every 10 s, so the page shows the payment within seconds;
 * - `depix_sent` is lingering: a MED can still reverse it, so it is polled slowly (and swept by reconciliation);
 * - `expired` and `refunded` are settled: polling stops;
 * - DEPOSIT_NOT_FOUND flags the record for a human.
 */
import { DEPOSIT_FLAGS, type DepositRecord } from '../../shared/deposit-record'
import {
  isLingeringDepositStatus,
  isSettledDepositStatus,
  normalizeDepositStatus,
} from '../../shared/deposit-status'
import { ApiError, type ApiResult, type DepixClient, type DepositStatus } from '../api'
import type { DepositStore } from '../ledger/deposit-store'
import { createTracker, type TrackerKind } from '../tracking/engine'
import type { Cadence } from '../tracking/scheduler'
import type { StatusTracker, Timers, TrackerOptions } from '../tracking/types'
import { refusalOfLedgerError } from '../journal/refusals'
import { DepositError, depositRefusal } from './errors'
import { setDepositFlags, storeDepositStatus } from './observe'

const MINUTE = 60_000

/** Deposit-specific cadence; the rest is the withdrawals' (age tiers, backoffs, lingering window). */
export const DEPOSIT_CADENCE: Partial<Cadence> = {
  hotWindowMs: 35 * MINUTE,
  hotIntervalMs: 10_000,
}

export function isDepositNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.kind === 'business' && e.messageCode === 'DEPOSIT_NOT_FOUND'
}

/** Awaiting payment (or just paid, DePix on its way): the operator is looking at the QR right now. */
function isHot(r: DepositRecord): boolean {
  const s = r.remoteStatus === null ? null : normalizeDepositStatus(r.remoteStatus)
  return s === null || s === 'pending' || s === 'approved'
}

export function depositTrackerKind(
  store: DepositStore,
  client: Pick<DepixClient, 'depositStatus'>,
): TrackerKind<DepositRecord, ApiResult<DepositStatus>> {
  return {
    endpoint: 'deposit-status',
    id: 'deposit',
    get: (localId) => store.get(localId),
    listOpen: () => store.listOpen(),
    fetch: (remoteId) => client.depositStatus(remoteId),
    answerId: (res) => res.data.qrId,
    store: (localId, res, observedAt) => storeDepositStatus(store, localId, res, observedAt),
    isOpen: (r) =>
      r.localState === 'created' && r.remoteId !== null && !isSettledDepositStatus(r.remoteStatus ?? ''),
    times: (r) => ({
      createdAt: r.createdAt,
      fundedAt: isHot(r) ? r.createdAt : null,
      checkedAt: r.remoteCheckedAt,
      lingering: isLingeringDepositStatus(r.remoteStatus ?? ''),
    }),
    isNotFound: isDepositNotFound,
    flagNotFound: (r) => setDepositFlags(store, r, { add: [DEPOSIT_FLAGS.remoteNotFound] }),
    refuse: (code, message, localId) =>
      new DepositError(code, message, localId !== undefined ? { localId } : {}),
    fromLedgerError: (e, localId) => refusalOfLedgerError(e, localId, 'deposit', depositRefusal),
  }
}

export interface DepositTrackerDeps extends TrackerOptions {
  store: DepositStore
  client: Pick<DepixClient, 'depositStatus' | 'allowance'> & Partial<Pick<DepixClient, 'onSessionChange'>>
  profile: string
  now: () => number
  monotonic?: () => number
  timers: Timers
  changed: (record: DepositRecord) => void
  /** Every open deposit whatever its profile: a team ledger is one account's, its leader tracks every desk's. */
  allProfiles?: boolean
}

export function createDepositTracker(deps: DepositTrackerDeps): StatusTracker<DepositRecord> {
  return createTracker({
    ...deps,
    cadence: { ...DEPOSIT_CADENCE, ...deps.cadence },
    kind: depositTrackerKind(deps.store, deps.client),
  })
}
