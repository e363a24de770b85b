/**
 * GET /deposit-status answers: every answer that differs from the previous one is kept as history
 * (`deposit_observations`), and becomes the record's current status only if `decideDepositStatus` says it is not
 * older than what the record shows (the same rule as withdrawals, shared/status-order.ts). The first answer that
 * shows the deposit reversed (`refunded`, a MED) raises `med_reversal` and dates it (`reversedAt`): the alert the
 * operator must act on. A value other than the one asked for raises `value_mismatch`, whatever the order.
 */
import type { DepositRecord } from '../../../shared/deposit-record'
import { planDepositObservation, type DepositObservationPlan } from '../model/observations'
import { SYSTEM_OPERATOR } from './audit'
import { canonicalJson } from '../model/canonical-json'
import type { Ctx } from './context'
import { parseInput } from './context'
import { toJson } from './db'
import { lastDepositObservation, mustGetDeposit } from './deposit-queries'
import { DEPOSIT_TABLE } from './deposit-rows'
import type { DepositObservationResult } from './deposit-types'
import { LedgerError } from '../model/errors'
import { writeKindRecord } from './record-write'
import { observationInputSchema, type ObservationInput } from './types'

type Body = Record<string, unknown> | null

export { planDepositObservation, type DepositObservationPlan }

/** Stores one observation row and returns the planned record. Inside the caller's transaction. */
export function storeDepositObservation(
  ctx: Ctx,
  rec: DepositRecord,
  obs: { status: string; body: Body; observedAt: string; requestId: string | null; nonce: string | null },
): DepositObservationPlan {
  const now = ctx.nowIso()
  const plan = planDepositObservation(rec, obs)
  ctx.db
    .stmt(
      `INSERT INTO deposit_observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
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
  return plan
}

export function recordDepositObservation(
  ctx: Ctx,
  localId: string,
  input: ObservationInput,
): DepositObservationResult {
  const obs = parseInput(observationInputSchema, input, 'observation')
  return ctx.db.tx(() => {
    const rec = mustGetDeposit(ctx, localId)
    if (rec.localState !== 'created') {
      throw new LedgerError(
        'illegal_transition',
        `cannot observe ${localId}: it is ${rec.localState}, not created`,
      )
    }
    const now = ctx.nowIso()
    const observedAt = obs.observedAt === undefined ? now : new Date(obs.observedAt).toISOString()
    const last = lastDepositObservation(ctx.db, localId)
    if (
      last !== undefined &&
      last.remoteStatus === obs.status &&
      canonicalJson(last.body) === canonicalJson(obs.body)
    ) {
      // Nothing new: only remember that we asked, so the tracker's backoff survives a restart.
      const record = { ...rec, remoteCheckedAt: now }
      writeKindRecord(ctx.db, DEPOSIT_TABLE, now, rec, record, null)
      return { changed: false, applied: false, record, raised: [] }
    }
    const plan = storeDepositObservation(ctx, rec, {
      status: obs.status,
      body: obs.body,
      observedAt,
      requestId: obs.requestId ?? null,
      nonce: obs.nonce ?? null,
    })
    writeKindRecord(ctx.db, DEPOSIT_TABLE, now, rec, plan.record, {
      operator: SYSTEM_OPERATOR,
      action: 'deposit.observed',
      details: {
        remoteStatus: obs.status,
        applied: plan.applied,
        requestId: obs.requestId ?? null,
        ...(plan.raised.length > 0 ? { flags: plan.raised } : {}),
      },
    })
    return { changed: true, applied: plan.applied, record: plan.record, raised: plan.raised }
  })
}
