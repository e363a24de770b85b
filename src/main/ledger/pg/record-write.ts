/**
 * record-write.ts of the SQLite ledger on PostgreSQL: the one way a record row is written, with the audit entry of
 * the state it produced, refusing to build on a row edited outside the app.
 */
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { LedgerError } from '../model/errors'
import { recordStateHash } from '../model/state-hash'
import { auditDetails, lastStateHash } from './audit'
import { RECORD_SELECT, recordRow, rowToRecord } from './rows'
import type { Tx } from './tx'

export type RecordAudit = { operator: string; action: string; details: Record<string, unknown> }

export async function getRecord(
  c: Tx['c'] | { query: Tx['c']['query'] },
  localId: string,
  forUpdate = false,
): Promise<WithdrawalRecord | undefined> {
  // The row lock through lock_record (migration 11): analysts hold no UPDATE privilege for FOR UPDATE.
  if (forUpdate) await c.query("SELECT lock_record('withdrawal', $1)", [localId])
  const r = await c.query(`SELECT ${RECORD_SELECT} FROM withdrawals w WHERE w.local_id = $1`, [localId])
  return r.rows[0] ? rowToRecord(r.rows[0]) : undefined
}

/**
 * record-write.ts on PostgreSQL, for every record kind: refuses to build on a row whose content no longer matches
 * its last audited state (edited outside the app), then hands the next state to the kind's database function
 * (migration 11), which checks the move, writes the row and appends the audit entry with the state hash it computes
 * itself. An unchanged state writes no entry.
 */
export async function writeAudited<R extends { localId: string; remoteCheckedAt?: string | null }>(
  tx: Tx,
  prev: R | null,
  next: R,
  audit: RecordAudit | null,
  write: (next: R, isNew: boolean, action: string | null, details: string) => Promise<unknown>,
): Promise<void> {
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
  } else if (audit === null) {
    throw new Error(`ledger: record ${next.localId} created without an audit entry`)
  }
  await write(
    next,
    prev === null,
    audit?.action ?? null,
    audit === null ? '{}' : auditDetails(tx.identity, audit),
  )
}

/** A withdrawal record's row and its audit entry (writeAudited, through `write_withdrawal`). */
export function writeRecord(
  tx: Tx,
  prev: WithdrawalRecord | null,
  next: WithdrawalRecord,
  audit: RecordAudit | null,
  insert: { approvalId?: string | null; importedFrom?: string | null } = {},
): Promise<void> {
  return writeAudited(tx, prev, next, audit, (r, isNew, action, details) =>
    tx.c.query('SELECT write_withdrawal($1::jsonb, $2, $3, $4, $5)', [
      recordRow(r, insert.importedFrom ?? null),
      isNew,
      insert.approvalId ?? null,
      action,
      details,
    ]),
  )
}
