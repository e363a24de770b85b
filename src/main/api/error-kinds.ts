/**
 * The kinds of ApiError and the reasons the client itself attaches: apart from errors.ts so that messages.ts, whose
 * sentences errors.ts uses, names them without importing errors.ts back.
 */
export const API_ERROR_KINDS = [
  'business',
  'compliance',
  'unauthorized',
  'forbidden',
  'rate_limited',
  'maintenance',
  'outcome_unknown',
  'server',
  'bad_request',
  'route_not_found',
  'network',
  'invalid_response',
] as const
export type ApiErrorKind = (typeof API_ERROR_KINDS)[number]

/**
 * Reasons the client itself attaches (the service's own codes live in messageCode/denialCode/authError).
 * Transport codes say whether the request may have left: only `connect_failed`, `connect_timeout`,
 * `invalid_request` and `client_closed` guarantee that nothing reached the service.
 */
export type ApiErrorCode =
  | 'not_signed_in'
  | 'legacy_token_expired'
  | 'legacy_token_malformed'
  | 'access_token_rejected'
  | 'auth_body_too_large'
  | 'invalid_request'
  | 'invalid_base_url'
  | 'client_closed'
  | 'local_rate_limit_wait'
  | 'connect_failed'
  | 'connect_timeout'
  | 'timeout'
  | 'connection_lost'
  | 'response_too_large'
  | 'unreadable_response'
  | 'unexpected_status'
  | 'server_error_after_send'
