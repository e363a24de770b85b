/**
 * The withdrawal status tracker: the shared engine (src/main/tracking/engine.ts) polling GET /withdraw-status for
 * this profile's open withdrawals. What is the withdrawal's own: open means created and not settled (sent, or a
 * refund recorded), funded records are "hot", lingering statuses are polled slowly, WITHDRAW_NOT_FOUND flags the
 * record, and an answer goes through `storeStatus` (observe.ts).
 */
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { isLingeringStatus, isSettledStatus } from '../../shared/withdrawal-status'
import { ApiError, type DepixClient, type WithdrawalStatus, type ApiResult } from '../api'
import type { LedgerStore } from '../ledger/ports'
import type { LiquidNetwork } from '../liquid'
import { createTracker, type TrackerKind } from '../tracking/engine'
import { fromLedgerError, SERVICE_FLAGS, WithdrawalError } from './errors'
import { reviewFlags, storeStatus } from './observe'
import type { StatusTracker, Timers, TrackerOptions } from '../tracking/types'

export interface TrackerDeps extends TrackerOptions {
  store: LedgerStore
  client: Pick<DepixClient, 'withdrawStatus' | 'allowance'> & Partial<Pick<DepixClient, 'onSessionChange'>>
  profile: string
  network: LiquidNetwork
  /** Wall clock, epoch ms: stored timestamps (when an answer was observed) and record times read back. */
  now: () => number
  /** Monotonic ms for every interval, budget, backoff and timer. Defaults to `now` (a test clock drives both). */
  monotonic?: () => number
  timers: Timers
  changed: (record: WithdrawalRecord) => void
  /** A team ledger: every record is the account's, whichever desk (profile) created it. */
  allProfiles?: boolean
}

export function isRemoteNotFound(e: unknown): boolean {
  return e instanceof ApiError && e.kind === 'business' && e.messageCode === 'WITHDRAW_NOT_FOUND'
}

export function withdrawalTrackerKind(
  deps: Pick<TrackerDeps, 'store' | 'client' | 'network'>,
): TrackerKind<WithdrawalRecord, ApiResult<WithdrawalStatus>> {
  const { store, client, network } = deps
  return {
    endpoint: 'withdraw-status',
    id: 'withdrawal',
    get: (localId) => store.get(localId),
    listOpen: () => store.listOpen(),
    fetch: (remoteId) => client.withdrawStatus(remoteId),
    answerId: (res) => res.data.id,
    store: (localId, res, observedAt) => storeStatus({ store, network }, localId, res, observedAt),
    isOpen: (r) =>
      r.localState === 'created' &&
      r.remoteId !== null &&
      !isSettledStatus(r.remoteStatus ?? '', r.refund !== null),
    times: (r) => ({
      createdAt: r.createdAt,
      fundedAt: r.fundedAt,
      checkedAt: r.remoteCheckedAt,
      lingering: isLingeringStatus(r.remoteStatus ?? '', r.refund !== null),
    }),
    isNotFound: isRemoteNotFound,
    flagNotFound: (r) => reviewFlags({ store, network }, r, { add: [SERVICE_FLAGS.remoteNotFound] }),
    refuse: (code, message, localId) =>
      new WithdrawalError(code, message, localId !== undefined ? { localId } : {}),
    fromLedgerError,
  }
}

export function createStatusTracker(deps: TrackerDeps): StatusTracker {
  return createTracker({ ...deps, kind: withdrawalTrackerKind(deps) })
}
