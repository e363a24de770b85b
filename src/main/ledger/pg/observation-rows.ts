/**
 * Status observations on the team ledger, either kind's table (`observations`, `deposit_observations`): the one
 * row writer (the lifecycles and the desk import) and the one row reader.
 */
import type { StatusObservation } from '../../../shared/withdrawal-record'
import type { Queryable } from './queryable'

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
