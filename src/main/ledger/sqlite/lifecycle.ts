/**
 * The local lifecycle every record kind shares, on SQLite: the planners of model/transitions.ts applied inside one
 * transaction through the kind's write path, so the state change and its audit entry commit together or not at
 * all. The rules live in model/; here only what needs the database (lock, read, write, a remote id already
 * linked to another record).
 */
import type { WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import { parseInput, type Ctx } from './context'
import { LedgerError } from '../model/errors'
import {
  assertTransition,
  createdAudit,
  planFailed,
  planFlags,
  planInterrupted,
  planJournaledCreate,
  planResolved,
  type CreatedAnswer,
  type LifecycleRecord,
} from '../model/transitions'
import type { ObservedRecord } from '../model/observation-step'
import { storeObservation, type ObservedKind } from './observations'
import { errorInfoOrNull } from './types'

export { assertTransition, type LifecycleRecord }

/** A kind's rules (model/kinds.ts) plus how this engine reads, writes and checks its rows. */
export interface RecordKind<R extends ObservedRecord> extends ObservedKind<R> {
  /** Refuses a remote id already linked to another record of the kind (`duplicate_remote_id`). */
  assertRemoteIdFree(ctx: Ctx, rec: R, remoteId: string): void
}

/** The answer said no (`rejected`), or nobody knows whether the POST arrived (`outcome_unknown`). */
export function markFailed<R extends ObservedRecord>(
  kind: RecordKind<R>,
  ctx: Ctx,
  localId: string,
  to: 'rejected' | 'outcome_unknown',
  error: WithdrawalErrorInfo | null,
  details: Record<string, unknown>,
): R {
  if (to === 'rejected' && error === null) {
    throw new LedgerError('invalid_input', 'a rejection needs its error info')
  }
  const err = parseInput(errorInfoOrNull, error, 'error info')
  return ctx.db.tx(() => {
    const rec = kind.mustGet(ctx, localId)
    const plan = planFailed(kind, rec, to, err, details, () => ctx.nowIso())
    kind.write(ctx, plan.next.updatedAt, rec, plan.next, plan.audit)
    return plan.next
  })
}

/**
 * After a crash or kill between "submitting committed" and "response written", nobody knows whether the POST
 * reached the service. Every such record becomes outcome_unknown (never resent); the operator resolves it.
 */
export function recoverInterrupted<R extends ObservedRecord>(kind: RecordKind<R>, ctx: Ctx): number {
  return ctx.db.tx(() => {
    const ids = ctx.db
      .stmt(`SELECT local_id FROM ${kind.table} WHERE local_state = 'submitting' ORDER BY id`)
      .all()
      .map((r) => String(r.local_id))
    const now = ctx.nowIso()
    let recovered = 0
    for (const localId of ids) {
      const rec = kind.mustGet(ctx, localId)
      try {
        const plan = planInterrupted(kind, rec, () => now)
        kind.write(ctx, now, rec, plan.next, plan.audit)
        recovered += 1
      } catch (e) {
        // A record edited outside the app is left as it is (nothing was written for it): the integrity check
        // reports it, and start-up must still reach the operator to say so.
        if (!(e instanceof LedgerError && e.code === 'record_tampered')) throw e
      }
    }
    return recovered
  })
}

/** Inside a transaction, with the transition already checked. */
export function writeCreated<R extends ObservedRecord>(
  kind: RecordKind<R>,
  ctx: Ctx,
  rec: R,
  o: CreatedAnswer,
  extra: Record<string, unknown>,
): R {
  kind.assertRemoteIdFree(ctx, rec, o.remoteId)
  const now = ctx.nowIso()
  let next = kind.created(rec, o, now)
  if (typeof o.status === 'string') {
    next = storeObservation(kind, ctx, next, {
      status: o.status,
      body: o.createResponse,
      observedAt: now,
      requestId: o.requestId,
      nonce: o.nonce ?? null,
    }).record
  }
  kind.write(ctx, now, rec, next, createdAudit(kind, rec, o, extra))
  return next
}

export function markCreated<R extends ObservedRecord>(
  kind: RecordKind<R>,
  ctx: Ctx,
  localId: string,
  o: CreatedAnswer,
): R {
  return ctx.db.tx(() => {
    const rec = kind.mustGet(ctx, localId)
    assertTransition(rec, 'submitting', 'created')
    return writeCreated(kind, ctx, rec, o, {})
  })
}

/** The side journal's replay entry point: applied once; the same id again changes nothing (`applied: false`). */
export function applyJournaledCreate<R extends ObservedRecord>(
  kind: RecordKind<R>,
  ctx: Ctx,
  localId: string,
  o: CreatedAnswer,
): { record: R; applied: boolean } {
  return ctx.db.tx(() => {
    const rec = kind.mustGet(ctx, localId)
    const extra = planJournaledCreate(rec, o.remoteId)
    if (extra === null) return { record: rec, applied: false }
    return { record: writeCreated(kind, ctx, rec, o, extra), applied: true }
  })
}

/** An unknown outcome settled by the operator: linked to the id support gave, or declared not created. */
export function resolveUnknown<R extends ObservedRecord>(
  kind: RecordKind<R>,
  ctx: Ctx,
  localId: string,
  linkedId: string | null,
  note: string | null,
  operator: string,
): R {
  return ctx.db.tx(() => {
    const rec = kind.mustGet(ctx, localId)
    // The clock is read before the checks, as it always was on this engine.
    const now = ctx.nowIso()
    const plan = planResolved(kind, rec, linkedId, note, operator, () => now)
    if (linkedId !== null) kind.assertRemoteIdFree(ctx, rec, linkedId)
    kind.write(ctx, now, rec, plan.next, plan.audit)
    return plan.next
  })
}

/** Replaces the record's flags; audited as what was added and removed. Same set: no-op. */
export function setFlags<R extends ObservedRecord>(
  kind: RecordKind<R>,
  ctx: Ctx,
  localId: string,
  flags: readonly string[],
  operator: string,
): R {
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  if (!flags.every((f) => typeof f === 'string' && f !== ''))
    throw new LedgerError('invalid_input', 'bad flag')
  const wanted = [...new Set(flags)]
  return ctx.db.tx(() => {
    const rec = kind.mustGet(ctx, localId)
    const plan = planFlags(kind, rec, wanted, operator, () => ctx.nowIso())
    if (!plan) return rec
    kind.write(ctx, plan.next.updatedAt, rec, plan.next, plan.audit)
    return plan.next
  })
}
