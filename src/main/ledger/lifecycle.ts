/**
 * The local lifecycle every record kind shares (docs/adr/0002-journal-before-post.md: submitting → created | rejected | outcome_unknown, and
 * outcome_unknown → created | not_created), written once for withdrawals and deposits. Each operation is one
 * transaction through the kind's write path, so the state change and its audit entry commit together or not at all.
 */
import { canTransition, type LocalState, type WithdrawalErrorInfo } from '../../shared/withdrawal-record'
import { SYSTEM_OPERATOR } from './audit'
import { parseInput, type Ctx } from './context'
import { LedgerError } from './errors'
import type { RecordAudit } from './record-write'
import { errorInfoOrNull } from './types'

/** What the shared lifecycle reads and writes on a record of any kind. */
export interface LifecycleRecord {
  localId: string
  localState: LocalState
  operator: string
  createdAt: string
  updatedAt: string
  error: WithdrawalErrorInfo | null
  requestId: string | null
}

export interface RecordKind<R extends LifecycleRecord> {
  /** The audit actions' prefix (`withdrawal.rejected`, `deposit.outcome_unknown`). */
  action: 'withdrawal' | 'deposit'
  /** The kind's table: a fixed name, never input. */
  table: 'withdrawals' | 'deposits'
  mustGet(ctx: Ctx, localId: string): R
  write(ctx: Ctx, at: string, prev: R, next: R, audit: RecordAudit): void
}

/** `from` names the one state this operation starts from (several operations lead to the same target). */
export function assertTransition(rec: LifecycleRecord, from: LocalState, to: LocalState): void {
  if (rec.localState !== from || !canTransition(from, to)) {
    throw new LedgerError('illegal_transition', `${rec.localId}: ${rec.localState} → ${to} is not allowed`)
  }
}

/** The answer said no (`rejected`), or nobody knows whether the POST arrived (`outcome_unknown`). */
export function markFailed<R extends LifecycleRecord>(
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
    assertTransition(rec, 'submitting', to)
    const now = ctx.nowIso()
    const next: R = { ...rec, localState: to, updatedAt: now, error: err, requestId: err?.requestId ?? null }
    kind.write(ctx, now, rec, next, {
      operator: rec.operator,
      action: `${kind.action}.${to}`,
      details: { ...details, error: err },
    })
    return next
  })
}

/**
 * After a crash or kill between "submitting committed" and "response written", nobody knows whether the POST
 * reached the service. Every such record becomes outcome_unknown (never resent); the operator resolves it.
 */
export function recoverInterrupted<R extends LifecycleRecord>(kind: RecordKind<R>, ctx: Ctx): number {
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
        kind.write(
          ctx,
          now,
          rec,
          { ...rec, localState: 'outcome_unknown', updatedAt: now },
          {
            operator: SYSTEM_OPERATOR,
            action: `${kind.action}.outcome_unknown`,
            details: { reason: 'interrupted', submittedBy: rec.operator, submittedAt: rec.createdAt },
          },
        )
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
