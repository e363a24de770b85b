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
import { LedgerError, type Ledger } from '../ledger/sqlite'
import type { LedgerStore } from '../ledger/ports'
import {
  ensureSideJournalReserve,
  replaySideJournal,
  replaySideJournalInto,
  sideJournalPath,
  type ReplayResult,
  type SideJournalEntry,
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

/** A side-journal entry into the store of its kind (a store without deposits refuses theirs: kept in the journal). */
function applyToStore(store: LedgerStore): (entry: SideJournalEntry) => Promise<{ applied: boolean }> {
  return async (entry) => {
    if (entry.record === 'deposit') {
      if (!store.deposits) throw new LedgerError('invalid_input', 'this ledger keeps no top-ups')
      return store.deposits.applyJournaledCreate(entry.localId, entry.outcome)
    }
    return store.applyJournaledCreate(entry.localId, entry.outcome)
  }
}

// The recovery under way or done, per store: a second service on the same store (withdrawals, then top-ups) waits
// for it before its first create, instead of racing it (recovery turns this role's `submitting` records into
// outcome_unknown: a create journaled meanwhile would be caught mid-POST).
const recoveredStores = new WeakMap<LedgerStore, Promise<RecoveryReport>>()

/**
 * `recoverOnce` for a record store opened by itself (the team ledger): the side journal is a local file named by
 * the caller (the team ledger has no file beside it), and only this desk's role's `submitting` records are
 * recovered (another desk's may be mid-POST, src/main/ledger/ports.ts).
 */
export async function recoverStoreOnce(
  store: LedgerStore,
  sideJournal: string | null,
  onError: (e: unknown) => void,
): Promise<RecoveryReport | null> {
  const under = recoveredStores.get(store)
  if (under) {
    await under.catch(() => undefined)
    return null
  }
  const run = recoverStore(store, sideJournal, onError)
  recoveredStores.set(store, run)
  return run
}

async function recoverStore(
  store: LedgerStore,
  sideJournal: string | null,
  onError: (e: unknown) => void,
): Promise<RecoveryReport> {
  let replay: ReplayResult | null = null
  try {
    replay = await replaySideJournalInto(sideJournal, applyToStore(store))
  } catch (e) {
    onError(e)
  }
  const interrupted =
    (await store.recoverInterrupted()) + (store.deposits ? await store.deposits.recoverInterrupted() : 0)
  if (sideJournal !== null) {
    try {
      ensureSideJournalReserve(sideJournal)
    } catch (e) {
      onError(e)
    }
  }
  return { replay, interrupted }
}

/** `replayPending` for a record store. */
export async function replayPendingInto(
  store: LedgerStore,
  sideJournal: string | null,
  onError: (e: unknown) => void,
): Promise<ReplayResult | null> {
  try {
    return await replaySideJournalInto(sideJournal, applyToStore(store))
  } catch (e) {
    onError(e)
    return null
  }
}
