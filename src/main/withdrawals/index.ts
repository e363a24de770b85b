/**
 * The withdrawal service of one profile (DESIGN §4): quote, create (journaled, POSTed once), funding instructions,
 * the operator's declarations and resolutions, and the status tracker. The ledger is the only memory of what was
 * created (spec §1.6: no idempotency, no list endpoint), so every step writes it before or right after the API.
 *
 *   const service = createWithdrawalService({ ledger, client, operator, network, profile })
 *   service.tracker.start()
 */
import { monotonicNow } from '../clock'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import { DEPIX_ASSET_ID } from '../liquid'
import { create, quote, type CreateCtx } from './create'
import { ledgerCall, WithdrawalError } from './errors'
import { fundingFor } from './funding'
import { CreateIntents } from './intents'
import { lastMinute, replaySpentAllowance } from '../journal/allowance'
import { recoverOnce, replayPending } from './recovery'
import { resolveUnknown } from './resolve'
import { createStatusTracker } from './tracker'
import type { Timers, WithdrawalService, WithdrawalServiceDeps } from './types'

export const DEFAULT_PARTNER_RATE_BPS = 100

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

export function createWithdrawalService(deps: WithdrawalServiceDeps): WithdrawalService {
  const { ledger, client, operator, network, profile } = deps
  if (!operator) throw new TypeError('operator is required')
  const now = deps.now ?? (() => Date.now())
  // An injected wall clock alone (tests) drives the timing too; otherwise timing is monotonic (src/main/clock.ts).
  const monotonic = deps.monotonic ?? deps.now ?? monotonicNow
  const assetId = deps.assetId ?? DEPIX_ASSET_ID
  const partnerRateBps = deps.partnerRateBps ?? DEFAULT_PARTNER_RATE_BPS
  const onError = deps.tracker?.onError ?? (() => undefined)
  const listeners = new Set<(r: WithdrawalRecord) => void>()
  const changed = (r: WithdrawalRecord): void => {
    for (const l of listeners) {
      try {
        l(r)
      } catch (e) {
        // A faulty UI listener must not break a money flow halfway.
        onError(e, r.localId)
      }
    }
  }

  // Once per opened ledger: side-journal answers go in, whatever a crash left between "journaled" and "answer
  // stored" is outcome_unknown from now on (never resent). A later service on the same ledger does not repeat it.
  recoverOnce(ledger, (e) => onError(e, null))
  const openedAt = now()
  replaySpentAllowance(client, 'withdraw', ledger.iterate(lastMinute(profile, openedAt)), openedAt)

  const tracker = createStatusTracker({
    ...deps.tracker,
    ledger,
    client,
    profile,
    network,
    now,
    monotonic,
    timers: deps.timers ?? realTimers,
    changed,
  })
  const opened = (localId: string): void => tracker.track(localId)
  // Creates in progress: a profile switch or quit waits for them (app/context.ts) instead of cutting the POST.
  const creates = new Set<Promise<WithdrawalRecord>>()

  const createCtx: CreateCtx = {
    ledger,
    client,
    operator,
    network,
    profile,
    partnerRateBps,
    now,
    intents: new CreateIntents(monotonic),
    changed,
    opened,
    onError,
    ...(deps.payees ? { payees: deps.payees } : {}),
    ...(deps.beforePost ? { beforePost: deps.beforePost } : {}),
  }

  function ownRecord(localId: string): WithdrawalRecord {
    const r = ledger.get(localId)
    if (r === undefined)
      throw new WithdrawalError('not_found', `No withdrawal record ${localId}.`, { localId })
    if (r.profile !== profile) {
      throw new WithdrawalError('other_profile', `${localId} belongs to profile ${r.profile}.`, { localId })
    }
    return r
  }

  return {
    quote: async (draft) => quote(createCtx, draft),
    create: (draft, o) => {
      for (const entry of replayPending(ledger, (e) => onError(e, null))?.applied ?? []) {
        const r = ledger.get(entry.localId)
        if (r) changed(r)
        opened(entry.localId)
      }
      const p = create(createCtx, draft, o)
      creates.add(p)
      const done = (): void => void creates.delete(p)
      p.then(done, done)
      return p
    },
    creating: () => creates.size,
    createsSettled: async () => {
      while (creates.size > 0) await Promise.allSettled([...creates])
    },
    funding: async (localId) => {
      const r = ledger.get(localId)
      if (r === undefined)
        throw new WithdrawalError('not_found', `No withdrawal record ${localId}.`, { localId })
      return fundingFor({ network, profile, assetId, now }, r)
    },
    markFunded: (localId, o) => {
      ownRecord(localId)
      const txId = o.txId?.trim()
      const r = ledgerCall(localId, () => ledger.markFunded(localId, txId ? { txId } : {}, operator))
      // Funded now: the tracker polls it first and every ≤ 30 s for the next 15 minutes.
      tracker.track(localId)
      changed(r)
      return r
    },
    resolveUnknown: (localId, r) =>
      resolveUnknown({ ledger, client, operator, profile, network, now, changed, opened }, localId, r),
    refresh: async (localId) => {
      const r = ownRecord(localId)
      if (r.localState !== 'created' || r.remoteId === null) {
        throw new WithdrawalError(
          'illegal_state',
          `${localId} is ${r.localState}: there is nothing to ask the API.`,
          {
            localId,
          },
        )
      }
      return tracker.pollNow(localId)
    },
    onChange: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    tracker,
  }
}

export { WithdrawalError, SERVICE_FLAGS, WITHDRAWAL_ERROR_CODES, type WithdrawalErrorCode } from './errors'
export { createVerdict, DUPLICATE_WINDOW_MS, type CreateAuthority } from './create'
export { INTENT_TTL_MS } from './intents'
export { fundingProblem } from './funding'
export { DEFAULT_CADENCE, PollScheduler, TokenBudget, defaultReserve, type Cadence } from './scheduler'
export { createStatusTracker } from './tracker'
export type {
  FundingProblem,
  FundingResult,
  StatusTracker,
  Timers,
  TrackerOptions,
  TrackerState,
  TrackerStats,
  UnknownResolutionInput,
  WithdrawalService,
  WithdrawalServiceDeps,
} from './types'
