/**
 * The SQLite connection and the one way to write: a transaction. node:sqlite is synchronous, so a write returns
 * only after COMMIT, and with synchronous=FULL after the WAL is fsynced: when `insertSubmitting` returns, the
 * record survives a crash or power loss, which is what lets the caller send the POST.
 */
import { DatabaseSync, type SQLInputValue, type StatementSync } from 'node:sqlite'
import { canonicalJson } from '../model/canonical-json'
import { LedgerError } from '../model/errors'

export type Params = SQLInputValue[]

export interface Db {
  readonly raw: DatabaseSync
  /** Cached prepared statement. Every SQL text in the ledger is built from a bounded set of shapes. */
  stmt(sql: string): StatementSync
  /** Uncached statement, for iterators that outlive one call (a cached one could be reset under them). */
  fresh(sql: string): StatementSync
  /** Runs `fn` in BEGIN IMMEDIATE … COMMIT, ROLLBACK on throw. Not re-entrant: writes compose inside one call. */
  tx<T>(fn: () => T): T
  close(): void
}

const BUSY_TIMEOUT_MS = 5_000

export interface OpenDbOptions {
  /** Called after every COMMIT of `tx` (the identity file follows the head). Must not throw. */
  onCommit?: () => void
}

export function openDb(file: string, o: OpenDbOptions = {}): Db {
  const raw = new DatabaseSync(file)
  try {
    // WAL: readers (status tracker, exports) never block the writer. Returns the mode actually set; a file system
    // without shared memory falls back to a rollback journal, which is slower but just as durable.
    raw.exec('PRAGMA journal_mode = WAL')
    raw.exec('PRAGMA synchronous = FULL')
    raw.exec('PRAGMA foreign_keys = ON')
    raw.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`)
    // 32 MiB page cache (default 2 MiB): the listing indexes of 100k records stay in memory.
    raw.exec('PRAGMA cache_size = -32768')
    // Schema objects (triggers, views) must not call app functions if someone edits the file.
    raw.exec('PRAGMA trusted_schema = OFF')
  } catch (e) {
    raw.close()
    throw e
  }
  const cache = new Map<string, StatementSync>()
  let inTx = false
  let closed = false
  const assertOpen = (): void => {
    if (closed) throw new LedgerError('closed', 'ledger is closed')
  }
  return {
    raw,
    stmt(sql) {
      assertOpen()
      let s = cache.get(sql)
      if (!s) {
        s = raw.prepare(sql)
        cache.set(sql, s)
      }
      return s
    },
    fresh(sql) {
      assertOpen()
      return raw.prepare(sql)
    },
    tx<T>(fn: () => T): T {
      // Our own flag, not DatabaseSync#isTransaction (Node ≥ 24 only; Electron's Node may be older).
      assertOpen()
      if (inTx) throw new Error('ledger: nested transaction')
      raw.exec('BEGIN IMMEDIATE')
      inTx = true
      try {
        const result = fn()
        raw.exec('COMMIT')
        inTx = false
        o.onCommit?.()
        return result
      } catch (e) {
        try {
          raw.exec('ROLLBACK')
        } catch {
          // SQLite may already have rolled back (e.g. on SQLITE_FULL); the original error is the one to report.
        }
        throw e
      } finally {
        inTx = false
      }
    },
    close() {
      if (closed) return
      closed = true
      cache.clear()
      raw.close()
    },
  }
}

/** JSON column helpers: SQLite stores JSON as TEXT; null stays SQL NULL. */
export function toJson(v: unknown): string | null {
  return v === null || v === undefined ? null : JSON.stringify(v)
}

/**
 * A record's JSON column, as canonical JSON (canonical-json.ts): the same value JSON.stringify would store, with
 * every object's members in canonical order, so a record read back is already in that order and its state hash
 * (start-up check, exports) is written natively instead of rebuilt object by object.
 */
export function toRecordJson(v: unknown): string | null {
  return v === null || v === undefined ? null : canonicalJson(v)
}

export function fromJson<T>(v: unknown): T | null {
  return typeof v === 'string' ? (JSON.parse(v) as T) : null
}
