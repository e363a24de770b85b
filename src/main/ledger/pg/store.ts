/**
 * The team ledger on PostgreSQL (node-postgres pool). One desk = one analyst role; what the role may do is decided
 * by the database's privileges (schema.ts), what it did is recorded under its name by the database.
 *
 *   const store = await openPgStore({ connection: { host, port, database, user, password, ssl } })
 *   const r = await store.createGuarded(input, operator, { sinceIso })   // atomic across every desk
 */
import pg from 'pg'
import { LedgerError } from '../model/errors'
import { guardLockName } from '../model/similar'
import {
  createdOutcomeSchema,
  newWithdrawalSchema,
  observationInputSchema,
  unknownResolutionSchema,
} from '../model/inputs'
import { mapPgError } from '../team-errors'
import type { LedgerStore } from '../ports'
import { appendAudit, readAudit, readHead } from './audit'
import * as life from './lifecycle'
import { getRecord } from './record-write'
import { checkSchema } from './migrate'
import * as q from './queries'
import { runLinksFor } from './run-links'
import { SCHEMA } from './schema'
import { checkFence, read, snapshotWalk, withTx, type TrackerFence, type Tx } from './tx'
import { lifecycleMethods, needOperator, parse } from './store-lifecycle'
import { approvalsApi, type ApprovalsApi } from './approvals'
import { verifyTeamLedger } from './verify-ledger'
import type { DepositStore } from '../deposit-store'
import { pgDepositStore } from './deposit-store'

export interface PgStoreOptions {
  connection: pg.PoolConfig
  /** Connections this desk keeps (default 4). */
  poolSize?: number
}

export interface PgLedgerStore extends LedgerStore, ApprovalsApi {
  readonly engine: 'postgres'
  readonly pool: pg.Pool
  readonly schemaVersion: number
  readonly deposits: DepositStore
  /**
   * Makes this desk's observation writes carry the tracker lease it holds (`fence` returns its token while it leads):
   * a lead that was replaced without noticing has its writes refused by the database (`not_leading`).
   */
  setTrackerFence(fence: TrackerFence): void
}

/**
 * The duplicate guard's advisory lock: one per Pix key, case-insensitive like the lookup (ledger/model/similar.ts), so a
 * payout typed in either amount kind to the same key waits for the other's insert.
 */
async function guardLock(t: Tx, pixKey: string): Promise<void> {
  await t.c.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 727016))', [guardLockName(pixKey)])
}

export function pgPool(o: PgStoreOptions): pg.Pool {
  const pool = new pg.Pool({
    ...o.connection,
    max: o.poolSize ?? 4,
    // Every connection works in the ledger schema and gives up on a hung server instead of waiting forever.
    options: `-c search_path=${SCHEMA},pg_temp -c statement_timeout=30000`,
    connectionTimeoutMillis: o.connection.connectionTimeoutMillis ?? 10_000,
  })
  // An idle connection the server dropped (restart, pg_terminate_backend) must not crash the app: the pool
  // discards it and the next query opens a new one.
  pool.on('error', () => undefined)
  return pool
}

export async function openPgStore(o: PgStoreOptions): Promise<PgLedgerStore> {
  const pool = pgPool(o)
  let identity: string
  let version: number
  try {
    const c = await pool.connect().catch((e: unknown) => {
      throw mapPgError(e)
    })
    try {
      version = await checkSchema(c)
      identity = String((await c.query('SELECT session_user AS who')).rows[0]?.who)
    } finally {
      c.release()
    }
  } catch (e) {
    await pool.end().catch(() => undefined)
    throw mapPgError(e)
  }
  const tx = <T>(fn: (t: Tx) => Promise<T>): Promise<T> => withTx(pool, fn)
  let fence: TrackerFence = () => null

  const insert = async (t: Tx, input: unknown, operator: string, approvalId: string | null) => {
    const n = parse(newWithdrawalSchema, input, 'new withdrawal')
    await guardLock(t, n.pixKey)
    return life.insertSubmitting(t, n, operator, approvalId)
  }

  return {
    engine: 'postgres',
    identity,
    pool,
    schemaVersion: version,
    deposits: pgDepositStore(pool, () => fence()),
    setTrackerFence: (f) => {
      fence = f
    },
    insertSubmitting: async (input, operator, opts) => {
      needOperator(operator)
      return tx((t) => insert(t, input, operator, opts?.approvalId ?? null))
    },
    createGuarded: async (input, operator, guard, opts) => {
      needOperator(operator)
      const n = parse(newWithdrawalSchema, input, 'new withdrawal')
      return tx(async (t) => {
        // The lock serialises every create of this key and amount across desks; the lookup after it sees every
        // create committed before it was granted (READ COMMITTED takes a new snapshot per statement).
        await guardLock(t, n.pixKey)
        if (!guard.confirmed) {
          const allowed = new Set(guard.allow ?? [])
          const similar = (
            await q.findRecentSimilar(t.c, {
              pixKey: n.pixKey,
              amountKind: n.amountKind,
              amountCents: n.amountCents,
              sinceIso: guard.sinceIso,
              ...(guard.windowMs === undefined ? {} : { windowMs: guard.windowMs }),
              ...(guard.profile === undefined ? {} : { profile: guard.profile }),
              ...(guard.partnerRateBps === undefined ? {} : { partnerRateBps: guard.partnerRateBps }),
            })
          ).filter((r) => !allowed.has(r.localId))
          if (similar.length > 0) return { kind: 'duplicate' as const, similar }
        }
        return {
          kind: 'inserted' as const,
          record: await life.insertSubmitting(t, n, operator, opts?.approvalId ?? null),
        }
      })
    },
    ...lifecycleMethods(tx, life, { outcome: createdOutcomeSchema, resolution: unknownResolutionSchema }),
    recordObservation: async (id, observation) => {
      const obs = parse(observationInputSchema, observation, 'observation')
      return tx(async (t) => {
        await checkFence(t, fence)
        return life.recordObservation(t, id, obs)
      })
    },
    markFunded: async (id, funding, operator) => {
      needOperator(operator)
      const txId = typeof funding.txId === 'string' && funding.txId.trim() !== '' ? funding.txId.trim() : null
      return tx((t) => life.markFunded(t, id, txId, operator))
    },
    markFundedMany: async (ids, funding, operator) => {
      needOperator(operator)
      const txId = funding.txId.trim()
      if (ids.length === 0 || txId === '' || new Set(ids).size !== ids.length)
        throw new LedgerError('invalid_input', 'one txid and distinct payments are required')
      // One database transaction, each payment through write_withdrawal like markFunded: all or none.
      return tx(async (t) => {
        const out = []
        for (const id of ids) out.push(await life.markFunded(t, id, txId, operator))
        return out
      })
    },
    setFlags: async (id, flags, operator) => {
      needOperator(operator)
      if (!flags.every((f) => typeof f === 'string' && f !== ''))
        throw new LedgerError('invalid_input', 'bad flag')
      return tx((t) => life.setFlags(t, id, [...new Set(flags)], operator))
    },
    get: (id) => read(pool, (c) => getRecord(c, id)),
    findByRemoteId: (remoteId) =>
      read(pool, async (c) => {
        const r = await c.query('SELECT local_id FROM withdrawals WHERE remote_id = $1', [remoteId])
        return r.rows[0] ? getRecord(c, String(r.rows[0].local_id)) : undefined
      }),
    listOpen: () => read(pool, (c) => q.listOpen(c)),
    findRecentSimilar: (query) => read(pool, (c) => q.findRecentSimilar(c, query)),
    query: (filter) => read(pool, (c) => q.queryRecords(c, filter)),
    runLinks: (ids) => read(pool, (c) => runLinksFor(c, ids)),
    iterate: (filter) => snapshotWalk(pool, (c) => q.iterateRecords(c, filter)),
    totalsByStatus: (filter) => read(pool, (c) => q.totalsByStatus(c, filter)),
    observations: (id) => read(pool, (c) => q.listObservations(c, id)),
    audit: (options) => read(pool, (c) => readAudit(c, options)),
    appendAudit: async (entry) => {
      if (!entry.operator || !entry.action)
        throw new LedgerError('invalid_input', 'audit entry needs operator and action')
      return tx((t) => appendAudit(t.c, t.identity, entry))
    },
    auditHead: () => read(pool, (c) => readHead(c)),
    verifyAuditChain: () => withTx(pool, (t) => verifyTeamLedger(t.c), 'REPEATABLE READ'),
    ...approvalsApi(pool),
    close: async () => {
      await pool.end()
    },
  }
}
