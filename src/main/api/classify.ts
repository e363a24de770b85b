/**
 * From an HTTP outcome to an ApiError. Branches only on the status, the `Retry-After` header and the codes the
 * service sends; the free text is redacted and kept for display.
 *
 * Creates (POST /withdraw, /deposit) are classified for the money: any answer that is not a definitive refusal
 * or a readable success becomes `outcome_unknown`, because the service may have executed it and it has no
 * idempotency (docs/API-CONTRACT.md#s1-6). That includes 500/502/other 5xx, which for a read are `server`.
 */
import { MAINTENANCE_RETRY_AFTER_SECONDS } from '../../shared/api-limits'
import { ApiError, type ApiErrorInit, type ApiErrorKind } from './errors'
import { readErrorBody } from './envelope'
import type { Redactor } from './redact'
import { parseRetryAfter } from './retry'
import { TransportFailure, type RawResponse } from './transport'

export interface CallContext {
  /** Endpoint name as shown in errors: an EndpointName or `auth/login`, `auth/refresh`, `auth/logout`. */
  endpoint: string
  /** POST /withdraw or /deposit: never retried, ambiguous answers are outcome_unknown. */
  creates: boolean
  redactor: Redactor
  now: number
}

export function errorFromResponse(res: RawResponse, ctx: CallContext): ApiError {
  const fields = readErrorBody(res.text)
  const retryAfterSeconds = parseRetryAfter(res.retryAfter, ctx.now)
  const errorMessage = ctx.redactor.optional(fields.errorMessage)
  const init: ApiErrorInit = {
    kind: 'server',
    status: res.status,
    requestId: res.requestId,
    nonce: res.nonce,
    endpoint: ctx.endpoint,
    messageCode: fields.messageCode,
    denialCode: fields.denialCode,
    denialMessage: ctx.redactor.optional(fields.denialMessage),
    authError: fields.authError,
    errorMessage,
  }
  const { kind, code } = kindForStatus(res.status, retryAfterSeconds, ctx.creates)
  init.kind = kind
  if (code) init.code = code
  if (kind === 'rate_limited' || kind === 'maintenance') init.retryAfterSeconds = retryAfterSeconds
  if (kind === 'compliance' && errorMessage) init.supportReference = supportReferenceOf(errorMessage)
  return new ApiError(init)
}

function kindForStatus(
  status: number,
  retryAfterSeconds: number | undefined,
  creates: boolean,
): { kind: ApiErrorKind; code?: ApiErrorInit['code'] } {
  switch (status) {
    case 400:
    case 413:
    case 415:
      return { kind: 'bad_request' }
    case 401:
      return { kind: 'unauthorized' }
    case 403:
      return { kind: 'forbidden' }
    case 404:
      return { kind: 'route_not_found' }
    case 422:
      return { kind: 'compliance' }
    case 429:
      return { kind: 'rate_limited' }
    case 520:
      return { kind: 'business' }
    case 503:
      // The contract promises "nothing was created" only for the maintenance freeze, `Retry-After: 300` (spec
      // section 7.2). On a create, any other 503 (another wait, an HTTP date, none) may follow an executed one.
      if (creates) {
        return retryAfterSeconds === MAINTENANCE_RETRY_AFTER_SECONDS
          ? { kind: 'maintenance' }
          : { kind: 'outcome_unknown' }
      }
      return { kind: retryAfterSeconds !== undefined ? 'maintenance' : 'server' }
  }
  if (status >= 500 && status <= 599) {
    return creates ? { kind: 'outcome_unknown', code: 'server_error_after_send' } : { kind: 'server' }
  }
  // A 4xx we were not told about still says the request was refused as such.
  if (status >= 400 && status <= 499) return { kind: 'bad_request', code: 'unexpected_status' }
  return { kind: creates ? 'outcome_unknown' : 'invalid_response', code: 'unexpected_status' }
}

export function errorFromFailure(
  f: TransportFailure,
  ctx: Pick<CallContext, 'endpoint' | 'creates'>,
): ApiError {
  let kind: ApiErrorKind
  if (!f.sent) kind = f.code === 'invalid_request' ? 'bad_request' : 'network'
  else if (ctx.creates) kind = 'outcome_unknown'
  else kind = f.code === 'response_too_large' ? 'invalid_response' : 'network'
  return new ApiError({
    kind,
    code: f.code,
    status: f.response?.status ?? null,
    requestId: f.response?.requestId ?? null,
    nonce: f.response?.nonce ?? null,
    endpoint: ctx.endpoint,
    causeCode: f.causeCode ?? undefined,
  })
}

/** A 2xx whose body breaks the contract. For a create the operation most probably happened. */
export function contractError(res: RawResponse, ctx: CallContext, createdId?: string): ApiError {
  return new ApiError({
    kind: ctx.creates ? 'outcome_unknown' : 'invalid_response',
    code: 'unreadable_response',
    status: res.status,
    requestId: res.requestId,
    nonce: res.nonce,
    endpoint: ctx.endpoint,
    createdId: ctx.creates ? createdId : undefined,
  })
}

/**
 * The compliance message carries a support reference (docs/API-CONTRACT.md#s7-2) in free text. Extracted for display only;
 * nothing branches on it.
 */
export function supportReferenceOf(message: string): string | undefined {
  const labelled =
    /\b(?:refer[êe]ncia|reference|ref|protocolo|protocol|ticket)\b\.?\s*(?:n[º°o]\.?\s*)?[:#]?\s*([A-Za-z0-9][A-Za-z0-9-]{2,39})/i.exec(
      message,
    )
  if (labelled?.[1] && /[\d-]/.test(labelled[1])) return labelled[1]
  return /\b(\d{5,20})\b/.exec(message)?.[1]
}

/**
 * Last line of defence for "operations reject with ApiError only". An unexpected throw cannot tell whether the
 * request left, so a create is outcome_unknown; the raw error (which might hold anything) is not kept.
 */
export function toApiError(e: unknown, ctx: Pick<CallContext, 'endpoint' | 'creates'>): ApiError {
  if (e instanceof ApiError) return e
  if (e instanceof TransportFailure) return errorFromFailure(e, ctx)
  return new ApiError({
    kind: ctx.creates ? 'outcome_unknown' : 'network',
    code: 'connection_lost',
    endpoint: ctx.endpoint,
  })
}
