/**
 * Maps the services' own errors to IPC errors. Only fields the contract names cross; ApiError carries its
 * end-user sentence in both languages so the renderer needs no copy of the API error catalogue.
 */
import type { IpcError } from '../../shared/contract'
import { ApiError } from '../api'
import { screenMessageFor } from '../api/messages'
import { ProfileError } from '../profiles'

/** Errors of the app layer itself (no such record, sandbox tool on a live profile, …). */
export class AppError extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly extra: Partial<IpcError> = {},
  ) {
    super(message)
    this.name = 'AppError'
  }
}

function serviceText(e: ApiError): string | undefined {
  const parts = [e.errorMessage, e.denialMessage].filter(
    (x): x is string => typeof x === 'string' && x !== '',
  )
  return parts.length > 0 ? parts.join(' — ') : undefined
}

export function apiErrorToIpc(e: ApiError): IpcError {
  return {
    code: e.kind,
    kind: e.kind,
    message: e.userMessage('en'),
    // The screen's sentence leaves the service's text and the request id to "Detalhes técnicos" (below).
    userMessage: { 'pt-BR': screenMessageFor(e, 'pt-BR'), en: screenMessageFor(e, 'en') },
    status: e.status,
    requestId: e.requestId,
    ...(e.messageCode !== undefined ? { messageCode: e.messageCode } : {}),
    ...(e.denialCode !== undefined ? { denialCode: e.denialCode } : {}),
    ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
    ...(serviceText(e) ? { serviceMessage: serviceText(e) } : {}),
  }
}

interface CodedError {
  code: string
  message: string
  fields?: Record<string, string>
  duplicates?: Array<{ localId: string }>
  reason?: string
  retryAfterSeconds?: number
  requestId?: string | null
  userMessage?: { 'pt-BR': string; en: string }
}

/** Coded errors of our own modules; their messages are written by us and carry no secrets. */
const OWN_ERRORS = [
  'WithdrawalError',
  'DepositError',
  'LedgerError',
  'RecordsError',
  'SandboxControlError',
  'ExportError',
  'PayeeError',
  'RunError',
  'TeamLedgerError',
]

function isCoded(e: unknown): e is CodedError & Error {
  return e instanceof Error && typeof (e as { code?: unknown }).code === 'string'
}

export function mapServiceError(e: unknown): IpcError | null {
  if (e instanceof ApiError) return apiErrorToIpc(e)
  if (e instanceof AppError) return { ...e.extra, code: e.code, message: e.message }
  if (e instanceof ProfileError) return { code: e.code, message: e.message, fields: e.fields }
  if (isCoded(e) && OWN_ERRORS.includes(e.name)) {
    return {
      code: e.code,
      message: e.message,
      ...(e.fields ? { fields: e.fields } : {}),
      ...(e.duplicates ? { localIds: e.duplicates.map((d) => d.localId) } : {}),
      ...(e.reason ? { reason: e.reason } : {}),
      ...(e.retryAfterSeconds !== undefined ? { retryAfterSeconds: e.retryAfterSeconds } : {}),
      ...(e.requestId !== undefined ? { requestId: e.requestId } : {}),
      ...(e.userMessage ? { userMessage: e.userMessage } : {}),
    }
  }
  return null
}
