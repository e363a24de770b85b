/**
 * The ledger's integrity while the app runs: the file (quick_check, when open left it to a worker) and the audit
 * chain (and every record against it) are verified at
 * start-up on a snapshot of its own, in the background (the walk pauses for the event loop every few thousand
 * rows), and the result is pushed to the renderer ('ledger:integrity'), which shows an alert banner when it is
 * broken. Also the daily rolling backup: checked hourly, taken when the newest backup is a day old.
 */
import type { LedgerIntegrity } from '../../shared/contract'
import type { Ledger } from '../ledger/sqlite'

const HOUR_MS = 3_600_000
export const DAILY_BACKUP_MS = 24 * HOUR_MS

export interface IntegrityMonitor {
  status(): LedgerIntegrity
  /** Verifies now (one check at a time: a second call while one runs gets the same promise). */
  check(): Promise<LedgerIntegrity>
  start(): void
  /** Stops the schedule; resolves when a running check has finished (the ledger may then be closed). */
  stop(): Promise<void>
}

export interface IntegrityOptions {
  ledger: Ledger
  emit: (status: LedgerIntegrity) => void
  log: (line: string) => void
  /** How often the daily backup is considered (default hourly). */
  backupCheckMs?: number
}

export function createIntegrityMonitor(o: IntegrityOptions): IntegrityMonitor {
  let current: LedgerIntegrity = { state: 'checking', checkedAt: null }
  let running: Promise<LedgerIntegrity> | null = null
  let timer: NodeJS.Timeout | null = null

  const set = (s: LedgerIntegrity): LedgerIntegrity => {
    current = s
    o.emit(s)
    return s
  }

  const run = async (): Promise<LedgerIntegrity> => {
    set({ state: 'checking', checkedAt: current.checkedAt })
    try {
      // A large ledger's quick_check runs here, on a worker, rather than blocking open.
      const damaged = await o.ledger.checkFile()
      if (damaged.length > 0) {
        o.log('ledger: quick_check failed; writes refused')
        const reason = `quick_check: ${damaged.slice(0, 3).join('; ')}`
        return set({ state: 'broken', checkedAt: new Date().toISOString(), reason })
      }
      const snap = o.ledger.snapshot()
      try {
        const v = await snap.verify()
        const checkedAt = new Date().toISOString()
        if (v.ok) return set({ state: 'ok', checkedAt, rows: v.rows })
        o.log(`ledger: audit chain broken at seq ${v.brokenAt}`)
        return set({ state: 'broken', checkedAt, brokenAt: v.brokenAt, reason: v.reason })
      } finally {
        snap.close()
      }
    } catch (e) {
      o.log(`ledger: integrity check failed (${e instanceof Error ? e.name : typeof e})`)
      return set({ state: 'error', checkedAt: new Date().toISOString() })
    }
  }

  const backupIfDue = (): void => {
    try {
      const b = o.ledger.backupIfDue(DAILY_BACKUP_MS)
      if (b) o.log(`ledger: daily backup ${b.name}`)
    } catch (e) {
      o.log(`ledger: daily backup failed (${e instanceof Error ? e.name : typeof e})`)
    }
  }

  const check = (): Promise<LedgerIntegrity> => {
    running ??= run().finally(() => {
      running = null
    })
    return running
  }

  return {
    status: () => current,
    check,
    start() {
      void check().then(backupIfDue)
      timer = setInterval(backupIfDue, o.backupCheckMs ?? HOUR_MS)
      timer.unref()
    },
    async stop() {
      if (timer) clearInterval(timer)
      timer = null
      await running?.catch(() => undefined)
    },
  }
}
