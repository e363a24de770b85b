/**
 * Paying from the wallet, end to end, for one profile: build (fresh status → one PSET → review → attempt kept),
 * export for a signer, import signatures back (checked to be our build), broadcast, record the txid on every payment
 * through the withdrawal service's `markFundedMany` (one ledger transaction; per payment the path "Marquei como
 * enviado" uses), and recover
 * whatever a crash interrupted. Main only: PSETs and the sandbox mnemonic never reach the renderer.
 *
 * Write order makes a crash safe: the attempt is `broadcast` (with the final transaction) on disk BEFORE the POST,
 * and `recorded` only after every payment carries the txid. Recovery re-broadcasts the same transaction (same
 * signed PSET → same txid; harmless if already there) and records again (idempotent per payment).
 */
import { randomUUID } from 'node:crypto'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import type { LiquidNetwork } from '../../liquid'
import { loadLwk } from '../lwk'
import type { WatchedWallet } from '../watch'
import { type PayAttempts, type Attempt, type AttemptLine } from './attempts'
import { buildPayment, buildPaymentOffThread } from './build'
import type { PayAssets } from './types'
import { broadcastTx, txPresence } from './chain-io'
import { PayRefusal } from './errors'
import { lineFor, type PayLine, type Selected } from './lines'
import type { PayReview } from './review'
import { mergeSigned } from './signed'
import type { FundingGuard } from './team-guard'

/**
 * Points where tests stop the process (SIGKILL) to prove recovery; no-ops in the app. `recording`: the ledger has
 * the txid on every payment, the attempt is not yet `recorded`.
 */
export type PayStep = 'signed' | 'before_broadcast' | 'broadcast' | 'recording'

export interface PayDeps {
  readonly profile: string
  readonly network: LiquidNetwork
  readonly operator: string
  readonly assets: PayAssets
  readonly wallet: WatchedWallet
  readonly esploraUrl: string
  readonly attempts: PayAttempts
  /** asks the service (`GET /withdraw-status`) and returns the record as updated by the answer */
  readonly refresh: (localId: string) => Promise<WithdrawalRecord>
  /**
   * The withdrawal service's markFundedMany: the txid on every payment with its audit entry, in ONE ledger
   * transaction (one fsync on a desk, one database transaction on a team) — all recorded or none
   */
  readonly markFundedMany: (localIds: readonly string[], txId: string) => Promise<unknown>
  readonly now: () => number
  /** SANDBOX ONLY: the documented sandbox treasury mnemonic; undefined on every other profile */
  readonly sandboxMnemonic?: string
  /** TEAM PROFILES: the team database's claim on each payment (migration 17); absent on a desk's own ledger */
  readonly guard?: FundingGuard
  readonly step?: (s: PayStep, attemptId: string) => void
  /** the PSET builder's worker module (build-worker.ts); absent: LWK builds on this thread (tests, benchmarks) */
  readonly buildWorker?: string
  /** how far a build is (the screen's progress): each status read, then LWK building */
  readonly progress?: (p: BuildProgress) => void
}

export interface BuildProgress {
  readonly phase: 'status' | 'building'
  readonly done: number
  readonly total: number
}

export interface AttemptView {
  readonly attempt: Attempt
  readonly review: PayReview
}

const toLine = (l: AttemptLine): PayLine => ({ ...l, units: BigInt(l.units) })

function expectedOf(a: Attempt): { txid: string; feeUnits: bigint; totalUnits: bigint; lines: PayLine[] } {
  const lines = a.lines.map(toLine)
  return {
    txid: a.txid,
    feeUnits: BigInt(a.feeUnits),
    totalUnits: lines.reduce((s, l) => s + l.units, 0n),
    lines,
  }
}

export class PayService {
  constructor(private readonly d: PayDeps) {}

  private iso(): string {
    return new Date(this.d.now()).toISOString()
  }

  private must(id: string): Attempt {
    const a = this.d.attempts.get(id)
    if (!a) throw new PayRefusal('illegal_state', { attemptId: id, what: 'no such attempt' })
    return a
  }

  private save(a: Attempt, patch: Partial<Attempt>): Attempt {
    const done = patch.state === 'recorded' || patch.state === 'cancelled'
    // Once signed only the final transaction matters (broadcast, recovery): the PSETs (~1.2 MB each for 200
    // payments) leave the file, which is rewritten and fsynced on every later step.
    const signed = patch.state === 'signed' || patch.state === 'broadcast'
    const next = {
      ...a,
      ...patch,
      ...(signed ? { built: null, pset: null } : {}),
      ...(done ? { built: null, pset: null, txHex: null } : {}),
      updatedAt: this.iso(),
    }
    this.d.attempts.put(next)
    return next
  }

  /**
   * One PSET paying `selected`. The wallet is scanned first (its coins as the chain has them now), each payment is
   * refused if another attempt holds it, then re-read from the service and built from that fresh answer.
   */
  async build(selected: readonly Selected[]): Promise<AttemptView> {
    if (selected.length === 0) throw new RangeError('nothing selected')
    for (const s of selected) {
      const holder = this.d.attempts.holding(s.localId)
      if (holder) throw new PayRefusal('already_in_funding', { localId: s.localId, attemptId: holder.id })
    }
    const snapshot = await this.d.wallet.scan(this.d.esploraUrl)
    if (snapshot.lastFailure !== null)
      throw new PayRefusal('chain_unreachable', { what: snapshot.lastFailure })
    const ctx = {
      network: this.d.network,
      profile: this.d.profile,
      assetId: this.d.assets.depix,
      now: this.d.now,
    }
    const lines: PayLine[] = []
    const total = selected.length
    this.d.progress?.({ phase: 'status', done: 0, total })
    for (const s of selected) {
      lines.push(lineFor(ctx, await this.d.refresh(s.localId), s))
      this.d.progress?.({ phase: 'status', done: lines.length, total })
    }
    this.d.progress?.({ phase: 'building', done: 0, total })
    const built =
      this.d.buildWorker === undefined
        ? buildPayment(this.d.wallet, lines, this.d.assets)
        : await buildPaymentOffThread(this.d.wallet, lines, this.d.assets, this.d.buildWorker)
    const at = this.iso()
    const attempt: Attempt = {
      id: randomUUID(),
      profile: this.d.profile,
      createdAt: at,
      updatedAt: at,
      operator: this.d.operator,
      state: 'built',
      lines: built.review.lines.map((l) => ({
        localId: l.localId,
        payee: l.payee,
        cents: l.cents,
        units: l.units.toString(),
        address: l.address,
        expiration: l.expiration,
        vout: l.vout,
      })),
      txid: built.review.txid,
      feeUnits: built.review.feeUnits.toString(),
      built: built.pset,
      pset: built.pset,
      txHex: null,
      lastError: null,
    }
    // Checked again just before keeping it: a build running concurrently must not take the same payment.
    for (const l of lines) {
      const holder = this.d.attempts.holding(l.localId)
      if (holder) throw new PayRefusal('already_in_funding', { localId: l.localId, attemptId: holder.id })
    }
    this.d.attempts.put(attempt)
    // On a team the database decides: kept first (a crash leaves a local attempt that broadcast claims again),
    // then claimed; refused → this attempt is cancelled here and nothing else changes.
    if (this.d.guard) {
      try {
        await this.d.guard.claim(
          attempt.id,
          lines.map((l) => l.localId),
          attempt.txid,
        )
      } catch (e) {
        this.save(attempt, { state: 'cancelled' })
        throw e
      }
    }
    return { attempt, review: built.review }
  }

  /** The PSET to hand a signer (base64, with every signature imported so far). */
  exportPset(id: string): string {
    const a = this.must(id)
    if (a.state !== 'built' || a.pset === null)
      throw new PayRefusal('illegal_state', { attemptId: id, what: a.state })
    return a.pset
  }

  /**
   * The key fingerprints still missing a signature on the exported PSET (LWK's `PsetDetails`), and the wallet's
   * chain: a hardware signer whose fingerprint is not among them holds none of the keys this PSET needs.
   */
  signingNeeds(id: string): { network: LiquidNetwork; signers: string[] } {
    const lwk = loadLwk()
    const pset = new lwk.Pset(this.exportPset(id))
    try {
      const signers = [...new Set(this.d.wallet.lwkWollet.psetDetails(pset).fingerprintsMissing())]
      return { network: this.d.wallet.chainNetwork, signers }
    } finally {
      pset.free()
    }
  }

  /** A signer's PSET, checked to be our build; fully signed → `signed` with the final transaction. */
  importSigned(id: string, base64: string): { attempt: Attempt; missing: number } {
    const a = this.must(id)
    if (a.state !== 'built' || a.pset === null)
      throw new PayRefusal('illegal_state', { attemptId: id, what: a.state })
    const expected = expectedOf(a)
    const merged = mergeSigned(this.d.wallet, a.pset, base64, expected, expected.lines, this.d.assets)
    const next =
      merged.txHex === null
        ? this.save(a, { pset: merged.pset })
        : this.save(a, { pset: merged.pset, txHex: merged.txHex, state: 'signed' })
    if (next.state === 'signed') this.d.step?.('signed', id)
    return { attempt: next, missing: merged.missing }
  }

  /** SANDBOX ONLY: signs with the documented sandbox mnemonic, as an external signer would, and imports it. */
  signWithSandbox(id: string): { attempt: Attempt; missing: number } {
    if (this.d.sandboxMnemonic === undefined) throw new PayRefusal('sandbox_only')
    const lwk = loadLwk()
    const signer = new lwk.Signer(new lwk.Mnemonic(this.d.sandboxMnemonic), this.d.wallet.lwkNetwork)
    try {
      const signed = signer.sign(new lwk.Pset(this.exportPset(id)))
      return this.importSigned(id, signed.toString())
    } finally {
      signer.free()
    }
  }

  /** Built or signed, and not on the chain: the payments are free again. */
  async cancel(id: string): Promise<Attempt> {
    const a = this.must(id)
    if (a.state !== 'built' && a.state !== 'signed')
      throw new PayRefusal('illegal_state', { attemptId: id, what: a.state })
    if (a.state === 'signed') {
      // A signed transaction may have left with the signer: only cancel what the chain does not have.
      const seen = await txPresence(this.d.esploraUrl, a.txid)
      if (seen !== 'absent')
        throw new PayRefusal('illegal_state', { attemptId: id, what: `on chain: ${seen}` })
    }
    const cancelled = this.save(a, { state: 'cancelled' })
    // Released only after the desk let it go: a crash in between leaves the payments held, never free twice.
    await this.d.guard?.release(id)
    return cancelled
  }

  /** Broadcasts a signed attempt and records its txid on every payment. */
  async broadcast(id: string): Promise<Attempt> {
    let a = this.must(id)
    if (a.state !== 'signed' || a.txHex === null)
      throw new PayRefusal('illegal_state', { attemptId: id, what: a.state })
    // On a team, claimed again (idempotent for this attempt): a build that crashed before its claim, or a payment
    // another desk claimed since, is refused here, before anything leaves.
    await this.d.guard?.claim(
      a.id,
      a.lines.map((l) => l.localId),
      a.txid,
    )
    a = this.save(a, { state: 'broadcast', lastError: null })
    this.d.step?.('before_broadcast', id)
    const sent = await broadcastTx(this.d.esploraUrl, a.txHex as string)
    if (sent.kind !== 'accepted' || sent.txid !== a.txid) {
      // Refused, or the answer is not our txid: only the chain tells whether it is there.
      const seen = await txPresence(this.d.esploraUrl, a.txid)
      if (seen === 'absent') {
        const why = sent.kind === 'refused' ? `${sent.status} ${sent.text}` : sent.kind
        this.save(a, { state: 'signed', lastError: why.slice(0, 500) })
        throw new PayRefusal('broadcast_failed', { attemptId: id, what: why.slice(0, 200) })
      }
      if (seen === 'unknown') throw new PayRefusal('broadcast_failed', { attemptId: id, what: 'unreachable' })
    }
    this.d.step?.('broadcast', id)
    return this.record(a)
  }

  private async record(a: Attempt): Promise<Attempt> {
    // Idempotent: a payment already carrying this txid is left as it is (no second audit entry).
    await this.d.markFundedMany(
      a.lines.map((l) => l.localId),
      a.txid,
    )
    this.d.step?.('recording', a.id)
    await this.d.guard?.recorded(a.id)
    return this.save(a, { state: 'recorded' })
  }

  /**
   * After a crash or at start: every attempt that was broadcast (or signed and found on the chain, e.g. broadcast
   * by the signer) ends recorded. Re-broadcasting the same transaction is harmless and completes an interrupted
   * broadcast. Returns the attempts it recorded.
   */
  async recover(): Promise<Attempt[]> {
    const done: Attempt[] = []
    for (const a of this.d.attempts.all()) {
      if (a.state !== 'broadcast' && a.state !== 'signed') continue
      let seen = await txPresence(this.d.esploraUrl, a.txid)
      if (seen === 'absent' && a.state === 'broadcast' && a.txHex !== null) {
        await broadcastTx(this.d.esploraUrl, a.txHex)
        seen = await txPresence(this.d.esploraUrl, a.txid)
      }
      if (seen === 'confirmed' || seen === 'mempool') done.push(await this.record(a))
      else if (seen === 'absent' && a.state === 'broadcast') this.save(a, { state: 'signed' })
    }
    return done
  }
}
