/** What a desk shows of a run's four-eyes approval (team ledger): needed or not, who asked, whether it was me. */
import type { RunApproval } from '../ledger-store/run-store'

export interface RunApprovalView {
  needed: boolean
  requestedBy: string | null
  requestedAt: string | null
  /** This desk's role asked: another analyst must approve (the database refuses this desk). */
  mine: boolean
}

export function runApprovalView(a: RunApproval, identity: string): RunApprovalView {
  return {
    needed: a.needed,
    requestedBy: a.requestedBy,
    requestedAt: a.requestedAt,
    mine: a.requestedBy !== null && a.requestedBy === identity,
  }
}
