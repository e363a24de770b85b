/**
 * The hash of a record's audited state: SHA-256 over the canonical JSON of the record without
 * `remoteCheckedAt` (when we last asked the service is bookkeeping for the tracker's backoff, rewritten on every
 * poll; it says nothing about the withdrawal). Every audit entry that changes a record carries this hash of the
 * state it produced, so a row edited outside the app no longer matches its latest entry.
 */
import { createHash } from 'node:crypto'
import { canonicalJson } from './canonical-json'

/** Any record kind (withdrawal, deposit): the same rule. */
export function recordStateHash(r: { remoteCheckedAt?: string | null }): string {
  const { remoteCheckedAt: _bookkeeping, ...state } = r
  return createHash('sha256').update(canonicalJson(state), 'utf8').digest('hex')
}
