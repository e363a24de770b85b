/**
 * The treasury wallet of each profile, for the app: which descriptor (the vault's, or the sandbox treasury's),
 * which Esplora (the sandbox chain's, or the network's public one), where LWK's state is kept, when to scan (on a
 * schedule and on demand, never two at once, never more than one every `minScanSpacingMs`), and the view the
 * renderer gets — amounts only, never the descriptor.
 */
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { WalletMovementDto, WalletViewDto } from '../../shared/channels-wallet'
import { DEFAULT_ESPLORA, type Profile } from '../../shared/profile'
import { DEPIX_ASSET_ID, type LiquidNetwork } from '../liquid/networks'
import { writeFileAtomic } from '../secrets/atomic-file'
import { profileSecretKey, type Vault } from '../secrets/vault'
import { checkDescriptor } from './descriptor'
import type { MovementLabel } from './labels'
import { meaningOf, NO_MEANINGS, type TxMeanings } from './meanings'
import { buildStatement, type Statement } from './statement'
import type { TeamWallet } from './team-wallet'
import { WatchedWallet, type WalletMovement, type WalletSnapshot } from './watch'

/** The Esplora a live profile's wallet is scanned through: its own, else its network's public one (none on regtest). */
export function esploraUrlOf(profile: Profile): string | null {
  if (profile.esploraUrl !== undefined) return profile.esploraUrl
  return profile.network === 'regtest' ? null : DEFAULT_ESPLORA[profile.network]
}
const EXPLORER_TX: Readonly<Partial<Record<LiquidNetwork, string>>> = {
  liquid: 'https://blockstream.info/liquid/tx/',
  testnet: 'https://blockstream.info/liquidtestnet/tx/',
}
const UNITS_PER_CENT = 1_000_000n
const MAX_MOVEMENTS = 200

export interface SandboxWallet {
  readonly esploraUrl: string
  readonly descriptor: string
  readonly depixAsset: string
  readonly policyAsset: string
  /** The sandbox chain is regtest, the Sandbox profile's addresses `liquid`: the same destination in each form. */
  readonly twin?: (address: string, to: 'liquid' | 'regtest') => string
}

/** Addresses past the first unused one (and past the last handed out) still recognised as the wallet's. */
const ADDRESS_GAP = 100
const nextFreshSchema = z.coerce
  .number()
  .int()
  .min(0)
  .max(2 ** 31 - 1)

export interface WalletAddress {
  readonly address: string
  readonly index: number
}

export interface PayTarget {
  readonly wallet: WatchedWallet
  readonly esploraUrl: string
  readonly depixAsset: string
  readonly policyAsset: string
  readonly attemptsFile: string
}

export interface WalletServiceOptions {
  readonly vault: Vault
  /** LWK's state files go here (`wallet-<profile>.lwk`); null keeps them in memory */
  readonly dataDir: string | null
  readonly now: () => number
  readonly sandbox: SandboxWallet | null
  readonly onChange: (profileId: string) => void
  readonly log: (line: string) => void
  readonly minScanSpacingMs?: number
  /** What the ledger knows of the profile's payments and top-ups, to say what each movement was. */
  readonly meanings?: (profileId: string) => TxMeanings
  /** The labels people gave unmatched movements (audited in the ledger: labels.ts). */
  readonly labels?: (profileId: string) => ReadonlyMap<string, MovementLabel>
}

interface Entry {
  readonly wallet: WatchedWallet
  readonly multisig: boolean
  /** the sandbox chain's; a live profile's is read from the profile at each scan (Configurações may change it) */
  readonly sandboxEsplora: string | null
  readonly depixAsset: string
  readonly policyAsset: string | null
  readonly network: LiquidNetwork
  scanning: Promise<WalletViewDto> | null
  lastScanStartedAt: number
  /** the next receive index a "fresh" proposal may hand out (kept in `wallet-<profile>.next`) */
  nextFresh: number
}

export class WalletService {
  private readonly entries = new Map<string, Entry>()
  private readonly teamWallets = new Map<string, TeamWallet>()
  /** A team profile's meanings and labels, read from the team ledger (the desk's own ledger has not got them). */
  private readonly teamMeanings = new Map<string, TxMeanings>()
  private readonly teamLabels = new Map<string, ReadonlyMap<string, MovementLabel>>()
  private timer: ReturnType<typeof setInterval> | null = null

  constructor(private readonly o: WalletServiceOptions) {}

  private open(profile: Profile): Entry | null {
    const known = this.entries.get(profile.id)
    if (known) return known
    const sandbox = profile.kind === 'sandbox' ? this.o.sandbox : null
    // A team profile watches the team's wallet when the team database has one (team-wallet.ts).
    const team = this.teamWallets.get(profile.id)
    const descriptor = sandbox
      ? sandbox.descriptor
      : (team?.descriptor ?? this.o.vault.get(profileSecretKey(profile.id, 'walletDescriptor')))
    if (descriptor === null) return null
    // The sandbox chain is regtest whatever network the Sandbox profile's addresses use.
    const network: LiquidNetwork = sandbox ? 'regtest' : profile.network
    let checked: ReturnType<typeof checkDescriptor>
    try {
      checked = checkDescriptor(descriptor, network)
    } catch {
      // Stored before the profile's network changed: shown as not configured, the owner pastes it again.
      this.o.log(`wallet descriptor of ${profile.id} no longer fits its profile`)
      return null
    }
    const wallet = new WatchedWallet({
      descriptor: checked.descriptor,
      network,
      ...(sandbox ? { policyAsset: sandbox.policyAsset } : {}),
      // The sandbox chain lives in memory: its wallet state must not outlive it.
      stateFile: sandbox || this.o.dataDir === null ? null : join(this.o.dataDir, `wallet-${profile.id}.lwk`),
      now: this.o.now,
    })
    const entry: Entry = {
      wallet,
      multisig: checked.multisig,
      sandboxEsplora: sandbox ? sandbox.esploraUrl : null,
      // testnet/regtest issue their own DePix: the profile's asset id override applies to the wallet too.
      depixAsset: sandbox ? sandbox.depixAsset : (profile.assetId ?? DEPIX_ASSET_ID),
      policyAsset: sandbox ? sandbox.policyAsset : null,
      network,
      scanning: null,
      lastScanStartedAt: 0,
      nextFresh: sandbox ? 0 : this.readNextFresh(profile.id),
    }
    this.entries.set(profile.id, entry)
    return entry
  }

  view(profile: Profile): WalletViewDto {
    const e = this.open(profile)
    return e ? this.toView(profile.id, e, e.wallet.snapshot()) : { state: 'not_configured' }
  }

  /** Scans unless one ran within `minScanSpacingMs`; joins a scan already running. */
  scan(profile: Profile): Promise<WalletViewDto> {
    const e = this.open(profile)
    if (!e) return Promise.resolve({ state: 'not_configured' })
    if (e.scanning) return e.scanning
    const url = profile.kind === 'sandbox' ? e.sandboxEsplora : esploraUrlOf(profile)
    if (url === null || this.o.now() - e.lastScanStartedAt < (this.o.minScanSpacingMs ?? 5_000)) {
      return Promise.resolve(this.toView(profile.id, e, e.wallet.snapshot()))
    }
    e.lastScanStartedAt = this.o.now()
    e.scanning = e.wallet.scan(url).then((s) => {
      e.scanning = null
      if (s.lastFailure !== null) this.o.log(`wallet scan of ${profile.id} failed: ${s.lastFailure}`)
      this.o.onChange(profile.id)
      return this.toView(profile.id, e, s)
    })
    return e.scanning
  }

  /**
   * Issue #28 (src/main/wallet/pay/): what paying from this profile's wallet needs — main only. Null without a
   * wallet, an Esplora, or a data folder for the funding attempts.
   */
  payTarget(profile: Profile): PayTarget | null {
    const e = this.open(profile)
    // The same Esplora the scans use: the sandbox chain's, or the one the profile names now.
    const esploraUrl = e ? (profile.kind === 'sandbox' ? e.sandboxEsplora : esploraUrlOf(profile)) : null
    if (!e || esploraUrl === null || this.o.dataDir === null) return null
    return {
      wallet: e.wallet,
      esploraUrl,
      depixAsset: e.depixAsset,
      policyAsset: e.policyAsset ?? e.wallet.lwkNetwork.policyAsset().toString(),
      attemptsFile: join(this.o.dataDir, `pay-attempts-${profile.id}.json`),
    }
  }

  /**
   * A receive address of the profile's wallet for a refund or a top-up delivery, per the profile's policy: the
   * same one each time (`fixed`: index 0), or one never handed out before (`fresh`, the default; LWK's first
   * unused address, or past the last one proposed, so two payments proposed before either is paid differ).
   * Null when the profile has no wallet.
   */
  proposeAddress(profile: Profile): WalletAddress | null {
    const e = this.open(profile)
    if (!e) return null
    let index = 0
    if ((profile.walletAddressPolicy ?? 'fresh') === 'fresh') {
      index = Math.max(e.wallet.receiveAddress().index, e.nextFresh)
      e.nextFresh = index + 1
      this.writeNextFresh(profile.id, e.nextFresh)
    }
    const { address } = e.wallet.receiveAddress(index)
    const twin = profile.kind === 'sandbox' ? this.o.sandbox?.twin : undefined
    return { address: twin ? twin(address, 'liquid') : address, index }
  }

  /** Whether `address` is one of the wallet's receive addresses (LWK derives them); `unknown` without a wallet. */
  addressOwner(
    profile: Profile,
    address: string,
  ): { owner: 'treasury' | 'external' | 'unknown'; index: number | null } {
    const e = this.open(profile)
    if (!e) return { owner: 'unknown', index: null }
    let onChain = address.trim()
    const twin = profile.kind === 'sandbox' ? this.o.sandbox?.twin : undefined
    if (twin) {
      try {
        onChain = twin(onChain, 'regtest')
      } catch {
        return { owner: 'external', index: null }
      }
    }
    const beyond = Math.max(e.nextFresh - e.wallet.receiveAddress().index, 0) + ADDRESS_GAP
    const index = e.wallet.ownIndexOf(onChain, beyond)
    return index === null ? { owner: 'external', index: null } : { owner: 'treasury', index }
  }

  /** The last-known movements and the DePix asset of the profile's wallet (main only); null without a wallet. */
  movementsOf(profile: Profile): { movements: readonly WalletMovement[]; depixAsset: string } | null {
    const e = this.open(profile)
    return e ? { movements: e.wallet.snapshot().movements, depixAsset: e.depixAsset } : null
  }

  /**
   * The statement of [from, to) from the last-known state (no network); `to` null: through now and the last block
   * known. Null when the profile has no wallet.
   */
  statement(profile: Profile, from: number, to: number | null): Statement | null {
    const e = this.open(profile)
    if (!e) return null
    const movements = e.wallet.snapshot().movements
    // No end given: through now and the last block known (the sandbox's clock may run ahead of this one).
    const last = movements.reduce((n, m) => Math.max(n, (m.timestamp ?? 0) * 1000 + 1), 0)
    return buildStatement({
      movements,
      depixAsset: e.depixAsset,
      meanings: this.meaningsOf(profile.id),
      labels: this.labelsOf(profile.id),
      from,
      to: Math.max(from, to ?? Math.max(this.o.now(), last)),
    })
  }

  private nextFreshFile(profileId: string): string | null {
    return this.o.dataDir === null ? null : join(this.o.dataDir, `wallet-${profileId}.next`)
  }

  private readNextFresh(profileId: string): number {
    const file = this.nextFreshFile(profileId)
    if (file === null || !existsSync(file)) return 0
    const parsed = nextFreshSchema.safeParse(readFileSync(file, 'utf8').trim())
    return parsed.success ? parsed.data : 0
  }

  private writeNextFresh(profileId: string, next: number): void {
    const file = this.nextFreshFile(profileId)
    if (file !== null) writeFileAtomic(file, `${next}\n`)
  }

  /**
   * The team database's wallet for a team profile (read by the desk when its team runtime opens), or null when the
   * team has none: the desk's own vault descriptor applies then. A change reopens the wallet.
   */
  useTeamWallet(profileId: string, wallet: TeamWallet | null): void {
    const known = this.teamWallets.get(profileId)
    if (known?.descriptor === wallet?.descriptor) return
    if (wallet) this.teamWallets.set(profileId, wallet)
    else this.teamWallets.delete(profileId)
    this.forget(profileId)
    this.o.onChange(profileId)
  }

  /** What a team profile's movements mean and their labels, from the team ledger (ledger-meanings.ts, labels.ts). */
  useTeamRecords(
    profileId: string,
    r: { meanings?: TxMeanings; labels?: ReadonlyMap<string, MovementLabel> },
  ): void {
    if (r.meanings) this.teamMeanings.set(profileId, r.meanings)
    if (r.labels) this.teamLabels.set(profileId, r.labels)
  }

  private meaningsOf(profileId: string): TxMeanings {
    return this.teamMeanings.get(profileId) ?? this.o.meanings?.(profileId) ?? NO_MEANINGS
  }

  private labelsOf(profileId: string): ReadonlyMap<string, MovementLabel> {
    return this.teamLabels.get(profileId) ?? this.o.labels?.(profileId) ?? new Map()
  }

  /** Throws DescriptorError (nothing stored) or stores it and returns the (unscanned) view. */
  setDescriptor(profile: Profile, text: string): WalletViewDto {
    if (profile.kind === 'sandbox') throw new Error('the Sandbox profile has its own treasury wallet')
    const checked = checkDescriptor(text, profile.network)
    this.forget(profile.id)
    this.o.vault.set(profileSecretKey(profile.id, 'walletDescriptor'), checked.descriptor)
    return this.view(profile)
  }

  clear(profile: Profile): WalletViewDto {
    if (profile.kind !== 'sandbox') this.o.vault.delete(profileSecretKey(profile.id, 'walletDescriptor'))
    this.forget(profile.id)
    return this.view(profile)
  }

  private forget(profileId: string): void {
    const e = this.entries.get(profileId)
    // A scan in flight still uses LWK's wallet: it is left to the garbage collector (wasm-bindgen frees it).
    if (e && e.scanning === null) e.wallet.close()
    this.entries.delete(profileId)
  }

  /** Scans the active profile's wallet every `intervalMs` (the first at once). */
  start(active: () => Profile | null, intervalMs = 60_000): void {
    this.stop()
    const tick = (): void => {
      const p = active()
      if (p) void this.scan(p).catch((e: unknown) => this.o.log(`wallet scan error (${(e as Error).name})`))
    }
    tick()
    this.timer = setInterval(tick, intervalMs)
    this.timer.unref()
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer)
    this.timer = null
  }

  close(): void {
    this.stop()
    for (const id of [...this.entries.keys()]) this.forget(id)
  }

  private toView(profileId: string, e: Entry, s: WalletSnapshot): WalletViewDto {
    const meanings = this.meaningsOf(profileId)
    const labels = this.labelsOf(profileId)
    const policy = e.policyAsset ?? e.wallet.lwkNetwork.policyAsset().toString()
    const bal = (asset: string) => s.balances.find((b) => b.asset === asset) ?? { confirmed: 0n, pending: 0n }
    const depix = bal(e.depixAsset)
    const lbtc = bal(policy)
    const movements: WalletMovementDto[] = s.movements
      .slice()
      .sort((a, b) => (b.height ?? Infinity) - (a.height ?? Infinity))
      .slice(0, MAX_MOVEMENTS)
      .map((m) => {
        const d = m.net.get(e.depixAsset) ?? 0n
        return {
          txid: m.txid,
          height: m.height,
          at: m.timestamp === null ? null : new Date(m.timestamp * 1000).toISOString(),
          depixCents: Number(d / UNITS_PER_CENT),
          depixUnits: d.toString(),
          lbtcUnits: (m.net.get(policy) ?? 0n).toString(),
          feeUnits: m.fee.toString(),
          ...meaningOf(m, meanings),
          label: labels?.get(m.txid) ?? null,
        }
      })
    return {
      state: 'ready',
      multisig: e.multisig,
      depix: {
        confirmedCents: Number(depix.confirmed / UNITS_PER_CENT),
        pendingCents: Number(depix.pending / UNITS_PER_CENT),
        confirmedUnits: depix.confirmed.toString(),
        pendingUnits: depix.pending.toString(),
      },
      lbtc: { confirmedUnits: lbtc.confirmed.toString(), pendingUnits: lbtc.pending.toString() },
      lastScanAt: s.lastScanAt === null ? null : new Date(s.lastScanAt).toISOString(),
      lastFailure: s.lastFailure,
      tipHeight: s.tip?.height ?? null,
      movements,
      explorerTxUrl: EXPLORER_TX[e.network] ?? null,
    }
  }
}
