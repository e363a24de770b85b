/**
 * Status answers on SQLite, for every record kind: the observation step of model/observation-step.ts (what is
 * stored, which entries, what the record becomes) executed in one transaction: the answer's row in the kind's
 * observations table, the entry of the flags it raised, then the record through the kind's write path.
 */
import type { ObservationInput, ObservationResult } from '../model/inputs'
import {
  planObservationStep,
  planStoredObservation,
  type ObservedAnswer,
  type ObservedRecord,
  type StoredObservation,
} from '../model/observation-step'
import type { KindRules } from '../model/transitions'
import { appendAuditRow } from './audit'
import { parseInput, type Ctx } from './context'
import { toJson } from './db'
import { rowToObservation } from './queries'
import type { RecordAudit } from './record-write'
import { observationInputSchema } from './types'

/** What the observation step needs of a kind on this engine. */
export interface ObservedKind<R extends ObservedRecord> extends KindRules<R> {
  mustGet(ctx: Ctx, localId: string): R
  write(ctx: Ctx, at: string, prev: R, next: R, audit: RecordAudit | null): void
}

/** Stores one answer (its row and flags entry) inside the caller's transaction; the caller writes the record. */
export function storeObservation<R extends ObservedRecord>(
  kind: KindRules<R>,
  ctx: Ctx,
  rec: R,
  obs: ObservedAnswer,
): StoredObservation<R> {
  const now = ctx.nowIso()
  return insertStored(kind, ctx, now, planStoredObservation(kind, rec, obs, now))
}

function insertStored<R extends ObservedRecord>(
  kind: KindRules<R>,
  ctx: Ctx,
  now: string,
  s: StoredObservation<R>,
): StoredObservation<R> {
  const o = s.row
  ctx.db
    .stmt(
      `INSERT INTO ${kind.observations} (local_id, observed_at, remote_status, body, request_id, nonce, applied)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    )
    .run(o.localId, o.observedAt, o.remoteStatus, toJson(o.body), o.requestId, o.nonce, o.applied ? 1 : 0)
  if (s.flagged) appendAuditRow(ctx.db, now, { ...s.flagged, subject: o.localId })
  return s
}

export function recordObservation<R extends ObservedRecord>(
  kind: ObservedKind<R>,
  ctx: Ctx,
  localId: string,
  input: ObservationInput,
): ObservationResult<R> {
  const obs = parseInput(observationInputSchema, input, 'observation')
  return ctx.db.tx(() => {
    const rec = kind.mustGet(ctx, localId)
    const now = ctx.nowIso()
    const row = ctx.db
      .stmt(`SELECT * FROM ${kind.observations} WHERE local_id = ? ORDER BY id DESC LIMIT 1`)
      .get(localId)
    const step = planObservationStep(kind, rec, obs, row ? rowToObservation(row) : undefined, now)
    if (step.same) {
      kind.write(ctx, now, rec, step.result.record, null)
      return step.result
    }
    insertStored(kind, ctx, now, step.stored)
    kind.write(ctx, now, rec, step.result.record, step.audit)
    return step.result
  })
}
