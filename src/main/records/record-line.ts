/**
 * The lines of records.json from manifest version 2 on ("state layout"): each record is written as
 *
 *   {"remoteCheckedAt":<its value>,<the members of the canonical JSON of the rest of the record>}
 *
 * so that `{` followed by everything after the first member is, byte for byte, the canonical JSON of the record's
 * audited state (ledger/model/state-hash.ts leaves out only `remoteCheckedAt`), and its SHA-256 *is* the state hash its
 * latest audit entry carries. A verifier checks the record against its entry by hashing those bytes instead of
 * re-serialising the parsed object member by member — the bulk of verifying 100k records.
 *
 * Hashing bytes is only sound if the parsed record is what those bytes say: a line must be exactly recordLine of
 * what JSON.parse made of it (no duplicate key, whitespace, other escape or number form, other member order), and
 * `provenPrefix` checks that before the bytes are hashed — natively (JSON.stringify of the parsed value equals the line and
 * every object in it is in canonical order, canonical-json.ts `writtenAsIs`), else by writing recordLine of the
 * parsed value and comparing (array-index keys, or a line not in the layout).
 *
 * Leaf imports only: the auditor's verifier runs without the ledger.
 */
import { hash } from 'node:crypto'
import { canonicalJsonWithout, writtenAsIs } from '../ledger/model/canonical-json'

/** The manifest version whose records.json is in the state layout (version 1: JSON.stringify of each record). */
export const STATE_LAYOUT_VERSION = 2

const prefixOf = (checkedAt: unknown): string => `{"remoteCheckedAt":${JSON.stringify(checkedAt ?? null)}`

/** A record's line in the state layout (without the separating comma). */
export function recordLine(r: { remoteCheckedAt?: string | null }): string {
  const text = canonicalJsonWithout(r, 'remoteCheckedAt')
  return `${prefixOf(r.remoteCheckedAt)}${text === '{}' ? '}' : `,${text.slice(1)}`}`
}

/**
 * The SHA-256 of the state bytes of a line, taken from the file's bytes, when the line starts with the first
 * member recordLine writes for what it parsed to (else null). Alone this proves nothing: it counts once it
 * equals the state hash of the record's latest audit entry. Those bytes then are the canonical state that entry
 * recorded (SHA-256 is not forged), which holds no `remoteCheckedAt` and no repeated member, so what the line
 * parses to is that state plus the first member: the line is in the state layout, without writing it again.
 * Any other line goes through provenPrefix.
 */
export function stateHashInBytes(buf: Buffer, start: number, stop: number, parsed: unknown): string | null {
  if (parsed === null || typeof parsed !== 'object') return null
  const checkedAt = (parsed as { remoteCheckedAt?: unknown }).remoteCheckedAt
  if (checkedAt !== null && typeof checkedAt !== 'string') return null
  const prefix = prefixOf(checkedAt)
  const at = start + Buffer.byteLength(prefix)
  if (at >= stop || buf.toString('latin1', start, at) !== prefix) return null
  if (buf[at] === 0x7d) return at + 1 === stop ? hash('sha256', '{}') : null
  if (buf[at] !== 0x2c) return null
  // `{` and the bytes after the first member, hashed in place: the comma stands in for the brace meanwhile.
  buf[at] = 0x7b
  try {
    return hash('sha256', buf.subarray(at, stop))
  } finally {
    buf[at] = 0x2c
  }
}

/**
 * The line's first member (`{"remoteCheckedAt":…`) when the line is exactly recordLine(parsed), else null: the
 * proof that hashing the line's bytes, where the verifier read them, hashes the parsed record's state.
 */
export function provenPrefix(line: string, parsed: unknown): string | null {
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return null
  const { remoteCheckedAt, ...state } = parsed as { remoteCheckedAt?: unknown }
  if (remoteCheckedAt !== null && typeof remoteCheckedAt !== 'string') return null
  const prefix = prefixOf(remoteCheckedAt)
  if (!line.startsWith(prefix)) return null
  // Native path: the line is JSON.stringify(parsed), whose first member is remoteCheckedAt (the prefix), and the
  // rest is in canonical order, so `{` + the line after that member is canonicalJson(state).
  if (line.charCodeAt(prefix.length) === 0x2c && JSON.stringify(parsed) === line && writtenAsIs(state)) {
    return prefix
  }
  // Else the line must be what recordLine writes, whose text after the prefix is canonicalJson(state) but for
  // its `{` (or `}` alone for an empty state).
  let expected: string
  try {
    expected = recordLine(parsed as { remoteCheckedAt: string | null })
  } catch {
    return null
  }
  return expected === line ? prefix : null
}
