/**
 * The hash of a record's audited state: SHA-256 over the canonical JSON of the record without
 * `remoteCheckedAt` (when we last asked the service is bookkeeping for the tracker's backoff, rewritten on every
 * poll; it says nothing about the withdrawal). Every audit entry that changes a record carries this hash of the
 * state it produced, so a row edited outside the app no longer matches its latest entry.
 */
import { hash } from 'node:crypto'
import { canonicalJsonWithout } from './canonical-json'

/** Any record kind (withdrawal, deposit): the same rule. */
export function recordStateHash(r: { remoteCheckedAt?: string | null }): string {
  // One-shot hash (strings as UTF-8): a third of createHash().update().digest() per call, 100k calls a check.
  return hash('sha256', canonicalJsonWithout(r, 'remoteCheckedAt'))
}
