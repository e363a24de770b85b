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
import { canonicalJson } from '../model/canonical-json'
import { assertMatchesRequest, submittingRecord, WITHDRAWAL_KIND } from '../model/kinds'
import { planFunded, SYSTEM_OPERATOR } from '../model/transitions'
import { planObservation } from '../model/observations'
import { appendAudit } from './audit'
import { getRecord, writeRecord } from './record-write'
import type { Tx } from './tx'
import { insertObservation } from './observation-rows'
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
  observe: async (tx, rec, obs) => (await storeObservation(tx, rec, obs)).record,
}

const shared = kindLifecycle(WITHDRAWAL)
export const { markFailed, recoverInterrupted, applyJournaledCreate, markCreated, setFlags } = shared

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

async function storeObservation(
  tx: Tx,
  rec: WithdrawalRecord,
  obs: {
    status: string
    body: Record<string, unknown> | null
    observedAt: string
    requestId: string | null
    nonce: string | null
  },
): Promise<{ record: WithdrawalRecord; applied: boolean }> {
  const plan = planObservation(rec, obs)
  await insertObservation(tx.c, 'observations', {
    localId: rec.localId,
    observedAt: obs.observedAt,
    remoteStatus: obs.status,
    body: obs.body,
    requestId: obs.requestId,
    nonce: obs.nonce,
    applied: plan.applied,
  })
  // What the payment is funded with is frozen once set (migration 11): an answer naming another address or amount
  // raises its flag (planObservation) and changes nothing.
  const planned = {
    ...plan.record,
    depositAddress: rec.depositAddress ?? plan.record.depositAddress,
    depositAmountCents: rec.depositAmountCents ?? plan.record.depositAmountCents,
    payoutAmountCents: rec.payoutAmountCents ?? plan.record.payoutAmountCents,
  }
  const contentChanged = canonicalJson(planned) !== canonicalJson(rec)
  const record = {
    ...planned,
    remoteCheckedAt: tx.now,
    updatedAt: contentChanged ? tx.now : rec.updatedAt,
  }
  if (plan.raised.length > 0) {
    await appendAudit(tx.c, tx.identity, {
      operator: SYSTEM_OPERATOR,
      action: 'withdrawal.flagged',
      subject: rec.localId,
      details: { flags: plan.raised, remoteStatus: obs.status, requestId: obs.requestId },
    })
  }
  return { record, applied: plan.applied }
}

export async function recordObservation(
  tx: Tx,
  localId: string,
  obs: {
    status: string
    body: Record<string, unknown> | null
    observedAt?: string
    requestId?: string | null
    nonce?: string | null
  },
): Promise<{ changed: boolean; applied: boolean; record: WithdrawalRecord }> {
  const rec = await mustGet(tx, localId)
  if (rec.localState !== 'created') {
    throw new LedgerError(
      'illegal_transition',
      `cannot observe ${localId}: it is ${rec.localState}, not created`,
    )
  }
  const observedAt = obs.observedAt === undefined ? tx.now : new Date(obs.observedAt).toISOString()
  const last = await tx.c.query(
    'SELECT remote_status, body FROM observations WHERE local_id = $1 ORDER BY id DESC LIMIT 1',
    [localId],
  )
  const l = last.rows[0]
  if (l && l.remote_status === obs.status && canonicalJson(l.body ?? null) === canonicalJson(obs.body)) {
    const record = { ...rec, remoteCheckedAt: tx.now }
    await writeRecord(tx, rec, record, null)
    return { changed: false, applied: false, record }
  }
  const plan = await storeObservation(tx, rec, {
    status: obs.status,
    body: obs.body,
    observedAt,
    requestId: obs.requestId ?? null,
    nonce: obs.nonce ?? null,
  })
  await writeRecord(tx, rec, plan.record, {
    operator: SYSTEM_OPERATOR,
    action: 'withdrawal.observed',
    details: { remoteStatus: obs.status, applied: plan.applied, requestId: obs.requestId ?? null },
  })
  return { changed: true, applied: plan.applied, record: plan.record }
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
