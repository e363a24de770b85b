/**
 * The withdrawal service of one profile (docs/adr/0002-journal-before-post.md): quote, create (journaled, POSTed once), funding instructions,
 * the operator's declarations and resolutions, and the status tracker. The ledger is the only memory of what was
 * created (docs/API-CONTRACT.md#s1-6: no idempotency, no list endpoint), so every step writes it before or right after the API.
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
import { fundingChecker } from './funding-check'
import { CreateIntents } from './intents'
import { lastMinute, replaySpentAllowance } from '../journal/allowance'
import { recoverOnce, recoverStoreOnce, replayPending, replayPendingInto } from '../journal/recovery'
import { sideJournalPath } from '../journal/side-journal'
import type { Ledger } from '../ledger/sqlite'
import { TeamLedgerError } from '../ledger/team-errors'
import { sqliteStore } from '../ledger/sqlite/store'
import { requestApproval, sendApproved, type ApprovalCtx } from './approvals'
import { resolveUnknown } from './resolve'
import { createStatusTracker } from './tracker'
import type { Timers } from '../tracking/types'
import type { WithdrawalService, WithdrawalServiceDeps } from './types'

export const DEFAULT_PARTNER_RATE_BPS = 100

const realTimers: Timers = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

export function createWithdrawalService(deps: WithdrawalServiceDeps): WithdrawalService {
  const { ledger, client, operator, network, profile } = deps
  if (!operator) throw new TypeError('operator is required')
  if ((ledger === undefined) === (deps.store === undefined)) {
    throw new TypeError('exactly one of ledger and store is required')
  }
  const store = deps.store ?? sqliteStore(ledger as Ledger, { closeLedger: false })
  // A team ledger is one account's: every desk's records are this service's too (tracker, funding, resolution).
  const shared = store.engine === 'postgres'
  const sideJournal = ledger ? sideJournalPath(ledger.file) : (deps.sideJournal ?? null)
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
  // The embedded ledger does it now, synchronously; a team store before the first create.
  const openedAt = now()
  const recentFilter = shared ? { from: lastMinute(profile, openedAt).from } : lastMinute(profile, openedAt)
  let ready: Promise<void> = Promise.resolve()
  if (ledger) {
    recoverOnce(ledger, (e) => onError(e, null))
    replaySpentAllowance(client, 'withdraw', ledger.iterate(recentFilter), openedAt)
  } else {
    ready = (async () => {
      await recoverStoreOnce(store, sideJournal, (e) => onError(e, null))
      const recent: WithdrawalRecord[] = []
      for await (const r of store.iterate(recentFilter)) recent.push(r)
      replaySpentAllowance(client, 'withdraw', recent, openedAt)
    })().catch((e: unknown) => onError(e, null))
  }

  const checker = fundingChecker({ client, network, monotonic })
  // Every status answer the tracker gets is one the funding check need not ask again (funding-check.ts).
  // The client itself underneath (a class instance keeps its methods on the prototype: no spread).
  const noted: typeof client = Object.create(client) as typeof client
  noted.withdrawStatus = async (id) => {
    const res = await client.withdrawStatus(id)
    checker.note(id, res.data)
    return res
  }
  // The create's answer too: a wave's sheet shown right after its creates needs no status read per row. The POST
  // itself is passed through once, untouched (never retried here).
  noted.withdraw = async (body) => {
    const res = await client.withdraw(body)
    const d = res.data
    checker.note(d.withdrawalId, {
      id: d.withdrawalId,
      depositAddress: d.depositAddress,
      depositAmountInCents: d.depositAmountInCents,
      status: d.status ?? undefined,
    })
    return res
  }
  const tracker = createStatusTracker({
    ...deps.tracker,
    store,
    client: noted,
    profile,
    network,
    now,
    monotonic,
    timers: deps.timers ?? realTimers,
    changed,
    allProfiles: shared,
  })
  const opened = (localId: string): void => tracker.track(localId)
  // Creates in progress: a profile switch or quit waits for them (app/context.ts) instead of cutting the POST.
  const creates = new Set<Promise<WithdrawalRecord>>()
  const sending = new Set<string>()

  const createCtx: CreateCtx = {
    store,
    sideJournal,
    shared,
    client: noted,
    operator,
    network,
    profile,
    partnerRateBps,
    now,
    intents: new CreateIntents(monotonic),
    changed,
    opened,
    onError,
    ...(deps.approvals ? { approvals: deps.approvals } : {}),
    ...(deps.payees ? { payees: deps.payees } : {}),
    ...(deps.beforePost ? { beforePost: deps.beforePost } : {}),
  }

  async function ownRecord(localId: string): Promise<WithdrawalRecord> {
    const r = await store.get(localId)
    if (r === undefined)
      throw new WithdrawalError('not_found', `No withdrawal record ${localId}.`, { localId })
    if (!shared && r.profile !== profile) {
      throw new WithdrawalError('other_profile', `${localId} belongs to profile ${r.profile}.`, { localId })
    }
    return r
  }

  /** Answers kept in the side journal while the ledger could not take them go in before a new create. */
  async function replayBeforeCreate(): Promise<void> {
    const replay = ledger
      ? replayPending(ledger, (e) => onError(e, null))
      : await replayPendingInto(store, sideJournal, (e) => onError(e, null))
    for (const entry of replay?.applied ?? []) {
      const r = await store.get(entry.localId)
      if (r) changed(r)
      opened(entry.localId)
    }
  }

  /** A create of any origin (a review's intent, an approval): counted until it settles. */
  function counted(run: () => Promise<WithdrawalRecord>): Promise<WithdrawalRecord> {
    const p = (async () => {
      await ready
      await replayBeforeCreate()
      return run()
    })()
    creates.add(p)
    const done = (): void => void creates.delete(p)
    p.then(done, done)
    return p
  }

  function approvalCtx(): ApprovalCtx {
    if (!deps.approvals) throw unsupportedApprovals()
    return { ...createCtx, approvals: deps.approvals }
  }

  return {
    store,
    quote: (draft) => quote(createCtx, draft),
    create: (draft, o) => counted(() => create(createCtx, draft, o)),
    requestApproval: async (draft, o, note) => {
      const ctx = approvalCtx()
      await ready
      return requestApproval(ctx, draft, o, note)
    },
    sendApproved: (id) => {
      const ctx = approvalCtx()
      return counted(() => sendApproved(ctx, sending, id))
    },
    creating: () => creates.size,
    createsSettled: async () => {
      while (creates.size > 0) await Promise.allSettled([...creates])
    },
    funding: async (localId) => {
      const r = await store.get(localId)
      if (r === undefined)
        throw new WithdrawalError('not_found', `No withdrawal record ${localId}.`, { localId })
      return fundingFor(
        { network, profile: shared ? r.profile : profile, assetId, now, confirm: (x) => checker.check(x) },
        r,
      )
    },
    markFunded: async (localId, o) => {
      await ownRecord(localId)
      const txId = o.txId?.trim()
      const r = await ledgerCall(localId, () => store.markFunded(localId, txId ? { txId } : {}, operator))
      // Funded now: the tracker polls it first and every ≤ 30 s for the next 15 minutes.
      tracker.track(localId)
      changed(r)
      return r
    },
    markFundedMany: async (localIds, o) => {
      for (const id of localIds) await ownRecord(id)
      const rs = await ledgerCall(localIds[0] ?? '', () =>
        store.markFundedMany(localIds, { txId: o.txId.trim() }, operator),
      )
      for (const r of rs) {
        tracker.track(r.localId)
        changed(r)
      }
      return rs
    },
    resolveUnknown: (localId, r) =>
      resolveUnknown({ store, shared, client, operator, profile, network, now, changed, opened }, localId, r),
    refresh: async (localId) => {
      const r = await ownRecord(localId)
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

function unsupportedApprovals(): TeamLedgerError {
  return new TeamLedgerError('unsupported', 'approvals exist only on a team ledger', {
    'pt-BR': 'Aprovações existem só em um perfil com livro-caixa da equipe.',
    en: 'Approvals exist only on a profile with a team ledger.',
  })
}

export { WithdrawalError, SERVICE_FLAGS, WITHDRAWAL_ERROR_CODES, type WithdrawalErrorCode } from './errors'
export { createVerdict, DUPLICATE_WINDOW_MS, type CreateAuthority } from './create'
export { INTENT_TTL_MS } from './intents'
export { fundingProblem } from './funding'
export { FUNDING_CHECK_TTL_MS } from './funding-check'
export { createStatusTracker } from './tracker'
export type {
  FundingProblem,
  FundingResult,
  UnknownResolutionInput,
  WithdrawalService,
  WithdrawalServiceDeps,
} from './types'
