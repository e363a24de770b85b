/**
 * The withdrawal lifecycle on PostgreSQL: the rules of model/ (transitions.ts, kinds.ts) applied through this
 * engine's write path (kind-lifecycle.ts), as sqlite/withdrawals.ts applies them on SQLite. Each function runs
 * inside the caller's transaction (tx.ts) and locks the record row first (SELECT … FOR UPDATE): two desks acting
 * on one record take turns.
 */
import { randomUUID } from 'node:crypto'
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { LedgerError } from '../model/errors'
import type { NewWithdrawal, UnknownResolution } from '../model/inputs'
import { assertMatchesRequest, submittingRecord, WITHDRAWAL_KIND } from '../model/kinds'
import { planFunded } from '../model/transitions'
import { getRecord, writeRecord } from './record-write'
import type { Tx } from './tx'
import { kindLifecycle, type PgRecordKind } from './kind-lifecycle'

async function mustGet(tx: Tx, localId: string): Promise<WithdrawalRecord> {
  const r = await getRecord(tx.c, localId, true)
  if (!r) throw new LedgerError('not_found', `no withdrawal record ${localId}`)
  return r
}

const WITHDRAWAL: PgRecordKind<WithdrawalRecord> = {
  ...WITHDRAWAL_KIND,
  mustGet,
  write: (tx, prev, next, audit) => writeRecord(tx, prev, next, audit),
}

const shared = kindLifecycle(WITHDRAWAL)
export const {
  markFailed,
  recoverInterrupted,
  applyJournaledCreate,
  markCreated,
  setFlags,
  recordObservation,
} = shared

export const resolveUnknown = (
  tx: Tx,
  localId: string,
  r: UnknownResolution,
  operator: string,
): Promise<WithdrawalRecord> =>
  shared.resolveUnknown(
    tx,
    localId,
    { linkedId: 'withdrawalId' in r ? r.withdrawalId : null, note: r.note },
    operator,
  )

/** The new record as insertSubmitting builds it (ledger/sqlite/withdrawals.ts), at the database's time. */
export function newSubmitting(n: NewWithdrawal, operator: string, now: string): WithdrawalRecord {
  assertMatchesRequest(n)
  return submittingRecord(n, n.localId ?? randomUUID(), operator, now)
}

export async function insertSubmitting(
  tx: Tx,
  n: NewWithdrawal,
  operator: string,
  approvalId: string | null,
): Promise<WithdrawalRecord> {
  const rec = newSubmitting(n, operator, tx.now)
  if (await getRecord(tx.c, rec.localId)) {
    throw new LedgerError('invalid_input', `withdrawal record ${rec.localId} already exists`)
  }
  await writeRecord(
    tx,
    null,
    rec,
    {
      operator,
      action: 'withdrawal.submitting',
      details: {
        profile: rec.profile,
        pixKey: rec.pixKey,
        amountKind: rec.amountKind,
        amountCents: rec.amountCents,
        ...(rec.expectedPayee ? { payeeId: rec.expectedPayee.id } : {}),
        ...(approvalId ? { approvalId } : {}),
      },
    },
    { approvalId },
  )
  return rec
}

export async function markFunded(
  tx: Tx,
  localId: string,
  txId: string | null,
  operator: string,
): Promise<WithdrawalRecord> {
  const rec = await mustGet(tx, localId)
  const plan = planFunded(rec, txId, operator, () => tx.now)
  if (!plan) return rec
  await writeRecord(tx, rec, plan.next, plan.audit)
  return plan.next
}
