/**
 * One process owns a ledger file (issue #11). Two owners would each believe their `submitting` records are the
 * only ones in flight: a second instance's start-up recovery would turn the first one's in-flight create into
 * `outcome_unknown`, and two writers would interleave their work in the audit chain.
 *
 * The lock is a file beside the ledger, `<ledger>.lock`, created with O_EXCL (`wx`) and holding the owner's pid,
 * host and process start time; `openLedger` takes it before opening the database and `close` removes it. A lock
 * whose owner is gone (the pid is dead, or on Linux the pid now belongs to a process started at another time) is
 * stale and taken over; a lock of another host cannot be checked and is respected. A lock held by this very
 * process refuses too: one opened ledger per file per process.
 *
 * Not SQLite's `locking_mode = EXCLUSIVE`: that would also shut out read-only tools and tests that open the file
 * with plain SQLite, and it gives the operator no owner to name. The lock guards against a second instance of
 * this app; it does not stop a person editing the file by hand (the audit chain is for that).
 */
import fs from 'node:fs'
import os from 'node:os'
import { z } from 'zod'
import { LedgerError } from './errors'

const holderSchema = z.object({
  pid: z.number().int().positive(),
  host: z.string().max(256),
  /** Wall clock, for the operator's message only. */
  since: z.string().max(64),
  /** Linux: field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null elsewhere. */
  procStart: z.string().max(32).nullable(),
})
type Holder = z.infer<typeof holderSchema>

export interface LedgerLock {
  readonly path: string
  release(): void
}

export function lockPath(ledgerFile: string): string | null {
  if (ledgerFile === '' || ledgerFile === ':memory:' || ledgerFile.startsWith('file::memory:')) return null
  return `${ledgerFile}.lock`
}

function procStart(pid: number): string | null {
  if (process.platform !== 'linux') return null
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    // The command name (field 2) may hold spaces and parentheses: count fields after its closing one.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
    return fields[19] ?? null
  } catch {
    return null
  }
}

function readHolder(file: string): Holder | null {
  try {
    const parsed = holderSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')))
    return parsed.success ? parsed.data : null
  } catch {
    return null
  }
}

function alive(h: Holder): boolean {
  if (h.host !== os.hostname()) return true
  if (h.pid === process.pid) return true
  try {
    process.kill(h.pid, 0)
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ESRCH') return false
  }
  // The pid exists (or we may not signal it): the same process only if it started when the holder did.
  if (h.procStart === null) return true
  const now = procStart(h.pid)
  return now === null || now === h.procStart
}

export function lockedError(ledgerFile: string, lockFile: string, h: Holder | null): LedgerError {
  const who = h ? `pid ${h.pid} on ${h.host}, since ${h.since}` : 'unknown owner'
  const quem = h ? `pid ${h.pid} em ${h.host}, desde ${h.since}` : 'dono desconhecido'
  return new LedgerError(
    'locked',
    `The ledger ${ledgerFile} is already open in another instance of the app (${who}). Only one may use it: ` +
      `close the other one and start again. If no other instance is running, delete ${lockFile}. / ` +
      `O livro-razão ${ledgerFile} já está aberto em outra instância do aplicativo (${quem}). Só uma pode ` +
      `usá-lo: feche a outra e abra de novo. Se nenhuma outra estiver aberta, apague ${lockFile}.`,
  )
}

/** Takes the lock or throws LedgerError('locked'). Null for an in-memory ledger. */
export function acquireLedgerLock(ledgerFile: string): LedgerLock | null {
  const file = lockPath(ledgerFile)
  if (file === null) return null
  const me: Holder = {
    pid: process.pid,
    host: os.hostname(),
    since: new Date().toISOString(),
    procStart: procStart(process.pid),
  }
  // Two attempts: the second after removing a stale lock.
  for (let attempt = 0; attempt < 2; attempt++) {
    let fd: number
    try {
      fd = fs.openSync(file, 'wx', 0o600)
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
      const holder = readHolder(file)
      // An unreadable lock is a write torn by a crash (the owner writes it right after creating it): stale.
      if (holder !== null && alive(holder)) throw lockedError(ledgerFile, file, holder)
      fs.rmSync(file, { force: true })
      continue
    }
    try {
      fs.writeSync(fd, JSON.stringify(me))
      fs.fsyncSync(fd)
    } finally {
      fs.closeSync(fd)
    }
    let released = false
    return {
      path: file,
      release() {
        if (released) return
        released = true
        // Only our own: never remove a lock another owner took over after ours was judged stale.
        const h = readHolder(file)
        if (h && h.pid === me.pid && h.host === me.host && h.since === me.since)
          fs.rmSync(file, { force: true })
      },
    }
  }
  throw lockedError(ledgerFile, file, readHolder(file))
}
