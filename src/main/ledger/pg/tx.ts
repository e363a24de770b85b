/**
 * One transaction on a pooled connection, with the database's clock read once at its start (every timestamp a
 * write stores comes from the server, not from a desk's clock). PostgreSQL errors leave as TeamLedgerError or
 * LedgerError (errors.ts); a connection cut mid-COMMIT is `unavailable`: the caller must treat the write's
 * outcome as unknown (for a create: the POST is not sent).
 */
import type pg from 'pg'
import { mapPgError, TeamLedgerError } from '../team-errors'
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
 * `use` on a pooled connection, handed back still checked out. A connection the server dropped while it sat idle
 * in the pool (restart, terminated backend, a NAT that forgot it) fails at its first statement, before anything was
 * done: it is discarded and `use` runs again on another one, at most once more than the pool holds connections. So
 * `use` must be safe to run again after a cut (BEGIN, or a read). A server that cannot be reached fails at connect
 * and is reported at once. A checked-out client's late 'error' event is absorbed (the failing query reports it).
 */
async function onLiveConnection<T>(
  pool: pg.Pool,
  use: (c: pg.PoolClient) => Promise<T>,
): Promise<{ c: pg.PoolClient; out: T }> {
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
      return { c, out: await use(c) }
    } catch (e) {
      failure = mapPgError(e)
    }
    const cut = failure instanceof TeamLedgerError && failure.code === 'unavailable'
    release(c, cut)
    if (!cut || attempt > (pool.options.max ?? 10)) throw failure
  }
}

/** A pooled connection with BEGIN already sent. */
export async function begin(pool: pg.Pool, isolation: string): Promise<pg.PoolClient> {
  return (await onLiveConnection(pool, (c) => c.query(`BEGIN ISOLATION LEVEL ${isolation}`))).c
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
 * Which lease the tracker's writes are made under: the token while this desk leads (pg/leader.ts `fenceToken`),
 * null otherwise (an analyst's own "check now" is not the tracker's and is not fenced).
 */
export type TrackerFence = () => string | null

/** In a write of the tracker: refused by the database (DPX40) unless the token is the current lease's. */
export async function checkFence(t: Tx, fence: TrackerFence): Promise<void> {
  const token = fence()
  if (token !== null) await t.c.query('SELECT tracker_fence($1)', [token])
}

/**
 * A read outside any explicit transaction, on one pooled connection. It is idempotent, so a connection cut under it
 * is replaced like one cut at BEGIN: a terminated backend must not turn the analyst's next click into "connection
 * lost" while the server is up.
 */
export async function read<T>(pool: pg.Pool, fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
  const { c, out } = await onLiveConnection(pool, fn)
  release(c, false)
  return out
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
