/**
 * Start-up recovery of a ledger, once per opened ledger (and the ledger lock makes that once per process):
 *
 *   1. replay the side journal: answers that arrived but could not be stored become `created`;
 *   2. every record still `submitting`, of every kind (withdrawals, deposits), becomes `outcome_unknown` (nobody
 *      knows whether its POST arrived);
 *   3. refill the side journal's padding while the disk has room.
 *
 * Step 2 must never run while a create of this process is in flight, which is why it is not repeated when a
 * profile switch builds a new service on the same ledger: the old service's create may still be waiting for its
 * answer (see app/context.ts, which also waits for it before switching). Whichever service of a kind is built
 * first recovers every kind, before either can create.
 */
import type { Ledger } from '../ledger'
import {
  ensureSideJournalReserve,
  replaySideJournal,
  sideJournalPath,
  type ReplayResult,
} from './side-journal'

const recovered = new WeakSet<Ledger>()

export interface RecoveryReport {
  replay: ReplayResult | null
  interrupted: number
}

/** Null when this ledger was already recovered. Failures of the journal steps go to `onError`, never stop a start. */
export function recoverOnce(ledger: Ledger, onError: (e: unknown) => void): RecoveryReport | null {
  if (recovered.has(ledger)) return null
  recovered.add(ledger)
  let replay: ReplayResult | null = null
  try {
    replay = replaySideJournal(ledger)
  } catch (e) {
    onError(e)
  }
  const interrupted = ledger.recoverInterrupted() + ledger.deposits.recoverInterrupted()
  const file = sideJournalPath(ledger.file)
  if (file !== null) {
    try {
      ensureSideJournalReserve(file)
    } catch (e) {
      onError(e)
    }
  }
  return { replay, interrupted }
}

/** Before a create: answers kept while the disk was full go in as soon as the ledger takes writes again. */
export function replayPending(ledger: Ledger, onError: (e: unknown) => void): ReplayResult | null {
  try {
    return replaySideJournal(ledger)
  } catch (e) {
    onError(e)
    return null
  }
}
