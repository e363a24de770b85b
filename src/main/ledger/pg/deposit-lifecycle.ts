/**
 * The deposit lifecycle on PostgreSQL: the rules of model/ (transitions.ts, kinds.ts: the QR payload rule
 * included) applied through this engine's write path (kind-lifecycle.ts), as sqlite/deposits.ts applies them on
 * SQLite, with the observation step of model/observation-step.ts and the state hash. Each function runs inside the caller's
 * transaction (tx.ts) and locks the deposit row first: two desks acting on one deposit take turns.
 */
import { randomUUID } from 'node:crypto'
import { DEPOSIT_ID_PREFIX, type DepositRecord } from '../../../shared/deposit-record'
import { LedgerError } from '../model/errors'
import type { DepositResolution, ImportedDeposit, NewDeposit } from '../model/inputs'
import type { Queryable } from './queryable'
import { DEPOSIT_SELECT, depositRow, rowToDeposit } from './deposit-rows'
import type { Tx } from './tx'
import { storeObservation } from './observation-rows'
import { observedAudit } from '../model/observation-step'
import { writeAudited } from './record-write'
import { blank, cents, DEPOSIT_KIND } from '../model/kinds'
import { kindLifecycle, type PgRecordKind } from './kind-lifecycle'

type Audit = { operator: string; action: string; details: Record<string, unknown> }

export async function getDeposit(
  c: Queryable,
  localId: string,
  forUpdate = false,
): Promise<DepositRecord | undefined> {
  // The row lock through lock_record (migration 11): analysts hold no UPDATE privilege for FOR UPDATE.
  if (forUpdate) await c.query("SELECT lock_record('deposit', $1)", [localId])
  const r = await c.query(`SELECT ${DEPOSIT_SELECT} FROM deposits d WHERE d.local_id = $1`, [localId])
  return r.rows[0] ? rowToDeposit(r.rows[0]) : undefined
}

async function mustGet(tx: Tx, localId: string): Promise<DepositRecord> {
  const r = await getDeposit(tx.c, localId, true)
  if (!r) throw new LedgerError('not_found', `no deposit record ${localId}`)
  return r
}

const DEPOSIT: PgRecordKind<DepositRecord> = {
  ...DEPOSIT_KIND,
  mustGet,
  write: (tx, prev, next, audit) => writeDeposit(tx, prev, next, audit),
}

const shared = kindLifecycle(DEPOSIT)
export const {
  markFailed,
  recoverInterrupted,
  applyJournaledCreate,
  markCreated,
  setFlags,
  recordObservation,
} = shared
const { assertRemoteIdFree } = shared

export const resolveUnknown = (
  tx: Tx,
  localId: string,
  r: DepositResolution,
  operator: string,
): Promise<DepositRecord> =>
  shared.resolveUnknown(
    tx,
    localId,
    { linkedId: 'depositId' in r ? r.depositId : null, note: r.note },
    operator,
  )

/** A deposit's row and its audit entry (record-write.ts `writeAudited`, through `write_deposit`). */
export function writeDeposit(
  tx: Tx,
  prev: DepositRecord | null,
  next: DepositRecord,
  audit: Audit | null,
  importedFrom: string | null = null,
  approvalId: string | null = null,
): Promise<void> {
  return writeAudited(tx, prev, next, audit, (r, isNew, action, details) =>
    tx.c.query('SELECT write_deposit($1::json, $2, $3, $4, $5, $6)', [
      depositRow(r),
      isNew,
      importedFrom,
      action,
      details,
      approvalId,
    ]),
  )
}

/** A new top-up from the app; `approvalId`: the approved request it needs (migration 15), when it needs one. */
export async function insertSubmitting(
  tx: Tx,
  n: NewDeposit,
  operator: string,
  approvalId: string | null = null,
): Promise<DepositRecord> {
  const amount = cents(n.request.amountInCents)
  if (amount === null || amount <= 0)
    throw new LedgerError('invalid_input', 'request.amountInCents is required')
  const address = typeof n.request.depixAddress === 'string' ? n.request.depixAddress : null
  const localId = n.localId ?? `${DEPOSIT_ID_PREFIX}${randomUUID()}`
  if (await getDeposit(tx.c, localId))
    throw new LedgerError('invalid_input', `deposit record ${localId} already exists`)
  const rec = blank({
    localId,
    profile: n.profile,
    operator,
    now: tx.now,
    origin: 'app',
    request: n.request,
    amountCents: amount,
    depixAddress: address,
    flags: [...new Set(n.flags ?? [])],
  })
  await writeDeposit(
    tx,
    null,
    rec,
    {
      operator,
      action: 'deposit.submitting',
      details: { profile: rec.profile, amountCents: amount, depixAddress: address },
    },
    null,
    approvalId,
  )
  return rec
}

/** A deposit made outside the app, found by reconciliation: `origin: imported`, its proof as first observation. */
export async function importOutside(tx: Tx, n: ImportedDeposit, operator: string): Promise<DepositRecord> {
  await assertRemoteIdFree(tx, n.remoteId, null)
  const base: DepositRecord = {
    ...blank({
      localId: `${DEPOSIT_ID_PREFIX}${randomUUID()}`,
      profile: n.profile,
      operator,
      now: tx.now,
      origin: 'imported',
      request: {},
      amountCents: cents(n.body.valueInCents) ?? 0,
      depixAddress: null,
      flags: [],
    }),
    localState: 'created',
    remoteId: n.remoteId,
  }
  await writeDeposit(tx, null, base, {
    operator,
    action: 'deposit.imported_outside',
    details: { profile: n.profile, remoteId: n.remoteId, requestId: n.requestId ?? null },
  })
  const stored = await storeObservation(DEPOSIT, tx, base, {
    status: n.status,
    body: n.body,
    observedAt: tx.now,
    requestId: n.requestId ?? null,
    nonce: n.nonce ?? null,
  })
  await writeDeposit(tx, base, stored.record, observedAudit(DEPOSIT, stored))
  return stored.record
}
