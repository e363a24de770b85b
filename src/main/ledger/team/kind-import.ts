/**
 * The records of one kind moved from a desk's SQLite ledger into the team ledger (import.ts), by one rule for
 * every kind: idempotent per desk ledger (`imported_from`), local ids kept, status history with its original
 * times, the desk's audit entries for each record carried inside its `<kind>.imported` entry with the record's
 * state hash. A local id, or a service id, the team already holds from elsewhere is a conflict: left as it is and
 * listed, never overwritten.
 */
import type { AuditEntry, StatusObservation } from '../../../shared/withdrawal-record'
import type { KindRules, LinkedRecord } from '../model/transitions'
import { insertObservation } from '../pg/observation-rows'
import type { RecordAudit } from '../pg/record-write'
import { withTx, type Tx } from '../pg/tx'
import { importedOrigins, lockOrigin } from './desk-import'
import type pg from 'pg'

export interface KindImportResult {
  imported: number
  /** Already imported from this desk ledger. */
  skipped: number
  /** Local ids (or service ids) the team already holds from somewhere else: left as they are, listed. */
  conflicts: string[]
}

/** One kind as the import reads it from the desk and writes it to the team. */
export interface KindImport<R extends LinkedRecord> {
  rules: Pick<KindRules<R>, 'action' | 'table' | 'observations'>
  /** The desk's records, oldest first. */
  records: Iterable<R>
  observations(localId: string): StatusObservation[]
  /** The new row and its entry (`prev` null), marked as imported from `origin`. */
  write(tx: Tx, rec: R, audit: RecordAudit, origin: string): Promise<void>
}

const BATCH = 100

export async function importKind<R extends LinkedRecord>(
  pool: pg.Pool,
  kind: KindImport<R>,
  operator: string,
  origin: string,
  history: (localId: string) => AuditEntry[],
): Promise<KindImportResult> {
  const result: KindImportResult = { imported: 0, skipped: 0, conflicts: [] }
  const { table, observations, action } = kind.rules
  let batch: R[] = []
  const flush = async (): Promise<void> => {
    const records = batch
    batch = []
    if (records.length === 0) return
    await withTx(pool, async (tx) => {
      await lockOrigin(tx.c, origin)
      const there = await importedOrigins(
        tx.c,
        table,
        records.map((r) => r.localId),
      )
      const remote = await tx.c.query(
        `SELECT remote_id, local_id FROM ${table} WHERE remote_id = ANY($1::text[])`,
        [records.flatMap((r) => (r.remoteId === null ? [] : [r.remoteId]))],
      )
      const remoteTaken = new Set(remote.rows.map((r) => String(r.remote_id)))
      for (const rec of records) {
        if (there.has(rec.localId)) {
          if (there.get(rec.localId) === origin) result.skipped += 1
          else result.conflicts.push(rec.localId)
          continue
        }
        // The same payment or top-up already followed on the team (imported from the service by another desk).
        if (rec.remoteId !== null && remoteTaken.has(rec.remoteId)) {
          result.conflicts.push(rec.localId)
          continue
        }
        // The row and its audit entry (state hash computed by the database), then its status history.
        await kind.write(
          tx,
          rec,
          { operator, action: `${action}.imported`, details: { origin, history: history(rec.localId) } },
          origin,
        )
        for (const o of kind.observations(rec.localId)) {
          await insertObservation(tx.c, observations, {
            localId: rec.localId,
            observedAt: o.observedAt,
            remoteStatus: o.remoteStatus,
            body: o.body,
            requestId: o.requestId,
            nonce: o.nonce,
            applied: o.applied,
          })
        }
        result.imported += 1
      }
    })
  }
  for (const rec of kind.records) {
    batch.push(rec)
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  return result
}
