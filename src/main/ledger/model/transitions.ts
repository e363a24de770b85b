/**
 * The local lifecycle of every record kind as pure planners (submitting → created | rejected | outcome_unknown,
 * outcome_unknown → created | not_created, plus funding and flags): each takes the record as read under its
 * lock and returns the next record and the audit entry to write with it, or refuses with LedgerError and plans
 * nothing (`now` is read only once a change is planned). Written once for both kinds (kinds.ts) and both engines: sqlite/ and pg/ only lock, apply a plan and
 * write it (and check what needs the database, such as a remote id already linked to another record).
 *
 * The team database checks the same moves again in SQL (migration 11); test/main/ledger/model/sql-rules.test.ts
 * holds the two together.
 */
import { canTransition, type LocalState, type WithdrawalErrorInfo } from '../../../shared/withdrawal-record'
import type { RecordKindId } from '../../../shared/record-kinds'
import { LedgerError } from './errors'

/** What the lifecycle reads and writes on a record of any kind. */
export interface LifecycleRecord {
  localId: string
  localState: LocalState
  operator: string
  createdAt: string
  updatedAt: string
  error: WithdrawalErrorInfo | null
  requestId: string | null
}

/** A record the service knows by an id of its own, carrying flags. */
export interface LinkedRecord extends LifecycleRecord {
  remoteId: string | null
  flags: string[]
}

/** The `operator` of system entries (recovery, tracker observations). */
export const SYSTEM_OPERATOR = 'system'

/** The audit entry a plan writes with its record (subject and state hash are the record's, added by the writer). */
export interface PlannedAudit {
  operator: string
  action: string
  details: Record<string, unknown>
}

export interface Plan<R> {
  next: R
  audit: PlannedAudit
}

/** The service's answer to a create, as far as the lifecycle reads it (CreatedOutcome, validated by the caller). */
export interface CreatedAnswer {
  remoteId: string
  createResponse: Record<string, unknown> | null
  requestId: string | null
  status?: string | null | undefined
  nonce?: string | null | undefined
  expiration?: string | null | undefined
  depositAddress?: string | null | undefined
  depositAmountCents?: number | null | undefined
  payoutAmountCents?: number | null | undefined
}

/**
 * One record kind as the rules see it, whatever the engine (kinds.ts has the two). Keyed by the one id of
 * shared/record-kinds.ts; it stays a descriptor of its own because tables and the create's effect are storage's
 * facts, which no other layer may read.
 */
export interface KindRules<R extends LinkedRecord> {
  /** The kind's id, which is also its audit actions' prefix (`withdrawal.rejected`, `deposit.outcome_unknown`). */
  action: RecordKindId
  /** The kind's table on both engines: a fixed name, never input. */
  table: 'withdrawals' | 'deposits'
  /** Its observations' table. */
  observations: 'observations' | 'deposit_observations'
  /** The record once the create's answer arrived, before any status the answer carries is applied. */
  created(rec: R, o: CreatedAnswer, now: string): R
  /** What a status answer does (observations.ts), and whether the flags it raised get an entry of their own. */
  observation: {
    plan(
      rec: R,
      obs: { status: string; body: Record<string, unknown> | null; observedAt: string },
    ): {
      record: R
      applied: boolean
      raised: string[]
    }
    flagsEntry: boolean
  }
}

/** `from` names the one state this operation starts from (several operations lead to the same target). */
export function assertTransition(rec: LifecycleRecord, from: LocalState, to: LocalState): void {
  if (rec.localState !== from || !canTransition(from, to)) {
    throw new LedgerError('illegal_transition', `${rec.localId}: ${rec.localState} → ${to} is not allowed`)
  }
}

/** The answer said no (`rejected`), or nobody knows whether the POST arrived (`outcome_unknown`). */
export function planFailed<R extends LinkedRecord>(
  kind: Pick<KindRules<R>, 'action'>,
  rec: R,
  to: 'rejected' | 'outcome_unknown',
  err: WithdrawalErrorInfo | null,
  details: Record<string, unknown>,
  now: () => string,
): Plan<R> {
  assertTransition(rec, 'submitting', to)
  return {
    next: { ...rec, localState: to, updatedAt: now(), error: err, requestId: err?.requestId ?? null },
    audit: { operator: rec.operator, action: `${kind.action}.${to}`, details: { ...details, error: err } },
  }
}

/**
 * A submission interrupted by a crash or kill between "submitting committed" and "answer stored": nobody knows
 * whether the POST reached the service, so it becomes outcome_unknown (never resent); the operator resolves it.
 */
export function planInterrupted<R extends LinkedRecord>(
  kind: Pick<KindRules<R>, 'action'>,
  rec: R,
  now: () => string,
): Plan<R> {
  return {
    next: { ...rec, localState: 'outcome_unknown', updatedAt: now() },
    audit: {
      operator: SYSTEM_OPERATOR,
      action: `${kind.action}.outcome_unknown`,
      details: { reason: 'interrupted', submittedBy: rec.operator, submittedAt: rec.createdAt },
    },
  }
}

/** The audit entry of a created record (`extra`: what a replay from the side journal adds). */
export function createdAudit<R extends LinkedRecord>(
  kind: Pick<KindRules<R>, 'action'>,
  rec: R,
  o: CreatedAnswer,
  extra: Record<string, unknown>,
): PlannedAudit {
  return {
    operator: rec.operator,
    action: `${kind.action}.created`,
    details: { remoteId: o.remoteId, requestId: o.requestId, status: o.status ?? null, ...extra },
  }
}

/**
 * A create's answer replayed from the side journal: applied once to a record still `submitting` or already
 * `outcome_unknown`; the same id again changes nothing (null). Returns the audit's extra details.
 */
export function planJournaledCreate(rec: LinkedRecord, remoteId: string): Record<string, unknown> | null {
  if (rec.localState === 'created' && rec.remoteId === remoteId) return null
  assertTransition(rec, rec.localState === 'outcome_unknown' ? 'outcome_unknown' : 'submitting', 'created')
  return { replayed: 'side_journal', from: rec.localState }
}

/**
 * An unknown outcome settled by the operator: linked to the id support gave (`linkedId`), or declared not
 * created. The engine checks that `linkedId` is linked to no other record before writing.
 */
export function planResolved<R extends LinkedRecord>(
  kind: Pick<KindRules<R>, 'action'>,
  rec: R,
  linkedId: string | null,
  note: string | null,
  operator: string,
  now: () => string,
): Plan<R> {
  let next: R
  if (linkedId !== null) {
    assertTransition(rec, 'outcome_unknown', 'created')
    next = { ...rec, localState: 'created', remoteId: linkedId, updatedAt: now() }
  } else {
    assertTransition(rec, 'outcome_unknown', 'not_created')
    next = { ...rec, localState: 'not_created', updatedAt: now() }
  }
  return {
    next,
    audit: {
      operator,
      action: `${kind.action}.resolved`,
      details: { resolution: linkedId !== null ? 'linked' : 'not_created', remoteId: next.remoteId, note },
    },
  }
}

/** Replaces the record's flags, audited as what was added and removed; the same set plans nothing (null). */
export function planFlags<R extends LinkedRecord>(
  kind: Pick<KindRules<R>, 'action'>,
  rec: R,
  wanted: string[],
  operator: string,
  now: () => string,
): Plan<R> | null {
  const added = wanted.filter((f) => !rec.flags.includes(f))
  const removed = rec.flags.filter((f) => !wanted.includes(f))
  if (added.length === 0 && removed.length === 0) return null
  return {
    next: { ...rec, flags: wanted, updatedAt: now() },
    audit: { operator, action: `${kind.action}.flags`, details: { added, removed } },
  }
}

/** What funding reads and writes on a payment. */
export interface FundedRecord extends LinkedRecord {
  fundedAt: string | null
  fundingTxId: string | null
}

/**
 * The operator declares the token sent to the payment's deposit address. Repeatable (a mismatched deposit is
 * ignored by the service and a second one may follow): fundedAt keeps the first declaration, fundingTxId the
 * latest id given, the audit log every one. Repeating the same declaration plans nothing (null).
 */
export function planFunded<R extends FundedRecord>(
  rec: R,
  txId: string | null,
  operator: string,
  now: () => string,
): Plan<R> | null {
  if (rec.localState !== 'created') {
    throw new LedgerError(
      'illegal_transition',
      `cannot fund ${rec.localId}: it is ${rec.localState}, not created`,
    )
  }
  if (rec.fundedAt !== null && (txId === null || txId === rec.fundingTxId)) return null
  const at = now()
  return {
    next: { ...rec, fundedAt: rec.fundedAt ?? at, fundingTxId: txId ?? rec.fundingTxId, updatedAt: at },
    audit: { operator, action: 'withdrawal.funded', details: { txId, repeat: rec.fundedAt !== null } },
  }
}
