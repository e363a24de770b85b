/**
 * The deposit side of the ledger (top-ups, issue #17) behind an async interface, so one desk's SQLite file and a
 * team's PostgreSQL server carry deposits the same way (issue #16). Each method has the semantics of the
 * `DepositLedger` method of the same name (src/main/ledger/sqlite/deposit-types.ts): one transaction with its audit
 * entry, the same transitions, the same LedgerError codes.
 *
 * On PostgreSQL, as for withdrawals (types.ts): times and identities come from the database, and
 * `recoverInterrupted` recovers only this role's `submitting` deposits. A team ledger is one account's, so a
 * deposit id is unique across the team and the `profile` argument of the remote-id lookups and of the duplicate
 * lookup does not filter there (every desk's deposits count).
 */
import type { DepositRecord } from '../../shared/deposit-record'
import type {
  RecordFilter,
  StatusObservation,
  StatusTotal,
  WithdrawalErrorInfo,
} from '../../shared/withdrawal-record'
import type { CreatedOutcome, Ledger, ObservationInput } from './sqlite'
import type {
  DepositObservationResult,
  DepositResolution,
  ImportedDeposit,
  NewDeposit,
} from './sqlite/deposit-types'
import type { StoreEngine } from './model/engine'

/** The duplicate guard of a top-up: the same amount to the same address since `sinceIso` counts. */
export interface DepositGuard {
  sinceIso: string
  /** The window's length: on the team ledger the database takes the bound from its own clock (SimilarQuery). */
  windowMs?: number
  /** Local ids of similar top-ups the operator saw at review and confirmed: they do not count, any other does. */
  allow: readonly string[]
}

export type GuardedDeposit =
  { kind: 'inserted'; record: DepositRecord } | { kind: 'duplicate'; similar: DepositRecord[] }

export interface DepositStore {
  readonly engine: StoreEngine
  insertSubmitting(input: NewDeposit, operator: string): Promise<DepositRecord>
  /**
   * findRecentSimilar + insertSubmitting as one step no other desk can interleave with: of two desks topping up
   * the same amount to the same address at the same moment, one inserts and the other gets `duplicate`.
   */
  createGuarded(
    input: NewDeposit,
    operator: string,
    guard: DepositGuard,
    /** The team's approval of this very top-up (its id), when it needs one; the desk ledger has no approvals. */
    o?: { approvalId?: string },
  ): Promise<GuardedDeposit>
  markCreated(localId: string, outcome: CreatedOutcome): Promise<DepositRecord>
  applyJournaledCreate(
    localId: string,
    outcome: CreatedOutcome,
  ): Promise<{ record: DepositRecord; applied: boolean }>
  markRejected(localId: string, error: WithdrawalErrorInfo): Promise<DepositRecord>
  markOutcomeUnknown(
    localId: string,
    error: WithdrawalErrorInfo | null,
    reason: string,
  ): Promise<DepositRecord>
  recoverInterrupted(): Promise<number>
  resolveUnknown(localId: string, resolution: DepositResolution, operator: string): Promise<DepositRecord>
  importOutside(input: ImportedDeposit, operator: string): Promise<DepositRecord>
  recordObservation(localId: string, observation: ObservationInput): Promise<DepositObservationResult>
  setFlags(localId: string, flags: readonly string[], operator: string): Promise<DepositRecord>

  get(localId: string): Promise<DepositRecord | undefined>
  findByRemoteId(profile: string, remoteId: string): Promise<DepositRecord | undefined>
  knownRemoteIds(profile: string, remoteIds: readonly string[]): Promise<Set<string>>
  listOpen(): Promise<DepositRecord[]>
  findRecentSimilar(q: {
    profile: string
    amountCents: number
    depixAddress: string
    sinceIso: string
    windowMs?: number
  }): Promise<DepositRecord[]>
  query(filter?: RecordFilter): Promise<{ rows: DepositRecord[]; total: number }>
  /** Every matching deposit in the filter's order, in batches (exports, the allowance replay). */
  iterate(filter?: RecordFilter): AsyncGenerator<DepositRecord, void, undefined>
  totalsByStatus(filter?: RecordFilter): Promise<StatusTotal[]>
  observations(localId: string): Promise<StatusObservation[]>
}

/** What a top-up's duplicates share (none for a request without a usable amount and address). */
export function similarOf(
  input: NewDeposit,
): Array<{ profile: string; amountCents: number; depixAddress: string }> {
  const amount = input.request.amountInCents
  const address = input.request.depixAddress
  return typeof amount === 'number' && Number.isSafeInteger(amount) && typeof address === 'string'
    ? [{ profile: input.profile, amountCents: amount, depixAddress: address }]
    : []
}

/** Runs `fn` and turns a synchronous throw into a rejection, like an async engine. */
function later<T>(fn: () => T): Promise<T> {
  try {
    return Promise.resolve(fn())
  } catch (e) {
    return Promise.reject(e instanceof Error ? e : new Error(String(e)))
  }
}

/** The embedded ledger's deposits, unchanged: every call runs to completion before its promise settles. */
export function sqliteDepositStore(ledger: Pick<Ledger, 'deposits'>): DepositStore {
  const d = (): Ledger['deposits'] => ledger.deposits
  return {
    engine: 'sqlite',
    insertSubmitting: (input, operator) => later(() => d().insertSubmitting(input, operator)),
    // One process owns the file (lock.ts) and this runs to completion: nothing can come between check and insert.
    createGuarded: (input, operator, guard) =>
      later(() => {
        const similar = similarOf(input).flatMap((q) =>
          d()
            .findRecentSimilar({ ...q, sinceIso: guard.sinceIso })
            .filter((r) => !guard.allow.includes(r.localId)),
        )
        if (similar.length > 0) return { kind: 'duplicate' as const, similar }
        return { kind: 'inserted' as const, record: d().insertSubmitting(input, operator) }
      }),
    markCreated: (id, outcome) => later(() => d().markCreated(id, outcome)),
    applyJournaledCreate: (id, outcome) => later(() => d().applyJournaledCreate(id, outcome)),
    markRejected: (id, error) => later(() => d().markRejected(id, error)),
    markOutcomeUnknown: (id, error, reason) => later(() => d().markOutcomeUnknown(id, error, reason)),
    recoverInterrupted: () => later(() => d().recoverInterrupted()),
    resolveUnknown: (id, r, operator) => later(() => d().resolveUnknown(id, r, operator)),
    importOutside: (input, operator) => later(() => d().importOutside(input, operator)),
    recordObservation: (id, obs) => later(() => d().recordObservation(id, obs)),
    setFlags: (id, flags, operator) => later(() => d().setFlags(id, flags, operator)),
    get: (id) => later(() => d().get(id)),
    findByRemoteId: (profile, id) => later(() => d().findByRemoteId(profile, id)),
    knownRemoteIds: (profile, ids) => later(() => d().knownRemoteIds(profile, ids)),
    listOpen: () => later(() => d().listOpen()),
    findRecentSimilar: (q) => later(() => d().findRecentSimilar(q)),
    query: (f) => later(() => d().query(f)),
    iterate: async function* (f) {
      // Batches of 500 between yields: the sync generator must not hold the event loop for a whole export.
      let n = 0
      for (const r of d().iterate(f)) {
        yield r
        if (++n % 500 === 0) await new Promise((resolve) => setImmediate(resolve))
      }
    },
    totalsByStatus: (f) => later(() => d().totalsByStatus(f)),
    observations: (id) => later(() => d().observations(id)),
  }
}
