/**
 * Public shapes of the embedded sandbox: the views it returns (the docs/API-CONTRACT.md#s2-2 / §2.3 fields), its options and
 * its control surface. Kept apart from the implementation so the app and the tests can import types only.
 */
import type { EndpointName } from '../../shared/api-limits'
import type { SandboxLiquid } from './chain'

/** `refund` of docs/API-CONTRACT.md#s2-3. Only `txId` and `reason` are named by the API contract; the other names are ours. */
export interface WithdrawalRefund {
  txId: string
  /** invalid_pix_key, payout_failure (legacy), processor_failure, amount_mismatch, expired, cancelled. */
  reason: string
  /** Who started the return: always `system` in the sandbox. */
  initiatedBy: string
  /** Token withheld from the return, in cents (100 when the failure came from the request, else 0). */
  feeInCents: number
  /** Token returned, in cents. */
  amountInCents: number
}

/** The body of `GET /withdraw-status` (docs/API-CONTRACT.md#s2-3 without `webhookType`); absent facts are left out. */
export interface WithdrawalView {
  id: string
  pixKey: string
  status: string
  expiration: string
  depositAddress: string
  depositAmountInCents: number
  payoutAmountInCents: number
  blockchainTxID?: string
  receiptUrl?: string
  receiverName?: string
  receiverTaxNumber?: string
  transferDate?: string
  centralBankId?: string
  refundAddress?: string
  refund?: WithdrawalRefund
}

/** The body of `GET /deposit-status` (docs/API-CONTRACT.md#s2-2 without `webhookType`). */
export interface DepositView {
  qrId: string
  status: string
  valueInCents: number
  expiration: string
  delayUntil: string | null
  bankTxId?: string
  blockchainTxID?: string
  customerMessage?: string
  payerName?: string
  payerTaxNumber?: string
  pixKey?: string
  payerEUID?: string
  rejectionReasons?: string[]
}

export type PayoutOutcome =
  'sent' | 'invalid_pix_key' | 'key_tax_mismatch' | 'processor_failure' | 'payout_failure'

export type FaultTarget = EndpointName | 'auth'

export type Fault =
  | { kind: 'slow'; delayMs: number; endpoint?: FaultTarget; count?: number }
  | { kind: 'reset' | 'malformed_json' | 'timeout_after_create'; endpoint?: FaultTarget; count?: number }
  | { kind: 'status'; status: number; endpoint?: FaultTarget; count?: number }
  /** An envelope refusal with codes of your choosing (NETWORK_WALLET_UNAVAILABLE, an unknown code…). */
  | {
      kind: 'refusal'
      /** Default 520. */
      status?: number
      messageCode?: string
      denialCode?: string
      errorMessage?: string
      endpoint?: FaultTarget
      count?: number
    }

export interface SandboxCredential {
  clientId: string
  clientSecret: string
  scopes: string[]
}

/** Options that can change while the sandbox runs (`control.setOptions`). */
export interface RuntimeOptions {
  /** `POST /withdraw` answers only `{ withdrawalId }`. Default false. */
  minimalCreateResponse: boolean
  /** Partner fee rate in basis points (100 = 1%). Default 100. */
  partnerRateBps: number
  /** Daily withdrawal cap per recipient tax number, cents. Default 2,000,000. */
  dailyCapPerTaxNumberCents: number
  /** Per-account deposit fee, which is also the minimum QR amount (docs/API-CONTRACT.md#s4-2). Default 99. */
  depositFeeCents: number
  /** `POST /deposit` without `endUserTaxNumber`/`euid` → IDENTIFICATION_REQUIRED. Default true. */
  requireDepositIdentification: boolean
  /** Daily deposit ceiling of a payer identified only by a tax number that is no registered end user. */
  payerDailyLimitCents: number
  /** Seconds a withdrawal waits for funding before `expired`. Default 1800. */
  withdrawalTtlSeconds: number
  /** Seconds a deposit QR stays payable before `expired`. Default 1800. */
  depositTtlSeconds: number
  /** Seconds between `approved` and `depix_sent` of a paid deposit. Default 10. */
  depositSendSeconds: number
  /** When set, a `sending` withdrawal settles by itself this many seconds after funding. Default off. */
  autoSettleSeconds: number | null
  /** The account's configured default payout address, used when `depixAddress` is omitted. Default none. */
  defaultDepixAddress: string | null
}

export interface SandboxOptions extends Partial<RuntimeOptions> {
  /** Default 0 (any free port). */
  port?: number
  /** Default 127.0.0.1. */
  host?: string
  /** The `env` claim of tokens. Default 'sandbox'. */
  env?: string
  /** Default 900. */
  accessTokenTtlSeconds?: number
  /** Refresh idle expiry, renewed on rotation. Default 3600. */
  refreshIdleSeconds?: number
  /** Absolute session lifetime. Default 43200 (12 h). */
  sessionMaxSeconds?: number
  /** Per-endpoint operations per minute; defaults are docs/API-CONTRACT.md#s8-1. */
  rateLimits?: Partial<Record<EndpointName, number>>
  /** Login and refresh attempts per minute per credential (per IP: three times this). Default 10. */
  loginRateLimitPerMinute?: number
  /** Live credentials per partner. Default 10. */
  maxCredentials?: number
  /**
   * Default true: serve the control surface over HTTP under `/_sandbox` (token, Host and Origin checked). The app
   * turns it off: it drives its embedded sandbox in process, so nothing on the machine can reach the switches.
   */
  httpControl?: boolean
}

export interface SandboxSummary {
  withdrawals: number
  withdrawalsByStatus: Record<string, number>
  deposits: number
  depositsByStatus: Record<string, number>
  sessions: number
  credentials: number
}

export interface SandboxStateSnapshot {
  withdrawals: WithdrawalView[]
  deposits: DepositView[]
  sessions: number
  credentials: Array<{ clientId: string; label: string; scopes: string[]; revoked: boolean }>
  /** Refresh-token replays seen (each revoked a session). */
  securityAlerts: number
}

export interface SandboxControl {
  createCredential(o?: { label?: string; scopes?: string[] }): SandboxCredential
  revokeCredential(clientId: string): void
  mintLegacyToken(o?: { expiresInSeconds?: number }): string
  fundWithdrawal(id: string, amountInCents: number): WithdrawalView
  settlePayout(id: string, outcome: PayoutOutcome): WithdrawalView
  cancelWithdrawal(id: string): WithdrawalView
  /** Bench/test fast path: stores `count` fresh withdrawals without HTTP. Returns their ids. */
  seedWithdrawals(count: number, o?: { payoutAmountInCents?: number }): string[]
  /**
   * A deposit made at the service by someone else (not through the API client of the app): the same checks as
   * POST /deposit, no request counted. Returns its view.
   */
  createDeposit(body: Record<string, unknown>): DepositView
  payDeposit(id: string, o?: { payerName?: string; payerTaxNumber?: string }): DepositView
  fileMed(qrId: string): DepositView
  setMaintenance(on: boolean): void
  injectFault(f: Fault): void
  clearFaults(): void
  advanceClock(seconds: number): void
  /** Sandbox time, ms since the epoch. */
  now(): number
  blockUser(o: { taxNumber?: string; euid?: string }): void
  complianceBlock(taxNumber: string): void
  registerEndUser(o: { euid: string; taxNumber: string; name?: string; maxDailyInCents?: number }): void
  setRateLimits(limits: Partial<Record<EndpointName, number>>): void
  setOptions(o: Partial<RuntimeOptions>): void
  /** Everything, or a page of it (`offset`/`limit` apply to withdrawals and deposits alike). */
  state(o?: { offset?: number; limit?: number }): SandboxStateSnapshot
  /** Counts only: cheap with 100,000 records. */
  summary(): SandboxSummary
  /** Requests per `"METHOD /path"` (query left out), auth and 404s included, control routes excluded. */
  requestCounts(): Record<string, number>
  resetRequestCounts(): void
}

export interface Sandbox {
  /** `http://127.0.0.1:PORT`: no trailing slash, no `/api`. */
  baseUrl: string
  /** `http://127.0.0.1:PORT/_sandbox`, the HTTP control surface (not part of the DePix API). */
  controlUrl: string
  /**
   * The per-run secret every HTTP control request must carry as `Authorization: Bearer <controlToken>`; random
   * on each start, never logged. Empty when `httpControl` is false.
   */
  controlToken: string
  /** The seed credential, scopes `deposit withdrawal user`. */
  credentials: SandboxCredential
  control: SandboxControl
  /** The Liquid regtest chain (issue #27); its Esplora is `${baseUrl}${ESPLORA_PREFIX}`. */
  liquid: SandboxLiquid
  /** `http://127.0.0.1:PORT/liquid/api`: the chain's Esplora subset, for LWK's EsploraClient. */
  esploraUrl: string
  close(): Promise<void>
}
