/**
 * The shapes the run service and its waves (waves.ts) share: what the service is given and what it tells. Apart
 * from service.ts so that waves.ts, which service.ts starts, reads them without importing it back.
 */
import type { DepixClient } from '../api'
import type { Ledger } from '../ledger/sqlite'
import type { RunStore } from '../ledger/run-store'
import type { LedgerStore } from '../ledger/ports'
import type { LiquidNetwork } from '../liquid'
import type { WithdrawalService } from '../withdrawals'
import type { PayeeLookup } from './import'

export interface RunRuntime {
  profile: {
    id: string
    network: LiquidNetwork
    partnerRateBps: number
    defaultRefundAddress?: string | undefined
  }
  client: DepixClient
  withdrawals: WithdrawalService
}

export interface RunServiceDeps {
  /** A desk's embedded ledger (both stores are its adapters); or `records` and `runs` (a team's). */
  ledger?: Ledger
  records?: LedgerStore
  runs?: RunStore
  runtime: () => RunRuntime
  operator: string
  payees: PayeeLookup
  now?: () => number
  sleep?: (ms: number) => Promise<void>
  fundingMarginMs?: number
  /** Whether the profile pays waves from its treasury wallet now: the plan then counts signing time. */
  walletPays?: () => boolean
  onChange?: (runId: string) => void
  onError?: (e: unknown) => void
  /**
   * Settles once the records' own recovery is done (a team's side journal replayed, its interrupted creates
   * marked): a row in flight is judged by its record, so the run recovery waits for it. A desk's is synchronous.
   */
  recordsReady?: Promise<unknown>
  /**
   * Applies this desk's side journal to the records (a create's answer the database could not take): asked before
   * a run stopped by a failed database is recovered, so a create that did happen is seen as created.
   */
  replayRecords?: () => Promise<unknown>
  /** Team ledger: how long a wave's lease lasts without renewal (default 60 s; tests shorten it). */
  runLeaseMs?: number
}

/** The service gave withdrawals a shorter life than the wave was planned for: `deferred` rows wait for a new wave. */
export interface RunNotice {
  code: 'wave_cut_lifetime'
  wave: number
  lifetimeMs: number
  deferred: number
}
