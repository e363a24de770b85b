/**
 * The local lifecycle both record kinds share, on PostgreSQL: the planners of model/transitions.ts applied inside
 * the caller's transaction through the kind's write path (the database's functions, which check the same moves
 * again, migration 11). The rules live in model/; here only the lock, the reads, the writes and the remote-id
 * check, for withdrawals (lifecycle.ts) and top-ups (deposit-lifecycle.ts) alike.
 */
import type { WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import { LedgerError } from '../model/errors'
import {
  assertTransition,
  createdAudit,
  planFailed,
  planFlags,
  planInterrupted,
  planJournaledCreate,
  planResolved,
  type CreatedAnswer,
} from '../model/transitions'
import type { ObservationInput, ObservationResult } from '../model/inputs'
import type { ObservedRecord } from '../model/observation-step'
import { recordObservation, storeObservation, type PgObservedKind } from './observation-rows'
import type { Tx } from './tx'

export { assertTransition }

/** A kind's rules (model/kinds.ts) plus how this engine reads and writes its rows (observation-rows.ts). */
export type PgRecordKind<R extends ObservedRecord> = PgObservedKind<R>

/** The answer said no (`rejected`), or nobody knows whether the POST arrived (`outcome_unknown`). */
export async function markFailed<R extends ObservedRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  to: 'rejected' | 'outcome_unknown',
  err: WithdrawalErrorInfo | null,
  details: Record<string, unknown>,
): Promise<R> {
  const rec = await kind.mustGet(tx, localId)
  const plan = planFailed(kind, rec, to, err, details, () => tx.now)
  await kind.write(tx, rec, plan.next, plan.audit)
  return plan.next
}

/**
 * Only this role's records: another desk's `submitting` record may be waiting for its POST's answer right now.
 * As on the desk ledger, a row edited outside the app is left as it is (refused before any SQL was sent, so the
 * transaction goes on): the integrity check reports it, and start-up must still reach the operator.
 */
export async function recoverInterrupted<R extends ObservedRecord>(
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
      const plan = planInterrupted(kind, rec, () => tx.now)
      await kind.write(tx, rec, plan.next, plan.audit)
      recovered += 1
    } catch (e) {
      if (!(e instanceof LedgerError && e.code === 'record_tampered')) throw e
    }
  }
  return recovered
}

/** One record of a kind per remote id: the service's id is linked to no other record. */
export async function assertRemoteIdFree<R extends ObservedRecord>(
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

/** The create's answer written, with the transition already checked. */
export async function writeCreated<R extends ObservedRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
  rec: R,
  o: CreatedAnswer,
  extra: Record<string, unknown>,
): Promise<R> {
  await assertRemoteIdFree(kind, tx, o.remoteId, rec.localId)
  let next = kind.created(rec, o, tx.now)
  if (typeof o.status === 'string') {
    next = (
      await storeObservation(kind, tx, next, {
        status: o.status,
        body: o.createResponse,
        observedAt: tx.now,
        requestId: o.requestId,
        nonce: o.nonce ?? null,
      })
    ).record
  }
  await kind.write(tx, rec, next, createdAudit(kind, rec, o, extra))
  return next
}

export async function markCreated<R extends ObservedRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  o: CreatedAnswer,
): Promise<R> {
  const rec = await kind.mustGet(tx, localId)
  assertTransition(rec, 'submitting', 'created')
  return writeCreated(kind, tx, rec, o, {})
}

/** A create's answer replayed from the side journal: applied once; the same id again changes nothing. */
export async function applyJournaledCreate<R extends ObservedRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  o: CreatedAnswer,
): Promise<{ record: R; applied: boolean }> {
  const rec = await kind.mustGet(tx, localId)
  const extra = planJournaledCreate(rec, o.remoteId)
  if (extra === null) return { record: rec, applied: false }
  return { record: await writeCreated(kind, tx, rec, o, extra), applied: true }
}

/** An unknown outcome settled by the operator: linked to the id support gave, or declared not created. */
export async function resolveUnknown<R extends ObservedRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  resolution: { linkedId: string | null; note?: string | undefined },
  operator: string,
): Promise<R> {
  const rec = await kind.mustGet(tx, localId)
  const { linkedId } = resolution
  const plan = planResolved(kind, rec, linkedId, resolution.note ?? null, operator, () => tx.now)
  if (linkedId !== null) await assertRemoteIdFree(kind, tx, linkedId, localId)
  await kind.write(tx, rec, plan.next, plan.audit)
  return plan.next
}

/** Replaces the record's flags (`wanted` already validated and deduplicated); the same set writes nothing. */
export async function setFlags<R extends ObservedRecord>(
  kind: PgRecordKind<R>,
  tx: Tx,
  localId: string,
  wanted: string[],
  operator: string,
): Promise<R> {
  const rec = await kind.mustGet(tx, localId)
  const plan = planFlags(kind, rec, wanted, operator, () => tx.now)
  if (!plan) return rec
  await kind.write(tx, rec, plan.next, plan.audit)
  return plan.next
}

/** The operations above bound to one kind. */
export function kindLifecycle<R extends ObservedRecord>(kind: PgRecordKind<R>) {
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
    markCreated: (tx: Tx, localId: string, o: CreatedAnswer): Promise<R> => markCreated(kind, tx, localId, o),
    applyJournaledCreate: (
      tx: Tx,
      localId: string,
      o: CreatedAnswer,
    ): Promise<{ record: R; applied: boolean }> => applyJournaledCreate(kind, tx, localId, o),
    resolveUnknown: (
      tx: Tx,
      localId: string,
      resolution: { linkedId: string | null; note?: string | undefined },
      operator: string,
    ): Promise<R> => resolveUnknown(kind, tx, localId, resolution, operator),
    setFlags: (tx: Tx, localId: string, wanted: string[], operator: string): Promise<R> =>
      setFlags(kind, tx, localId, wanted, operator),
    recordObservation: (tx: Tx, localId: string, input: ObservationInput): Promise<ObservationResult<R>> =>
      recordObservation(kind, tx, localId, input),
  }
}
