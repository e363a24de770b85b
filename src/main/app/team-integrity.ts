/**
 * The team ledger's audit chain checked when a team profile opens (issue #16), as this computer's ledger is by
 * integrity.ts: once per open, in the background (the store reads the chain in batches, so the event loop keeps
 * turning), and a broken chain raised on the renderer's 'ledger:integrity' alert, marked `ledger: 'team'` so the
 * banner tells the analyst to warn whoever runs the team database (a backup of this computer restores nothing
 * on a server). A server out of reach is not a broken chain: it is left unchecked, the team status already says
 * the desk is not connected. Only the result is kept; nothing here writes to the ledger.
 */
import type { LedgerIntegrity } from '../../shared/contract'
import { TeamLedgerError } from '../ledger/team-errors'
import type { LedgerStore } from '../ledger/ports'

export interface TeamIntegrityCheck {
  /** The team chain's standing; null while unchecked (server out of reach, or stopped). */
  status(): LedgerIntegrity | null
  /** Settles when the check is over (never rejects). */
  readonly done: Promise<void>
  /** No result is reported after this (the runtime is closing). */
  stop(): void
}

export interface TeamIntegrityOptions {
  store: Pick<LedgerStore, 'verifyAuditChain'>
  /** Told whenever `status()` changed. */
  onChange: () => void
  log: (line: string) => void
}

export function startTeamIntegrityCheck(o: TeamIntegrityOptions): TeamIntegrityCheck {
  let current: LedgerIntegrity | null = { state: 'checking', checkedAt: null, ledger: 'team' }
  let stopped = false
  const set = (s: LedgerIntegrity | null): void => {
    if (stopped) return
    current = s
    o.onChange()
  }
  const run = async (): Promise<void> => {
    // Off the opening path: the profile is usable before the first row is read.
    await new Promise((r) => setImmediate(r))
    if (stopped) return
    try {
      const v = await o.store.verifyAuditChain()
      const checkedAt = new Date().toISOString()
      if (v.ok) return set({ state: 'ok', checkedAt, rows: v.rows, ledger: 'team' })
      o.log(`team ledger: audit chain broken at seq ${v.brokenAt}`)
      set({ state: 'broken', checkedAt, brokenAt: v.brokenAt, reason: v.reason, ledger: 'team' })
    } catch (e) {
      if (e instanceof TeamLedgerError && e.code === 'unavailable') {
        o.log('team ledger: chain not checked (server out of reach)')
        return set(null)
      }
      o.log(`team ledger: integrity check failed (${e instanceof TeamLedgerError ? e.code : 'error'})`)
      set({ state: 'error', checkedAt: new Date().toISOString(), ledger: 'team' })
    }
  }
  const done = run().catch(() => undefined)
  return {
    status: () => current,
    done,
    stop: () => {
      stopped = true
      current = null
    },
  }
}

/**
 * What the alert shows: the team chain when it is broken or could not be read, else this computer's ledger
 * (which a team profile still uses for its top-ups, and its other profiles for everything).
 */
export function integrityView(local: LedgerIntegrity, team: LedgerIntegrity | null): LedgerIntegrity {
  return team && (team.state === 'broken' || team.state === 'error') ? team : local
}
