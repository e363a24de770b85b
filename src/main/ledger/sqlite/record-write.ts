/**
 * The one way a record row is written: the row and the audit entry of the state it produced, in the caller's
 * transaction. An update that changes only bookkeeping (`remoteCheckedAt`, see state-hash.ts) writes no entry;
 * any other change must say what happened. Everything that writes records (lifecycle, observations, import, a
 * replay of the side journal) goes through here, so `verifyChain` can demand that every record matches its
 * latest entry. Every record kind goes through the same function (`writeKindRecord`), each with its own table.
 */
import type { AuditEntry, WithdrawalRecord } from '../../../shared/withdrawal-record'
import { appendAuditRow, type AuditInput } from './audit'
import type { Db } from './db'
import { LedgerError } from '../model/errors'
import { insertRecordRow, updateRecordRow } from './rows'
import { recordStateHash } from '../model/state-hash'

export type RecordAudit = Omit<AuditInput, 'subject' | 'stateHash'>

/** What a record kind needs from the write path: the rows of its own table. */
export interface RecordTable<R extends AuditedRecord> {
  insertRow(db: Pick<Db, 'stmt'>, r: R): void
  updateRow(db: Pick<Db, 'stmt'>, r: R): void
}

/** Any record kind: identified by its local id; `remoteCheckedAt` is bookkeeping (state-hash.ts). */
export interface AuditedRecord {
  localId: string
  remoteCheckedAt: string | null
}

const WITHDRAWALS: RecordTable<WithdrawalRecord> = { insertRow: insertRecordRow, updateRow: updateRecordRow }

/**
 * Inserts (`prev` null) or updates `next` and appends its audit entry, returning it (null when only bookkeeping
 * changed). Must run inside a transaction (`db.tx`).
 */
export function writeRecord(
  db: Pick<Db, 'stmt'>,
  at: string,
  prev: WithdrawalRecord | null,
  next: WithdrawalRecord,
  audit: RecordAudit | null,
  /** recordStateHash(next) when the caller already computed it (a bulk import): not computed twice. */
  nextStateHash?: string,
): AuditEntry | null {
  return writeKindRecord(db, WITHDRAWALS, at, prev, next, audit, nextStateHash)
}

/** `writeRecord` for any record kind: the same checks, hash and entry, in `table`. */
export function writeKindRecord<R extends AuditedRecord>(
  db: Pick<Db, 'stmt'>,
  table: RecordTable<R>,
  at: string,
  prev: R | null,
  next: R,
  audit: RecordAudit | null,
  nextStateHash?: string,
): AuditEntry | null {
  const stateHash = nextStateHash ?? recordStateHash(next)
  if (prev !== null) assertUntampered(db, prev)
  if (prev === null) table.insertRow(db, next)
  else table.updateRow(db, next)
  if (prev !== null && recordStateHash(prev) === stateHash) return null
  if (audit === null) throw new Error(`ledger: record ${next.localId} changed without an audit entry`)
  return appendAuditRow(db, at, { ...audit, subject: next.localId, stateHash })
}

/**
 * A write must start from the state the audit trail last recorded: otherwise its new entry would launder an
 * edit made outside the app (the start-up check would have seen it, the next one would not).
 */
function assertUntampered(db: Pick<Db, 'stmt'>, prev: AuditedRecord): void {
  const row = db
    .stmt(
      `SELECT seq, state_hash FROM audit_log WHERE subject = ? AND state_hash IS NOT NULL
       ORDER BY seq DESC LIMIT 1`,
    )
    .get(prev.localId)
  if (row && row.state_hash === recordStateHash(prev)) return
  throw new LedgerError(
    'record_tampered',
    `record ${prev.localId} differs from the state its last audit entry${row ? ` (seq ${String(row.seq)})` : ''} recorded`,
    {
      'pt-BR': `O registro ${prev.localId} foi alterado fora do aplicativo (não confere com a trilha de auditoria); nada mais é gravado nele. Restaure um backup em Configurações.`,
      en: `Record ${prev.localId} was changed outside the app (it does not match the audit trail); nothing more is written to it. Restore a backup in Settings.`,
    },
  )
}
