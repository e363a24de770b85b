/**
 * Status observations on the team ledger, either kind's table (`observations`, `deposit_observations`): the one
 * row writer (the lifecycles and the desk import), the one row reader, and the observation step of
 * model/observation-step.ts executed in the caller's transaction (the row, the flags entry, then the record
 * through the kind's write path), as sqlite/observations.ts does on a desk.
 */
import type { StatusObservation } from '../../../shared/withdrawal-record'
import type { ObservationInput, ObservationResult } from '../model/inputs'
import {
  planObservationStep,
  planStoredObservation,
  type ObservedAnswer,
  type ObservedRecord,
  type StoredObservation,
} from '../model/observation-step'
import type { KindRules } from '../model/transitions'
import { appendAudit } from './audit'
import type { Queryable } from './queryable'
import type { RecordAudit } from './record-write'
import type { Tx } from './tx'

export type ObservationTable = 'observations' | 'deposit_observations'

/** Through `add_observation` (migration 11): only a created record of that kind is observed. */
export async function insertObservation(
  c: Queryable,
  table: ObservationTable,
  o: Omit<StatusObservation, 'id'>,
): Promise<void> {
  await c.query('SELECT add_observation($1, $2, $3, $4, $5::jsonb, $6, $7, $8)', [
    table === 'observations' ? 'withdrawal' : 'deposit',
    o.localId,
    o.observedAt,
    o.remoteStatus,
    o.body === null ? null : JSON.stringify(o.body),
    o.requestId,
    o.nonce,
    o.applied,
  ])
}

export async function readObservations(
  c: Queryable,
  table: ObservationTable,
  localId: string,
): Promise<StatusObservation[]> {
  const r = await c.query(`SELECT * FROM ${table} WHERE local_id = $1 ORDER BY id`, [localId])
  return r.rows.map((x) => ({
    id: Number(x.id),
    localId: String(x.local_id),
    observedAt: String(x.observed_at),
    remoteStatus: String(x.remote_status),
    body: (x.body ?? null) as Record<string, unknown> | null,
    requestId: typeof x.request_id === 'string' ? x.request_id : null,
    nonce: typeof x.nonce === 'string' ? x.nonce : null,
    applied: x.applied === true,
  }))
}

/** What the observation step needs of a kind on this engine. */
export interface PgObservedKind<R extends ObservedRecord> extends KindRules<R> {
  /** The row locked for update; `not_found` when there is none. */
  mustGet(tx: Tx, localId: string): Promise<R>
  write(tx: Tx, prev: R, next: R, audit: RecordAudit | null): Promise<void>
}

/** Stores one answer (its row and flags entry); the caller writes the record. */
export async function storeObservation<R extends ObservedRecord>(
  kind: KindRules<R>,
  tx: Tx,
  rec: R,
  obs: ObservedAnswer,
): Promise<StoredObservation<R>> {
  return insertStored(kind, tx, planStoredObservation(kind, rec, obs, tx.now))
}

async function insertStored<R extends ObservedRecord>(
  kind: KindRules<R>,
  tx: Tx,
  s: StoredObservation<R>,
): Promise<StoredObservation<R>> {
  await insertObservation(tx.c, kind.observations, s.row)
  if (s.flagged) await appendAudit(tx.c, tx.identity, { ...s.flagged, subject: s.row.localId })
  return s
}

/** One status answer (already validated) for a record of `kind`, in the caller's transaction. */
export async function recordObservation<R extends ObservedRecord>(
  kind: PgObservedKind<R>,
  tx: Tx,
  localId: string,
  input: ObservationInput,
): Promise<ObservationResult<R>> {
  const rec = await kind.mustGet(tx, localId)
  const last = await tx.c.query(
    `SELECT remote_status, body FROM ${kind.observations} WHERE local_id = $1 ORDER BY id DESC LIMIT 1`,
    [localId],
  )
  const l = last.rows[0]
  const step = planObservationStep(
    kind,
    rec,
    input,
    l ? { remoteStatus: String(l.remote_status), body: l.body ?? null } : undefined,
    tx.now,
  )
  if (step.same) {
    await kind.write(tx, rec, step.result.record, null)
    return step.result
  }
  await insertStored(kind, tx, step.stored)
  await kind.write(tx, rec, step.result.record, step.audit)
  return step.result
}
