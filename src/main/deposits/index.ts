/**
 * The deposit service of one profile ("Comprar DePix", issue #17): quote and create (the shared journaled create,
 * POSTed once), the QR, tracking (the shared tracker engine on GET /deposit-status), the operator's resolutions,
 * reconciliation with GET /deposits (on demand and on a slow schedule), end-user limits. The ledger is shared with
 * withdrawals; deposits are its second record kind.
 *
 *   const deposits = createDepositService({ ledger, client, operator, network, profile })
 *   deposits.tracker.start(); deposits.startReconciling()
 */
import type { DepositQuote, Reconciliation, UserInfoView } from '../../shared/channels-deposits'
import type { DepositDraft } from '../../shared/deposit-draft'
import type { DepositRecord } from '../../shared/deposit-record'
import type { DepixClient } from '../api'
import { storedRefusalText } from '../api/messages'
import { monotonicNow } from '../clock'
import { OneUseIntents } from '../journal/intents'
import { lastMinute, replaySpentAllowance } from '../journal/allowance'
import { recoverOnce, recoverStoreOnce, replayPending, replayPendingInto } from '../journal/recovery'
import { sideJournalPath } from '../journal/side-journal'
import type { Ledger } from '../ledger/sqlite'
import { sqliteDepositStore, type DepositStore } from '../ledger/deposit-store'
import type { LedgerStore } from '../ledger/ports'
import type { LiquidNetwork } from '../liquid'
import type { StatusTracker, Timers, TrackerOptions } from '../tracking/types'
import type { Approval, ApprovalsApi } from '../ledger/pg/approvals'
import { requestTopUpApproval, sendApprovedTopUp } from './approvals'
import { createDeposit, quoteDeposit, type DepositCreateAuthority, type DepositCreateCtx } from './create'
import { DepositError, depositRefusal } from './errors'
import { checkedDepositQr, type depositQr } from './qr'
import { depositQrChecker, withoutPayload } from './qr-check'
import type { FundingAlert } from '../../shared/contract'
import { reconcileDeposits } from './reconcile'
import { importOutsideDeposit, resolveUnknownDeposit, type DepositResolutionInput } from './resolve'
import { createDepositTracker } from './tracker'
import { userInfo } from './user-info'

/** The slow schedule of reconciliation: often enough to see a MED the same day, cheap on a 12/min allowance. */
export const RECONCILE_EVERY_MS = 30 * 60_000

export interface DepositServiceDeps {
  /** This computer's ledger; or `store`, a ledger carrying deposits (the team's). Exactly one. */
  ledger?: Ledger
  store?: LedgerStore
  /** With `store`: the local side journal (the team ledger has no file beside it). */
  sideJournal?: string | null
  client: DepixClient
  operator: string
  network: LiquidNetwork
  profile: string
  now?: () => number
  monotonic?: () => number
  timers?: Timers
  tracker?: TrackerOptions
  /** Milliseconds between scheduled reconciliations (default RECONCILE_EVERY_MS). */
  reconcileEveryMs?: number
  /** Milliseconds from startReconciling to the first sweep (default 60 s). */
  firstReconcileAfterMs?: number
  /** Test seam only (the crash tests): after `submitting` is committed, before the POST. */
  beforePost?: (record: DepositRecord) => void | Promise<void>
  /** With a team `store`: the team's four-eyes approvals (migration 15). */
  approvals?: ApprovalsApi
}

export interface DepositService {
  quote(draft: DepositDraft): Promise<DepositQuote>
  create(draft: DepositDraft, o: DepositCreateAuthority): Promise<DepositRecord>
  /** Team ledger: asks another analyst to approve this reviewed top-up (consumes the review's intent). */
  requestApproval(draft: DepositDraft, o: DepositCreateAuthority, note?: string): Promise<Approval>
  /** Team ledger: creates an approved top-up once, with the approval's stored body (POST /deposit once). */
  sendApproved(approvalId: string): Promise<DepositRecord>
  detail(localId: string): Promise<{
    record: DepositRecord
    observations: Awaited<ReturnType<DepositStore['observations']>>
    qr: Awaited<ReturnType<typeof depositQr>>
    /** Why no QR is shown although the deposit waits for its Pix (qr-check.ts). */
    qrAlert: FundingAlert | null
    /** Why the service refused it (a rejected record), from the stored codes; null otherwise. */
    refusal: { 'pt-BR': string; en: string } | null
  }>
  refresh(localId: string): Promise<DepositRecord>
  resolveUnknown(localId: string, r: DepositResolutionInput): Promise<DepositRecord>
  reconcile(days?: number): Promise<Reconciliation>
  lastReconciliation(): Reconciliation | null
  importOutside(qrId: string): Promise<DepositRecord>
  userInfo(euid: string): Promise<UserInfoView>
  onChange(l: (r: DepositRecord) => void): () => void
  onReconciled(l: (r: Reconciliation) => void): () => void
  creating(): number
  createsSettled(): Promise<void>
  /** Reconciliation on a slow schedule (first one soon after start); stopped by `stopReconciling` or `stop`. */
  startReconciling(): void
  /** No further scheduled sweep (one under way finishes); on a team, when this desk stops leading. */
  stopReconciling(): void
  /** Whether sweeps are on the schedule (on a team: only the leading desk's). */
  reconcilingOnSchedule(): boolean
  stop(): Promise<void>
  tracker: StatusTracker<DepositRecord>
  /** The deposits this service works on (lists, the sandbox tools). */
  records: DepositStore
}

const realTimers: Timers = {
  setTimeout: (fn, ms) => {
    const h = setTimeout(fn, ms)
    // A scheduled sweep must never keep the process alive on its own.
    h.unref?.()
    return h
  },
  clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

export function createDepositService(deps: DepositServiceDeps): DepositService {
  const { ledger, client, operator, network, profile } = deps
  if (!operator) throw new TypeError('operator is required')
  if ((ledger === undefined) === (deps.store === undefined)) {
    throw new TypeError('exactly one of ledger and store is required')
  }
  const team = deps.store
  if (team !== undefined && team.deposits === undefined) throw new TypeError('the store keeps no deposits')
  const store: DepositStore = team?.deposits ?? sqliteDepositStore(ledger as Ledger)
  // A team ledger is one account's: every desk's deposits are this service's too (tracker, resolution, lists).
  const shared = team !== undefined
  const sideJournal = ledger ? sideJournalPath(ledger.file) : (deps.sideJournal ?? null)
  const now = deps.now ?? (() => Date.now())
  const monotonic = deps.monotonic ?? deps.now ?? monotonicNow
  const timers = deps.timers ?? realTimers
  const onError = deps.tracker?.onError ?? (() => undefined)
  const qrChecker = depositQrChecker({ client, monotonic })
  const listeners = new Set<(r: DepositRecord) => void>()
  const reconciledListeners = new Set<(r: Reconciliation) => void>()
  const changed = (r: DepositRecord): void => {
    for (const l of listeners) {
      try {
        l(r)
      } catch (e) {
        onError(e, r.localId)
      }
    }
  }

  // Once per opened ledger, whichever service comes first: every kind's leftovers become outcome_unknown. The
  // embedded ledger does it now, synchronously; a team store before the first create (joining the withdrawal
  // service's recovery of the same store when it is under way).
  const openedAt = now()
  let ready: Promise<void> = Promise.resolve()
  if (ledger) {
    recoverOnce(ledger, (e) => onError(e, null))
    replaySpentAllowance(client, 'deposit', ledger.deposits.iterate(lastMinute(profile, openedAt)), openedAt)
  } else if (team) {
    ready = (async () => {
      await recoverStoreOnce(team, sideJournal, (e) => onError(e, null))
      const recent: DepositRecord[] = []
      for await (const r of store.iterate({ from: lastMinute(profile, openedAt).from })) recent.push(r)
      replaySpentAllowance(client, 'deposit', recent, openedAt)
    })().catch((e: unknown) => onError(e, null))
  }

  const tracker = createDepositTracker({
    ...deps.tracker,
    store,
    client,
    profile,
    now,
    monotonic,
    timers,
    changed,
    allProfiles: shared,
  })
  const opened = (localId: string): void => tracker.track(localId)
  const creates = new Set<Promise<DepositRecord>>()
  const createCtx: DepositCreateCtx = {
    store,
    sideJournal,
    client,
    operator,
    network,
    profile,
    now,
    intents: new OneUseIntents<DepositRecord>(monotonic, depositRefusal, 'top-up'),
    changed,
    opened,
    onError,
    ...(deps.beforePost ? { beforePost: deps.beforePost } : {}),
    ...(deps.approvals ? { approvals: deps.approvals } : {}),
  }
  const approvalCtx = () => {
    if (!deps.approvals) {
      throw new DepositError('approval_not_sendable', 'Approvals exist only on a team ledger.', {
        userMessage: {
          'pt-BR': 'Aprovações existem só em um perfil com livro-caixa da equipe.',
          en: 'Approvals exist only on a profile with a team ledger.',
        },
      })
    }
    return { ...createCtx, approvals: deps.approvals }
  }
  const sending = new Set<string>()
  /** Counted as a create: stop() waits for it, like a create from the form. */
  const counted = (fn: () => Promise<DepositRecord>): Promise<DepositRecord> => {
    const p = (async () => {
      await ready
      return fn()
    })()
    creates.add(p)
    const done = (): void => void creates.delete(p)
    p.then(done, done)
    return p
  }
  const resolveCtx = { store, shared, client, operator, profile, now, changed, opened }

  async function own(localId: string): Promise<DepositRecord> {
    const r = await store.get(localId)
    if (r === undefined) throw new DepositError('not_found', `No deposit record ${localId}.`, { localId })
    if (!shared && r.profile !== profile) {
      throw new DepositError('other_profile', `${localId} belongs to profile ${r.profile}.`, { localId })
    }
    return r
  }

  let last: Reconciliation | null = null
  let sweeping: Promise<Reconciliation> | null = null
  let timer: unknown = null
  let stopped = false
  let scheduled = false
  const reconcile = (days?: number): Promise<Reconciliation> => {
    // One sweep at a time: a second caller joins the one under way.
    sweeping ??= reconcileDeposits(
      { store, client, profile, now, refresh: (id) => tracker.pollNow(id), onError },
      days,
    )
      .then((r) => {
        last = r
        for (const l of reconciledListeners) l(r)
        return r
      })
      .finally(() => {
        sweeping = null
      })
    return sweeping
  }
  const schedule = (ms: number): void => {
    if (stopped || !scheduled || timer !== null) return
    timer = timers.setTimeout(() => {
      timer = null
      reconcile()
        .catch((e: unknown) => onError(e, null))
        .finally(() => schedule(deps.reconcileEveryMs ?? RECONCILE_EVERY_MS))
    }, ms)
  }

  return {
    quote: (draft) => quoteDeposit(createCtx, draft),
    create: (draft, o) => {
      const p = (async () => {
        await ready
        const replay = ledger
          ? replayPending(ledger, (e) => onError(e, null))
          : await replayPendingInto(team as LedgerStore, sideJournal, (e) => onError(e, null))
        for (const entry of replay?.applied ?? []) {
          if (entry.record !== 'deposit') continue
          const r = await store.get(entry.localId)
          if (r) {
            changed(r)
            opened(r.localId)
          }
        }
        return createDeposit(createCtx, draft, o)
      })()
      creates.add(p)
      const done = (): void => void creates.delete(p)
      p.then(done, done)
      return p
    },
    requestApproval: async (draft, o, note) => requestTopUpApproval(approvalCtx(), draft, o, note),
    sendApproved: (id) => {
      const ctx = approvalCtx()
      return counted(() => sendApprovedTopUp(ctx, sending, id))
    },
    detail: async (localId) => {
      const record = await own(localId)
      const { qr, alert } = await checkedDepositQr(record, qrChecker)
      return {
        record: alert === null ? record : withoutPayload(record),
        observations: await store.observations(localId),
        qr,
        qrAlert: alert,
        refusal: record.error ? storedRefusalText(record.error) : null,
      }
    },
    refresh: async (localId) => {
      const r = await own(localId)
      if (r.localState !== 'created' || r.remoteId === null) {
        throw new DepositError(
          'illegal_state',
          `${localId} is ${r.localState}: there is nothing to ask the API.`,
          {
            localId,
          },
        )
      }
      return tracker.pollNow(localId)
    },
    resolveUnknown: (localId, r) => resolveUnknownDeposit(resolveCtx, localId, r),
    reconcile,
    lastReconciliation: () => last,
    importOutside: async (qrId) => {
      const record = await importOutsideDeposit(resolveCtx, qrId)
      // The deposit is ours to follow now: it leaves the "made outside" list at once.
      if (last !== null) {
        last = { ...last, outside: last.outside.filter((o) => o.qrId !== record.remoteId) }
        for (const l of reconciledListeners) l(last)
      }
      return record
    },
    userInfo: (euid) => userInfo(client, euid),
    onChange: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    onReconciled: (l) => {
      reconciledListeners.add(l)
      return () => reconciledListeners.delete(l)
    },
    creating: () => creates.size,
    createsSettled: async () => {
      while (creates.size > 0) await Promise.allSettled([...creates])
    },
    startReconciling: () => {
      if (scheduled || stopped) return
      scheduled = true
      // Soon after start (a MED that happened while the app was closed), not during start-up itself.
      schedule(deps.firstReconcileAfterMs ?? 60_000)
    },
    reconcilingOnSchedule: () => scheduled && !stopped,
    stopReconciling: () => {
      scheduled = false
      if (timer !== null) timers.clearTimeout(timer)
      timer = null
    },
    stop: async () => {
      stopped = true
      if (timer !== null) timers.clearTimeout(timer)
      timer = null
      await tracker.stop()
      await sweeping?.catch(() => undefined)
    },
    tracker,
    records: store,
  }
}

export { DepositError, DEPOSIT_ERROR_CODES, type DepositErrorCode } from './errors'
export { createVerdict } from '../journal/create'
