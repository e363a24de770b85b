/** Numbers fixed by the API contract (docs/API-CONTRACT.md#s8). One place, used by the client, the sandbox and the forms. */

/** The operation endpoints, named as their paths under `/api` (docs/API-CONTRACT.md#s4). */
export const ENDPOINTS = [
  'ping',
  'deposit',
  'deposits',
  'deposit-status',
  'withdraw',
  'withdraw-status',
  'user-info',
] as const
export type EndpointName = (typeof ENDPOINTS)[number]

/** docs/API-CONTRACT.md#s8-1 defaults, operations per minute, per account and per endpoint. */
export const DEFAULT_RATE_LIMITS: Readonly<Record<EndpointName, number>> = {
  ping: 1,
  deposit: 15,
  deposits: 12,
  'deposit-status': 60,
  withdraw: 10,
  'withdraw-status': 60,
  'user-info': 15,
}

/** docs/API-CONTRACT.md#s8-2: per withdrawal, on whichever amount is sent. */
export const WITHDRAWAL_MIN_CENTS = 200
export const WITHDRAWAL_MAX_CENTS = 600_000
/** docs/API-CONTRACT.md#s4-6 rule 3: the fee is the larger of the partner's rate and R$ 1,00. */
export const WITHDRAWAL_FEE_FLOOR_CENTS = 100
/** docs/API-CONTRACT.md#s3-2 / §6.4: funding tolerance, 5% either way, in basis points. */
export const FUNDING_TOLERANCE_BPS = 500
/** docs/API-CONTRACT.md#s2-3: a return caused by the request withholds 1 token. */
export const REFUND_FEE_CENTS = 100
/** docs/API-CONTRACT.md#s5-2: authentication request bodies are at most 4 KiB. */
export const AUTH_BODY_MAX_BYTES = 4096
/** docs/API-CONTRACT.md#s7-2: maintenance 503 carries `Retry-After: 300`. */
export const MAINTENANCE_RETRY_AFTER_SECONDS = 300
/** docs/API-CONTRACT.md#s4-4: `GET /deposits` returns up to 200 rows. */
export const DEPOSITS_MAX_ROWS = 200
/** docs/API-CONTRACT.md#s4-2: `delayDepixInHours` range. */
export const DEPOSIT_DELAY_MIN_HOURS = 1
export const DEPOSIT_DELAY_MAX_HOURS = 720
