/**
 * `POST /withdraw` and `GET /withdraw-status` (docs/API-CONTRACT.md#s4-6, §4.7), and the withdrawal lifecycle of §3.2 / §6.4
 * driven by the control surface: funding (exact, within 5%, or divergent), payout settlement, refunds, lazy
 * expiry against the sandbox clock.
 */
import { REFUND_FEE_CENTS, WITHDRAWAL_MAX_CENTS, WITHDRAWAL_MIN_CENTS } from '../../shared/api-limits'
import { fundingToleranceRange, payoutForDeposit, quoteWithdrawal } from '../../shared/fees'
import { parsePixKey } from '../../shared/pix-key'
import { generateLiquidAddress } from '../liquid'
import { iso, saoPauloDay, type SandboxClock } from './clock'
import type { EndUsers } from './end-users'
import { DEFAULT_END_USER } from './end-users'
import { badInput, businessRefusal, missingParameter, notFound, wrongState } from './errors'
import {
  centralBankId,
  maskReceiverTaxNumber,
  OFFLINE_RECEIPT_ORIGIN,
  receiptUrl,
  recordId,
  txId,
} from './ids'
import { optString, type Params } from './params'
import { parseWithdrawRequest } from './withdraw-request'
import type { PayoutOutcome, RuntimeOptions, WithdrawalRefund, WithdrawalView } from './types'

export type WithdrawalStatus = 'unsent' | 'sending' | 'sent' | 'error' | 'refunded' | 'expired' | 'cancelled'

/** Statuses whose payout no longer counts towards the recipient's daily cap. */
const OUT_OF_CAP: ReadonlySet<WithdrawalStatus> = new Set(['expired', 'cancelled', 'refunded'])

/** What happens from funding on. Absent on records still waiting, which keeps 100,000 of them small. */
interface Progress {
  receivedInCents: number
  fundedAt: number
  settledAt: number
  blockchainTxID: string
  centralBankId: string | undefined
  refund: WithdrawalRefund | undefined
}

// A class with every field set in the constructor keeps one hidden class for 100,000 records.
class WithdrawalRecord {
  status: WithdrawalStatus = 'unsent'
  progress: Progress | undefined = undefined

  constructor(
    readonly id: string,
    readonly pixKey: string,
    readonly taxNumber: string,
    readonly createdAt: number,
    readonly expiresAt: number,
    readonly depositAddress: string,
    readonly depositAmountInCents: number,
    public payoutAmountInCents: number,
    readonly rateBps: number,
    readonly refundAddress: string | undefined,
  ) {}
}

/** The token arrived (Liquid transaction recorded); settlement facts follow later. */
function funded(receivedInCents: number, at: number, blockchainTxID = txId()): Progress {
  return {
    receivedInCents,
    fundedAt: at,
    settledAt: 0,
    blockchainTxID,
    centralBankId: undefined,
    refund: undefined,
  }
}

export class Withdrawals {
  private readonly byId = new Map<string, WithdrawalRecord>()
  private readonly byTax = new Map<string, WithdrawalRecord[]>()
  private seedAddresses: string[] = []
  /** Set by startSandbox once the server listens: receipts are then served on the sandbox's own origin. */
  receiptOrigin = OFFLINE_RECEIPT_ORIGIN
  /**
   * Set by startSandbox (issue #27): deposit addresses whose blinding key the sandbox keeps, so its Liquid chain
   * can see and unblind the funding. Without it, throwaway addresses as before.
   */
  depositAddress: (() => { address: string; register: (withdrawalId: string) => void }) | null = null
  /** Set by startSandbox (issue #27): pays a refund on the sandbox's Liquid chain; null → a made-up txid. */
  chainPayout: ((address: string, cents: number) => string | null) | null = null

  private refundTxId(w: WithdrawalRecord, cents: number): string {
    return (w.refundAddress !== undefined ? this.chainPayout?.(w.refundAddress, cents) : null) ?? txId()
  }

  constructor(
    private readonly clock: SandboxClock,
    private readonly opts: RuntimeOptions,
    private readonly users: EndUsers,
  ) {}

  get size(): number {
    return this.byId.size
  }

  /** `POST /withdraw`: the inner `response` object. Throws OpError on refusal. */
  create(body: Params): Record<string, unknown> {
    const { pixKey, taxNumber, amount, refundAddress } = parseWithdrawRequest(body, this.users)
    const rateBps = this.opts.partnerRateBps
    const quote = quoteWithdrawal(amount, rateBps)
    const now = this.clock.now()
    const volume = this.dailyVolume(taxNumber, now)
    const cap = this.opts.dailyCapPerTaxNumberCents
    if (volume + quote.payoutCents > cap) {
      throw businessRefusal(
        `Daily withdrawal limit for this tax number exceeded: volume today ${volume} cents, ` +
          `this request ${quote.payoutCents} cents, cap ${cap} cents`,
      )
    }

    const keyed = this.depositAddress?.() ?? null
    const w = this.insert(
      pixKey,
      taxNumber,
      now,
      keyed?.address ?? generateLiquidAddress('liquid', { confidential: true }).address,
      quote,
      rateBps,
      refundAddress,
    )
    keyed?.register(w.id)
    if (this.opts.minimalCreateResponse) return { withdrawalId: w.id }
    const out: Record<string, unknown> = {
      withdrawalId: w.id,
      status: w.status,
      pixKey: w.pixKey,
      depositAddress: w.depositAddress,
      depositAmountInCents: w.depositAmountInCents,
      payoutAmountInCents: w.payoutAmountInCents,
      expiration: iso(w.expiresAt),
    }
    if (refundAddress !== undefined) out.refundAddress = refundAddress
    return out
  }

  /** `GET /withdraw-status`. */
  status(query: Params): WithdrawalView {
    const id = optString(query, 'id')
    if (id === undefined) throw missingParameter('id')
    const w = this.byId.get(id)
    if (w === undefined) throw businessRefusal(`Withdrawal not found: ${id}`, 'WITHDRAW_NOT_FOUND')
    return this.view(this.touch(w, this.clock.now()))
  }

  /** `txid`: the chain's funding transaction (issue #27); the control surface's funding gets a made-up one. */
  fund(id: string, amountInCents: number, txid?: string): WithdrawalView {
    if (!Number.isSafeInteger(amountInCents) || amountInCents <= 0) {
      throw badInput('amountInCents must be a positive integer')
    }
    const now = this.clock.now()
    const w = this.touch(this.get(id), now)
    if (w.status === 'expired' || w.status === 'cancelled') {
      // Token arriving too late goes back in full if there is a refundAddress; else the operator handles it.
      if (w.refundAddress !== undefined) this.refundInFull(w, amountInCents, w.status)
      return this.view(w)
    }
    if (w.status !== 'unsent') throw wrongState(`withdrawal ${id} is ${w.status}, not awaiting funding`)
    const expected = w.depositAmountInCents
    const range = fundingToleranceRange(expected)
    const within = amountInCents >= range.min && amountInCents <= range.max
    const payout = within ? payoutForDeposit(amountInCents, w.rateBps) : 0
    if (within && payout >= WITHDRAWAL_MIN_CENTS && payout <= WITHDRAWAL_MAX_CENTS) {
      w.status = 'sending'
      w.progress = funded(amountInCents, now, txid)
      w.payoutAmountInCents = payout
    } else if (w.refundAddress !== undefined) {
      this.refundInFull(w, amountInCents, 'amount_mismatch')
    }
    // Mismatch without refundAddress: ignored, status unchanged; a correct funding can still follow (§3.2).
    return this.view(w)
  }

  settle(id: string, outcome: PayoutOutcome): WithdrawalView {
    const now = this.clock.now()
    const w = this.touch(this.get(id), now)
    if (w.status !== 'sending') throw wrongState(`withdrawal ${id} is ${w.status}, not sending`)
    this.applySettlement(w, outcome, now)
    return this.view(w)
  }

  cancel(id: string): WithdrawalView {
    const w = this.touch(this.get(id), this.clock.now())
    if (w.status !== 'unsent') {
      throw wrongState(`withdrawal ${id} is ${w.status}; only unsent can be cancelled`)
    }
    w.status = 'cancelled'
    return this.view(w)
  }

  /**
   * Stores `count` withdrawals for the default end user without HTTP. Deposit addresses come from a small
   * pool of real addresses: generating one costs ~2 ms, which 100,000 records cannot afford (bench only).
   */
  seed(count: number, payoutAmountInCents = 10_000): string[] {
    if (!Number.isSafeInteger(count) || count < 0) throw badInput('count must be a non-negative integer')
    if (this.seedAddresses.length === 0) {
      for (let i = 0; i < 16; i++) this.seedAddresses.push(generateLiquidAddress('liquid').address)
    }
    const quote = quoteWithdrawal({ payoutAmountInCents }, this.opts.partnerRateBps)
    const now = this.clock.now()
    const ids: string[] = new Array<string>(count)
    const keys = Array.from({ length: 256 }, (_, k) => `+5511987${String(650_000 + k)}`)
    for (let i = 0; i < count; i++) {
      const address = this.seedAddresses[i % this.seedAddresses.length] as string
      const w = this.insert(
        keys[i % keys.length] as string,
        DEFAULT_END_USER.taxNumber,
        now,
        address,
        quote,
        this.opts.partnerRateBps,
        undefined,
        false,
      )
      ids[i] = w.id
    }
    return ids
  }

  list(offset: number, limit: number): WithdrawalView[] {
    const now = this.clock.now()
    const out: WithdrawalView[] = []
    let i = 0
    for (const w of this.byId.values()) {
      if (i++ < offset) continue
      if (out.length >= limit) break
      out.push(this.view(this.touch(w, now)))
    }
    return out
  }

  countByStatus(): Record<string, number> {
    const now = this.clock.now()
    const out: Record<string, number> = {}
    for (const w of this.byId.values()) {
      const s = this.touch(w, now).status
      out[s] = (out[s] ?? 0) + 1
    }
    return out
  }

  private insert(
    pixKey: string,
    taxNumber: string,
    now: number,
    depositAddress: string,
    quote: { depositCents: number; payoutCents: number },
    rateBps: number,
    refundAddress: string | undefined,
    indexByTax = true,
  ): WithdrawalRecord {
    const w = new WithdrawalRecord(
      recordId(),
      pixKey,
      taxNumber,
      now,
      now + this.opts.withdrawalTtlSeconds * 1000,
      depositAddress,
      quote.depositCents,
      quote.payoutCents,
      rateBps,
      refundAddress,
    )
    this.byId.set(w.id, w)
    if (indexByTax) {
      const list = this.byTax.get(taxNumber)
      if (list === undefined) this.byTax.set(taxNumber, [w])
      else list.push(w)
    }
    return w
  }

  /** What GET /receipts/<id> serves: the payout's data as of now, or undefined when it has no receipt (yet). */
  receipt(id: string): WithdrawalView | undefined {
    const w = this.byId.get(id)
    if (w === undefined) return undefined
    const v = this.view(this.touch(w, this.clock.now()))
    return v.receiptUrl === undefined ? undefined : v
  }

  private get(id: string): WithdrawalRecord {
    const w = typeof id === 'string' ? this.byId.get(id) : undefined
    if (w === undefined) throw notFound('withdrawal', String(id))
    return w
  }

  /** Payout volume today (São Paulo day) for a recipient tax number, live withdrawals only. */
  private dailyVolume(taxNumber: string, now: number): number {
    const list = this.byTax.get(taxNumber)
    if (list === undefined) return 0
    const today = saoPauloDay(now)
    let sum = 0
    // Newest last, and the clock never goes back: stop at the first record of an earlier day.
    for (let i = list.length - 1; i >= 0; i--) {
      const w = list[i] as WithdrawalRecord
      if (saoPauloDay(w.createdAt) !== today) break
      if (!OUT_OF_CAP.has(this.touch(w, now).status)) sum += w.payoutAmountInCents
    }
    return sum
  }

  /** Time-driven transitions, applied when a record is looked at. */
  private touch(w: WithdrawalRecord, now: number): WithdrawalRecord {
    if (w.status === 'unsent') {
      if (now >= w.expiresAt) w.status = 'expired'
    } else if (w.status === 'sending' && this.opts.autoSettleSeconds !== null && w.progress !== undefined) {
      const due = w.progress.fundedAt + this.opts.autoSettleSeconds * 1000
      if (now >= due) this.applySettlement(w, parsePixKey(w.pixKey).ok ? 'sent' : 'invalid_pix_key', due)
    }
    return w
  }

  private applySettlement(w: WithdrawalRecord, outcome: PayoutOutcome, at: number): void {
    // Only `sending` records settle, and funding created their progress.
    const p = w.progress as Progress
    p.settledAt = at
    if (outcome === 'sent') {
      w.status = 'sent'
      p.centralBankId = centralBankId(at)
      return
    }
    // Without a refundAddress any failure waits for the operator (docs/API-CONTRACT.md#s3-2): status error, no refund.
    if (w.refundAddress === undefined) {
      w.status = 'error'
      return
    }
    // The API contract names invalid_pix_key for every new return caused by the request (malformed, nonexistent, or a
    // key that is not the taxNumber's); payout_failure only exists on older records.
    const causedByRequest = outcome !== 'processor_failure'
    const reason =
      outcome === 'processor_failure' || outcome === 'payout_failure' ? outcome : 'invalid_pix_key'
    const fee = causedByRequest ? Math.min(REFUND_FEE_CENTS, p.receivedInCents) : 0
    w.status = 'refunded'
    p.refund = {
      txId: this.refundTxId(w, p.receivedInCents - fee),
      reason,
      initiatedBy: 'system',
      feeInCents: fee,
      amountInCents: p.receivedInCents - fee,
    }
  }

  private refundInFull(w: WithdrawalRecord, amountInCents: number, reason: string): void {
    const now = this.clock.now()
    w.status = 'refunded'
    w.progress = funded(amountInCents, now)
    w.progress.settledAt = now
    w.progress.refund = {
      txId: this.refundTxId(w, amountInCents),
      reason,
      initiatedBy: 'system',
      feeInCents: 0,
      amountInCents,
    }
  }

  private view(w: WithdrawalRecord): WithdrawalView {
    const v: WithdrawalView = {
      id: w.id,
      pixKey: w.pixKey,
      status: w.status,
      expiration: iso(w.expiresAt),
      depositAddress: w.depositAddress,
      depositAmountInCents: w.depositAmountInCents,
      payoutAmountInCents: w.payoutAmountInCents,
    }
    const p = w.progress
    if (p !== undefined) v.blockchainTxID = p.blockchainTxID
    if (w.status === 'sent' && p !== undefined) {
      v.receiptUrl = receiptUrl(this.receiptOrigin, w.id)
      v.receiverName = this.users.byTaxNumber(w.taxNumber)?.name ?? 'Beneficiário Sandbox'
      v.receiverTaxNumber = maskReceiverTaxNumber(w.taxNumber)
      v.transferDate = iso(p.settledAt)
      if (p.centralBankId !== undefined) v.centralBankId = p.centralBankId
    }
    if (w.refundAddress !== undefined) v.refundAddress = w.refundAddress
    if (p?.refund !== undefined) v.refund = { ...p.refund }
    return v
  }
}
