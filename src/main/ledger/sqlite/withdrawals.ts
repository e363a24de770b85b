/**
 * The withdrawal lifecycle (docs/adr/0002-journal-before-post.md) on the shared local lifecycle (lifecycle.ts). Each function is one
 * transaction: the state change and its audit row commit together or not at all. Transitions are checked against
 * LOCAL_TRANSITIONS; anything else is refused with LedgerError('illegal_transition') and writes nothing.
 */
import { randomUUID } from 'node:crypto'
import { type WithdrawalErrorInfo, type WithdrawalRecord } from '../../../shared/withdrawal-record'
import { mustGet, parseInput, type Ctx } from './context'
import { LedgerError } from '../model/errors'
import { assertMatchesRequest, submittingRecord, WITHDRAWAL_KIND } from '../model/kinds'
import { planFunded } from '../model/transitions'
import {
  applyJournaledCreate as applyJournaledCreateOf,
  markCreated as markCreatedOf,
  markFailed,
  recoverInterrupted as recoverInterruptedOf,
  resolveUnknown as resolveUnknownOf,
  setFlags as setFlagsOf,
  type RecordKind,
} from './lifecycle'
import { getByRemoteId, getRecord } from './queries'
import { recordObservation } from './observations'
import type { ObservationInput, ObservationResult } from '../model/inputs'
import { writeRecord } from './record-write'
import {
  createdOutcomeSchema,
  newWithdrawalSchema,
  unknownResolutionSchema,
  type CreatedOutcome,
  type NewWithdrawal,
  type UnknownResolution,
} from './types'

const WITHDRAWAL: RecordKind<WithdrawalRecord> = {
  ...WITHDRAWAL_KIND,
  mustGet,
  write: (ctx, at, prev, next, audit) => void writeRecord(ctx.db, at, prev, next, audit),
  assertRemoteIdFree: (ctx, rec, remoteId) => assertRemoteIdFree(ctx, remoteId, rec.localId),
}

function assertRemoteIdFree(ctx: Ctx, remoteId: string, localId: string): void {
  const other = getByRemoteId(ctx.db, remoteId)
  if (other && other.localId !== localId) {
    throw new LedgerError(
      'duplicate_remote_id',
      `withdrawal ${remoteId} is already linked to ${other.localId}`,
    )
  }
}

export { assertMatchesRequest, submittingRecord }

export function recordWithdrawalObservation(
  ctx: Ctx,
  localId: string,
  input: ObservationInput,
): ObservationResult {
  return recordObservation(WITHDRAWAL, ctx, localId, input)
}

export function insertSubmitting(ctx: Ctx, input: NewWithdrawal, operator: string): WithdrawalRecord {
  const n = parseInput(newWithdrawalSchema, input, 'new withdrawal')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  assertMatchesRequest(n)
  return ctx.db.tx(() => {
    const localId = n.localId ?? randomUUID()
    if (getRecord(ctx.db, localId)) {
      throw new LedgerError('invalid_input', `withdrawal record ${localId} already exists`)
    }
    const now = ctx.nowIso()
    const rec = submittingRecord(n, localId, operator, now)
    writeRecord(ctx.db, now, null, rec, {
      operator,
      action: 'withdrawal.submitting',
      details: {
        profile: rec.profile,
        pixKey: rec.pixKey,
        amountKind: rec.amountKind,
        amountCents: rec.amountCents,
        ...(rec.expectedPayee ? { payeeId: rec.expectedPayee.id } : {}),
      },
    })
    return rec
  })
}

export function markCreated(ctx: Ctx, localId: string, outcome: CreatedOutcome): WithdrawalRecord {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return markCreatedOf(WITHDRAWAL, ctx, localId, o)
}

/**
 * The replay entry point of the side journal (withdrawals/side-journal.ts): the API's 2xx answer to a create,
 * which the ledger could not store when it arrived. Applies to the record still `submitting`, or already
 * `outcome_unknown` (a restart's recovery, or the `store_failed` fallback); a record already created with this
 * id is left as it is (`applied: false`), so a replay can run any number of times. Anything else (another id, a
 * record resolved as not created) is refused with LedgerError and writes nothing.
 */
export function applyJournaledCreate(
  ctx: Ctx,
  localId: string,
  outcome: CreatedOutcome,
): { record: WithdrawalRecord; applied: boolean } {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return applyJournaledCreateOf(WITHDRAWAL, ctx, localId, o)
}

export function markRejected(ctx: Ctx, localId: string, error: WithdrawalErrorInfo): WithdrawalRecord {
  return markFailed(WITHDRAWAL, ctx, localId, 'rejected', error, {})
}

export function markOutcomeUnknown(
  ctx: Ctx,
  localId: string,
  error: WithdrawalErrorInfo | null,
  reason: string,
): WithdrawalRecord {
  return markFailed(WITHDRAWAL, ctx, localId, 'outcome_unknown', error, { reason })
}

export function recoverInterrupted(ctx: Ctx): number {
  return recoverInterruptedOf(WITHDRAWAL, ctx)
}

export function resolveUnknown(
  ctx: Ctx,
  localId: string,
  resolution: UnknownResolution,
  operator: string,
): WithdrawalRecord {
  const r = parseInput(unknownResolutionSchema, resolution, 'resolution')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  const linkedId = 'withdrawalId' in r ? r.withdrawalId : null
  return resolveUnknownOf(WITHDRAWAL, ctx, localId, linkedId, r.note ?? null, operator)
}

/** The operator declares the token sent to the deposit address (model/transitions.ts planFunded). */
export function markFunded(
  ctx: Ctx,
  localId: string,
  funding: { txId?: string | null },
  operator: string,
): WithdrawalRecord {
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  const txId = typeof funding.txId === 'string' && funding.txId.trim() !== '' ? funding.txId.trim() : null
  return ctx.db.tx(() => {
    const rec = mustGet(ctx, localId)
    const plan = planFunded(rec, txId, operator, () => ctx.nowIso())
    if (!plan) return rec
    writeRecord(ctx.db, plan.next.updatedAt, rec, plan.next, plan.audit)
    return plan.next
  })
}

/** Replaces the record's flags; audited as what was added and removed. Same set: no-op. */
export function setFlags(
  ctx: Ctx,
  localId: string,
  flags: readonly string[],
  operator: string,
): WithdrawalRecord {
  return setFlagsOf(WITHDRAWAL, ctx, localId, flags, operator)
}
