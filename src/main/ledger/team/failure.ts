/**
 * Why a connection to the team's PostgreSQL server failed, as the verdict codes the connection test and the team
 * status share (src/shared/channels-team.ts; words in `teamTestMessages`). One classifier for "Testar conexão"
 * (profiles/team-probe.ts) and for a team profile that could not open (offline.ts), by the driver's error code or
 * SQLSTATE only, never by message text.
 */
import type { TeamTestVerdict } from '../../../shared/channels-team'

export type TeamFailureVerdict = Exclude<TeamTestVerdict, 'ok'>

export const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EADDRNOTAVAIL',
])

/** Node's certificate verification codes (tls.TLSSocket#authorizationError) and its TLS error codes. */
const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_UNTRUSTED',
  'CERT_REJECTED',
  'CERT_SIGNATURE_FAILURE',
  'HOSTNAME_MISMATCH',
  'EPROTO',
])

/** The error's code when it looks like one (a driver word or a SQLSTATE); '' otherwise. */
export function failureCode(e: unknown): string {
  const c = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined
  return typeof c === 'string' && /^[A-Z0-9_]{1,64}$/.test(c) ? c : ''
}

/** The verdict a code alone tells; null when it tells nothing more than "cannot be used right now". */
export function verdictOfCode(code: string): TeamFailureVerdict | null {
  // invalid_password, invalid_authorization_specification (also "no pg_hba.conf entry").
  if (code === '28P01' || code === '28000') return 'auth_failed'
  if (code === '42501') return 'permission_denied'
  if (code === '3D000') return 'database_not_found'
  if (code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_') || TLS_CODES.has(code)) return 'tls_failed'
  return null
}

/** SQLSTATEs are five characters; Node's codes are words (EPIPE is both: it is in the network set). */
export function failureDetail(code: string): string {
  return code.length === 5 && !NETWORK_CODES.has(code) ? `SQLSTATE ${code}` : code
}
