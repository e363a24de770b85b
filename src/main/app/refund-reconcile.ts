/**
 * "Devoluções a conciliar" on Hoje (issue #26): the analyst marks a returned payment reconciled once the refund
 * was matched in their books. The mark is one audit entry (`refund.reconciled`, subject = the record's
 * local id) through the store's existing append path — `append_audit` on the team ledger, a SECURITY DEFINER
 * function, so no new table, column or migration — and is read back from the record's own audit entries.
 * Marking twice is a no-op (one entry); a record that did not come back is refused.
 */
import { z } from 'zod'
import { normalizeStatus } from '../../shared/withdrawal-status'
import type { LedgerStore } from '../ledger/engines'
import { AppError } from './errors'

// Not `withdrawal.*`: those are the record's own entries, which the team ledger writes only with the change itself
// (append_audit refuses them from a desk). A mark changes no record: it is an annotation of the audit trail.
export const REFUND_RECONCILED = 'refund.reconciled'
/** The Hoje list's statuses: returned money, or a failed payout whose deposit is to come back. */
const RECONCILABLE = new Set(['refunded', 'error'])
/** A record's own audit entries are few (its life); this bounds the read. */
const ENTRIES_PER_RECORD = 500

const markSchema = z.object({ at: z.string(), operator: z.string() })
export type RefundMark = z.infer<typeof markSchema>

async function markOf(store: LedgerStore, localId: string): Promise<RefundMark | null> {
  const { rows } = await store.audit({ subject: localId, limit: ENTRIES_PER_RECORD })
  const entry = rows.find((e) => e.action === REFUND_RECONCILED)
  return entry ? markSchema.parse({ at: entry.at, operator: entry.operator }) : null
}

export async function reconcileRefund(
  store: LedgerStore,
  localId: string,
  operator: string,
): Promise<RefundMark> {
  const r = await store.get(localId)
  if (!r) throw new AppError('not_found', 'No such withdrawal.')
  if (r.remoteStatus === null || !RECONCILABLE.has(normalizeStatus(r.remoteStatus)))
    throw new AppError('not_refunded', 'Only a payment that came back can be marked reconciled.', {
      userMessage: {
        'pt-BR': 'Só um pagamento devolvido pode ser marcado como conciliado.',
        en: 'Only a refunded withdrawal can be marked reconciled.',
      },
    })
  const before = await markOf(store, localId)
  if (before) return before
  const e = await store.appendAudit({
    operator,
    action: REFUND_RECONCILED,
    subject: localId,
    details: { remoteStatus: r.remoteStatus, depositAmountCents: r.depositAmountCents },
  })
  return { at: e.at, operator: e.operator }
}

/** Which of these records were marked reconciled (Hoje's list leaves them out). */
export async function reconciledAmong(store: LedgerStore, localIds: readonly string[]): Promise<string[]> {
  const marks = await Promise.all(localIds.map(async (id) => ((await markOf(store, id)) ? id : null)))
  return marks.filter((id): id is string => id !== null)
}
