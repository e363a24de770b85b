/**
 * The deposit lifecycle (a top-up, "compra de DePix"): the same local states and transitions as withdrawals
 * (shared/withdrawal-record.ts LOCAL_TRANSITIONS), each operation one transaction through the one write path
 * (record-write.ts) with its audit entry. Deposit-specific: the request is a POST /deposit body, the create answer
 * carries the QR facts, and a deposit found at the service can be imported (`origin: imported`).
 */
import { randomUUID } from 'node:crypto'
import { DEPOSIT_ID_PREFIX, type DepositRecord } from '../../../shared/deposit-record'
import type { WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import { parseInput, type Ctx } from './context'
import { getDeposit, getDepositByRemoteId, mustGetDeposit } from './deposit-queries'
import { observedAudit } from '../model/observation-step'
import { recordObservation, storeObservation } from './observations'
import type { ObservationInput, ObservationResult } from '../model/inputs'
import { DEPOSIT_TABLE } from './deposit-rows'
import {
  depositResolutionSchema,
  importedDepositSchema,
  newDepositSchema,
  type DepositResolution,
  type ImportedDeposit,
  type NewDeposit,
} from './deposit-types'
import { LedgerError } from '../model/errors'
import { blank, cents, DEPOSIT_KIND, QR_PAYLOAD_KEYS, qrPayloadOf } from '../model/kinds'
import {
  applyJournaledCreate,
  markCreated,
  markFailed,
  recoverInterrupted,
  resolveUnknown,
  setFlags,
  type RecordKind,
} from './lifecycle'
import { writeKindRecord, type RecordAudit } from './record-write'
import { createdOutcomeSchema, type CreatedOutcome } from './types'

export { blank, cents, QR_PAYLOAD_KEYS, qrPayloadOf }

const write = (
  ctx: Ctx,
  at: string,
  prev: DepositRecord | null,
  next: DepositRecord,
  audit: RecordAudit | null,
) => writeKindRecord(ctx.db, DEPOSIT_TABLE, at, prev, next, audit)

const DEPOSIT: RecordKind<DepositRecord> = {
  ...DEPOSIT_KIND,
  mustGet: mustGetDeposit,
  write: (ctx, at, prev, next, audit) => void write(ctx, at, prev, next, audit),
  assertRemoteIdFree: (ctx, rec, remoteId) => assertRemoteIdFree(ctx, rec.profile, remoteId, rec.localId),
}

function assertRemoteIdFree(ctx: Ctx, profile: string, remoteId: string, localId: string | null): void {
  const other = getDepositByRemoteId(ctx.db, profile, remoteId)
  if (other && other.localId !== localId) {
    throw new LedgerError('duplicate_remote_id', `deposit ${remoteId} is already linked to ${other.localId}`)
  }
}

export function insertSubmittingDeposit(ctx: Ctx, input: NewDeposit, operator: string): DepositRecord {
  const n = parseInput(newDepositSchema, input, 'new deposit')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  const amount = cents(n.request.amountInCents)
  if (amount === null || amount <= 0)
    throw new LedgerError('invalid_input', 'request.amountInCents is required')
  const address = typeof n.request.depixAddress === 'string' ? n.request.depixAddress : null
  return ctx.db.tx(() => {
    const localId = n.localId ?? `${DEPOSIT_ID_PREFIX}${randomUUID()}`
    if (getDeposit(ctx.db, localId))
      throw new LedgerError('invalid_input', `deposit record ${localId} already exists`)
    const now = ctx.nowIso()
    const rec = blank({
      localId,
      profile: n.profile,
      operator,
      now,
      origin: 'app',
      request: n.request,
      amountCents: amount,
      depixAddress: address,
      flags: [...new Set(n.flags ?? [])],
    })
    write(ctx, now, null, rec, {
      operator,
      action: 'deposit.submitting',
      details: { profile: rec.profile, amountCents: amount, depixAddress: address },
    })
    return rec
  })
}

export function markDepositCreated(ctx: Ctx, localId: string, outcome: CreatedOutcome): DepositRecord {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return markCreated(DEPOSIT, ctx, localId, o)
}

/** The side journal's replay entry point: idempotent, as for withdrawals (withdrawals.ts applyJournaledCreate). */
export function applyJournaledDepositCreate(
  ctx: Ctx,
  localId: string,
  outcome: CreatedOutcome,
): { record: DepositRecord; applied: boolean } {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return applyJournaledCreate(DEPOSIT, ctx, localId, o)
}

export function markDepositRejected(ctx: Ctx, localId: string, error: WithdrawalErrorInfo): DepositRecord {
  return markFailed(DEPOSIT, ctx, localId, 'rejected', error, {})
}

export function markDepositOutcomeUnknown(
  ctx: Ctx,
  localId: string,
  error: WithdrawalErrorInfo | null,
  reason: string,
): DepositRecord {
  return markFailed(DEPOSIT, ctx, localId, 'outcome_unknown', error, { reason })
}

/** A crash between "submitting committed" and "answer stored": nobody knows whether the POST arrived. */
export function recoverInterruptedDeposits(ctx: Ctx): number {
  return recoverInterrupted(DEPOSIT, ctx)
}

export function resolveUnknownDeposit(
  ctx: Ctx,
  localId: string,
  resolution: DepositResolution,
  operator: string,
): DepositRecord {
  const r = parseInput(depositResolutionSchema, resolution, 'resolution')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  const linkedId = 'depositId' in r ? r.depositId : null
  return resolveUnknown(DEPOSIT, ctx, localId, linkedId, r.note ?? null, operator)
}

/**
 * A deposit the service knows and this ledger did not (reconciliation): created here as `origin: imported`, with
 * the status answer that proved it as its first observation. Its amount is the value the service reports.
 */
export function importOutsideDeposit(ctx: Ctx, input: ImportedDeposit, operator: string): DepositRecord {
  const n = parseInput(importedDepositSchema, input, 'imported deposit')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  return ctx.db.tx(() => {
    assertRemoteIdFree(ctx, n.profile, n.remoteId, null)
    const now = ctx.nowIso()
    const base: DepositRecord = {
      ...blank({
        localId: `${DEPOSIT_ID_PREFIX}${randomUUID()}`,
        profile: n.profile,
        operator,
        now,
        origin: 'imported',
        request: {},
        amountCents: cents(n.body.valueInCents) ?? 0,
        depixAddress: null,
        flags: [],
      }),
      localState: 'created',
      remoteId: n.remoteId,
    }
    write(ctx, now, null, base, {
      operator,
      action: 'deposit.imported_outside',
      details: { profile: n.profile, remoteId: n.remoteId, requestId: n.requestId ?? null },
    })
    const stored = storeObservation(DEPOSIT, ctx, base, {
      status: n.status,
      body: n.body,
      observedAt: now,
      requestId: n.requestId ?? null,
      nonce: n.nonce ?? null,
    })
    write(ctx, now, base, stored.record, observedAudit(DEPOSIT, stored))
    return stored.record
  })
}

export function recordDepositObservation(
  ctx: Ctx,
  localId: string,
  input: ObservationInput,
): ObservationResult<DepositRecord> {
  return recordObservation(DEPOSIT, ctx, localId, input)
}

export function setDepositFlags(
  ctx: Ctx,
  localId: string,
  flags: readonly string[],
  operator: string,
): DepositRecord {
  return setFlags(DEPOSIT, ctx, localId, flags, operator)
}
