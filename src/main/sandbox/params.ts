/**
 * Readers for operation parameters (JSON body or query). `null`, a missing key and an empty or blank string
 * all mean "not sent"; a value of the wrong JSON type is INVALID_PARAMETER naming the key. Unknown keys are
 * ignored (the API contract does not say operations refuse them; auth endpoints do, see auth.ts).
 */
import { invalidParameter } from './errors'

export type Params = Record<string, unknown>

function raw(p: Params, key: string): unknown {
  return Object.hasOwn(p, key) ? p[key] : undefined
}

export function optString(p: Params, key: string, maxLength = 512): string | undefined {
  const v = raw(p, key)
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'string') throw invalidParameter(key, 'must be a string')
  const t = v.trim()
  if (t.length > maxLength) throw invalidParameter(key, `longer than ${maxLength} characters`)
  return t === '' ? undefined : t
}

/** Integer cents (or hours): a JSON number with no fraction. "1000" (a string) is refused. */
export function optInteger(p: Params, key: string): number | undefined {
  const v = raw(p, key)
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isSafeInteger(v)) throw invalidParameter(key, 'must be an integer')
  return v
}

export function optNumber(p: Params, key: string): number | undefined {
  const v = raw(p, key)
  if (v === undefined || v === null) return undefined
  if (typeof v !== 'number' || !Number.isFinite(v)) throw invalidParameter(key, 'must be a number')
  return v
}

/** Query parameters as a Params object (first value wins). */
export function queryParams(query: string): Params {
  const out: Params = {}
  if (query === '') return out
  for (const [k, v] of new URLSearchParams(query)) if (!Object.hasOwn(out, k)) out[k] = v
  return out
}
