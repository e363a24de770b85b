/**
 * Which desktop notification a record's state calls for. Each event has a stable key (kind + local id): the
 * ledger's `notifications_sent` table (migration 7) holds the keys already shown, so an event is shown once,
 * even across restarts, and a record that goes paid → (re-read) → paid never notifies twice.
 */
import { normalizeStatus } from '../../shared/withdrawal-status'
import type { WithdrawalRecord } from '../../shared/withdrawal-record'

export type NotificationKind = 'paid' | 'returned' | 'deadline' | 'unknown'

export interface NotificationEvent {
  kind: NotificationKind
  key: string
  record: WithdrawalRecord
}

export const DEADLINE_WARNING_MS = 10 * 60_000

const ev = (kind: NotificationKind, record: WithdrawalRecord): NotificationEvent => ({
  kind,
  key: `${kind}:${record.localId}`,
  record,
})

/** Awaiting its deposit: created, not yet declared funded, status still unsent (or none yet). */
function awaitingDeposit(r: WithdrawalRecord): boolean {
  if (r.localState !== 'created' || r.fundedAt !== null || r.refund !== null) return false
  const s = r.remoteStatus === null ? 'unsent' : normalizeStatus(r.remoteStatus)
  return s === 'unsent'
}

export function eventsFor(r: WithdrawalRecord, nowMs: number): NotificationEvent[] {
  const out: NotificationEvent[] = []
  if (r.localState === 'outcome_unknown') out.push(ev('unknown', r))
  // A present refund wins over any status string, as everywhere else (statusCategory).
  if (r.refund !== null) out.push(ev('returned', r))
  else if (r.remoteStatus !== null && normalizeStatus(r.remoteStatus) === 'sent') out.push(ev('paid', r))
  if (awaitingDeposit(r) && r.expiration !== null) {
    const left = Date.parse(r.expiration) - nowMs
    if (Number.isFinite(left) && left > 0 && left <= DEADLINE_WARNING_MS) out.push(ev('deadline', r))
  }
  return out
}
