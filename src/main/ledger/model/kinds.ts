/**
 * The two record kinds, described once for every engine: how a new record looks before the service answered and
 * what the create's answer sets on it. Their shared lifecycle is transitions.ts; the engines add only how a
 * kind's row is read under lock and written (sqlite/lifecycle.ts `RecordKind`, pg/kind-lifecycle.ts
 * `PgRecordKind`, both this descriptor plus their I/O).
 */
import type { DepositRecord } from '../../../shared/deposit-record'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { LedgerError } from './errors'
import type { NewWithdrawal } from './inputs'
import { planDepositObservation, planObservation } from './observations'
import type { KindRules } from './transitions'

/** The denormalised columns must say what the body says: one truth about what was sent. */
export function assertMatchesRequest(input: NewWithdrawal): void {
  const req = input.request
  if (typeof req.pixKey === 'string' && req.pixKey !== input.pixKey) {
    throw new LedgerError('invalid_input', 'pixKey differs from request.pixKey')
  }
  const amountField = input.amountKind === 'deposit' ? 'depositAmountInCents' : 'payoutAmountInCents'
  const otherField = input.amountKind === 'deposit' ? 'payoutAmountInCents' : 'depositAmountInCents'
  if (req[amountField] !== undefined && req[amountField] !== input.amountCents) {
    throw new LedgerError('invalid_input', `amountCents differs from request.${amountField}`)
  }
  if (req[otherField] !== undefined) {
    throw new LedgerError(
      'invalid_input',
      `request carries ${otherField} but amountKind is ${input.amountKind}`,
    )
  }
}

/** The new record of a payment about to be sent: one place, so both engines keep the same members and hash. */
export function submittingRecord(
  n: NewWithdrawal,
  localId: string,
  operator: string,
  now: string,
): WithdrawalRecord {
  return {
    localId,
    profile: n.profile,
    operator,
    createdAt: now,
    updatedAt: now,
    localState: 'submitting',
    request: n.request,
    pixKey: n.pixKey,
    amountKind: n.amountKind,
    amountCents: n.amountCents,
    createResponse: null,
    remoteId: null,
    remoteStatus: null,
    remoteStatusAt: null,
    remoteCheckedAt: null,
    lastRemote: null,
    depositAddress: null,
    // Best knowledge until the service answers: the amount we asked for.
    depositAmountCents: n.amountKind === 'deposit' ? n.amountCents : null,
    payoutAmountCents: n.amountKind === 'payout' ? n.amountCents : null,
    expiration: null,
    fundedAt: null,
    fundingTxId: null,
    refund: null,
    receiverName: null,
    error: null,
    requestId: null,
    flags: [...new Set(n.flags ?? [])],
    // Left out when empty, so a record without them hashes as before migration 6 (sqlite/rows.ts).
    ...(n.references && Object.keys(n.references).length > 0 ? { references: { ...n.references } } : {}),
    ...(n.expectedPayee ? { expectedPayee: { ...n.expectedPayee } } : {}),
  }
}

export const WITHDRAWAL_KIND: KindRules<WithdrawalRecord> = {
  action: 'withdrawal',
  table: 'withdrawals',
  observations: 'observations',
  created: (rec, o, now) => ({
    ...rec,
    localState: 'created',
    updatedAt: now,
    remoteId: o.remoteId,
    createResponse: o.createResponse,
    requestId: o.requestId,
    depositAddress: o.depositAddress ?? rec.depositAddress,
    depositAmountCents: o.depositAmountCents ?? rec.depositAmountCents,
    payoutAmountCents: o.payoutAmountCents ?? rec.payoutAmountCents,
    expiration: o.expiration ?? rec.expiration,
  }),
  observation: { plan: planObservation, flagsEntry: true },
}

export const cents = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : null

/** Names the create answer may give the Pix "copia e cola" payload (the contract shows none; the sandbox's first). */
export const QR_PAYLOAD_KEYS = [
  'qrCopyPaste',
  'qrCode',
  'copyPaste',
  'pixCopiaECola',
  'brCode',
  'emv',
] as const

/** The payload of the create answer: the first QR_PAYLOAD_KEYS member holding printable text. */
export function qrPayloadOf(response: Record<string, unknown> | null): string | null {
  if (!response) return null
  for (const key of QR_PAYLOAD_KEYS) {
    const v = response[key]
    if (typeof v === 'string' && v.length > 0 && v.length <= 2048 && /^[\x20-\x7e]+$/.test(v)) return v
  }
  return null
}

/** A new deposit record before the service answered (an app top-up, or the base of an imported one). */
export function blank(o: {
  localId: string
  profile: string
  operator: string
  now: string
  origin: DepositRecord['origin']
  request: Record<string, unknown>
  amountCents: number
  depixAddress: string | null
  flags: string[]
}): DepositRecord {
  return {
    localId: o.localId,
    profile: o.profile,
    operator: o.operator,
    createdAt: o.now,
    updatedAt: o.now,
    localState: 'submitting',
    origin: o.origin,
    request: o.request,
    amountCents: o.amountCents,
    depixAddress: o.depixAddress,
    createResponse: null,
    remoteId: null,
    remoteStatus: null,
    remoteStatusAt: null,
    remoteCheckedAt: null,
    lastRemote: null,
    qrCopyPaste: null,
    expiration: null,
    valueCents: null,
    bankTxId: null,
    blockchainTxId: null,
    payerName: null,
    reversedAt: null,
    error: null,
    requestId: null,
    flags: o.flags,
  }
}

export const DEPOSIT_KIND: KindRules<DepositRecord> = {
  action: 'deposit',
  table: 'deposits',
  observations: 'deposit_observations',
  created: (rec, o, now) => {
    const response = o.createResponse
    return {
      ...rec,
      localState: 'created',
      updatedAt: now,
      remoteId: o.remoteId,
      createResponse: response,
      requestId: o.requestId,
      qrCopyPaste: qrPayloadOf(response) ?? rec.qrCopyPaste,
      expiration: o.expiration ?? rec.expiration,
      valueCents: cents(response?.valueInCents) ?? rec.valueCents,
    }
  },
  observation: { plan: planDepositObservation, flagsEntry: false },
}
