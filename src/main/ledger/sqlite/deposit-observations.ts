/**
 * GET /deposit-status answers: every answer that differs from the previous one is kept as history
 * (`deposit_observations`), and becomes the record's current status only if `decideDepositStatus` says it is not
 * older than what the record shows (the same rule as withdrawals, shared/status-order.ts). The first answer that
 * shows the deposit reversed (`refunded`, a MED) raises `med_reversal` and dates it (`reversedAt`): the alert the
 * operator must act on. A value other than the one asked for raises `value_mismatch`, whatever the order.
 */
import { DEPOSIT_FLAGS, type DepositRecord } from '../../../shared/deposit-record'
import { decideDepositStatus, normalizeDepositStatus } from '../../../shared/deposit-status'
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

const stringField = (b: Body, k: string): string | undefined =>
  b && typeof b[k] === 'string' && b[k] !== '' ? b[k] : undefined
const centsField = (b: Body, k: string): number | undefined =>
  b && typeof b[k] === 'number' && Number.isSafeInteger(b[k]) ? b[k] : undefined

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
    next.expiration = stringField(body, 'expiration') ?? next.expiration
    next.bankTxId = stringField(body, 'bankTxId') ?? next.bankTxId
    next.blockchainTxId = stringField(body, 'blockchainTxID') ?? next.blockchainTxId
    next.payerName = stringField(body, 'payerName') ?? next.payerName
    if (normalizeDepositStatus(obs.status) === 'refunded' && rec.reversedAt === null) {
      next.reversedAt = obs.observedAt
      raise(DEPOSIT_FLAGS.medReversal)
    }
  }
  return { record: next, applied: decision.replace, raised: next.flags.filter((f) => !rec.flags.includes(f)) }
}

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
