/**
 * Last line of defence before a record leaves the app. Records hold no secrets by design (credentials and the
 * signing key live in the vault), but they do hold raw API bodies whose fields are "not shown" in the API contract, so
 * anything could arrive in them. Before any format is written, a record is scanned and every string that is:
 * - the value of a member named like a credential (token, access_token, refresh_token, client_secret,
 *   password, authorization, cookie, api_key, private_key, jwt, …), at any depth;
 * - shaped like a JWT or a PEM private key;
 * - or contains one of the caller's known secret values (client secret, refresh token…; 8+ characters),
 * is replaced by "[redacted]". All three exports come from the redacted record, so they agree with each other
 * and the signed totals (amounts are numbers, never redacted).
 */
export const REDACTED = '[redacted]'

const SECRET_NAME =
  /^(?:token|access[_-]?token|refresh[_-]?token|id[_-]?token|bearer|jwt|client[_-]?secret|secret|password|passwd|passphrase|authorization|proxy[_-]?authorization|cookie|set[_-]?cookie|api[_-]?key|private[_-]?key|signing[_-]?key)$/i
const JWT = /eyJ[A-Za-z0-9_-]{4,}\.eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]*/
const PEM_PRIVATE = /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/

/** Member names already tested: records of one kind repeat the same few dozen (bounded: names are not ours). */
const nameVerdicts = new Map<string, boolean>()
function secretName(name: string): boolean {
  let verdict = nameVerdicts.get(name)
  if (verdict === undefined) {
    verdict = SECRET_NAME.test(name)
    if (nameVerdicts.size < 10_000) nameVerdicts.set(name, verdict)
  }
  return verdict
}

/** A member named like a credential anywhere in `v`: a walk of names, ~3× cheaper than a pattern over the text. */
function holdsSecretName(v: unknown): boolean {
  if (typeof v !== 'object' || v === null) return false
  if (Array.isArray(v)) return v.some(holdsSecretName)
  for (const k of Object.keys(v))
    if (secretName(k) || holdsSecretName((v as Record<string, unknown>)[k])) return true
  return false
}

/** Shorter values would redact ordinary text, and no credential is that short. */
export const MIN_SECRET_LENGTH = 8

/** The record itself when clean (no copy), else a redacted deep copy; `json`: serialize(record), written. */
export interface Redacted<R> {
  record: R
  json: string
}

export interface Redactor {
  /** Any record kind (withdrawals, deposits): members a kind lacks are absent, so never suspect. */
  <R extends object>(r: R): Redacted<R>
  /** How many strings were replaced so far. */
  readonly count: number
}

/**
 * `serialize`: the text the caller writes (records.json's line, record-line.ts), which the check is run on, so a
 * record is serialised once. It must escape strings as JSON.stringify does (canonical JSON does).
 */
export function makeRedactor(
  knownSecrets: readonly string[] = [],
  serialize: (r: object) => string = JSON.stringify,
): Redactor {
  const secrets = [
    ...new Set(knownSecrets.filter((s) => typeof s === 'string' && s.length >= MIN_SECRET_LENGTH)),
  ]
  // As they appear inside serialised JSON (a secret with a quote or backslash is escaped there).
  const secretsInJson = secrets.map((s) => JSON.stringify(s).slice(1, -1))
  let count = 0

  const badString = (s: string): boolean =>
    JWT.test(s) || PEM_PRIVATE.test(s) || secrets.some((secret) => s.includes(secret))

  const walk = (v: unknown, named: boolean): unknown => {
    if (typeof v === 'string') {
      if (named || badString(v)) {
        count += 1
        return REDACTED
      }
      return v
    }
    if (Array.isArray(v)) return v.map((x) => walk(x, named))
    if (v !== null && typeof v === 'object') {
      // Object.fromEntries defines own properties: a member named "__proto__" stays data, never a prototype.
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x, named || secretName(k))]))
    }
    return v
  }

  const redact = (<R extends object>(r: R): Redacted<R> => {
    const json = serialize(r)
    // Cheap tests first (substring search, names); the record is copied only when one of them hits. Top-level
    // names are the record's own fields, never credentials: only their values are checked.
    const suspect =
      (json.includes('eyJ') && JWT.test(json)) ||
      json.includes('PRIVATE KEY') ||
      secretsInJson.some((s) => json.includes(s)) ||
      Object.values(r).some(holdsSecretName)
    if (!suspect) return { record: r, json }
    const record = Object.fromEntries(Object.entries(r).map(([k, v]) => [k, walk(v, false)])) as R
    return { record, json: serialize(record) }
  }) as Redactor
  Object.defineProperty(redact, 'count', { get: () => count })
  return redact
}
