/**
 * One watch-only treasury wallet: LWK's `Wollet` from a checked CT descriptor, scanned through LWK's
 * `EsploraClient` (plain Esplora mode) over the guarded transport, its state persisted as LWK's own updates.
 *
 * Persistence: each update LWK returns is stored encrypted with LWK's descriptor-derived key
 * (`serializeEncryptedBase64`), one per line, and replayed in order at start-up, so the last-known balance is
 * there at once and offline. Stored updates carry wallet status 0, which LWK's `applyUpdate` treats as "do not
 * check the status" (lwk_wollet `apply_update_inner`): that lets consecutive tip-only updates be coalesced into
 * the latest one, as LWK's own file persister does, without the replay failing.
 *
 * A scan either applies a whole update or nothing: a failed scan leaves the last-known state and says why.
 */
import { existsSync, readFileSync } from 'node:fs'
import { Transaction } from 'liquidjs-lib'
import { writeFileAtomic } from '../secrets/atomic-file'
import type { LiquidNetwork } from '../liquid/networks'
import { checkDescriptor, networkOf } from './descriptor'
import type {
  Network as LwkNetwork,
  Update as LwkUpdate,
  Wollet as LwkWollet,
  WolletDescriptor as LwkWolletDescriptor,
} from 'lwk_wasm'
import { loadLwk, setLwkTransport, type Lwk } from './lwk'
import type { WalletReplay } from './replay'
import {
  DEFAULT_TRANSPORT_LIMITS,
  ScanTransport,
  type TransportFailure,
  type TransportLimits,
} from './transport'

export type ScanFailure = TransportFailure | 'bad_response'

export interface AssetBalance {
  /** display hex */
  readonly asset: string
  readonly confirmed: bigint
  /** unconfirmed incoming minus unconfirmed outgoing (may be negative) */
  readonly pending: bigint
}

export interface WalletMovement {
  readonly txid: string
  readonly height: number | null
  /** seconds since the epoch, from the block header; null while unconfirmed */
  readonly timestamp: number | null
  /** per asset (display hex): received minus spent by the wallet, fee included for L-BTC */
  readonly net: ReadonlyMap<string, bigint>
  readonly fee: bigint
  /** hex scripts of every output (the wallet's and others'): what the movement paid to */
  readonly outputScripts: readonly string[]
}

export interface WalletSnapshot {
  readonly balances: readonly AssetBalance[]
  readonly movements: readonly WalletMovement[]
  readonly tip: { readonly height: number; readonly hash: string } | null
  /** ms since the epoch of the last scan that succeeded (this session or, restored, the one before) */
  readonly lastScanAt: number | null
  /** why the most recent scan failed; null when it succeeded (or none was tried) */
  readonly lastFailure: ScanFailure | null
}

export interface WatchOptions {
  readonly descriptor: string
  readonly network: LiquidNetwork
  /** regtest only: the chain's policy asset (L-BTC) */
  readonly policyAsset?: string
  /** where LWK's updates are kept; null keeps them in memory only */
  readonly stateFile: string | null
  readonly now: () => number
}

// Byte offset of `wollet_status` (u64 LE) in a serialized LWK update: 4 magic bytes, then the u8 version.
const STATUS_OFFSET = 5

// One scan at a time in the whole process: LWK's fetch hook is global (src/main/wallet/lwk.ts).
let scanQueue: Promise<unknown> = Promise.resolve()

export class WatchedWallet {
  private readonly lwk: Lwk
  private readonly network: LwkNetwork
  private readonly descriptor: LwkWolletDescriptor
  private readonly wollet: LwkWollet
  private lines: string[] = []
  private lastLineTipOnly = false
  private lastScanAt: number | null = null
  private lastFailure: ScanFailure | null = null
  /** txid → output scripts: transactions never change, so they are parsed once */
  private readonly scriptsByTxid = new Map<string, string[]>()

  constructor(private readonly o: WatchOptions) {
    const checked = checkDescriptor(o.descriptor, o.network)
    this.lwk = loadLwk()
    this.network = networkOf(this.lwk, o.network, o.policyAsset)
    this.descriptor = new this.lwk.WolletDescriptor(checked.descriptor)
    this.wollet = new this.lwk.Wollet(this.network, this.descriptor)
    this.restore()
  }

  private restore(): void {
    const file = this.o.stateFile
    if (file === null || !existsSync(file)) return
    const lines = readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l !== '')
    // The first line is the time of the last successful scan; then one encrypted update per line.
    const [head, ...updates] = lines
    const at = Number(head)
    this.lastScanAt = Number.isSafeInteger(at) && at > 0 ? at : null
    for (const line of updates) {
      let update: LwkUpdate
      try {
        update = this.lwk.Update.deserializeDecryptedBase64(line, this.descriptor)
      } catch {
        break // not ours or damaged: keep what replayed, the next scan fetches the rest
      }
      this.lastLineTipOnly = update.onlyTip()
      try {
        this.wollet.applyUpdate(update)
      } catch {
        break
      }
      this.lines.push(line)
    }
  }

  private persist(update: LwkUpdate): void {
    const bytes = update.serialize()
    bytes.fill(0, STATUS_OFFSET, STATUS_OFFSET + 8)
    const stored = new this.lwk.Update(bytes)
    const tipOnly = stored.onlyTip()
    const line = stored.serializeEncryptedBase64(this.descriptor)
    stored.free()
    if (tipOnly && this.lastLineTipOnly && this.lines.length > 0) this.lines[this.lines.length - 1] = line
    else this.lines.push(line)
    this.lastLineTipOnly = tipOnly
    const file = this.o.stateFile
    if (file === null) return
    writeFileAtomic(file, `${this.lastScanAt ?? 0}\n${this.lines.join('\n')}\n`)
  }

  /** Scans through `esploraUrl`; resolves when done, never rejects (the failure is in the snapshot). */
  scan(esploraUrl: string, limits: TransportLimits = DEFAULT_TRANSPORT_LIMITS): Promise<WalletSnapshot> {
    const run = scanQueue.then(() => this.scanNow(esploraUrl, limits))
    scanQueue = run.catch(() => undefined)
    return run
  }

  private async scanNow(esploraUrl: string, limits: TransportLimits): Promise<WalletSnapshot> {
    const transport = new ScanTransport(esploraUrl, limits)
    setLwkTransport(transport.fetch)
    const client = new this.lwk.EsploraClient(this.network, esploraUrl.replace(/\/+$/, ''), false, 4, false)
    try {
      const update = await client.fullScan(this.wollet)
      if (update !== undefined) {
        this.wollet.applyUpdate(update)
        this.lastScanAt = this.o.now()
        this.persist(update)
      } else {
        this.lastScanAt = this.o.now()
        if (this.o.stateFile !== null && this.lines.length > 0) {
          writeFileAtomic(this.o.stateFile, `${this.lastScanAt}\n${this.lines.join('\n')}\n`)
        }
      }
      this.lastFailure = null
    } catch {
      this.lastFailure = transport.failure ?? 'bad_response'
    } finally {
      setLwkTransport(null)
      client.free()
    }
    return this.snapshot()
  }

  snapshot(): WalletSnapshot {
    const w = this.wollet
    const confirmed = new Map<string, bigint>()
    const total = new Map<string, bigint>()
    for (const [asset, units] of w.balance().entries() as [string, bigint][]) total.set(asset, units)
    for (const u of w.utxos()) {
      if (u.height() === undefined) continue
      const s = u.unblinded()
      const asset = s.asset().toString()
      confirmed.set(asset, (confirmed.get(asset) ?? 0n) + s.value())
    }
    const assets = new Set([...total.keys(), ...confirmed.keys()])
    const balances = [...assets].sort().map((asset) => {
      const c = confirmed.get(asset) ?? 0n
      return { asset, confirmed: c, pending: (total.get(asset) ?? 0n) - c }
    })
    const movements = w.transactions().map((t) => {
      const net = new Map<string, bigint>()
      for (const [asset, units] of t.balance().entries() as [string, bigint][])
        if (units !== 0n) net.set(asset, units)
      const txid = t.txid().toString()
      let outputScripts = this.scriptsByTxid.get(txid)
      if (outputScripts === undefined) {
        outputScripts = Transaction.fromHex(t.tx().toString()).outs.map((o) => o.script.toString('hex'))
        this.scriptsByTxid.set(txid, outputScripts)
      }
      return {
        txid,
        height: t.height() ?? null,
        timestamp: t.timestamp() ?? null,
        net,
        fee: t.fee(),
        outputScripts,
      }
    })
    const neverScanned = w.neverScanned()
    const tip = neverScanned ? null : { height: w.tip().height(), hash: w.tip().hash() }
    return { balances, movements, tip, lastScanAt: this.lastScanAt, lastFailure: this.lastFailure }
  }

  /** A receive address of the wallet (fresh: the first unused one when `index` is omitted). */
  address(index?: number): { address: string; index: number } {
    const r = this.wollet.address(index ?? null)
    return { address: r.address().toString(), index: r.index() }
  }

  /**
   * Scripts (hex) of the first `count` receive and change addresses: for the sandbox book, which needs to know
   * the wallet's scripts (not its amounts). Each chain of the `<0;1>` multipath is derived as its own descriptor.
   */
  scripts(count: number): Set<string> {
    const out = new Set<string>()
    const base = this.descriptor.toString().replace(/#.*$/, '')
    for (const path of ['0', '1']) {
      const w = new this.lwk.Wollet(
        this.network,
        new this.lwk.WolletDescriptor(base.replaceAll('<0;1>', path)),
      )
      for (let i = 0; i < count; i++) out.add(w.address(i).address().scriptPubkey().toString())
      w.free()
    }
    return out
  }

  /** LWK's wallet itself, for building PSETs (issue #28) and sandbox tests; never for the renderer. */
  get lwkWollet(): LwkWollet {
    return this.wollet
  }

  get lwkNetwork(): LwkNetwork {
    return this.network
  }

  /** The chain this wallet is on (the Sandbox profile's wallet is regtest while its addresses are lq1). */
  get chainNetwork(): LiquidNetwork {
    return this.o.network
  }

  /**
   * What rebuilds this wallet's LWK state on another thread (the PSET builder's worker, issue #28): the descriptor
   * and LWK's updates as stored (encrypted with the descriptor's key). Main-process memory only.
   */
  replayable(): WalletReplay {
    return {
      descriptor: this.descriptor.toString(),
      network: this.o.network,
      ...(this.o.policyAsset !== undefined ? { policyAsset: this.o.policyAsset } : {}),
      updates: [...this.lines],
    }
  }

  /** LWK's receive address at `index`, or (no index) the first one with no transaction yet. */
  receiveAddress(index?: number): { readonly address: string; readonly index: number } {
    const r = this.wollet.address(index ?? null)
    const a = r.address()
    const out = { address: a.toString(), index: r.index() }
    a.free()
    r.free()
    return out
  }

  /**
   * The index of `address` among the wallet's receive addresses, from 0 to `beyond` past the first unused one,
   * or null. The whole confidential address is compared (script and blinding key): an address with the wallet's
   * script but another blinding key would receive amounts the wallet cannot read. LWK's wasm build derives only
   * the receive chain, which is where refunds and top-up deliveries are sent.
   */
  ownIndexOf(address: string, beyond: number): number | null {
    let wanted: string
    try {
      const parsed = this.lwk.Address.parse(address.trim(), this.network)
      wanted = parsed.toString()
      parsed.free()
    } catch {
      return null
    }
    const last = this.receiveAddress().index + beyond
    for (let i = 0; i <= last; i++) if (this.receiveAddress(i).address === wanted) return i
    return null
  }

  close(): void {
    this.wollet.free()
  }
}
