/**
 * Recording one status answer, for every record kind and both engines: what is stored, which entries are written
 * and what the record becomes. Pure; sqlite/lifecycle.ts and pg/kind-lifecycle.ts only read the last stored
 * answer, insert the planned observation row and write the planned entries, in that order, inside the caller's
 * transaction. What one answer does to a record is the kind's planner (observations.ts).
 */
import { LedgerError } from './errors'
import { canonicalJson } from './canonical-json'
import type { ObservationInput, ObservationResult } from './inputs'
import { SYSTEM_OPERATOR, type KindRules, type LinkedRecord, type PlannedAudit } from './transitions'

type Body = Record<string, unknown> | null

/** A status answer about to be stored, its time and ids settled. */
export interface ObservedAnswer {
  status: string
  body: Body
  observedAt: string
  requestId: string | null
  nonce: string | null
}

/** A record as the observation step reads and writes it. */
export interface ObservedRecord extends LinkedRecord {
  remoteCheckedAt: string | null
}

/** The answer as a row of the kind's observations table. */
export interface ObservationRow {
  localId: string
  observedAt: string
  remoteStatus: string
  body: Body
  requestId: string | null
  nonce: string | null
  applied: boolean
}

export interface StoredObservation<R> {
  row: ObservationRow
  /** The entry of the flags the answer raised, written before the record (withdrawals; top-ups list them in the
   *  observed entry instead). Its subject is the record. */
  flagged: PlannedAudit | null
  record: R
  applied: boolean
  raised: string[]
}

/** One answer stored: its row, the flags entry, and the record with it applied (`remoteCheckedAt` = now). */
export function planStoredObservation<R extends ObservedRecord>(
  kind: KindRules<R>,
  rec: R,
  obs: ObservedAnswer,
  now: string,
): StoredObservation<R> {
  const plan = kind.observation.plan(rec, obs)
  const planned = plan.record
  const contentChanged = canonicalJson(planned) !== canonicalJson(rec)
  return {
    row: {
      localId: rec.localId,
      observedAt: obs.observedAt,
      remoteStatus: obs.status,
      body: obs.body,
      requestId: obs.requestId,
      nonce: obs.nonce,
      applied: plan.applied,
    },
    flagged:
      kind.observation.flagsEntry && plan.raised.length > 0
        ? {
            operator: SYSTEM_OPERATOR,
            action: `${kind.action}.flagged`,
            details: { flags: plan.raised, remoteStatus: obs.status, requestId: obs.requestId },
          }
        : null,
    record: { ...planned, remoteCheckedAt: now, updatedAt: contentChanged ? now : rec.updatedAt },
    applied: plan.applied,
    raised: plan.raised,
  }
}

/** The entry of a stored answer: what it said, whether it applied, and (top-ups) the flags it raised. */
export function observedAudit<R extends LinkedRecord>(
  kind: KindRules<R>,
  s: StoredObservation<R>,
): PlannedAudit {
  return {
    operator: SYSTEM_OPERATOR,
    action: `${kind.action}.observed`,
    details: {
      remoteStatus: s.row.remoteStatus,
      applied: s.applied,
      requestId: s.row.requestId,
      ...(!kind.observation.flagsEntry && s.raised.length > 0 ? { flags: s.raised } : {}),
    },
  }
}

export type ObservationStep<R> =
  /** The same answer as the last one stored: only `remoteCheckedAt` moves (the tracker's backoff survives a
   *  restart), no row and no entry. */
  | { same: true; result: ObservationResult<R> }
  | { same: false; stored: StoredObservation<R>; audit: PlannedAudit; result: ObservationResult<R> }

/**
 * A status answer for `rec` (read under its lock), given the last answer stored for it. Only a `created` record
 * is observed: anything else is `illegal_transition`.
 */
export function planObservationStep<R extends ObservedRecord>(
  kind: KindRules<R>,
  rec: R,
  input: ObservationInput,
  last: { remoteStatus: string; body: unknown } | undefined,
  now: string,
): ObservationStep<R> {
  if (rec.localState !== 'created') {
    throw new LedgerError(
      'illegal_transition',
      `cannot observe ${rec.localId}: it is ${rec.localState}, not created`,
    )
  }
  if (
    last !== undefined &&
    last.remoteStatus === input.status &&
    canonicalJson(last.body ?? null) === canonicalJson(input.body)
  ) {
    return {
      same: true,
      result: { changed: false, applied: false, record: { ...rec, remoteCheckedAt: now }, raised: [] },
    }
  }
  const stored = planStoredObservation(kind, rec, answerOf(input, now), now)
  return {
    same: false,
    stored,
    audit: observedAudit(kind, stored),
    result: { changed: true, applied: stored.applied, record: stored.record, raised: stored.raised },
  }
}

/** The answer as stored: its time defaults to now, its ids to null. */
export function answerOf(input: ObservationInput, now: string): ObservedAnswer {
  return {
    status: input.status,
    body: input.body,
    observedAt: input.observedAt === undefined ? now : new Date(input.observedAt).toISOString(),
    requestId: input.requestId ?? null,
    nonce: input.nonce ?? null,
  }
}
