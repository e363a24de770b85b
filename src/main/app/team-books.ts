/**
 * The team's payee book and receipts for a profile's runtime (issue #16). Which book or receipts a channel uses
 * for the active profile is engine.ts's (payeeStoreOf, receiptsOf).
 */
import type { PgLedgerStore, TrackerLeadership } from '../ledger/engines'
import type { ReceiptEvent } from '../ledger/team/leader'
import type { PayeeStore } from '../ledger/payee-store'
import { pgPayeeStore } from '../ledger/pg/payees'
import { pgReceiptStore } from '../ledger/pg/receipts'
import { createReceiptService, type ReceiptService } from '../receipts/service'

export interface TeamBooks {
  payees: PayeeStore
  /** The team's receipts: the desk's receipt service over the team ledger's receipt store. */
  receipts: ReceiptService
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
  const loopbackOrigin = o.receiptLoopbackOrigin ?? null
  const receipts = createReceiptService({
    store: pgReceiptStore(pg.pool),
    // Only the desk leading the team's tracker fetches: N desks never download one receipt N times.
    canFetch: () => leadership?.isLeader === true,
    loopbackOrigin: () => loopbackOrigin,
    logAs: 'team receipt',
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
      void receipts.stop()
    },
  }
}
