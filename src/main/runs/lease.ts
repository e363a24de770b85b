/**
 * The lease a team desk holds while it creates a run's wave (migration 13, server clock): claimed before the first
 * row goes into flight, renewed while the wave is being created, given back when it ends. A renewal that finds the
 * lease taken (this desk slept through it and another desk took the run over) stops the wave at the next row; the
 * database refuses a row into flight without the lease anyway (fencing).
 */
import { NETWORK_CODES, failureCode } from '../ledger/team/failure'
import { TeamLedgerError } from '../ledger/team-errors'
import type { RunLeases } from '../ledger/run-store'

/** How long a lease lasts without renewal; a desk gone this long may be taken over. */
export const DEFAULT_RUN_LEASE_MS = 60_000

export interface LeaseKeeper {
  /** False once a renewal found the lease held by another role. */
  held(): boolean
  stop(): Promise<void>
}

export function keepLease(
  leases: RunLeases,
  runId: string,
  ms: number,
  onError: (e: unknown) => void,
): LeaseKeeper {
  let held = true
  const timer = setInterval(
    () => {
      leases.claim(runId, ms).then(
        (l) => {
          if (!l.mine) held = false
        },
        // A renewal that cannot reach the server is not a loss: the wave's own writes fail the same way.
        (e: unknown) => onError(e),
      )
    },
    Math.max(250, Math.floor(ms / 3)),
  )
  timer.unref?.()
  return {
    held: () => held,
    stop: async () => {
      clearInterval(timer)
      if (!held) return
      try {
        await leases.release(runId)
      } catch (e) {
        onError(e)
      }
    },
  }
}

/** The server could not be reached or the connection was cut (by driver code or SQLSTATE, never by text). */
export function storeUnavailable(e: unknown, depth = 0): boolean {
  if (depth > 4 || typeof e !== 'object' || e === null) return false
  if (e instanceof TeamLedgerError) return e.code === 'unavailable'
  const code = failureCode(e)
  if (NETWORK_CODES.has(code) || code.startsWith('08') || /^57P0[1-3]$/.test(code)) return true
  return storeUnavailable((e as { cause?: unknown }).cause, depth + 1)
}
