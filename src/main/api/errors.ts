/**
 * The one error type of the DePix client. Every operation rejects with an ApiError; the caller branches on
 * `kind` (and on the codes the service sends), never on `errorMessage`, which is free text (docs/API-CONTRACT.md#s7-1).
 */
import type { IpcError } from '../../shared/contract'
import type { ApiErrorCode, ApiErrorKind } from './error-kinds'
import { userMessageFor, type Locale } from './messages'

export { API_ERROR_KINDS, type ApiErrorCode, type ApiErrorKind } from './error-kinds'

const NOTHING_SENT_CODES: ReadonlySet<ApiErrorCode> = new Set([
  'connect_failed',
  'connect_timeout',
  'invalid_request',
  'client_closed',
  'not_signed_in',
  'legacy_token_expired',
  'legacy_token_malformed',
  'auth_body_too_large',
  'invalid_base_url',
  'local_rate_limit_wait',
])

export interface ApiErrorInit {
  kind: ApiErrorKind
  status?: number | null
  requestId?: string | null
  nonce?: string | null
  endpoint?: string
  code?: ApiErrorCode
  messageCode?: string
  denialCode?: string
  denialMessage?: string
  authError?: string
  errorMessage?: string
  supportReference?: string
  retryAfterSeconds?: number
  causeCode?: string
  createdId?: string
}

/** What may cross to the renderer or a log: no tokens, no secret, no request body, no raw cause. */
export interface ApiErrorJson {
  name: 'ApiError'
  kind: ApiErrorKind
  message: string
  status: number | null
  requestId: string | null
  nonce: string | null
  outcomeUnknown: boolean
  endpoint?: string
  code?: ApiErrorCode
  messageCode?: string
  denialCode?: string
  denialMessage?: string
  authError?: string
  errorMessage?: string
  supportReference?: string
  retryAfterSeconds?: number
  causeCode?: string
  createdId?: string
}

export class ApiError extends Error {
  override readonly name = 'ApiError'
  readonly kind: ApiErrorKind
  readonly status: number | null
  readonly requestId: string | null
  readonly nonce: string | null
  declare readonly endpoint?: string
  declare readonly code?: ApiErrorCode
  declare readonly messageCode?: string
  declare readonly denialCode?: string
  /** The service's sentence, present only when it adds to errorMessage (docs/API-CONTRACT.md#s7-3). Display only. */
  declare readonly denialMessage?: string
  /** `error` of an authentication endpoint (docs/API-CONTRACT.md#s5-5). */
  declare readonly authError?: string
  /** Raw free text from the service, secrets redacted. Display only: never branch on it. */
  declare readonly errorMessage?: string
  /** Support reference found in a compliance message, for display only. */
  declare readonly supportReference?: string
  declare readonly retryAfterSeconds?: number
  /** Low-level transport code (ECONNREFUSED, UND_ERR_HEADERS_TIMEOUT…), for support. */
  declare readonly causeCode?: string
  /** A create that answered 2xx with an unreadable body may still expose the new id; shown to link the record. */
  declare readonly createdId?: string

  constructor(init: ApiErrorInit) {
    super(summary(init))
    this.kind = init.kind
    this.status = init.status ?? null
    this.requestId = init.requestId ?? null
    this.nonce = init.nonce ?? null
    // Optional fields are only set when present so that toJSON and equality checks stay tidy.
    for (const key of OPTIONAL_KEYS) {
      const value = init[key]
      if (value !== undefined) Object.defineProperty(this, key, { value, enumerable: true, writable: false })
    }
  }

  /** True when the service may have executed a create: the caller must check status before anything else. */
  get outcomeUnknown(): boolean {
    return this.kind === 'outcome_unknown'
  }

  /** True when the request provably never reached the service. */
  get nothingSent(): boolean {
    return this.code !== undefined && NOTHING_SENT_CODES.has(this.code)
  }

  userMessage(locale: Locale = 'pt-BR'): string {
    return userMessageFor(this, locale)
  }

  toJSON(): ApiErrorJson {
    const out: ApiErrorJson = {
      name: 'ApiError',
      kind: this.kind,
      message: this.message,
      status: this.status,
      requestId: this.requestId,
      nonce: this.nonce,
      outcomeUnknown: this.outcomeUnknown,
    }
    for (const key of OPTIONAL_KEYS) {
      const value = this[key]
      if (value !== undefined) Object.assign(out, { [key]: value })
    }
    return out
  }

  /** The shape of the shared IPC contract; `message` is already in the user's language. */
  toIpcError(locale: Locale = 'pt-BR'): IpcError {
    const json = this.toJSON()
    return { ...json, code: `api.${this.kind}`, message: this.userMessage(locale), kind: this.kind }
  }
}

const OPTIONAL_KEYS = [
  'endpoint',
  'code',
  'messageCode',
  'denialCode',
  'denialMessage',
  'authError',
  'errorMessage',
  'supportReference',
  'retryAfterSeconds',
  'causeCode',
  'createdId',
] as const satisfies readonly (keyof ApiErrorInit)[]

/** Built from codes only: the free text of the service stays out of Error.message and so out of stack logs. */
function summary(init: ApiErrorInit): string {
  const codes = [init.code, init.messageCode, init.denialCode, init.authError, init.causeCode].filter(Boolean)
  const parts = [
    `DePix API${init.endpoint ? ` ${init.endpoint}` : ''}: ${init.kind}`,
    init.status != null ? `HTTP ${init.status}` : null,
    codes.length > 0 ? codes.join(', ') : null,
    init.retryAfterSeconds !== undefined ? `retry after ${init.retryAfterSeconds}s` : null,
    init.requestId ? `request id ${init.requestId}` : null,
  ]
  return parts.filter(Boolean).join(' · ')
}

export function isApiError(e: unknown): e is ApiError {
  return e instanceof ApiError
}
