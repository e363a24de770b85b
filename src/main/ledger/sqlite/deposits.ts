/**
 * The deposit lifecycle (a top-up, "compra de DePix"): the same local states and transitions as withdrawals
 * (shared/withdrawal-record.ts LOCAL_TRANSITIONS), each operation one transaction through the one write path
 * (record-write.ts) with its audit entry. Deposit-specific: the request is a POST /deposit body, the create answer
 * carries the QR facts, and a deposit found at the service can be imported (`origin: imported`).
 */
import { randomUUID } from 'node:crypto'
import { DEPOSIT_ID_PREFIX, type DepositRecord } from '../../../shared/deposit-record'
import type { WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import { SYSTEM_OPERATOR } from './audit'
import { parseInput, type Ctx } from './context'
import { getDeposit, getDepositByRemoteId, mustGetDeposit } from './deposit-queries'
import { storeDepositObservation } from './deposit-observations'
import { DEPOSIT_TABLE } from './deposit-rows'
import {
  depositResolutionSchema,
  importedDepositSchema,
  newDepositSchema,
  type DepositResolution,
  type ImportedDeposit,
  type NewDeposit,
} from './deposit-types'
import { LedgerError } from '../model/errors'
import { assertTransition, markFailed, recoverInterrupted, type RecordKind } from './lifecycle'
import { writeKindRecord, type RecordAudit } from './record-write'
import { createdOutcomeSchema, type CreatedOutcome } from './types'

/** Names the create answer may give the Pix "copia e cola" payload (the contract shows none; the sandbox's first). */
export const QR_PAYLOAD_KEYS = [
  'qrCopyPaste',
  'qrCode',
  'copyPaste',
  'pixCopiaECola',
  'brCode',
  'emv',
] as const

/** The payload of the create answer: the first QR_PAYLOAD_KEYS member holding printable text. */
export function qrPayloadOf(response: Record<string, unknown> | null): string | null {
  if (!response) return null
  for (const key of QR_PAYLOAD_KEYS) {
    const v = response[key]
    if (typeof v === 'string' && v.length > 0 && v.length <= 2048 && /^[\x20-\x7e]+$/.test(v)) return v
  }
  return null
}

const write = (
  ctx: Ctx,
  at: string,
  prev: DepositRecord | null,
  next: DepositRecord,
  audit: RecordAudit | null,
) => writeKindRecord(ctx.db, DEPOSIT_TABLE, at, prev, next, audit)

const DEPOSIT: RecordKind<DepositRecord> = {
  action: 'deposit',
  table: 'deposits',
  mustGet: mustGetDeposit,
  write: (ctx, at, prev, next, audit) => void write(ctx, at, prev, next, audit),
}

function assertRemoteIdFree(ctx: Ctx, profile: string, remoteId: string, localId: string | null): void {
  const other = getDepositByRemoteId(ctx.db, profile, remoteId)
  if (other && other.localId !== localId) {
    throw new LedgerError('duplicate_remote_id', `deposit ${remoteId} is already linked to ${other.localId}`)
  }
}

export const cents = (v: unknown): number | null =>
  typeof v === 'number' && Number.isSafeInteger(v) ? v : null

/** A new deposit record before the service answered, on either engine (ledger/pg/deposit-lifecycle.ts). */
export function blank(o: {
  localId: string
  profile: string
  operator: string
  now: string
  origin: DepositRecord['origin']
  request: Record<string, unknown>
  amountCents: number
  depixAddress: string | null
  flags: string[]
}): DepositRecord {
  return {
    localId: o.localId,
    profile: o.profile,
    operator: o.operator,
    createdAt: o.now,
    updatedAt: o.now,
    localState: 'submitting',
    origin: o.origin,
    request: o.request,
    amountCents: o.amountCents,
    depixAddress: o.depixAddress,
    createResponse: null,
    remoteId: null,
    remoteStatus: null,
    remoteStatusAt: null,
    remoteCheckedAt: null,
    lastRemote: null,
    qrCopyPaste: null,
    expiration: null,
    valueCents: null,
    bankTxId: null,
    blockchainTxId: null,
    payerName: null,
    reversedAt: null,
    error: null,
    requestId: null,
    flags: o.flags,
  }
}

export function insertSubmittingDeposit(ctx: Ctx, input: NewDeposit, operator: string): DepositRecord {
  const n = parseInput(newDepositSchema, input, 'new deposit')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  const amount = cents(n.request.amountInCents)
  if (amount === null || amount <= 0)
    throw new LedgerError('invalid_input', 'request.amountInCents is required')
  const address = typeof n.request.depixAddress === 'string' ? n.request.depixAddress : null
  return ctx.db.tx(() => {
    const localId = n.localId ?? `${DEPOSIT_ID_PREFIX}${randomUUID()}`
    if (getDeposit(ctx.db, localId))
      throw new LedgerError('invalid_input', `deposit record ${localId} already exists`)
    const now = ctx.nowIso()
    const rec = blank({
      localId,
      profile: n.profile,
      operator,
      now,
      origin: 'app',
      request: n.request,
      amountCents: amount,
      depixAddress: address,
      flags: [...new Set(n.flags ?? [])],
    })
    write(ctx, now, null, rec, {
      operator,
      action: 'deposit.submitting',
      details: { profile: rec.profile, amountCents: amount, depixAddress: address },
    })
    return rec
  })
}

/** Inside a transaction, with the transition already checked. */
function writeCreated(
  ctx: Ctx,
  rec: DepositRecord,
  o: CreatedOutcome,
  extra: Record<string, unknown>,
): DepositRecord {
  assertRemoteIdFree(ctx, rec.profile, o.remoteId, rec.localId)
  const now = ctx.nowIso()
  const response = o.createResponse
  let next: DepositRecord = {
    ...rec,
    localState: 'created',
    updatedAt: now,
    remoteId: o.remoteId,
    createResponse: response,
    requestId: o.requestId,
    qrCopyPaste: qrPayloadOf(response) ?? rec.qrCopyPaste,
    expiration: o.expiration ?? rec.expiration,
    valueCents: cents(response?.valueInCents) ?? rec.valueCents,
  }
  if (typeof o.status === 'string') {
    next = storeDepositObservation(ctx, next, {
      status: o.status,
      body: response,
      observedAt: now,
      requestId: o.requestId,
      nonce: o.nonce ?? null,
    }).record
  }
  write(ctx, now, rec, next, {
    operator: rec.operator,
    action: 'deposit.created',
    details: { remoteId: o.remoteId, requestId: o.requestId, status: o.status ?? null, ...extra },
  })
  return next
}

export function markDepositCreated(ctx: Ctx, localId: string, outcome: CreatedOutcome): DepositRecord {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return ctx.db.tx(() => {
    const rec = mustGetDeposit(ctx, localId)
    assertTransition(rec, 'submitting', 'created')
    return writeCreated(ctx, rec, o, {})
  })
}

/** The side journal's replay entry point: idempotent, as for withdrawals (withdrawals.ts applyJournaledCreate). */
export function applyJournaledDepositCreate(
  ctx: Ctx,
  localId: string,
  outcome: CreatedOutcome,
): { record: DepositRecord; applied: boolean } {
  const o = parseInput(createdOutcomeSchema, outcome, 'created outcome')
  return ctx.db.tx(() => {
    const rec = mustGetDeposit(ctx, localId)
    if (rec.localState === 'created' && rec.remoteId === o.remoteId) return { record: rec, applied: false }
    assertTransition(rec, rec.localState === 'outcome_unknown' ? 'outcome_unknown' : 'submitting', 'created')
    return {
      record: writeCreated(ctx, rec, o, { replayed: 'side_journal', from: rec.localState }),
      applied: true,
    }
  })
}

export function markDepositRejected(ctx: Ctx, localId: string, error: WithdrawalErrorInfo): DepositRecord {
  return markFailed(DEPOSIT, ctx, localId, 'rejected', error, {})
}

export function markDepositOutcomeUnknown(
  ctx: Ctx,
  localId: string,
  error: WithdrawalErrorInfo | null,
  reason: string,
): DepositRecord {
  return markFailed(DEPOSIT, ctx, localId, 'outcome_unknown', error, { reason })
}

/** A crash between "submitting committed" and "answer stored": nobody knows whether the POST arrived. */
export function recoverInterruptedDeposits(ctx: Ctx): number {
  return recoverInterrupted(DEPOSIT, ctx)
}

export function resolveUnknownDeposit(
  ctx: Ctx,
  localId: string,
  resolution: DepositResolution,
  operator: string,
): DepositRecord {
  const r = parseInput(depositResolutionSchema, resolution, 'resolution')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  return ctx.db.tx(() => {
    const rec = mustGetDeposit(ctx, localId)
    const now = ctx.nowIso()
    let next: DepositRecord
    if ('depositId' in r) {
      assertTransition(rec, 'outcome_unknown', 'created')
      assertRemoteIdFree(ctx, rec.profile, r.depositId, localId)
      next = { ...rec, localState: 'created', remoteId: r.depositId, updatedAt: now }
    } else {
      assertTransition(rec, 'outcome_unknown', 'not_created')
      next = { ...rec, localState: 'not_created', updatedAt: now }
    }
    write(ctx, now, rec, next, {
      operator,
      action: 'deposit.resolved',
      details: {
        resolution: 'depositId' in r ? 'linked' : 'not_created',
        remoteId: next.remoteId,
        note: r.note ?? null,
      },
    })
    return next
  })
}

/**
 * A deposit the service knows and this ledger did not (reconciliation): created here as `origin: imported`, with
 * the status answer that proved it as its first observation. Its amount is the value the service reports.
 */
export function importOutsideDeposit(ctx: Ctx, input: ImportedDeposit, operator: string): DepositRecord {
  const n = parseInput(importedDepositSchema, input, 'imported deposit')
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  return ctx.db.tx(() => {
    assertRemoteIdFree(ctx, n.profile, n.remoteId, null)
    const now = ctx.nowIso()
    const base: DepositRecord = {
      ...blank({
        localId: `${DEPOSIT_ID_PREFIX}${randomUUID()}`,
        profile: n.profile,
        operator,
        now,
        origin: 'imported',
        request: {},
        amountCents: cents(n.body.valueInCents) ?? 0,
        depixAddress: null,
        flags: [],
      }),
      localState: 'created',
      remoteId: n.remoteId,
    }
    write(ctx, now, null, base, {
      operator,
      action: 'deposit.imported_outside',
      details: { profile: n.profile, remoteId: n.remoteId, requestId: n.requestId ?? null },
    })
    const plan = storeDepositObservation(ctx, base, {
      status: n.status,
      body: n.body,
      observedAt: now,
      requestId: n.requestId ?? null,
      nonce: n.nonce ?? null,
    })
    write(ctx, now, base, plan.record, {
      operator: SYSTEM_OPERATOR,
      action: 'deposit.observed',
      details: { remoteStatus: n.status, applied: plan.applied, requestId: n.requestId ?? null },
    })
    return plan.record
  })
}

export function setDepositFlags(
  ctx: Ctx,
  localId: string,
  flags: readonly string[],
  operator: string,
): DepositRecord {
  if (!operator) throw new LedgerError('invalid_input', 'operator is required')
  if (!flags.every((f) => typeof f === 'string' && f !== ''))
    throw new LedgerError('invalid_input', 'bad flag')
  const wanted = [...new Set(flags)]
  return ctx.db.tx(() => {
    const rec = mustGetDeposit(ctx, localId)
    const added = wanted.filter((f) => !rec.flags.includes(f))
    const removed = rec.flags.filter((f) => !wanted.includes(f))
    if (added.length === 0 && removed.length === 0) return rec
    const now = ctx.nowIso()
    const next = { ...rec, flags: wanted, updatedAt: now }
    write(ctx, now, rec, next, { operator, action: 'deposit.flags', details: { added, removed } })
    return next
  })
}
