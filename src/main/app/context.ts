/**
 * The whole main side, Electron-free: embedded sandbox, profiles and vault, the shared ledger, the active
 * profile's runtime, records, and the router every IPC call goes through. The Electron shell and the E2E tests
 * build the same context; only the ports (folder dialog, OS browser) differ.
 */
import { verifyWorkerPath } from '../ledger/sqlite/verify-worker-path'
import { join } from 'node:path'
import { events, type EventName, type LedgerIntegrity } from '../../shared/contract'
import { SANDBOX_PROFILE_ID, type Profile } from '../../shared/profile'
import type { TeamLedgerSettings } from '../../shared/team-ledger'
import type { Router } from '../ipc/router'
import { openLedger, type Ledger } from '../ledger/sqlite'
import { createPayeeBook } from '../payees'
import { createNotificationService, type NotificationService, type NotifierPort } from '../notifications'
import { createReceiptService } from '../receipts'
import { sqliteReceiptStore } from '../ledger/receipt-store'
import { createProfileService, type KeyValueStore, type ProfileService } from '../profiles'
import { startSandbox, type Sandbox, type SandboxOptions } from '../sandbox'
import type { Vault } from '../secrets/vault'
import { AppError } from './errors'
import type { AppDeps, Emit, ReviewSlot, RuntimeDeps } from './deps'
import { engineOf } from './engine'
import { createFolderTokens, type FolderPurpose } from './folder-tokens'
import { buildRouter } from './handlers'
import { createIntegrityMonitor, type IntegrityMonitor } from './integrity'
import { integrityView, startTeamIntegrityCheck, type TeamIntegrityCheck } from './team-integrity'
import { openRuntime, sessionView, type ProfileRuntime } from './runtime'
import { runApprovalNotices } from './run-approvals'
import { teamEvents } from './team-handlers'
import { SANDBOX_DEPIX, SANDBOX_LBTC, sandboxTreasury } from '../sandbox/chain'
import { twinAddress } from '../sandbox/chain/keys'
import { WalletService } from '../wallet/service'
import { ledgerMeanings, storeMeanings } from '../wallet/ledger-meanings'
import { recordFundingsSeen, type FundingSeenDeps } from '../wallet/funding-seen'
import { readTeamWallet } from '../wallet/team-wallet'
import { movementLabels, teamMovementLabels } from '../wallet/labels'

export interface AppPorts {
  /** The OS folder dialog (src/main/shell/electron-folder-dialog.ts); null when the user cancels. */
  chooseDirectory(purpose: FolderPurpose): Promise<string | null>
  /** Opens an already-checked https URL in the OS browser. */
  openExternal(url: string): Promise<void>
  /**
   * The OS file dialog for a file to read (a payee CSV to import, a signed PSET); null when cancelled. Absent: not
   * offered.
   */
  chooseFile?(purpose: 'payees_import' | 'pset_import'): Promise<string | null>
  /** The OS save dialog (receipts, PSETs); null when cancelled. Absent: saving is not offered. */
  chooseSavePath?(defaultName: string): Promise<string | null>
  /** Prints a stored receipt (no scripts, no network); false when cancelled or not possible. */
  printDocument?(bytes: Buffer, mediaType: 'application/pdf' | 'text/html'): Promise<boolean>
  /** Desktop notifications; absent: none are shown. */
  notifier?: NotifierPort
  /** Tests only: stands in for the POST to a Jade's PIN server (issue #28); absent: main's own HTTPS POST. */
  pinServerPost?(url: string, body: string): Promise<{ status: number; body: string }>
}

export interface AppContextOptions {
  dataDir: string
  vault: Vault
  store: KeyValueStore
  app: { name: string; version: string; platform: string }
  ports: AppPorts
  /** The embedded sandbox (default profile of a fresh install); false only where no sandbox is wanted. */
  sandbox?: SandboxOptions | false
  /** Tests: the least time between two wallet scans (default 5 s). */
  walletScanSpacingMs?: number
  /**
   * An embedded sandbox already running, used instead of starting one (`sandbox` then only tells the profile its
   * rate limits); close() leaves it running. Only the E2E fixture's restart sets it: the service outlives the app.
   */
  runningSandbox?: Sandbox
  operator: string
  /** Default true. Tests that seed many records turn the status tracker off. */
  trackerAutoStart?: boolean
  /**
   * A profile's team ledger connection (issue #16); when it returns one, the profile's runtime opens on that
   * PostgreSQL server. The app passes `profiles.teamLedgerConnection`; absent: every profile on this computer.
   */
  teamLedgerFor?: (profileId: string) => { settings: TeamLedgerSettings; password: string } | null
  /** Test seam: how often a follower desk tries to take the team's tracker lead (default 10 s). */
  teamLeaderRetryMs?: number
  log?: (line: string) => void
}

export interface AppContext {
  router: Router
  sandbox: Sandbox | null
  profiles: ProfileService
  ledger: Ledger
  integrity: IntegrityMonitor
  /** Every event for the renderer; the shell forwards them with webContents.send. */
  onEvent(listener: (event: EventName, payload: unknown) => void): () => void
  runtime(): ProfileRuntime
  close(): Promise<void>
}

export async function createAppContext(o: AppContextOptions): Promise<AppContext> {
  const log = o.log ?? (() => undefined)
  // The app drives its sandbox in process (sandbox.control): no HTTP switches for other programs to find.
  const sandbox =
    o.runningSandbox ??
    (o.sandbox === false ? null : await startSandbox({ port: 0, httpControl: false, ...o.sandbox }))
  const profiles = createProfileService({
    store: o.store,
    vault: o.vault,
    sandbox: () =>
      sandbox
        ? {
            baseUrl: sandbox.baseUrl,
            clientId: sandbox.credentials.clientId,
            ...(o.sandbox && o.sandbox.rateLimits ? { rateLimits: o.sandbox.rateLimits } : {}),
          }
        : null,
  })
  for (const w of profiles.warnings()) log(`profiles: ${w.code}`)
  const ledger = openLedger(join(o.dataDir, 'ledger.sqlite'), { verifyWorker: verifyWorkerPath })
  const payees = createPayeeBook(ledger)

  const listeners = new Set<(event: EventName, payload: unknown) => void>()
  // Events pass through their contract schema like results do: only named fields reach the renderer.
  const emit: Emit = (event, payload) => {
    const parsed = events[event].safeParse(payload)
    if (!parsed.success) {
      log(`event ${event} dropped: payload outside the contract`)
      return
    }
    for (const l of listeners) l(event, parsed.data)
  }

  // The active team profile's chain check (team-integrity.ts); its alert takes the channel while it is broken.
  let teamIntegrity: TeamIntegrityCheck | null = null
  const integrity = createIntegrityMonitor({
    ledger,
    emit: (s) => emit('ledger:integrity', integrityView(s, teamIntegrity?.status() ?? null)),
    log,
  })
  const integrityStatus = (): LedgerIntegrity =>
    integrityView(integrity.status(), teamIntegrity?.status() ?? null)
  integrity.start()

  let current: ProfileRuntime | null = null
  let unsubscribe: Array<() => void> = []
  const openListeners = new Set<(rt: ProfileRuntime) => void>()
  const opened = (rt: ProfileRuntime): void => {
    for (const l of openListeners) {
      try {
        l(rt)
      } catch (e) {
        log(`runtime open listener failed (${e instanceof Error ? e.name : typeof e})`)
      }
    }
  }

  // Issue #14: receipts kept locally and desktop notifications, both fed by the tracker's record changes.
  const receipts = createReceiptService({
    store: sqliteReceiptStore(ledger),
    // Plain http only to the embedded sandbox's own origin, and only for a record of the Sandbox profile.
    loopbackOrigin: (localId) =>
      sandbox && ledger.get(localId)?.profile === SANDBOX_PROFILE_ID ? sandbox.baseUrl : null,
    onChange: (localId) => emit('receipt:changed', { localId }),
    log,
  })
  const notifications = createNotificationService({
    ledger,
    port: o.ports.notifier ?? { supported: () => false, show: () => undefined },
    enabled: () => profiles.settings().notifications,
    locale: () => profiles.settings().language,
    open: (localId) => emit('notification:open', { localId }),
    openApprovals: (id) => emit('notification:openApprovals', { id }),
    openRun: (runId) => emit('notification:openRun', { runId }),
    log,
  })
  if (o.trackerAutoStart !== false) {
    receipts.start()
    notifications.start()
  }

  const open = async (profile: Profile): Promise<ProfileRuntime> => {
    const credentials =
      profile.id === SANDBOX_PROFILE_ID && sandbox
        ? ({ kind: 'client_credentials', ...sandbox.credentials } as const)
        : profiles.credentials(profile.id)
    if (!credentials) throw new AppError('not_signed_in', 'This profile has no credentials yet.')
    // The connection saved in Settings (team:save); tests may give their own.
    const team = (o.teamLedgerFor ?? ((id: string) => profiles.teamLedgerConnection(id)))(profile.id)
    const rt = await openRuntime({
      profile,
      credentials,
      ledger,
      operator: o.operator,
      payees,
      team,
      dataDir: o.dataDir,
      log,
      ...(o.teamLeaderRetryMs !== undefined ? { leaderRetryMs: o.teamLeaderRetryMs } : {}),
      // A team's receipts over plain http only from the embedded sandbox's own origin, when it is the service.
      receiptLoopbackOrigin: sandbox && profile.baseUrl === sandbox.baseUrl ? sandbox.baseUrl : null,
      onReceiptChange: (localId) => emit('receipt:changed', { localId }),
    })
    if (o.trackerAutoStart !== false) rt.startTracking()
    const engine = engineOf(rt)
    if (engine.kind === 'postgres' && engine.pg) {
      teamIntegrity = startTeamIntegrityCheck({
        store: engine.pg,
        onChange: () => emit('ledger:integrity', integrityStatus()),
        log,
      })
    }
    unsubscribe = [
      // An approval change that needs this desk also raises a desktop notification (notifications/approvals.ts).
      ...teamEvents(rt, withApprovalNotices(emit, notifications), log),
      ...runApprovalNotices(rt, notifications, log),
      rt.deposits.onChange((r) => emit('deposit:changed', r)),
      rt.deposits.onReconciled((r) => emit('deposits:reconciled', r)),
      rt.withdrawals.onChange((r) => {
        emit('withdrawal:changed', r)
        // A team's receipts are kept in the team ledger (fetched by the leading desk), a desk's beside its file.
        void (engine.kind === 'sqlite' ? receipts : rt.teamBooks?.receipts)?.notice(r)
        notifications.onRecord(r)
      }),
      rt.client.onSessionChange((s) => emit('session:changed', sessionView(s, profile))),
      rt.client.onAllowanceChange((a) => emit('allowance:changed', a)),
    ]
    if (profile.kind === 'sandbox') {
      // The sandbox's own credentials: signing in needs no one, so the first page already shows a session.
      rt.client.signIn().catch(() => log('sandbox sign-in failed'))
    }
    opened(rt)
    return rt
  }

  /**
   * New calls get `not_ready` at once; a create already under way runs to its end (its POST is never cut: that
   * would make a created withdrawal `outcome_unknown`), with its events still reaching the renderer, which is told
   * why it waits. Only then is the runtime closed.
   */
  const closeCurrent = async (action: 'switch_profile' | 'quit'): Promise<void> => {
    const rt = current
    current = null
    const creates = (rt?.withdrawals.creating() ?? 0) + (rt?.deposits.creating() ?? 0)
    if (rt && creates > 0) {
      log(`${action}: waiting for ${creates} create(s) in flight`)
      emit('app:waiting', { reason: 'create_in_flight', action, creates })
      await Promise.all([rt.withdrawals.createsSettled(), rt.deposits.createsSettled()])
      emit('app:waiting', null)
    }
    for (const u of unsubscribe) u()
    unsubscribe = []
    if (teamIntegrity) {
      teamIntegrity.stop()
      teamIntegrity = null
      // A team's alert does not outlive its profile.
      emit('ledger:integrity', integrity.status())
    }
    await rt?.close()
  }

  let active = profiles.active()
  try {
    current = await open(active)
  } catch (e) {
    // A live profile whose secret was memory-only last session: fall back to the sandbox, say so in the log.
    log(`profile ${active.id} could not open (${e instanceof AppError ? e.code : 'error'}); using Sandbox`)
    active = profiles.setActive(SANDBOX_PROFILE_ID)
    current = await open(active)
  }

  // Issue #27: the treasury wallet, scanned on a schedule for the active profile (docs/WALLET.md).
  const wallet = new WalletService({
    vault: o.vault,
    dataDir: o.dataDir,
    now: () => Date.now(),
    sandbox: sandbox
      ? {
          esploraUrl: sandbox.esploraUrl,
          descriptor: sandboxTreasury().descriptor,
          depixAsset: SANDBOX_DEPIX,
          policyAsset: SANDBOX_LBTC,
          twin: twinAddress,
        }
      : null,
    onChange: (profileId) => {
      emit('wallet:changed', { profileId })
      seeFundings(profileId)
    },
    log,
    ...(o.walletScanSpacingMs !== undefined ? { minScanSpacingMs: o.walletScanSpacingMs } : {}),
    meanings: (profileId) => ledgerMeanings(ledger, profileId),
    labels: (profileId) => movementLabels(ledger, profileId),
  })
  // After each scan: on a team, the team ledger's meanings and labels; then funding seen, not declared (payments
  // the treasury paid exactly are recorded funded).
  let seeing: Promise<unknown> = Promise.resolve()
  const seeFundings = (profileId: string): void => {
    const rt = current
    const w = rt && rt.profile.id === profileId ? wallet.movementsOf(rt.profile) : null
    if (!rt || !w) return
    const deps: FundingSeenDeps = {
      listOpen: () => rt.withdrawals.store.listOpen(),
      markFunded: (id, txId) => rt.withdrawals.markFunded(id, { txId }),
      appendAudit: (e) => rt.withdrawals.store.appendAudit(e),
      operator: o.operator,
      log,
      everyProfile: rt.team !== null,
    }
    seeing = seeing
      .then(async () => {
        if (rt.team?.pg) {
          // The owner may have changed the team's wallet since: a change reopens it, scanned at the next tick.
          wallet.useTeamWallet(profileId, await readTeamWallet(rt.team.pg.pool))
          wallet.useTeamRecords(profileId, {
            meanings: await storeMeanings(rt.withdrawals.store),
            labels: await teamMovementLabels(rt.team.pg.pool),
          })
          emit('wallet:changed', { profileId })
        }
        return recordFundingsSeen(deps, profileId, w.movements, w.depixAsset)
      })
      .catch((e: unknown) => log(`funding seen failed (${(e as Error).name})`))
  }
  // A team profile watches the team's wallet (team migration 18): read when its runtime opens connected.
  const watchTeamWallet = (rt: ProfileRuntime): void => {
    const pool = rt.team?.pg?.pool
    if (!pool) return
    void readTeamWallet(pool)
      .then((w) => wallet.useTeamWallet(rt.profile.id, w))
      .catch((e: unknown) => log(`team wallet not read (${(e as Error).name})`))
  }
  openListeners.add(watchTeamWallet)
  if (current) watchTeamWallet(current)
  if (o.trackerAutoStart !== false)
    wallet.start(() => (current ? (profiles.get(current.profile.id) ?? current.profile) : null))

  const review: ReviewSlot = { current: null }
  const folders = createFolderTokens()
  const runtime: RuntimeDeps['runtime'] = () => {
    if (!current) throw new AppError('not_ready', 'The profile is switching; try again.')
    return current
  }
  const switchProfile = async (id: string): Promise<Profile> => {
    const next = profiles.get(id)
    if (!next) throw new AppError('not_found', 'No such profile.')
    // Switching to the active profile re-opens it: after its team ledger settings changed, with the new ledger.
    await closeCurrent('switch_profile')
    try {
      current = await open(next)
    } catch (e) {
      current = await open(profiles.active())
      throw e
    }
    const selected = profiles.setActive(id)
    emit('profile:changed', { activeId: id })
    emit('session:changed', null)
    return selected
  }
  const onRuntimeOpen = (l: (rt: ProfileRuntime) => void): void => {
    openListeners.add(l)
    if (current) l(current)
  }
  const operator = o.operator
  // Each feature's handlers get their own slice (deps.ts), built once here.
  const deps: AppDeps = {
    session: { runtime, app: o.app },
    profiles: { runtime, profiles, vault: o.vault, ledger, operator, switchProfile },
    withdrawals: { runtime, profiles, operator },
    sandbox: { runtime, sandbox },
    deposits: { runtime, sandbox, review },
    shell: {
      runtime,
      folders,
      chooseDirectory: (purpose: FolderPurpose) => o.ports.chooseDirectory(purpose),
      openExternal: (url) => o.ports.openExternal(url),
    },
    records: {
      runtime,
      ledger,
      profiles,
      vault: o.vault,
      folders,
      emit,
      operator,
      appVersion: o.app.version,
      wallet,
      extraSecrets: () => (sandbox ? [sandbox.credentials.clientSecret] : []),
    },
    review: { runtime, ledger, vault: o.vault, folders, review },
    ledger: { ledger, integrity, integrityStatus, operator },
    payees: {
      runtime,
      profiles,
      payees,
      folders,
      operator,
      ...(o.ports.chooseFile ? { chooseFile: o.ports.chooseFile } : {}),
    },
    receipts: {
      runtime,
      ledger,
      receipts,
      ...(o.ports.chooseSavePath ? { chooseSavePath: o.ports.chooseSavePath } : {}),
      ...(o.ports.printDocument ? { printDocument: o.ports.printDocument } : {}),
    },
    runs: {
      runtime,
      sandbox,
      ledger,
      wallet,
      folders,
      emit,
      operator,
      dataDir: o.dataDir,
      log,
      onRuntimeOpen,
    },
    team: { runtime },
    teamConnection: { runtime, profiles, switchProfile },
    wallet: { runtime, ledger, wallet, profiles, operator },
    walletPay: {
      runtime,
      wallet,
      operator,
      emit,
      ...(o.ports.chooseFile ? { chooseFile: o.ports.chooseFile } : {}),
      ...(o.ports.chooseSavePath ? { chooseSavePath: o.ports.chooseSavePath } : {}),
      ...(o.ports.pinServerPost ? { pinServerPost: o.ports.pinServerPost } : {}),
    },
  }

  const router = buildRouter(deps, log)

  return {
    router,
    sandbox,
    profiles,
    ledger,
    integrity,
    onEvent: (l) => {
      listeners.add(l)
      return () => listeners.delete(l)
    },
    runtime,
    close: async () => {
      await integrity.stop() // never close the ledger under a running check
      notifications.stop()
      wallet.close()
      await receipts.stop() // does not wait for a fetch in flight: a receipt never holds up quitting
      await closeCurrent('quit')
      review.current?.close()
      review.current = null
      ledger.close()
      if (!o.runningSandbox) await sandbox?.close()
    },
  }
}

/**
 * `emit` for the team's events that also hands each `approval:changed` (as the renderer gets it, after the
 * contract's schema) to the desktop notifications, which decide whether it needs this desk.
 */
function withApprovalNotices(emit: Emit, notifications: NotificationService): Emit {
  return (event, payload) => {
    emit(event, payload)
    if (event === 'approval:changed') {
      const parsed = events['approval:changed'].safeParse(payload)
      if (parsed.success) notifications.onApproval(parsed.data)
    }
  }
}
