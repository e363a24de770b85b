/** Public shapes of the withdrawal service (its status tracker's are tracking/types.ts). */
import type { Payee } from '../../shared/payee'
import type { FundingAlert, FundingInstructions, WithdrawalQuote } from '../../shared/contract'
import type { WithdrawalDraft } from '../../shared/withdrawal'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'
import type { DepixClient } from '../api'
import type { Ledger } from '../ledger/sqlite'
import type { Approval, ApprovalsApi } from '../ledger/pg/approvals'
import type { LedgerStore } from '../ledger/ports'
import type { LiquidNetwork } from '../liquid'
import type { CreateAuthority } from './create'
import type { StatusTracker, Timers, TrackerOptions } from '../tracking/types'

export interface WithdrawalServiceDeps {
  /** The embedded ledger (one desk): recovered synchronously at construction, its side journal beside its file. */
  ledger?: Ledger
  /**
   * The record store when there is no embedded ledger (the team ledger, src/main/ledger/pg): recovered before
   * the first create, its side journal at `sideJournal`. Exactly one of `ledger` and `store`.
   */
  store?: LedgerStore
  /** With `store`: the local side-journal file (the app's data dir, named after the profile); null: none. */
  sideJournal?: string | null
  /** With `store`: the team's four-eyes approvals (the PostgreSQL store itself). */
  approvals?: ApprovalsApi
  client: DepixClient
  operator: string
  network: LiquidNetwork
  profile: string
  /** Default 100 (1%). */
  partnerRateBps?: number
  /** Default DEPIX_ASSET_ID. */
  assetId?: string
  /** Epoch ms, for stored timestamps. Default Date.now. */
  now?: () => number
  /** Monotonic ms for the tracker's timing and create-intent expiry. Default `monotonicNow`, or `now` when only that is injected. */
  monotonic?: () => number
  timers?: Timers
  tracker?: TrackerOptions
  /** The payee book (main/payees), for drafts that name a payee; without it such a draft is refused. */
  payees?: { byId(id: string): Payee | undefined | Promise<Payee | undefined> }
  /**
   * Test seam only (the crash tests): runs after the `submitting` record is committed and before the POST
   * leaves. If it throws, nothing is sent and the record is rejected.
   */
  beforePost?: (record: WithdrawalRecord) => void | Promise<void>
}

export type FundingProblem =
  | 'other_profile'
  | 'not_created'
  | 'terminal'
  | 'not_awaiting_funding'
  | 'deposit_address_invalid'
  | 'deposit_address_changed'
  | 'no_deposit_address'
  | 'no_deposit_amount'
  | 'expired'
  /** The service's answer contradicts the stored deposit address or amount (funding-check.ts). */
  | 'funding_mismatch'
  /** The service could not confirm the stored deposit address and amount (funding-check.ts). */
  | 'funding_unconfirmed'

export interface FundingResult {
  funding: FundingInstructions | null
  problem: FundingProblem | null
  /** With `funding_mismatch` / `funding_unconfirmed`: what the check found. */
  alert: FundingAlert | null
}

export type UnknownResolutionInput = { withdrawalId: string } | { notCreated: true }

export interface WithdrawalService {
  /**
   * Validates the draft and shows what would be sent, with a one-use create intent for it; writes nothing,
   * sends nothing.
   */
  quote(draft: WithdrawalDraft): Promise<WithdrawalQuote>
  /**
   * Takes the review's intent, journals, then POSTs once. Returns the record in whatever state the attempt left
   * it (created, rejected, outcome_unknown); throws WithdrawalError for refusals before anything was journaled or
   * sent, and `ledger_write_failed` when the answer could not be stored.
   */
  create(draft: WithdrawalDraft, o: CreateAuthority): Promise<WithdrawalRecord>
  /**
   * Funding instructions, only after the service confirmed the stored deposit address and amount (one
   * `GET /withdraw-status`, its facts kept briefly: funding-check.ts).
   */
  funding(localId: string): Promise<FundingResult>
  markFunded(localId: string, o: { txId?: string }): Promise<WithdrawalRecord>
  /**
   * One funding transaction paying many payments (paying from the wallet): `markFunded` on each, written in one
   * ledger transaction — all recorded or none.
   */
  markFundedMany(localIds: readonly string[], o: { txId: string }): Promise<WithdrawalRecord[]>
  resolveUnknown(localId: string, r: UnknownResolutionInput): Promise<WithdrawalRecord>
  /** Polls now (the UI's "check now"), through the client's limiter. */
  refresh(localId: string): Promise<WithdrawalRecord>
  onChange(l: (r: WithdrawalRecord) => void): () => void
  /**
   * Team ledger only (`unsupported` otherwise): files a reviewed draft for another analyst's approval, checking and
   * consuming its intent like `create`.
   */
  requestApproval(draft: WithdrawalDraft, o: CreateAuthority, note?: string): Promise<Approval>
  /** Team ledger only: sends an approved payment once, through the same journaled create. */
  sendApproved(approvalId: string): Promise<WithdrawalRecord>
  /** The record store the service writes (the embedded ledger wrapped, or the team's). */
  readonly store: LedgerStore
  /** Creates in progress (journaled or about to be, POST maybe in flight). */
  creating(): number
  /**
   * Resolves when no create is in progress. Each create ends by itself within the client's own create timeouts
   * (connect + headers + body), so this is bounded without a timer of its own.
   */
  createsSettled(): Promise<void>
  tracker: StatusTracker
}

/** Re-exported for the ledger's leader-tracker.ts until w29ledger removes that import (storage imports no feature). */
export type { StatusTracker } from '../tracking/types'
