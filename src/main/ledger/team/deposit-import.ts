/**
 * The deposits of a desk's SQLite ledger, moved into the team ledger by `importDeskLedger` (import.ts) with the
 * same rules as its withdrawals: idempotent per desk ledger (`imported_from`), local ids kept, status history with
 * its original times, the desk's audit entries for each deposit carried inside its `deposit.imported` entry with
 * the record's state hash. A local id, or a deposit id, the team already holds from elsewhere is a conflict: left
 * as it is and listed, never overwritten.
 */
import type { DepositRecord } from '../../../shared/deposit-record'
import type { AuditEntry } from '../../../shared/withdrawal-record'
import type { Ledger } from '../sqlite'
import { insertObservation } from '../pg/observation-rows'
import { writeDeposit } from '../pg/deposit-lifecycle'
import { importedOrigins, lockOrigin } from './desk-import'
import { withTx } from '../pg/tx'
import type pg from 'pg'

export interface DepositImportResult {
  imported: number
  skipped: number
  conflicts: string[]
}

const BATCH = 100

/** True when the desk still holds a deposit whose POST's answer is unknown to it (resolve it there first). */
export function hasUnfinishedDeposit(desk: Ledger): boolean {
  return desk.deposits.query({ statuses: ['submitting'], limit: 1 }).total > 0
}

export async function importDeskDeposits(
  pool: pg.Pool,
  desk: Ledger,
  operator: string,
  origin: string,
  history: (localId: string) => AuditEntry[],
): Promise<DepositImportResult> {
  const result: DepositImportResult = { imported: 0, skipped: 0, conflicts: [] }
  let batch: DepositRecord[] = []
  const flush = async (): Promise<void> => {
    const records = batch
    batch = []
    if (records.length === 0) return
    await withTx(pool, async (tx) => {
      await lockOrigin(tx.c, origin)
      const there = await importedOrigins(
        tx.c,
        'deposits',
        records.map((r) => r.localId),
      )
      const remote = await tx.c.query(
        'SELECT remote_id, local_id FROM deposits WHERE remote_id = ANY($1::text[])',
        [records.flatMap((r) => (r.remoteId === null ? [] : [r.remoteId]))],
      )
      const remoteTaken = new Map(remote.rows.map((r) => [String(r.remote_id), String(r.local_id)]))
      for (const rec of records) {
        if (there.has(rec.localId)) {
          if (there.get(rec.localId) === origin) result.skipped += 1
          else result.conflicts.push(rec.localId)
          continue
        }
        // The same deposit already followed on the team (imported from the service by another desk, say).
        if (rec.remoteId !== null && remoteTaken.has(rec.remoteId)) {
          result.conflicts.push(rec.localId)
          continue
        }
        // The row and its audit entry (state hash computed by the database), then its status history.
        await writeDeposit(
          tx,
          null,
          rec,
          { operator, action: 'deposit.imported', details: { origin, history: history(rec.localId) } },
          origin,
        )
        for (const o of desk.deposits.observations(rec.localId)) {
          await insertObservation(tx.c, 'deposit_observations', {
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
  for (const rec of desk.deposits.iterate({ sort: { field: 'createdAt', dir: 'asc' } })) {
    batch.push(rec)
    if (batch.length >= BATCH) await flush()
  }
  await flush()
  return result
}
