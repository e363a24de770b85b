/** What a desk shows of a run's four-eyes approval (team ledger): needed or not, who asked, whether it was me. */
import type { RunApproval } from '../ledger/run-store'

export interface RunApprovalView {
  needed: boolean
  requestedBy: string | null
  requestedAt: string | null
  /** This desk's role asked: another analyst must approve (the database refuses this desk). */
  mine: boolean
  /** Who rejected the request, and why (the audit entry's reason); null when it was not rejected. */
  rejectedBy: string | null
  rejectedReason: string | null
  /** Refund addresses of the rows to pay that the team has not registered (shown marked to the approver). */
  unregisteredRefunds: string[]
}

export function runApprovalView(a: RunApproval, identity: string): RunApprovalView {
  return {
    needed: a.needed,
    requestedBy: a.requestedBy,
    requestedAt: a.requestedAt,
    mine: a.requestedBy !== null && a.requestedBy === identity,
    rejectedBy: a.rejectedBy,
    rejectedReason: a.rejectedReason,
    unregisteredRefunds: a.unregisteredRefunds,
  }
}
