/** `ledger.deposits`: the deposit side of the ledger, on the ledger's own connection and transactions. */
import type { Ctx } from './context'
import {
  depositTotalsByStatus,
  findRecentSimilarDeposits,
  getDeposit,
  getDepositByRemoteId,
  iterateDeposits,
  knownDepositIds,
  listDepositObservations,
  listOpenDeposits,
  queryDeposits,
} from './deposit-queries'
import type { DepositLedger } from './deposit-types'
import {
  applyJournaledDepositCreate,
  importOutsideDeposit,
  insertSubmittingDeposit,
  markDepositCreated,
  markDepositOutcomeUnknown,
  markDepositRejected,
  recordDepositObservation,
  recoverInterruptedDeposits,
  resolveUnknownDeposit,
  setDepositFlags,
} from './deposits'

export function depositLedger(ctx: Ctx): DepositLedger {
  return {
    insertSubmitting: (input, operator) => insertSubmittingDeposit(ctx, input, operator),
    markCreated: (localId, outcome) => markDepositCreated(ctx, localId, outcome),
    applyJournaledCreate: (localId, outcome) => applyJournaledDepositCreate(ctx, localId, outcome),
    markRejected: (localId, error) => markDepositRejected(ctx, localId, error),
    markOutcomeUnknown: (localId, error, reason) => markDepositOutcomeUnknown(ctx, localId, error, reason),
    recoverInterrupted: () => recoverInterruptedDeposits(ctx),
    resolveUnknown: (localId, resolution, operator) =>
      resolveUnknownDeposit(ctx, localId, resolution, operator),
    importOutside: (input, operator) => importOutsideDeposit(ctx, input, operator),
    recordObservation: (localId, observation) => recordDepositObservation(ctx, localId, observation),
    setFlags: (localId, flags, operator) => setDepositFlags(ctx, localId, flags, operator),
    get: (localId) => getDeposit(ctx.db, localId),
    findByRemoteId: (profile, remoteId) => getDepositByRemoteId(ctx.db, profile, remoteId),
    knownRemoteIds: (profile, remoteIds) => knownDepositIds(ctx.db, profile, remoteIds),
    listOpen: () => listOpenDeposits(ctx.db),
    findRecentSimilar: (q) => findRecentSimilarDeposits(ctx.db, q),
    query: (filter) => queryDeposits(ctx.db, filter),
    iterate: (filter) => iterateDeposits(ctx.db, filter),
    totalsByStatus: (filter) => depositTotalsByStatus(ctx.db, filter),
    observations: (localId) => listDepositObservations(ctx.db, localId),
  }
}
