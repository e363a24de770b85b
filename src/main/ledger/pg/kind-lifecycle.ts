/**
 * ledger/sqlite/lifecycle.ts on PostgreSQL: the local lifecycle both record kinds share (submitting → rejected |
 * outcome_unknown, and the recovery of interrupted submissions), written once for withdrawals (lifecycle.ts) and
 * top-ups (deposit-lifecycle.ts). Each runs inside the caller's transaction through the kind's write path.
 */
import type { WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import { LedgerError, SYSTEM_OPERATOR } from '../sqlite'
import { assertTransition, type LifecycleRecord } from '../sqlite/lifecycle'
import type { RecordAudit } from './record-write'
import type { Tx } from './tx'

export { assertTransition }

export interface PgRecordKind<R extends LifecycleRecord> {
  /** The audit actions' prefix. */
  action: 'withdrawal' | 'deposit'
  /** The kind's table: a fixed name, never input. */
  table: 'withdrawals' | 'deposits'
  /** The row locked for update; `not_found` when there is none. */
  mustGet(tx: Tx, localId: string): Promise<R>
  write(tx: Tx, prev: R, next: R, audit: RecordAudit): Promise<void>
}

/** The answer said no (`rejected`), or nobody knows whether the POST arrived (`outcome_unknown`). */
export async function markFailed<R extends LifecycleRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  to: 'rejected' | 'outcome_unknown',
  err: WithdrawalErrorInfo | null,
  details: Record<string, unknown>,
): Promise<R> {
  const rec = await kind.mustGet(tx, localId)
  assertTransition(rec, 'submitting', to)
  const next: R = { ...rec, localState: to, updatedAt: tx.now, error: err, requestId: err?.requestId ?? null }
  await kind.write(tx, rec, next, {
    operator: rec.operator,
    action: `${kind.action}.${to}`,
    details: { ...details, error: err },
  })
  return next
}

/**
 * Only this role's records: another desk's `submitting` record may be waiting for its POST's answer right now.
 * As on the desk ledger, a row edited outside the app is left as it is (refused before any SQL was sent, so the
 * transaction goes on): the integrity check reports it, and start-up must still reach the operator.
 */
export async function recoverInterrupted<R extends LifecycleRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
): Promise<number> {
  const r = await tx.c.query(
    `SELECT local_id FROM ${kind.table} WHERE local_state = 'submitting' AND db_user = session_user ORDER BY id`,
  )
  let recovered = 0
  for (const row of r.rows) {
    try {
      const rec = await kind.mustGet(tx, String(row.local_id))
      await kind.write(
        tx,
        rec,
        { ...rec, localState: 'outcome_unknown', updatedAt: tx.now },
        {
          operator: SYSTEM_OPERATOR,
          action: `${kind.action}.outcome_unknown`,
          details: { reason: 'interrupted', submittedBy: rec.operator, submittedAt: rec.createdAt },
        },
      )
      recovered += 1
    } catch (e) {
      if (!(e instanceof LedgerError && e.code === 'record_tampered')) throw e
    }
  }
  return recovered
}

type Linked = LifecycleRecord & { remoteId: string | null }

/** One record of a kind per remote id: the service's id is linked to no other record. */
export async function assertRemoteIdFree<R extends Linked>(
  kind: PgRecordKind<R>,
  tx: Tx,
  remoteId: string,
  localId: string | null,
): Promise<void> {
  const r = await tx.c.query(`SELECT local_id FROM ${kind.table} WHERE remote_id = $1`, [remoteId])
  const other = r.rows[0]?.local_id
  if (typeof other === 'string' && other !== localId) {
    throw new LedgerError('duplicate_remote_id', `${kind.action} ${remoteId} is already linked to ${other}`)
  }
}

/** A create's answer replayed from the side journal: applied once; the same id again changes nothing. */
export async function applyJournaledCreate<R extends Linked, O extends { remoteId: string }>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  o: O,
  writeCreated: (tx: Tx, rec: R, o: O, extra: Record<string, unknown>) => Promise<R>,
): Promise<{ record: R; applied: boolean }> {
  const rec = await kind.mustGet(tx, localId)
  if (rec.localState === 'created' && rec.remoteId === o.remoteId) return { record: rec, applied: false }
  assertTransition(rec, rec.localState === 'outcome_unknown' ? 'outcome_unknown' : 'submitting', 'created')
  return {
    record: await writeCreated(tx, rec, o, { replayed: 'side_journal', from: rec.localState }),
    applied: true,
  }
}

/** An unknown outcome settled by the operator: linked to the id support gave, or declared not created. */
export async function resolveUnknown<R extends Linked>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  resolution: { linkedId: string | null; note?: string | undefined },
  operator: string,
): Promise<R> {
  const rec = await kind.mustGet(tx, localId)
  const { linkedId } = resolution
  let next: R
  if (linkedId !== null) {
    assertTransition(rec, 'outcome_unknown', 'created')
    await assertRemoteIdFree(kind, tx, linkedId, localId)
    next = { ...rec, localState: 'created', remoteId: linkedId, updatedAt: tx.now }
  } else {
    assertTransition(rec, 'outcome_unknown', 'not_created')
    next = { ...rec, localState: 'not_created', updatedAt: tx.now }
  }
  await kind.write(tx, rec, next, {
    operator,
    action: `${kind.action}.resolved`,
    details: {
      resolution: linkedId !== null ? 'linked' : 'not_created',
      remoteId: next.remoteId,
      note: resolution.note ?? null,
    },
  })
  return next
}

/** The operations above bound to one kind (and its own way of writing a created answer). */
export function kindLifecycle<R extends Linked, O extends { remoteId: string }>(
  kind: PgRecordKind<R>,
  writeCreated: (tx: Tx, rec: R, o: O, extra: Record<string, unknown>) => Promise<R>,
) {
  return {
    markFailed: (
      tx: Tx,
      localId: string,
      to: 'rejected' | 'outcome_unknown',
      err: WithdrawalErrorInfo | null,
      details: Record<string, unknown>,
    ): Promise<R> => markFailed(kind, tx, localId, to, err, details),
    recoverInterrupted: (tx: Tx): Promise<number> => recoverInterrupted(kind, tx),
    assertRemoteIdFree: (tx: Tx, remoteId: string, localId: string | null): Promise<void> =>
      assertRemoteIdFree(kind, tx, remoteId, localId),
    applyJournaledCreate: (tx: Tx, localId: string, o: O): Promise<{ record: R; applied: boolean }> =>
      applyJournaledCreate(kind, tx, localId, o, writeCreated),
    resolveUnknown: (
      tx: Tx,
      localId: string,
      resolution: { linkedId: string | null; note?: string | undefined },
      operator: string,
    ): Promise<R> => resolveUnknown(kind, tx, localId, resolution, operator),
  }
}
