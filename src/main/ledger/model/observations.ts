/**
 * What a status answer does to a record, per kind: the observation planners (pure; both engines store the
 * observation row and write the planned record). An answer becomes the record's current status only if the
 * kind's status order says it is not older than what the record shows (shared/status-order.ts); flags are
 * raised whatever the order (another deposit address or Pix key named, a receiver who is not the expected payee,
 * conflicting terminal statuses, a top-up's value other than asked, a reversal).
 */
import { DEPOSIT_FLAGS, type DepositRecord } from '../../../shared/deposit-record'
import { decideDepositStatus, normalizeDepositStatus } from '../../../shared/deposit-status'
import { checkPayeeName } from '../../../shared/name-check'
import { RECORD_FLAGS, type WithdrawalRecord } from '../../../shared/withdrawal-record'
import { decideStatus } from '../../../shared/withdrawal-status'

type Body = Record<string, unknown> | null

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v)
const stringField = (b: Body, k: string): string | undefined =>
  b && typeof b[k] === 'string' ? b[k] : undefined
const centsField = (b: Body, k: string): number | undefined =>
  b && typeof b[k] === 'number' && Number.isSafeInteger(b[k]) ? b[k] : undefined

export interface ObservationPlan {
  record: WithdrawalRecord
  applied: boolean
  /** Flags this observation raised (not already on the record). */
  raised: string[]
}

/** What an observation does to a record. Pure: the caller writes the result. */
export function planObservation(
  rec: WithdrawalRecord,
  obs: { status: string; body: Body; observedAt: string },
): ObservationPlan {
  const body = obs.body
  const refund = body && isObject(body.refund) ? body.refund : null
  const decision = decideStatus(
    rec.remoteStatus === null
      ? null
      : { status: rec.remoteStatus, hasRefund: rec.refund !== null, at: rec.remoteStatusAt ?? '' },
    { status: obs.status, hasRefund: refund !== null, at: obs.observedAt },
  )
  const next: WithdrawalRecord = { ...rec, flags: [...rec.flags] }
  const raise = (flag: string): void => {
    if (!next.flags.includes(flag)) next.flags.push(flag)
  }
  if (refund !== null && (decision.replace || rec.refund === null)) next.refund = refund
  if (decision.conflict) raise(RECORD_FLAGS.remoteStatusConflict)

  // Checked on every answer, stale or not: the service naming another address or key is always worth a look.
  const address = stringField(body, 'depositAddress')
  if (address !== undefined && rec.depositAddress !== null && address !== rec.depositAddress) {
    raise(RECORD_FLAGS.depositAddressChanged)
  }
  const pixKey = stringField(body, 'pixKey')
  if (pixKey !== undefined && pixKey.trim().toLowerCase() !== rec.pixKey.trim().toLowerCase()) {
    raise(RECORD_FLAGS.pixKeyMismatch)
  }
  // The name check (issue #14): the key owner the service reports must be the payee the payment was made to.
  if (rec.expectedPayee && body && checkPayeeName(rec.expectedPayee, body).verdict === 'mismatch') {
    raise(RECORD_FLAGS.payeeMismatch)
  }

  if (decision.replace) {
    next.remoteStatus = obs.status
    next.remoteStatusAt = obs.observedAt
    next.lastRemote = body
    // What the payment is funded with is frozen once set (the team database refuses the change too, migration
    // 11): an answer naming another address or amount raised its flag above and changes nothing.
    next.depositAddress = rec.depositAddress ?? address ?? null
    next.depositAmountCents = rec.depositAmountCents ?? centsField(body, 'depositAmountInCents') ?? null
    next.payoutAmountCents = rec.payoutAmountCents ?? centsField(body, 'payoutAmountInCents') ?? null
    next.expiration = stringField(body, 'expiration') ?? next.expiration
    next.receiverName = stringField(body, 'receiverName') ?? next.receiverName
  }
  const raised = next.flags.filter((f) => !rec.flags.includes(f))
  return { record: next, applied: decision.replace, raised }
}

const depositStringField = (b: Body, k: string): string | undefined =>
  b && typeof b[k] === 'string' && b[k] !== '' ? b[k] : undefined
export interface DepositObservationPlan {
  record: DepositRecord
  applied: boolean
  raised: string[]
}

/** What one answer does to a record. Pure: the caller stores the observation and writes the record. */
export function planDepositObservation(
  rec: DepositRecord,
  obs: { status: string; body: Body; observedAt: string },
): DepositObservationPlan {
  const body = obs.body
  const decision = decideDepositStatus(
    rec.remoteStatus === null
      ? null
      : { status: rec.remoteStatus, hasRefund: false, at: rec.remoteStatusAt ?? '' },
    { status: obs.status, hasRefund: false, at: obs.observedAt },
  )
  const next: DepositRecord = { ...rec, flags: [...rec.flags] }
  const raise = (flag: string): void => {
    if (!next.flags.includes(flag)) next.flags.push(flag)
  }
  if (decision.conflict) raise(DEPOSIT_FLAGS.remoteStatusConflict)
  const value = centsField(body, 'valueInCents')
  // Only our own deposits have an amount we asked for; an imported one takes the reported value as its amount.
  if (value !== undefined && rec.origin === 'app' && value !== rec.amountCents)
    raise(DEPOSIT_FLAGS.valueMismatch)

  if (decision.replace) {
    next.remoteStatus = obs.status
    next.remoteStatusAt = obs.observedAt
    next.lastRemote = body
    next.valueCents = value ?? next.valueCents
    next.expiration = depositStringField(body, 'expiration') ?? next.expiration
    next.bankTxId = depositStringField(body, 'bankTxId') ?? next.bankTxId
    next.blockchainTxId = depositStringField(body, 'blockchainTxID') ?? next.blockchainTxId
    next.payerName = depositStringField(body, 'payerName') ?? next.payerName
    if (normalizeDepositStatus(obs.status) === 'refunded' && rec.reversedAt === null) {
      next.reversedAt = obs.observedAt
      raise(DEPOSIT_FLAGS.medReversal)
    }
  }
  return { record: next, applied: decision.replace, raised: next.flags.filter((f) => !rec.flags.includes(f)) }
}
