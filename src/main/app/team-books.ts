/**
 * The team's payee book and receipts for a profile's runtime (issue #16), and the book or receipts the channels
 * use for the active profile: the team's on a team profile (refused with the reason while it is not connected),
 * this computer's otherwise.
 */
import type { PgLedgerStore, TrackerLeadership } from '../ledger/engines'
import type { ReceiptEvent } from '../ledger/team/leader'
import { sqlitePayeeStore, type PayeeStore } from '../ledger/payee-store'
import { pgPayeeStore } from '../ledger/pg/payees'
import { pgReceipts } from '../ledger/pg/receipts'
import type { PayeeBook } from '../payees'
import type { ReceiptService } from '../receipts'
import { createTeamReceiptService, type TeamReceiptService } from '../receipts/team'
import type { ProfileRuntime } from './runtime'

export interface TeamBooks {
  payees: PayeeStore
  receipts: TeamReceiptService
  /** Starts the receipt passes, and a pass whenever a desk registers a receipt or this desk takes the lead. */
  start(): void
  stop(): void
}

export function openTeamBooks(
  pg: PgLedgerStore,
  leadership: TrackerLeadership | null,
  o: {
    receiptLoopbackOrigin?: string | null
    onReceiptChange?: (localId: string) => void
    log?: (line: string) => void
  },
): TeamBooks {
  const receipts = createTeamReceiptService({
    receipts: pgReceipts(pg.pool),
    isLeader: () => leadership?.isLeader === true,
    loopbackOrigin: o.receiptLoopbackOrigin ?? null,
    ...(o.log ? { log: o.log } : {}),
  })
  const pass = (): void => void receipts.runDue().catch(() => undefined)
  // Every desk (the fetching one included) learns of a stored or abandoned receipt from the database's NOTIFY.
  const onReceipt = (r: ReceiptEvent): void => {
    if (r.state === 'pending') pass()
    else o.onReceiptChange?.(r.localId)
  }
  const onLeader = (leading: boolean): void => {
    if (leading) pass()
  }
  return {
    payees: pgPayeeStore(pg.pool),
    receipts,
    start: () => {
      leadership?.on('receipt', onReceipt)
      leadership?.on('leader', onLeader)
      receipts.start()
    },
    stop: () => {
      leadership?.off('receipt', onReceipt as (v: never) => void)
      leadership?.off('leader', onLeader as (v: never) => void)
      receipts.stop()
    },
  }
}

const localStores = new WeakMap<PayeeBook, PayeeStore>()

/** The active profile's payee book. */
export function payeeStoreOf(rt: ProfileRuntime, local: PayeeBook): PayeeStore {
  if (rt.team) {
    if (!rt.teamBooks) throw rt.team.refusal()
    return rt.teamBooks.payees
  }
  let s = localStores.get(local)
  if (!s) {
    s = sqlitePayeeStore(local)
    localStores.set(local, s)
  }
  return s
}

/** What the receipt channels read: the team's receipts, or this computer's (whose calls are synchronous). */
export type ReceiptReader =
  Pick<TeamReceiptService, 'view' | 'bytes'> | Pick<ReceiptService, 'view' | 'bytes'>

export function receiptsOf(rt: ProfileRuntime, local: ReceiptService): ReceiptReader {
  if (rt.team) {
    if (!rt.teamBooks) throw rt.team.refusal()
    return rt.teamBooks.receipts
  }
  return local
}
