/**
 * The deposit lifecycle on PostgreSQL: the rules of model/ (transitions.ts, kinds.ts: the QR payload rule
 * included) applied through this engine's write path (kind-lifecycle.ts), as sqlite/deposits.ts applies them on
 * SQLite, with the observation plan of sqlite/deposit-observations.ts and the state hash. Each function runs inside the caller's
 * transaction (tx.ts) and locks the deposit row first: two desks acting on one deposit take turns.
 */
import { randomUUID } from 'node:crypto'
import { DEPOSIT_ID_PREFIX, type DepositRecord } from '../../../shared/deposit-record'
import { LedgerError } from '../model/errors'
import { SYSTEM_OPERATOR } from '../model/transitions'
import { canonicalJson } from '../model/canonical-json'
import { planDepositObservation, type DepositObservationPlan } from '../model/observations'
import type {
  DepositObservationResult,
  DepositResolution,
  ImportedDeposit,
  NewDeposit,
} from '../model/inputs'
import type { Queryable } from './queryable'
import { DEPOSIT_SELECT, depositRow, rowToDeposit } from './deposit-rows'
import type { Tx } from './tx'
import { insertObservation } from './observation-rows'
import { writeAudited } from './record-write'
import { blank, cents, DEPOSIT_KIND } from '../model/kinds'
import { kindLifecycle, type PgRecordKind } from './kind-lifecycle'

type Audit = { operator: string; action: string; details: Record<string, unknown> }
type Body = Record<string, unknown> | null

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
  observe: async (tx, rec, obs) => (await storeObservation(tx, rec, obs)).record,
}

const shared = kindLifecycle(DEPOSIT)
export const { markFailed, recoverInterrupted, applyJournaledCreate, markCreated, setFlags } = shared
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

/** Stores one observation row and returns the planned record (ledger/sqlite/deposit-observations.ts). */
async function storeObservation(
  tx: Tx,
  rec: DepositRecord,
  obs: { status: string; body: Body; observedAt: string; requestId: string | null; nonce: string | null },
): Promise<DepositObservationPlan> {
  const plan = planDepositObservation(rec, obs)
  await insertObservation(tx.c, 'deposit_observations', {
    localId: rec.localId,
    observedAt: obs.observedAt,
    remoteStatus: obs.status,
    body: obs.body,
    requestId: obs.requestId,
    nonce: obs.nonce,
    applied: plan.applied,
  })
  const contentChanged = canonicalJson(plan.record) !== canonicalJson(rec)
  plan.record = {
    ...plan.record,
    remoteCheckedAt: tx.now,
    updatedAt: contentChanged ? tx.now : rec.updatedAt,
  }
  return plan
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
  const plan = await storeObservation(tx, base, {
    status: n.status,
    body: n.body,
    observedAt: tx.now,
    requestId: n.requestId ?? null,
    nonce: n.nonce ?? null,
  })
  await writeDeposit(tx, base, plan.record, {
    operator: SYSTEM_OPERATOR,
    action: 'deposit.observed',
    details: { remoteStatus: n.status, applied: plan.applied, requestId: n.requestId ?? null },
  })
  return plan.record
}

export async function recordObservation(
  tx: Tx,
  localId: string,
  obs: {
    status: string
    body: Body
    observedAt?: string
    requestId?: string | null
    nonce?: string | null
  },
): Promise<DepositObservationResult> {
  const rec = await mustGet(tx, localId)
  if (rec.localState !== 'created') {
    throw new LedgerError(
      'illegal_transition',
      `cannot observe ${localId}: it is ${rec.localState}, not created`,
    )
  }
  const observedAt = obs.observedAt === undefined ? tx.now : new Date(obs.observedAt).toISOString()
  const last = await tx.c.query(
    'SELECT remote_status, body FROM deposit_observations WHERE local_id = $1 ORDER BY id DESC LIMIT 1',
    [localId],
  )
  const l = last.rows[0]
  if (l && l.remote_status === obs.status && canonicalJson(l.body ?? null) === canonicalJson(obs.body)) {
    // Nothing new: only remember that we asked, so the tracker's backoff survives a restart.
    const record = { ...rec, remoteCheckedAt: tx.now }
    await writeDeposit(tx, rec, record, null)
    return { changed: false, applied: false, record, raised: [] }
  }
  const plan = await storeObservation(tx, rec, {
    status: obs.status,
    body: obs.body,
    observedAt,
    requestId: obs.requestId ?? null,
    nonce: obs.nonce ?? null,
  })
  await writeDeposit(tx, rec, plan.record, {
    operator: SYSTEM_OPERATOR,
    action: 'deposit.observed',
    details: {
      remoteStatus: obs.status,
      applied: plan.applied,
      requestId: obs.requestId ?? null,
      ...(plan.raised.length > 0 ? { flags: plan.raised } : {}),
    },
  })
  return { changed: true, applied: plan.applied, record: plan.record, raised: plan.raised }
}
