/**
 * Status observations: every GET /withdraw-status answer that differs from the previous one is kept as history,
 * and becomes the record's current remote status only if `decideStatus` says it is not older than what the
 * record shows (webhooks are unordered and polls can cross, docs/API-CONTRACT.md#s6-2). Stale answers are stored with
 * applied = 0 and change nothing else, except a refund (once any answer carries one, the record keeps it) and
 * flags (another deposit address or Pix key named, a receiver who is not the expected payee, conflicting terminal
 * statuses), raised whatever the order.
 */
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { planObservation, type ObservationPlan } from '../model/observations'
import { appendAuditRow, SYSTEM_OPERATOR } from './audit'
import { canonicalJson } from '../model/canonical-json'
import { mustGet, parseInput, type Ctx } from './context'
import { toJson } from './db'
import { LedgerError } from '../model/errors'
import { lastObservation } from './queries'
import { writeRecord } from './record-write'
import { observationInputSchema, type ObservationInput, type ObservationResult } from './types'

type Body = Record<string, unknown> | null

export { planObservation, type ObservationPlan }

/**
 * Stores one observation and applies it. Must run inside the caller's transaction. Returns the plan with
 * `updatedAt` and `remoteCheckedAt` set; the caller writes the record row.
 */
export function storeObservation(
  ctx: Ctx,
  rec: WithdrawalRecord,
  obs: { status: string; body: Body; observedAt: string; requestId: string | null; nonce: string | null },
): ObservationPlan {
  const now = ctx.nowIso()
  const plan = planObservation(rec, obs)
  ctx.db
    .stmt(
      `INSERT INTO observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(
      rec.localId,
      obs.observedAt,
      obs.status,
      toJson(obs.body),
      obs.requestId,
      obs.nonce,
      plan.applied ? 1 : 0,
    )
  const contentChanged = canonicalJson(plan.record) !== canonicalJson(rec)
  plan.record = { ...plan.record, remoteCheckedAt: now, updatedAt: contentChanged ? now : rec.updatedAt }
  if (plan.raised.length > 0) {
    appendAuditRow(ctx.db, now, {
      operator: SYSTEM_OPERATOR,
      action: 'withdrawal.flagged',
      subject: rec.localId,
      details: { flags: plan.raised, remoteStatus: obs.status, requestId: obs.requestId },
    })
  }
  return plan
}

export function recordObservation(ctx: Ctx, localId: string, input: ObservationInput): ObservationResult {
  const obs = parseInput(observationInputSchema, input, 'observation')
  return ctx.db.tx(() => {
    const rec = mustGet(ctx, localId)
    if (rec.localState !== 'created') {
      throw new LedgerError(
        'illegal_transition',
        `cannot observe ${localId}: it is ${rec.localState}, not created`,
      )
    }
    const now = ctx.nowIso()
    const observedAt = obs.observedAt === undefined ? now : new Date(obs.observedAt).toISOString()
    const last = lastObservation(ctx.db, localId)
    const same =
      last !== undefined &&
      last.remoteStatus === obs.status &&
      canonicalJson(last.body) === canonicalJson(obs.body)
    if (same) {
      // Nothing new: only remember that we asked, so backoff survives a restart.
      const record = { ...rec, remoteCheckedAt: now }
      writeRecord(ctx.db, now, rec, record, null)
      return { changed: false, applied: false, record }
    }
    const plan = storeObservation(ctx, rec, {
      status: obs.status,
      body: obs.body,
      observedAt,
      requestId: obs.requestId ?? null,
      nonce: obs.nonce ?? null,
    })
    // A stale answer that raised nothing changes only bookkeeping: no entry (see record-write.ts).
    writeRecord(ctx.db, now, rec, plan.record, {
      operator: SYSTEM_OPERATOR,
      action: 'withdrawal.observed',
      details: { remoteStatus: obs.status, applied: plan.applied, requestId: obs.requestId ?? null },
    })
    return { changed: true, applied: plan.applied, record: plan.record }
  })
}
