/**
 * `POST /deposit`, `GET /deposit-status`, `GET /deposits`, `GET /user-info` (docs/API-CONTRACT.md#s4-2–§4.5) and the deposit
 * lifecycle of §3.1 driven by the control surface: payment, delay, token sent, MED refund.
 */
import { DEPOSITS_MAX_ROWS } from '../../shared/api-limits'
import { iso, nextSaoPauloMidnight, saoPauloDay, type SandboxClock } from './clock'
import { isEuidShape, validTaxNumber, type EndUsers } from './end-users'
import { parseDepositRequest } from './deposit-request'
import { badInput, businessRefusal, invalidParameter, missingParameter, notFound, wrongState } from './errors'
import { bankTxId, recordId, txId } from './ids'
import { optString, type Params } from './params'
import { brCode } from './pix-qr'
import type { DepositView, RuntimeOptions } from './types'

export type DepositStatus = 'pending' | 'expired' | 'approved' | 'depix_sent' | 'delayed' | 'refunded'

/** The service's own receiving key, reported as `pixKey` of a paid deposit. */
export const SANDBOX_RECEIVING_PIX_KEY = '7d9f0335-8dcc-4054-9bf9-0c59e5d4ae0f'
const PAID: ReadonlySet<DepositStatus> = new Set(['approved', 'depix_sent', 'delayed'])
const CUSTOMER_MESSAGE: Readonly<Record<DepositStatus, string>> = {
  pending: 'Aguardando pagamento do QR code.',
  expired: 'QR code expirado sem pagamento.',
  approved: 'Pagamento recebido; o DePix será enviado em instantes.',
  depix_sent: 'DePix enviado.',
  delayed: 'Pagamento recebido; envio do DePix adiado até delayUntil.',
  refunded: 'Pagamento devolvido ao pagador (MED).',
}
const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/

class DepositRecord {
  status: DepositStatus = 'pending'
  paidAt = 0
  approvedAt = 0
  delayUntil = 0
  bankTxId: string | undefined = undefined
  blockchainTxID: string | undefined = undefined
  payerName: string | undefined = undefined
  payerTaxNumber: string | undefined = undefined

  constructor(
    readonly qrId: string,
    readonly createdAt: number,
    readonly expiresAt: number,
    readonly valueInCents: number,
    readonly depixAddress: string,
    readonly delayHours: number | undefined,
    readonly taxNumber: string | undefined,
    readonly euid: string | undefined,
    readonly merchantId: string | undefined,
  ) {}
}

/** `start`/`end` of GET /deposits: a date (midnight in São Paulo) or a date-time with an explicit zone. */
function parseInstant(name: string, value: string): number {
  if (DATE_ONLY.test(value)) {
    const ms = Date.parse(`${value}T00:00:00-03:00`)
    if (Number.isFinite(ms)) return ms
  } else if (DATE_TIME.test(value)) {
    const ms = Date.parse(value)
    if (Number.isFinite(ms)) return ms
  }
  throw invalidParameter(name, 'must be ISO 8601: YYYY-MM-DD or a date-time with Z or an offset')
}

export class Deposits {
  private readonly all: DepositRecord[] = []
  private readonly byId = new Map<string, DepositRecord>()
  private readonly byTax = new Map<string, DepositRecord[]>()

  /**
   * Set by startSandbox (issue #27): delivers the DePix on the sandbox's Liquid chain and returns the txid, or null
   * when it cannot (then a made-up txid, as before).
   */
  chainPayout: ((address: string, cents: number) => string | null) | null = null

  constructor(
    private readonly clock: SandboxClock,
    private readonly opts: RuntimeOptions,
    private readonly users: EndUsers,
  ) {}

  get size(): number {
    return this.all.length
  }

  /** `POST /deposit`: the inner `response` object. */
  create(body: Params): Record<string, unknown> {
    const { amount, address, delayHours, taxNumber, euid, user, merchantId } = parseDepositRequest(
      body,
      this.users,
      this.opts,
    )
    const now = this.clock.now()
    if (taxNumber !== undefined) {
      const limit = user?.maxDailyInCents ?? this.opts.payerDailyLimitCents
      const volume = this.dailyVolume(taxNumber, now)
      if (volume + amount > limit) {
        const left = Math.max(0, limit - volume)
        if (euid !== undefined) {
          throw businessRefusal(
            `The end user's daily deposit allowance is reached: ${left} cents left of ${limit}`,
            'END_USER_DEPOSIT_DAILY_LIMIT_REACHED',
          )
        }
        throw businessRefusal(
          `The payer's daily deposit ceiling is reached: the maximum now accepted is ${left} cents`,
          'DEPOSIT_DAILY_LIMIT_REACHED',
        )
      }
    }

    const d = new DepositRecord(
      recordId(),
      now,
      now + this.opts.depositTtlSeconds * 1000,
      amount,
      address,
      delayHours,
      taxNumber,
      euid,
      merchantId,
    )
    this.all.push(d)
    this.byId.set(d.qrId, d)
    if (taxNumber !== undefined) {
      const list = this.byTax.get(taxNumber)
      if (list === undefined) this.byTax.set(taxNumber, [d])
      else list.push(d)
    }
    return { id: d.qrId, qrCopyPaste: brCode(d.qrId, amount), expiration: iso(d.expiresAt) }
  }

  /** `GET /deposit-status`. */
  status(query: Params): DepositView {
    const id = optString(query, 'id')
    if (id === undefined) throw missingParameter('id')
    const d = this.byId.get(id)
    if (d === undefined) throw businessRefusal(`Deposit not found: ${id}`, 'DEPOSIT_NOT_FOUND')
    return this.view(this.touch(d, this.clock.now()))
  }

  /** `GET /deposits`: creation time in [start, end), oldest first, at most 200 rows. */
  list(query: Params): Array<{ qrId: string; status: string; bankTxId?: string }> {
    const startRaw = optString(query, 'start')
    const endRaw = optString(query, 'end')
    if (startRaw === undefined) throw missingParameter('start')
    if (endRaw === undefined) throw missingParameter('end')
    const start = parseInstant('start', startRaw)
    const end = parseInstant('end', endRaw)
    if (end <= start) throw invalidParameter('end', 'must be later than start')
    const status = optString(query, 'status')
    const now = this.clock.now()
    const rows: Array<{ qrId: string; status: string; bankTxId?: string }> = []
    for (let i = this.firstAtOrAfter(start); i < this.all.length && rows.length < DEPOSITS_MAX_ROWS; i++) {
      const d = this.all[i] as DepositRecord
      if (d.createdAt >= end) break
      this.touch(d, now)
      if (status !== undefined && d.status !== status) continue
      rows.push(
        d.bankTxId === undefined
          ? { qrId: d.qrId, status: d.status }
          : { qrId: d.qrId, status: d.status, bankTxId: d.bankTxId },
      )
    }
    return rows
  }

  /** `GET /user-info`: the daily fields concern deposits only (docs/API-CONTRACT.md#s2-6). */
  userInfo(query: Params): Record<string, unknown> {
    const euid = optString(query, 'euid')
    if (euid === undefined) throw missingParameter('euid')
    if (!isEuidShape(euid)) throw invalidParameter('euid', 'not an end-user identifier')
    const user = this.users.get(euid)
    if (user === undefined) throw businessRefusal(`End user not found: ${euid}`, 'END_USER_NOT_FOUND')
    const now = this.clock.now()
    return {
      euid: user.euid,
      maxDailyInCents: user.maxDailyInCents,
      dailyVolumeInCents: this.dailyVolume(user.taxNumber, now),
      dailyLimitResetTime: iso(nextSaoPauloMidnight(now)),
    }
  }

  pay(id: string, o: { payerName?: string; payerTaxNumber?: string } = {}): DepositView {
    const now = this.clock.now()
    const d = this.touch(this.get(id), now)
    if (d.status !== 'pending') throw wrongState(`deposit ${id} is ${d.status}, not payable`)
    let payerTax = d.taxNumber
    if (o.payerTaxNumber !== undefined) {
      payerTax = validTaxNumber(o.payerTaxNumber) ?? undefined
      if (payerTax === undefined) throw badInput('payerTaxNumber is not a valid CPF/CNPJ')
    }
    const user = d.euid !== undefined ? this.users.get(d.euid) : undefined
    d.paidAt = now
    d.bankTxId = bankTxId()
    d.payerTaxNumber = payerTax
    d.payerName =
      o.payerName ??
      (payerTax !== undefined ? this.users.byTaxNumber(payerTax)?.name : undefined) ??
      user?.name ??
      'Pagador Sandbox'
    if (d.delayHours !== undefined) {
      d.status = 'delayed'
      d.delayUntil = now + d.delayHours * 3_600_000
    } else {
      d.status = 'approved'
      d.approvedAt = now
    }
    return this.view(this.touch(d, now))
  }

  fileMed(id: string): DepositView {
    const d = this.touch(this.get(id), this.clock.now())
    if (!PAID.has(d.status)) throw wrongState(`deposit ${id} is ${d.status}; a MED needs a paid deposit`)
    d.status = 'refunded'
    return this.view(d)
  }

  views(offset: number, limit: number): DepositView[] {
    const now = this.clock.now()
    return this.all.slice(offset, offset + limit).map((d) => this.view(this.touch(d, now)))
  }

  countByStatus(): Record<string, number> {
    const now = this.clock.now()
    const out: Record<string, number> = {}
    for (const d of this.all) {
      const s = this.touch(d, now).status
      out[s] = (out[s] ?? 0) + 1
    }
    return out
  }

  /**
   * Today's QR volume of one payer, open unpaid QR codes included (docs/API-CONTRACT.md#s8-2 note 3); expired ones are not.
   */
  private dailyVolume(taxNumber: string, now: number): number {
    const list = this.byTax.get(taxNumber)
    if (list === undefined) return 0
    const today = saoPauloDay(now)
    let sum = 0
    for (let i = list.length - 1; i >= 0; i--) {
      const d = list[i] as DepositRecord
      if (saoPauloDay(d.createdAt) !== today) break
      if (this.touch(d, now).status !== 'expired') sum += d.valueInCents
    }
    return sum
  }

  private firstAtOrAfter(ms: number): number {
    let lo = 0
    let hi = this.all.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if ((this.all[mid] as DepositRecord).createdAt < ms) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  private get(id: string): DepositRecord {
    const d = typeof id === 'string' ? this.byId.get(id) : undefined
    if (d === undefined) throw notFound('deposit', String(id))
    return d
  }

  /** Time-driven transitions: QR expiry, end of a delay, token sent a few seconds after approval. */
  private touch(d: DepositRecord, now: number): DepositRecord {
    if (d.status === 'pending' && now >= d.expiresAt) d.status = 'expired'
    if (d.status === 'delayed' && now >= d.delayUntil) {
      d.status = 'approved'
      d.approvedAt = d.delayUntil
    }
    if (d.status === 'approved' && now >= d.approvedAt + this.opts.depositSendSeconds * 1000) {
      d.status = 'depix_sent'
      d.blockchainTxID = this.chainPayout?.(d.depixAddress, d.valueInCents) ?? txId()
    }
    return d
  }

  private view(d: DepositRecord): DepositView {
    const v: DepositView = {
      qrId: d.qrId,
      status: d.status,
      valueInCents: d.valueInCents,
      expiration: iso(d.expiresAt),
      delayUntil: d.delayUntil === 0 ? null : iso(d.delayUntil),
      customerMessage: CUSTOMER_MESSAGE[d.status],
    }
    if (d.bankTxId !== undefined) {
      v.bankTxId = d.bankTxId
      v.pixKey = SANDBOX_RECEIVING_PIX_KEY
      if (d.payerName !== undefined) v.payerName = d.payerName
      if (d.payerTaxNumber !== undefined) v.payerTaxNumber = d.payerTaxNumber
    }
    if (d.blockchainTxID !== undefined) v.blockchainTxID = d.blockchainTxID
    const payerEuid =
      d.euid ?? (d.taxNumber !== undefined ? this.users.byTaxNumber(d.taxNumber)?.euid : undefined)
    if (payerEuid !== undefined) v.payerEUID = payerEuid
    return v
  }
}
