/**
 * record-write.ts of the SQLite ledger on PostgreSQL: the one way a record row is written, with the audit entry of
 * the state it produced, refusing to build on a row edited outside the app.
 */
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { LedgerError } from '../../ledger'
import { recordStateHash } from '../../ledger/state-hash'
import { appendAudit, lastStateHash } from './audit'
import { INSERT_SQL, RECORD_SELECT, recordValues, rowToRecord, UPDATE_SQL } from './rows'
import type { Tx } from './tx'

export type RecordAudit = { operator: string; action: string; details: Record<string, unknown> }

export async function getRecord(
  c: Tx['c'] | { query: Tx['c']['query'] },
  localId: string,
  forUpdate = false,
): Promise<WithdrawalRecord | undefined> {
  const r = await c.query(
    `SELECT ${RECORD_SELECT} FROM withdrawals w WHERE w.local_id = $1${forUpdate ? ' FOR UPDATE' : ''}`,
    [localId],
  )
  return r.rows[0] ? rowToRecord(r.rows[0]) : undefined
}

/** A new row only; the caller appends its audit entry in the same transaction. */
export async function insertRow(
  tx: Tx,
  rec: WithdrawalRecord,
  insert: { approvalId?: string | null; importedFrom?: string | null },
): Promise<void> {
  await tx.c.query(INSERT_SQL, [...recordValues(rec), insert.approvalId ?? null, insert.importedFrom ?? null])
}

/**
 * record-write.ts on PostgreSQL, for every record kind: the row, then the audit entry of the state it produced,
 * refusing to build on a row whose content no longer matches its last audited state (edited outside the app).
 */
export async function writeAudited<R extends { localId: string; remoteCheckedAt?: string | null }>(
  tx: Tx,
  prev: R | null,
  next: R,
  audit: RecordAudit | null,
  row: { insert(next: R): Promise<unknown>; update(next: R): Promise<unknown> },
): Promise<void> {
  const stateHash = recordStateHash(next)
  if (prev !== null) {
    const last = await lastStateHash(tx.c, prev.localId)
    if (!last || last.hash !== recordStateHash(prev)) {
      throw new LedgerError(
        'record_tampered',
        `record ${prev.localId} differs from the state its last audit entry${last ? ` (seq ${last.seq})` : ''} recorded`,
        {
          'pt-BR': `O registro ${prev.localId} foi alterado fora do aplicativo (não confere com a trilha de auditoria); nada mais é gravado nele.`,
          en: `Record ${prev.localId} was changed outside the app (it does not match the audit trail); nothing more is written to it.`,
        },
      )
    }
    await row.update(next)
    if (recordStateHash(prev) === stateHash) return
  } else {
    await row.insert(next)
  }
  if (audit === null) throw new Error(`ledger: record ${next.localId} changed without an audit entry`)
  await appendAudit(tx.c, tx.identity, { ...audit, subject: next.localId, stateHash })
}

/** A withdrawal record's row and its audit entry (writeAudited). */
export function writeRecord(
  tx: Tx,
  prev: WithdrawalRecord | null,
  next: WithdrawalRecord,
  audit: RecordAudit | null,
  insert: { approvalId?: string | null; importedFrom?: string | null } = {},
): Promise<void> {
  return writeAudited(tx, prev, next, audit, {
    insert: (r) =>
      tx.c.query(INSERT_SQL, [...recordValues(r), insert.approvalId ?? null, insert.importedFrom ?? null]),
    update: (r) => tx.c.query(UPDATE_SQL, recordValues(r)),
  })
}
