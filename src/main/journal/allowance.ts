/**
 * The service's create allowance outlives the app: it still counts the POSTs an earlier run made in the last
 * minute, while a new client's bucket starts full. Every record is journaled just before its POST, so the ledger
 * knows them; replaying them makes the first creates after a restart wait instead of earning a 429 (docs/API-CONTRACT.md#s8-1).
 */
import type { EndpointName } from '../../shared/api-limits'
import type { DepixClient } from '../api'

const MINUTE_MS = 60_000

/** The filter that selects the records of the last minute (the ledger's `createdAt` is wall-clock time). */
export function lastMinute(profile: string, now: number): { profile: string; from: string } {
  return { profile, from: new Date(now - MINUTE_MS).toISOString() }
}

export function replaySpentAllowance(
  client: Pick<DepixClient, 'spentBefore'>,
  endpoint: Extract<EndpointName, 'withdraw' | 'deposit'>,
  recent: Iterable<{ createdAt: string }>,
  now: number,
): void {
  client.spentBefore(
    endpoint,
    Array.from(recent, (r) => now - Date.parse(r.createdAt)),
  )
}
