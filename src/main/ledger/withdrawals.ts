/**
 * The withdrawal lifecycle (docs/adr/0002-journal-before-post.md) on the shared local lifecycle (lifecycle.ts). Each function is one
 * transaction: the state change and its audit row commit together or not at all. Transitions are checked against
 * LOCAL_TRANSITIONS; anything else is refused with LedgerError('illegal_transition') and writes nothing.
 */
import { randomUUID } from 'node:crypto'
import { type WithdrawalErrorInfo, type WithdrawalRecord } from '../../shared/withdrawal-record'
import { mustGet, parseInput, type Ctx } from './context'
import { LedgerError } from './errors'
import {
  assertTransition,
  markFailed,
  recoverInterrupted as recoverInterruptedOf,
  type RecordKind,
} from './lifecycle'
import { storeObservation } from './observations'
import { getByRemoteId, getRecord } from './queries'
import { writeRecord } from './record-write'
import {
  createdOutcomeSchema,
  newWithdrawalSchema,
  unknownResolutionSchema,
  type CreatedOutcome,
  type NewWithdrawal,
  type UnknownResolution,
} from './types'

const WITHDRAWAL: RecordKind<WithdrawalRecord> = {
  action: 'withdrawal',
  table: 'withdrawals',
  mustGet,
  write: (ctx, at, prev, next, audit) => void writeRecord(ctx.db, at, prev, next, audit),
}

function assertRemoteIdFree(ctx: Ctx, remoteId: string, localId: string): void {
  const other = getByRemoteId(ctx.db, remoteId)
  if (other && other.localId !== localId) {
    throw new LedgerError(
      'duplicate_remote_id',
      `withdrawal ${remoteId} is already linked to ${other.localId}`,
    )
  }
}

/** The denormalised columns must say what the body says: one truth about what was sent. */
export function assertMatchesRequest(input: NewWithdrawal): void {
  const req = input.request
  if (typeof req.pixKey === 'string' && req.pixKey !== input.pixKey) {
    throw new LedgerError('invalid_input', 'pixKey differs from request.pixKey')
  }
  const amountField = input.amountKind === 'deposit' ? 'depositAmountInCents' : 'payoutAmountInCents'
  const otherField = input.amountKind === 'deposit' ? 'payoutAmountInCents' : 'depositAmountInCents'
  if (req[amountField] !== undefined && req[amountField] !== input.amountCents) {
    throw new LedgerError('invalid_input', `amountCents differs from request.${amountField}`)
  }
  if (req[otherField] !== undefined) {
    throw new LedgerError(
      'invalid_input',
      `request carries ${otherField} but amountKind is ${input.amountKind}`,
    )
  }
}

/**
 * The new record of a payment about to be sent, on either engine (ledger-store/pg/lifecycle.ts too): one place,
 * so both keep the same members and the same state hash.
 */
export function submittingRecord(
  n: NewWithdrawal,
  localId: string,
  operator: string,
  now: string,
): WithdrawalRecord {
  return {
    localId,
    profile: n.profile,
    operator,
    createdAt: now,
    updatedAt: now,
    localState: 'submitting',
    request: n.request,
    pixKey: n.pixKey,
    amountKind: n.amountKind,
    amountCents: n.amountCents,
    createResponse: null,
    remoteId: null,
    remoteStatus: null,
    remoteStatusAt: null,
    remoteCheckedAt: null,
    lastRemote: null,
    depositAddress: null,
    // Best knowledge until the service answers: the amount we asked for.
    depositAmountCents: n.amountKind === 'deposit' ? n.amountCents : null,
    payoutAmountCents: n.amountKind === 'payout' ? n.amountCents : null,
    expiration: null,
    fundedAt: null,
    fundingTxId: null,
    refund: null,
    receiverName: null,
    error: null,
    requestId: null,
    flags: [...new Set(n.flags ?? [])],
    // Left out when empty, so a record without them hashes as before migration 6 (rows.ts).
    ...(n.references && Object.keys(n.references).length > 0 ? { references: { ...n.references } } : {}),
    ...(n.expectedPayee ? { expectedPayee: { ...n.expectedPayee } } : {}),
  }
}

export function insertSubmitting(ctx: Ctx, input: NewWithdrawal, operator: string): WithdrawalRecord {
  const n = parseInput(newWithdrawalSchema, input, 'new withdrawal')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  assertMatchesRequest(n)
  return ctx.db.tx(() => {
    const localId = n.localId ?? randomUUID()
    if (getRecord(ctx.db, localId)) {
      throw new LedgerError('invalid_input', `withdrawal record ${localId} already exists`)
    }
    const now = ctx.nowIso()
    const rec = submittingRecord(n, localId, operator, now)
    writeRecord(ctx.db, now, null, rec, {
      operator,
      action: 'withdrawal.submitting',
      details: {
        profile: rec.profile,
        pixKey: rec.pixKey,
        amountKind: rec.amountKind,
        amountCents: rec.amountCents,
        ...(rec.expectedPayee ? { payeeId: rec.expectedPayee.id } : {}),
      },
    })
    return rec
  })
}

export function markCreated(ctx: Ctx, localId: string, outcome: CreatedOutcome): WithdrawalRecord {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return ctx.db.tx(() => {
    const rec = mustGet(ctx, localId)
    assertTransition(rec, 'submitting', 'created')
    return writeCreated(ctx, rec, o, {})
  })
}

/**
 * The replay entry point of the side journal (withdrawals/side-journal.ts): the API's 2xx answer to a create,
 * which the ledger could not store when it arrived. Applies to the record still `submitting`, or already
 * `outcome_unknown` (a restart's recovery, or the `store_failed` fallback); a record already created with this
 * id is left as it is (`applied: false`), so a replay can run any number of times. Anything else (another id, a
 * record resolved as not created) is refused with LedgerError and writes nothing.
 */
export function applyJournaledCreate(
  ctx: Ctx,
  localId: string,
  outcome: CreatedOutcome,
): { record: WithdrawalRecord; applied: boolean } {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return ctx.db.tx(() => {
    const rec = mustGet(ctx, localId)
    if (rec.localState === 'created' && rec.remoteId === o.remoteId) return { record: rec, applied: false }
    if (rec.localState !== 'outcome_unknown') assertTransition(rec, 'submitting', 'created')
    else assertTransition(rec, 'outcome_unknown', 'created')
    return {
      record: writeCreated(ctx, rec, o, { replayed: 'side_journal', from: rec.localState }),
      applied: true,
    }
  })
}

/** Inside a transaction, with the transition already checked. */
function writeCreated(
  ctx: Ctx,
  rec: WithdrawalRecord,
  o: CreatedOutcome,
  auditExtra: Record<string, unknown>,
): WithdrawalRecord {
  const localId = rec.localId
  assertRemoteIdFree(ctx, o.remoteId, localId)
  const now = ctx.nowIso()
  let next: WithdrawalRecord = {
    ...rec,
    localState: 'created',
    updatedAt: now,
    remoteId: o.remoteId,
    createResponse: o.createResponse,
    requestId: o.requestId,
    depositAddress: o.depositAddress ?? rec.depositAddress,
    depositAmountCents: o.depositAmountCents ?? rec.depositAmountCents,
    payoutAmountCents: o.payoutAmountCents ?? rec.payoutAmountCents,
    expiration: o.expiration ?? rec.expiration,
  }
  if (typeof o.status === 'string') {
    next = storeObservation(ctx, next, {
      status: o.status,
      body: o.createResponse,
      observedAt: now,
      requestId: o.requestId,
      nonce: o.nonce ?? null,
    }).record
  }
  writeRecord(ctx.db, now, rec, next, {
    operator: rec.operator,
    action: 'withdrawal.created',
    details: { remoteId: o.remoteId, requestId: o.requestId, status: o.status ?? null, ...auditExtra },
  })
  return next
}

export function markRejected(ctx: Ctx, localId: string, error: WithdrawalErrorInfo): WithdrawalRecord {
  return markFailed(WITHDRAWAL, ctx, localId, 'rejected', error, {})
}

export function markOutcomeUnknown(
  ctx: Ctx,
  localId: string,
  error: WithdrawalErrorInfo | null,
  reason: string,
): WithdrawalRecord {
  return markFailed(WITHDRAWAL, ctx, localId, 'outcome_unknown', error, { reason })
}

export function recoverInterrupted(ctx: Ctx): number {
  return recoverInterruptedOf(WITHDRAWAL, ctx)
}

export function resolveUnknown(
  ctx: Ctx,
  localId: string,
  resolution: UnknownResolution,
  operator: string,
): WithdrawalRecord {
  const r = parseInput(unknownResolutionSchema, resolution, 'resolution')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  return ctx.db.tx(() => {
    const rec = mustGet(ctx, localId)
    const now = ctx.nowIso()
    let next: WithdrawalRecord
    if ('withdrawalId' in r) {
      assertTransition(rec, 'outcome_unknown', 'created')
      assertRemoteIdFree(ctx, r.withdrawalId, localId)
      next = { ...rec, localState: 'created', remoteId: r.withdrawalId, updatedAt: now }
    } else {
      assertTransition(rec, 'outcome_unknown', 'not_created')
      next = { ...rec, localState: 'not_created', updatedAt: now }
    }
    writeRecord(ctx.db, now, rec, next, {
      operator,
      action: 'withdrawal.resolved',
      details: {
        resolution: 'withdrawalId' in r ? 'linked' : 'not_created',
        remoteId: next.remoteId,
        note: r.note ?? null,
      },
    })
    return next
  })
}

/**
 * The operator declares the token sent to the deposit address. Repeatable (a mismatched deposit is ignored by
 * the service and a second one may follow, docs/API-CONTRACT.md#s3-2): fundedAt keeps the first declaration, fundingTxId the
 * latest id given, and the audit log keeps every one. Repeating the same declaration is a no-op.
 */
export function markFunded(
  ctx: Ctx,
  localId: string,
  funding: { txId?: string | null },
  operator: string,
): WithdrawalRecord {
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  const txId = typeof funding.txId === 'string' && funding.txId.trim() !== '' ? funding.txId.trim() : null
  return ctx.db.tx(() => {
    const rec = mustGet(ctx, localId)
    if (rec.localState !== 'created') {
      throw new LedgerError(
        'illegal_transition',
        `cannot fund ${localId}: it is ${rec.localState}, not created`,
      )
    }
    if (rec.fundedAt !== null && (txId === null || txId === rec.fundingTxId)) return rec
    const now = ctx.nowIso()
    const next = {
      ...rec,
      fundedAt: rec.fundedAt ?? now,
      fundingTxId: txId ?? rec.fundingTxId,
      updatedAt: now,
    }
    writeRecord(ctx.db, now, rec, next, {
      operator,
      action: 'withdrawal.funded',
      details: { txId, repeat: rec.fundedAt !== null },
    })
    return next
  })
}

/** Replaces the record's flags; audited as what was added and removed. Same set: no-op. */
export function setFlags(
  ctx: Ctx,
  localId: string,
  flags: readonly string[],
  operator: string,
): WithdrawalRecord {
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  if (!flags.every((f) => typeof f === 'string' && f !== ''))
    throw new LedgerError('invalid_input', 'bad flag')
  const wanted = [...new Set(flags)]
  return ctx.db.tx(() => {
    const rec = mustGet(ctx, localId)
    const added = wanted.filter((f) => !rec.flags.includes(f))
    const removed = rec.flags.filter((f) => !wanted.includes(f))
    if (added.length === 0 && removed.length === 0) return rec
    const now = ctx.nowIso()
    const next = { ...rec, flags: wanted, updatedAt: now }
    writeRecord(ctx.db, now, rec, next, {
      operator,
      action: 'withdrawal.flags',
      details: { added, removed },
    })
    return next
  })
}
