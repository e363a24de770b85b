/**
 * One funding transaction recorded on many payments in ONE SQLite transaction: a wave paid from the wallet is
 * durable after one fsync instead of one per payment. Each payment goes through `markFunded` itself (the same
 * checks, the same `withdrawal.funded` audit entry, the same no-op when it already carries this txid), joined to
 * the outer transaction; any refusal rolls every payment back.
 */
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import type { Ctx } from './context'
import type { Db } from './db'
import { LedgerError } from '../model/errors'
import { markFunded } from './withdrawals'

/** `ctx` whose `tx` runs inside the transaction already open (db.tx is not re-entrant on purpose). */
function joined(ctx: Ctx): Ctx {
  const db: Db = {
    raw: ctx.db.raw,
    stmt: (sql) => ctx.db.stmt(sql),
    fresh: (sql) => ctx.db.fresh(sql),
    tx: (fn) => fn(),
    close: () => {
      throw new LedgerError('invalid_input', 'cannot close the ledger inside a transaction')
    },
  }
  return { ...ctx, db }
}

export function markFundedMany(
  ctx: Ctx,
  localIds: readonly string[],
  funding: { txId: string },
  operator: string,
): WithdrawalRecord[] {
  if (localIds.length === 0) throw new LedgerError('invalid_input', 'no payment to record')
  if (new Set(localIds).size !== localIds.length)
    throw new LedgerError('invalid_input', 'a payment is listed twice')
  if (funding.txId.trim() === '') throw new LedgerError('invalid_input', 'txId is required')
  return ctx.db.tx(() => {
    const inner = joined(ctx)
    return localIds.map((id) => markFunded(inner, id, funding, operator))
  })
}
