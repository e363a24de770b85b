/**
 * The ledger side of local receipts and sent notifications (tables of migration 7). SQL only: fetching, files
 * and backoff live in src/main/receipts/. Storing a receipt is one transaction with an audit entry, so the
 * chain says when which file (by hash) became the record's receipt.
 */
import { z } from 'zod'
import { appendAuditRow, SYSTEM_OPERATOR } from './audit'
import type { Ctx } from './context'

export const receiptRowSchema = z.object({
  localId: z.string(),
  url: z.string(),
  state: z.enum(['pending', 'stored', 'gave_up']),
  firstSeenAt: z.string(),
  attempts: z.number().int().nonnegative(),
  nextAttemptAt: z.string().nullable(),
  lastError: z.string().nullable(),
  sha256: z.string().nullable(),
  size: z.number().int().positive().nullable(),
  mediaType: z.enum(['application/pdf', 'text/html']).nullable(),
  fetchedAt: z.string().nullable(),
})
export type ReceiptRow = z.infer<typeof receiptRowSchema>

export interface StoredReceipt {
  sha256: string
  size: number
  mediaType: 'application/pdf' | 'text/html'
  fetchedAt: string
}

export interface LedgerReceipts {
  get(localId: string): ReceiptRow | null
  /** Registers a receipt URL to fetch (first sighting wins: a receipt is fetched once). True when new. */
  track(localId: string, url: string, atIso: string): boolean
  /** Pending receipts whose next attempt is due at `atIso`, oldest first. */
  due(atIso: string, limit: number): ReceiptRow[]
  failed(localId: string, error: string, next: { nextAttemptAt: string } | 'give_up'): void
  stored(localId: string, r: StoredReceipt): void
  /** Every stored receipt, for exports. */
  listStored(): ReceiptRow[]
  /** Marks a notification key as sent; false when it already was (never show it twice). */
  claimNotification(key: string, atIso: string): boolean
}

const COLUMNS = `local_id AS localId, url, state, first_seen_at AS firstSeenAt, attempts,
  next_attempt_at AS nextAttemptAt, last_error AS lastError, sha256, size, media_type AS mediaType,
  fetched_at AS fetchedAt`

const parseRow = (row: unknown): ReceiptRow => receiptRowSchema.parse({ ...(row as object) })

export function ledgerReceipts(ctx: Ctx): LedgerReceipts {
  return {
    get: (localId) => {
      const row = ctx.db.stmt(`SELECT ${COLUMNS} FROM receipts WHERE local_id = ?`).get(localId)
      return row === undefined ? null : parseRow(row)
    },
    track: (localId, url, atIso) =>
      ctx.db.tx(
        () =>
          Number(
            ctx.db
              .stmt(
                `INSERT INTO receipts (local_id, url, state, first_seen_at, next_attempt_at)
                 VALUES (?, ?, 'pending', ?, ?) ON CONFLICT (local_id) DO NOTHING`,
              )
              .run(localId, url, atIso, atIso).changes,
          ) === 1,
      ),
    due: (atIso, limit) =>
      ctx.db
        .stmt(
          `SELECT ${COLUMNS} FROM receipts WHERE state = 'pending' AND next_attempt_at <= ?
           ORDER BY next_attempt_at LIMIT ?`,
        )
        .all(atIso, limit)
        .map(parseRow),
    failed: (localId, error, next) => {
      ctx.db.tx(() => {
        ctx.db
          .stmt(
            `UPDATE receipts SET attempts = attempts + 1, last_error = ?, next_attempt_at = ?,
             state = ? WHERE local_id = ? AND state = 'pending'`,
          )
          .run(
            error,
            next === 'give_up' ? null : next.nextAttemptAt,
            next === 'give_up' ? 'gave_up' : 'pending',
            localId,
          )
      })
    },
    stored: (localId, r) => {
      ctx.db.tx(() => {
        ctx.db
          .stmt(
            `UPDATE receipts SET attempts = attempts + 1, state = 'stored', last_error = NULL,
             next_attempt_at = NULL, sha256 = ?, size = ?, media_type = ?, fetched_at = ? WHERE local_id = ?`,
          )
          .run(r.sha256, r.size, r.mediaType, r.fetchedAt, localId)
        appendAuditRow(ctx.db, ctx.nowIso(), {
          operator: SYSTEM_OPERATOR,
          action: 'receipt.stored',
          subject: localId,
          details: { ...r },
        })
      })
    },
    listStored: () =>
      ctx.db
        .stmt(`SELECT ${COLUMNS} FROM receipts WHERE state = 'stored' ORDER BY local_id`)
        .all()
        .map(parseRow),
    claimNotification: (key, atIso) =>
      ctx.db.tx(
        () =>
          Number(
            ctx.db
              .stmt(
                'INSERT INTO notifications_sent (event_key, sent_at) VALUES (?, ?) ON CONFLICT DO NOTHING',
              )
              .run(key, atIso).changes,
          ) === 1,
      ),
  }
}
