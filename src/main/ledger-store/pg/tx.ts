/**
 * One transaction on a pooled connection, with the database's clock read once at its start (every timestamp a
 * write stores comes from the server, not from a desk's clock). PostgreSQL errors leave as TeamLedgerError or
 * LedgerError (errors.ts); a connection cut mid-COMMIT is `unavailable`: the caller must treat the write's
 * outcome as unknown (for a create: the POST is not sent).
 */
import type pg from 'pg'
import { mapPgError, TeamLedgerError } from '../errors'
import { ISO_NOW_SQL } from './schema'

export interface Tx {
  c: pg.PoolClient
  /** The server's time at the start of the transaction, ISO 8601 UTC with milliseconds. */
  now: string
  /** The database role of this connection (session_user). */
  identity: string
}

const ignore = (): void => undefined

/**
 * A pooled connection with BEGIN already sent. A connection the server dropped while it sat idle in the pool
 * (restart, terminated backend) fails at BEGIN, before anything was written: that one is discarded and a fresh
 * connection tried (as many times as the pool may hold stale ones). A checked-out client's late 'error' event is absorbed (the failing query reports it).
 */
export async function begin(pool: pg.Pool, isolation: string): Promise<pg.PoolClient> {
  for (let attempt = 1; ; attempt++) {
    let c: pg.PoolClient
    try {
      c = await pool.connect()
    } catch (e) {
      throw mapPgError(e)
    }
    c.on('error', ignore)
    try {
      await c.query(`BEGIN ISOLATION LEVEL ${isolation}`)
      return c
    } catch (e) {
      c.off('error', ignore)
      c.release(true)
      if (attempt > (pool.options.max ?? 10)) throw mapPgError(e)
    }
  }
}

export function release(c: pg.PoolClient, broken: boolean): void {
  c.off('error', ignore)
  c.release(broken ? true : undefined)
}

export async function withTx<T>(
  pool: pg.Pool,
  fn: (tx: Tx) => Promise<T>,
  isolation: 'READ COMMITTED' | 'REPEATABLE READ' = 'READ COMMITTED',
): Promise<T> {
  const c = await begin(pool, isolation)
  let broken = false
  try {
    const r = await c.query(`SELECT ${ISO_NOW_SQL} AS now, session_user AS who`)
    const out = await fn({ c, now: String(r.rows[0]?.now), identity: String(r.rows[0]?.who) })
    await c.query('COMMIT')
    return out
  } catch (e) {
    try {
      await c.query('ROLLBACK')
    } catch {
      broken = true
    }
    throw mapPgError(e)
  } finally {
    // A connection that failed to roll back is dropped, never handed to the next caller mid-transaction.
    release(c, broken)
  }
}

/**
 * A read outside any explicit transaction, on one pooled connection. Like `begin`, a connection the server dropped
 * while it sat idle in the pool fails the read before any answer: the read is idempotent, so that connection is
 * discarded and the read tried on a fresh one (a terminated backend must not turn the analyst's next click into
 * "connection lost"). A server that cannot be reached fails at connect and is reported at once.
 */
export async function read<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    let c: pg.PoolClient
    try {
      c = await pool.connect()
    } catch (e) {
      throw mapPgError(e)
    }
    c.on('error', ignore)
    let failure: unknown
    try {
      const out = await fn(c)
      release(c, false)
      return out
    } catch (e) {
      failure = mapPgError(e)
    }
    const cut = failure instanceof TeamLedgerError && failure.code === 'unavailable'
    release(c, cut)
    if (!cut || attempt > (pool.options.max ?? 10)) throw failure
  }
}

/**
 * The records `walk` yields, inside one REPEATABLE READ, READ ONLY transaction for the whole walk: an export is
 * one moment of a live ledger. A connection that failed to roll back is dropped.
 */
export async function* snapshotWalk<R>(
  pool: pg.Pool,
  walk: (c: pg.PoolClient) => AsyncGenerator<R, void, undefined>,
): AsyncGenerator<R, void, undefined> {
  const c = await begin(pool, 'REPEATABLE READ READ ONLY')
  let broken = false
  try {
    yield* walk(c)
    await c.query('COMMIT')
  } catch (e) {
    await c.query('ROLLBACK').catch(() => {
      broken = true
    })
    throw mapPgError(e)
  } finally {
    release(c, broken)
  }
}
