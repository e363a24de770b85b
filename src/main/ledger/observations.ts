/**
 * Status observations: every GET /withdraw-status answer that differs from the previous one is kept as history,
 * and becomes the record's current remote status only if `decideStatus` says it is not older than what the
 * record shows (webhooks are unordered and polls can cross, docs/API-CONTRACT.md#s6-2). Stale answers are stored with
 * applied = 0 and change nothing else, except a refund (once any answer carries one, the record keeps it) and
 * flags (another deposit address or Pix key named, a receiver who is not the expected payee, conflicting terminal
 * statuses), raised whatever the order.
 */
import { checkPayeeName } from '../../shared/name-check'
import { RECORD_FLAGS, type WithdrawalRecord } from '../../shared/withdrawal-record'
import { decideStatus } from '../../shared/withdrawal-status'
import { appendAuditRow, SYSTEM_OPERATOR } from './audit'
import { canonicalJson } from './canonical-json'
import { mustGet, parseInput, type Ctx } from './context'
import { toJson } from './db'
import { LedgerError } from './errors'
import { lastObservation } from './queries'
import { writeRecord } from './record-write'
import { observationInputSchema, type ObservationInput, type ObservationResult } from './types'

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
    next.depositAddress = address ?? next.depositAddress
    next.depositAmountCents = centsField(body, 'depositAmountInCents') ?? next.depositAmountCents
    next.payoutAmountCents = centsField(body, 'payoutAmountInCents') ?? next.payoutAmountCents
    next.expiration = stringField(body, 'expiration') ?? next.expiration
    next.receiverName = stringField(body, 'receiverName') ?? next.receiverName
  }
  const raised = next.flags.filter((f) => !rec.flags.includes(f))
  return { record: next, applied: decision.replace, raised }
}

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
