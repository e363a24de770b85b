/**
 * What each feature's handlers receive (issue #29): the narrow slice of the app context they use, built once in
 * context.ts (appDeps). A handler module is typed against its own slice, so what a channel can reach is read off
 * its signature. Types only, importing no handler module: context.ts builds the slices and the handlers read them,
 * and neither imports the other's file to do it.
 */
import type { EventName, EventPayload, LedgerIntegrity } from '../../shared/contract'
import type { Profile } from '../../shared/profile'
import type { Ledger } from '../ledger/sqlite'
import type { PayeeBook } from '../payees'
import type { ProfileService } from '../profiles'
import type { ReceiptService } from '../receipts'
import type { openReview } from '../records'
import type { Sandbox } from '../sandbox'
import type { Vault } from '../secrets/vault'
import type { PinServerPost } from '../wallet/pay/pin-server'
import type { WalletService } from '../wallet/service'
import type { FolderPurpose, FolderTokens } from './folder-tokens'
import type { IntegrityMonitor } from './integrity'
import type { ProfileRuntime } from './runtime'

export type Emit = <E extends EventName>(event: E, payload: EventPayload<E>) => void
export type Log = (line: string) => void

/** The export open in the offline review, one at a time: set by `review:open`, read by the review's lists. */
export interface ReviewSlot {
  current: Awaited<ReturnType<typeof openReview>> | null
}

/** Every handler's one shared need: the active profile's runtime (`not_ready` while the profile switches). */
export interface RuntimeDeps {
  runtime(): ProfileRuntime
}

export interface SessionDeps extends RuntimeDeps {
  app: { name: string; version: string; platform: string }
}

export interface ProfilesDeps extends RuntimeDeps {
  profiles: ProfileService
  vault: Pick<Vault, 'persistent' | 'reason'>
  /** Where a change of the default refund address is audited. */
  ledger: Pick<Ledger, 'appendAudit'>
  operator: string
  /** Closes the active runtime and opens `id`'s (the same id re-opens it with its new settings). */
  switchProfile(id: string): Promise<Profile>
}

export interface WithdrawalsDeps extends RuntimeDeps {
  profiles: Pick<ProfileService, 'settings'>
  operator: string
}

export interface SandboxDeps extends RuntimeDeps {
  /** The embedded sandbox; null where none runs. Its tools act only on the Sandbox profile. */
  sandbox: Sandbox | null
}

export interface DepositsDeps extends SandboxDeps {
  review: ReviewSlot
}

export interface ShellDeps extends RuntimeDeps {
  folders: FolderTokens
  /** The OS folder dialog; null when the user cancels. */
  chooseDirectory(purpose: FolderPurpose): Promise<string | null>
  openExternal(url: string): Promise<void>
}

export interface RecordsDeps extends RuntimeDeps {
  ledger: Ledger
  profiles: Pick<ProfileService, 'settings'>
  vault: Vault
  folders: FolderTokens
  emit: Emit
  operator: string
  appVersion: string
  /** The treasury wallet's statement, written into an export beside the records (issue #27). */
  wallet: Pick<WalletService, 'statement'>
  /** Secrets an export must never carry beyond the vault's (the embedded sandbox's client secret). */
  extraSecrets(): string[]
}

export interface ReviewDeps extends RuntimeDeps {
  ledger: Ledger
  vault: Vault
  folders: FolderTokens
  review: ReviewSlot
}

export interface LedgerDeps {
  ledger: Ledger
  integrity: IntegrityMonitor
  /** What the integrity alert shows: this computer's ledger, or the active team ledger's broken chain. */
  integrityStatus(): LedgerIntegrity
  operator: string
}

export interface PayeesDeps extends RuntimeDeps {
  profiles: Pick<ProfileService, 'settings'>
  /** This computer's payee book (a team profile uses the team's: engine.ts payeeStoreOf). */
  payees: PayeeBook
  folders: FolderTokens
  chooseFile?: (purpose: 'payees_import') => Promise<string | null>
  operator: string
}

export interface ReceiptsDeps extends RuntimeDeps {
  ledger: Pick<Ledger, 'get'>
  /** This computer's receipts (a team profile reads the team's: engine.ts receiptsOf). */
  receipts: ReceiptService
  chooseSavePath?: (defaultName: string) => Promise<string | null>
  printDocument?: (bytes: Buffer, mediaType: 'application/pdf' | 'text/html') => Promise<boolean>
}

export interface RunsDeps extends SandboxDeps {
  ledger: Ledger
  wallet: Pick<WalletService, 'payTarget'>
  folders: FolderTokens
  emit: Emit
  operator: string
  dataDir: string
  log: Log
  /** Told of every runtime opened from now on, and of the current one at once. */
  onRuntimeOpen(l: (rt: ProfileRuntime) => void): void
}

export type TeamDeps = RuntimeDeps

export interface TeamConnectionDeps extends RuntimeDeps {
  profiles: Pick<ProfileService, 'teamLedger' | 'saveTeamLedger' | 'forgetTeamLedger' | 'teamLedgerPassword'>
  switchProfile(id: string): Promise<Profile>
}

export interface WalletDeps extends RuntimeDeps {
  ledger: Ledger
  wallet: WalletService
  profiles: Pick<ProfileService, 'get'>
  operator: string
}

export interface WalletPayDeps extends RuntimeDeps {
  wallet: Pick<WalletService, 'payTarget'>
  operator: string
  emit: Emit
  /** The shell's file dialogs, absent in a build without them (tests pass stand-ins). */
  chooseFile?: (purpose: 'pset_import') => Promise<string | null>
  chooseSavePath?: (defaultName: string) => Promise<string | null>
  /** Test seam: the POST to a Jade's PIN server (src/main/wallet/pay/pin-server.ts); absent: main's own. */
  pinServerPost?: PinServerPost
}

/** Every slice, by feature: what buildRouter hands each handler module. */
export interface AppDeps {
  session: SessionDeps
  profiles: ProfilesDeps
  withdrawals: WithdrawalsDeps
  sandbox: SandboxDeps
  deposits: DepositsDeps
  shell: ShellDeps
  records: RecordsDeps
  review: ReviewDeps
  ledger: LedgerDeps
  payees: PayeesDeps
  receipts: ReceiptsDeps
  runs: RunsDeps
  team: TeamDeps
  teamConnection: TeamConnectionDeps
  wallet: WalletDeps
  walletPay: WalletPayDeps
}
