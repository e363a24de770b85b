/**
 * The team ledger's deposits (pg/deposit-lifecycle.ts, pg/deposit-queries.ts) as a `DepositStore`, on the same
 * pool and transactions as its withdrawals. Inputs are checked with the SQLite ledger's own zod schemas.
 */
import type pg from 'pg'
import { LedgerError } from '../model/errors'
import {
  createdOutcomeSchema,
  depositResolutionSchema,
  importedDepositSchema,
  newDepositSchema,
  observationInputSchema,
} from '../model/inputs'
import { similarOf, type DepositStore } from '../deposit-store'
import * as life from './deposit-lifecycle'
import * as q from './deposit-queries'
import { checkFence, read, snapshotWalk, withTx, type TrackerFence, type Tx } from './tx'
import { lifecycleMethods, needOperator, parse } from './store-lifecycle'

/** The advisory-lock key of the duplicate guard: one per (address, amount). */
const GUARD_KEY_SQL = `SELECT pg_advisory_xact_lock(hashtextextended($1 || '|' || $2::text, 727017))`

export function pgDepositStore(pool: pg.Pool, fence: TrackerFence = () => null): DepositStore {
  const tx = <T>(fn: (t: Tx) => Promise<T>): Promise<T> => withTx(pool, fn)
  return {
    engine: 'postgres',
    insertSubmitting: async (input, operator) => {
      const n = parse(newDepositSchema, input, 'new deposit')
      needOperator(operator)
      return tx((t) => life.insertSubmitting(t, n, operator))
    },
    createGuarded: async (input, operator, guard, o) => {
      const n = parse(newDepositSchema, input, 'new deposit')
      needOperator(operator)
      return tx(async (t) => {
        for (const s of similarOf(n)) {
          // Serialises every top-up of this amount to this address across desks; the lookup after it sees every
          // one committed before the lock was granted (READ COMMITTED: a new snapshot per statement).
          await t.c.query(GUARD_KEY_SQL, [s.depixAddress, s.amountCents])
          const similar = (
            await q.findRecentSimilar(t.c, { ...s, sinceIso: guard.sinceIso, windowMs: guard.windowMs })
          ).filter((r) => !guard.allow.includes(r.localId))
          if (similar.length > 0) return { kind: 'duplicate' as const, similar }
        }
        return {
          kind: 'inserted' as const,
          record: await life.insertSubmitting(t, n, operator, o?.approvalId ?? null),
        }
      })
    },
    ...lifecycleMethods(tx, life, { outcome: createdOutcomeSchema, resolution: depositResolutionSchema }),
    importOutside: async (input, operator) => {
      const n = parse(importedDepositSchema, input, 'imported deposit')
      needOperator(operator)
      return tx((t) => life.importOutside(t, n, operator))
    },
    recordObservation: async (id, observation) => {
      const obs = parse(observationInputSchema, observation, 'observation')
      return tx(async (t) => {
        await checkFence(t, fence)
        return life.recordObservation(t, id, obs)
      })
    },
    setFlags: async (id, flags, operator) => {
      needOperator(operator)
      if (!flags.every((f) => typeof f === 'string' && f !== ''))
        throw new LedgerError('invalid_input', 'bad flag')
      return tx((t) => life.setFlags(t, id, [...new Set(flags)], operator))
    },
    get: (id) => read(pool, (c) => life.getDeposit(c, id)),
    findByRemoteId: (_profile, remoteId) => read(pool, (c) => q.findByRemoteId(c, remoteId)),
    knownRemoteIds: (_profile, ids) => read(pool, (c) => q.knownRemoteIds(c, ids)),
    listOpen: () => read(pool, (c) => q.listOpen(c)),
    findRecentSimilar: (query) => read(pool, (c) => q.findRecentSimilar(c, query)),
    query: (filter) => read(pool, (c) => q.queryDeposits(c, filter)),
    iterate: (filter) => snapshotWalk(pool, (c) => q.iterateDeposits(c, filter)),
    totalsByStatus: (filter) => read(pool, (c) => q.depositTotals(c, filter)),
    observations: (id) => read(pool, (c) => q.depositObservations(c, id)),
  }
}
