/**
 * One process owns a ledger file (issue #11). Two owners would each believe their `submitting` records are the
 * only ones in flight: a second instance's start-up recovery would turn the first one's in-flight create into
 * `outcome_unknown`, and two writers would interleave their work in the audit chain.
 *
 * The lock is SQLite's own exclusive lock on a small file beside the ledger, `<ledger>.lock.sqlite` (issue #25):
 * `BEGIN EXCLUSIVE` with `locking_mode = EXCLUSIVE` on a connection kept open for the ledger's life. Taking it is
 * one atomic create-or-fail in the operating system (POSIX advisory locks; LockFileEx on Windows), and the system
 * gives it back when the process ends however it ends — so there is no stale lock to judge and nothing is ever
 * deleted to take one over (the file lock of issue #11 deleted a lock it took for stale, a lock another process had
 * just created and not yet written: two owners in 5 of 30 simultaneous starts). A second connection of this very
 * process is refused too (SQLite tracks its own locks per file): one opened ledger per file per process.
 *
 * `<ledger>.lock` holds the owner's pid, host and start time, written by the owner after it took the lock, for the
 * refusal's message only: it decides nothing. Not SQLite's exclusive mode on the ledger itself: that would also shut
 * out read-only tools and tests that open the ledger with plain SQLite. The lock guards against a second instance of
 * this app; it does not stop a person editing the file by hand (the audit chain is for that).
 */
import fs from 'node:fs'
import os from 'node:os'
import { DatabaseSync } from 'node:sqlite'
import { z } from 'zod'
import { LedgerError } from '../model/errors'

const holderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string().max(256),
  /** Wall clock, for the operator's message only. */
  since: z.string().max(64),
})
type Holder = z.infer<typeof holderSchema>

export interface LedgerLock {
  readonly path: string
  release(): void
}

/** The owner note (`<ledger>.lock`); null for an in-memory ledger. */
export function lockPath(ledgerFile: string): string | null {
  if (ledgerFile === '' || ledgerFile === ':memory:' || ledgerFile.startsWith('file::memory:')) return null
  return `${ledgerFile}.lock`
}

/** The file whose SQLite exclusive lock is the ledger's lock. */
export const lockDbPath = (ledgerFile: string): string => `${ledgerFile}.lock.sqlite`

/** How long one try waits for the lock before it closes and tries again (tryLock). */
const LOCK_WAIT_MS = 100

/** SQLITE_BUSY / SQLITE_LOCKED (primary codes): another connection holds the lock. */
const BUSY_CODES: ReadonlySet<number> = new Set([5, 6])

function readHolder(file: string): Holder | null {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

/** The owner note, whole or not at all: written beside and renamed over the old one. */
function writeHolder(file: string, h: Holder): void {
  const tmp = `${file}.${process.pid}.tmp`
  try {
    fs.writeFileSync(tmp, JSON.stringify(h), { mode: 0o600 })
    fs.renameSync(tmp, file)
  } catch {
    // The note only names the owner in a refusal: the lock holds without it.
    fs.rmSync(tmp, { force: true })
  }
}

export function lockedError(ledgerFile: string, lockFile: string, h: Holder | null): LedgerError {
  const who = h ? `pid ${h.pid} on ${h.host}, since ${h.since}` : 'unknown owner'
  const quem = h ? `pid ${h.pid} em ${h.host}, desde ${h.since}` : 'dono desconhecido'
  return new LedgerError(
    'locked',
    `The ledger ${ledgerFile} is already open in another instance of the app (${who}). Only one may use it: ` +
      `close the other one and start again. / ` +
      `O livro-razão ${ledgerFile} já está aberto em outra instância do aplicativo (${quem}). Só uma pode ` +
      `usá-lo: feche a outra e abra de novo.`,
  )
}

/**
 * One try at SQLite's exclusive lock. BEGIN EXCLUSIVE passes through a shared lock, and in exclusive locking mode a
 * connection that fails to go further keeps that shared lock: two processes starting together can each hold one and
 * wait for the other until both give up. So a refused try closes its connection (dropping its shared lock) and the
 * caller tries again after a random pause: of two starters one wins; an owner's lock is held for good and stays.
 */
function tryLock(file: string): DatabaseSync | 'busy' {
  const db = new DatabaseSync(file, { timeout: LOCK_WAIT_MS })
  try {
    // Kept after the first write transaction until the connection closes (or the process ends).
    db.exec('PRAGMA locking_mode = EXCLUSIVE')
    db.exec('BEGIN EXCLUSIVE')
    db.exec('CREATE TABLE IF NOT EXISTS lock (id INTEGER PRIMARY KEY)')
    db.exec('COMMIT')
    return db
  } catch (e) {
    db.close()
    const code = (e as { errcode?: unknown }).errcode
    if (typeof code === 'number' && BUSY_CODES.has(code & 0xff)) return 'busy'
    throw e
  }
}

/** Tries before a refusal; with LOCK_WAIT_MS each and the pauses, a second instance is refused within ~1 s. */
const LOCK_TRIES = 6
const pause = new Int32Array(new SharedArrayBuffer(4))

/** Takes the lock or throws LedgerError('locked'). Null for an in-memory ledger. */
export function acquireLedgerLock(ledgerFile: string): LedgerLock | null {
  const note = lockPath(ledgerFile)
  if (note === null) return null
  let db: DatabaseSync | 'busy' = 'busy'
  for (let i = 0; i < LOCK_TRIES && db === 'busy'; i++) {
    if (i > 0) Atomics.wait(pause, 0, 0, 10 + Math.floor(Math.random() * 90))
    db = tryLock(lockDbPath(ledgerFile))
  }
  if (db === 'busy') throw lockedError(ledgerFile, note, readHolder(note))
  const lockDb = db
  const me: Holder = { pid: process.pid, host: os.hostname(), since: new Date().toISOString() }
  writeHolder(note, me)
  let released = false
  return {
    path: lockDbPath(ledgerFile),
    release() {
      if (released) return
      released = true
      // The note first, while the lock still stands: no later owner's note is ever removed.
      const h = readHolder(note)
      if (h && h.pid === me.pid && h.host === me.host && h.since === me.since)
        fs.rmSync(note, { force: true })
      lockDb.close()
    },
  }
}
