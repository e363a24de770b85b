/** Pure helpers of the settings page: message codes, form value cleanup, expiry warnings, allowance rows. */
import type { Allowances, IpcError } from '../../../../shared/contract'
import { ENDPOINTS, type EndpointName } from '../../../../shared/api-limits'
import { profileMessages, type Language, type ProfileMessageCode } from '../../../../shared/profile'

export function isProfileMessageCode(code: unknown): code is ProfileMessageCode {
  return typeof code === 'string' && Object.hasOwn(profileMessages, code)
}

/** The sentence for a profile form code; a code we do not know is shown as "invalid value", never raw zod. */
export function profileFieldMessage(code: string | undefined, lang: Language): string | undefined {
  if (code === undefined) return undefined
  return profileMessages[isProfileMessageCode(code) ? code : 'invalid_value'][lang]
}

/**
 * Profile service errors (name_taken, sandbox_readonly, not_found) have no entry in the shared error texts; the
 * profile messages say them, so they ride along as the notice's `userMessage`.
 */
export function withProfileMessage(error: IpcError): IpcError {
  if (error.userMessage || !isProfileMessageCode(error.code) || error.code === 'invalid_value') return error
  return { ...error, userMessage: profileMessages[error.code] }
}

/**
 * Drops `undefined` values, deeply. Empty optional inputs become `undefined` in the form, but the strict
 * schemas (and a partial record of rate limits) refuse a present key whose value is undefined.
 */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(compact) as T
  if (typeof value !== 'object' || value === null) return value
  const out: Record<string, unknown> = {}
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = compact(v)
  return out as T
}

/** Text input → optional integer: blank is "not given"; anything not all digits is NaN, which the schema refuses. */
export function optionalInteger(raw: unknown): number | undefined {
  if (typeof raw === 'number') return raw
  const s = typeof raw === 'string' ? raw.trim() : ''
  if (s === '') return undefined
  return /^\d+$/.test(s) ? Number(s) : Number.NaN
}

export function optionalText(raw: unknown): string | undefined {
  const s = typeof raw === 'string' ? raw.trim() : ''
  return s === '' ? undefined : s
}

const DAY_MS = 86_400_000
/** The brief's threshold: a legacy token is flagged a month before it stops working. */
export const LEGACY_WARN_DAYS = 30

export type ExpiryState = { level: 'ok' } | { level: 'soon'; days: number } | { level: 'expired' }

/** How close a legacy token is to its `exp`. Unparseable dates are treated as expired: fail loud. */
export function legacyExpiry(expiresAt: string | null, now: number): ExpiryState {
  const at = expiresAt ? Date.parse(expiresAt) : Number.NaN
  if (Number.isNaN(at) || at <= now) return { level: 'expired' }
  const days = Math.floor((at - now) / DAY_MS)
  return days < LEGACY_WARN_DAYS ? { level: 'soon', days } : { level: 'ok' }
}

export interface AllowanceRow {
  endpoint: EndpointName
  limitPerMinute: number
  /** Whole operations that can be made right now. */
  available: number
  /** Seconds until the next operation frees up, one decimal; null when the bucket is full. */
  nextInSeconds: number | null
}

/** One row per endpoint in the API contract's order; endpoints main did not report are left out. */
export function allowanceRows(allowances: Partial<Allowances> | null): AllowanceRow[] {
  if (!allowances) return []
  const rows: AllowanceRow[] = []
  for (const endpoint of ENDPOINTS) {
    const a = allowances[endpoint]
    if (!a) continue
    const available = Math.max(0, Math.floor(a.available))
    const full = available >= a.limitPerMinute || a.nextTokenInMs <= 0
    rows.push({
      endpoint,
      limitPerMinute: a.limitPerMinute,
      available,
      nextInSeconds: full ? null : Math.ceil(a.nextTokenInMs / 100) / 10,
    })
  }
  return rows
}

/** A hex fingerprint read aloud over the phone goes in groups of four; anything else is shown as sent. */
export function groupFingerprint(fingerprint: string): string {
  const s = fingerprint.trim()
  if (!/^[0-9a-f]{9,}$/i.test(s)) return s
  return (s.match(/.{1,4}/g) ?? [s]).join(' ')
}
