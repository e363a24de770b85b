/**
 * The team's receipts on PostgreSQL (table `receipts` of migrations/0002-payees-receipts.ts): SQL only, fetching
 * and backoff live in main/receipts/service.ts, which reaches these through the port (pgReceiptStore below). The row carries the bytes themselves, so any desk reads the receipt one
 * desk fetched; the database sets who noticed and who fetched, checks the hash when the bytes are stored and
 * audits the storing. Rows read back pass a zod schema.
 */
import type pg from 'pg'
import { z } from 'zod'
import { receiptRowSchema, type ReceiptRow } from '../sqlite/receipts'
import type { ReceiptStore } from '../receipt-store'
import { sha256Hex } from '../model/receipts'
import { read, withTx } from './tx'

const rowSchema = z.object({
  local_id: z.string(),
  url: z.string(),
  state: z.enum(['pending', 'stored', 'gave_up']),
  first_seen_at: z.string(),
  attempts: z.number().int().nonnegative(),
  next_attempt_at: z.string().nullable(),
  last_error: z.string().nullable(),
  sha256: z.string().nullable(),
  size: z.number().int().positive().nullable(),
  media_type: z.enum(['application/pdf', 'text/html']).nullable(),
  fetched_at: z.string().nullable(),
  fetched_by: z.string().nullable(),
})

export type TeamReceiptRow = ReceiptRow & { fetchedBy: string | null }

const META = `local_id, url, state, first_seen_at, attempts, next_attempt_at, last_error, sha256, size, media_type,
  fetched_at, fetched_by`

function toRow(raw: unknown): TeamReceiptRow {
  const v = rowSchema.parse(raw)
  return {
    ...receiptRowSchema.parse({
      localId: v.local_id,
      url: v.url,
      state: v.state,
      firstSeenAt: v.first_seen_at,
      attempts: v.attempts,
      nextAttemptAt: v.next_attempt_at,
      lastError: v.last_error,
      sha256: v.sha256,
      size: v.size,
      mediaType: v.media_type,
      fetchedAt: v.fetched_at,
    }),
    fetchedBy: v.fetched_by,
  }
}

export interface PgReceipts {
  get(localId: string): Promise<TeamReceiptRow | null>
  /** Registers the URL once (first sighting wins); true when new. */
  track(localId: string, url: string): Promise<boolean>
  due(atIso: string, limit: number): Promise<TeamReceiptRow[]>
  failed(localId: string, error: string, next: { nextAttemptAt: string } | 'give_up'): Promise<void>
  /** Stores the bytes (the database checks the hash); false when another desk stored them first. */
  stored(localId: string, r: { bytes: Buffer; sha256: string; mediaType: string }): Promise<boolean>
  /** The stored bytes and the hash the audit trail recorded when they were stored. */
  bytes(localId: string): Promise<{ bytes: Buffer; auditedSha256: string | null } | null>
  /** The hash of the stored bytes, computed by the server (a view without moving the bytes). */
  storedHash(localId: string): Promise<{ actual: string | null; auditedSha256: string | null } | null>
}

const AUDITED = `(SELECT a.details::jsonb->>'sha256' FROM audit_log a WHERE a.subject = r.local_id
  AND a.action = 'receipt.stored' ORDER BY a.seq DESC LIMIT 1) AS audited`

const storedBytesRow = z.object({
  bytes: z.instanceof(Buffer),
  audited: z
    .string()
    .regex(/^[0-9a-f]{64}$/)
    .nullable(),
})

/**
 * One stored receipt's bytes and the hash its `receipt.stored` audit entry recorded; null when there are none or
 * the row does not parse. On any client: the receipt service reads through the pool, a team export inside its own
 * read-only view (export-receipts.ts).
 */
export async function storedReceiptBytes(
  c: pg.ClientBase,
  localId: string,
): Promise<{ bytes: Buffer; auditedSha256: string | null } | null> {
  const r = await c.query(
    `SELECT r.bytes, ${AUDITED} FROM receipts r WHERE r.local_id = $1 AND r.state = 'stored'`,
    [localId],
  )
  const got = storedBytesRow.safeParse(r.rows[0])
  return got.success ? { bytes: got.data.bytes, auditedSha256: got.data.audited } : null
}

export function pgReceipts(pool: pg.Pool): PgReceipts {
  return {
    get: (localId) =>
      read(pool, async (c) => {
        const r = await c.query(`SELECT ${META} FROM receipts WHERE local_id = $1`, [localId])
        return r.rows[0] ? toRow(r.rows[0]) : null
      }),
    track: (localId, url) =>
      withTx(pool, async (t) => {
        const r = await t.c.query(
          `INSERT INTO receipts (local_id, url) SELECT $1, $2 WHERE EXISTS
             (SELECT 1 FROM withdrawals WHERE local_id = $1) ON CONFLICT (local_id) DO NOTHING`,
          [localId, url],
        )
        return r.rowCount === 1
      }),
    due: (atIso, limit) =>
      read(pool, async (c) => {
        const r = await c.query(
          `SELECT ${META} FROM receipts WHERE state = 'pending' AND next_attempt_at <= $1
           ORDER BY next_attempt_at LIMIT $2`,
          [atIso, limit],
        )
        return r.rows.map(toRow)
      }),
    failed: async (localId, error, next) => {
      await withTx(pool, (t) =>
        t.c.query(
          `UPDATE receipts SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3, state = $4
           WHERE local_id = $1 AND state = 'pending'`,
          [
            localId,
            error,
            next === 'give_up' ? null : next.nextAttemptAt,
            next === 'give_up' ? 'gave_up' : 'pending',
          ],
        ),
      )
    },
    stored: (localId, s) =>
      withTx(pool, async (t) => {
        const r = await t.c.query(
          `UPDATE receipts SET attempts = attempts + 1, state = 'stored', bytes = $2, sha256 = $3,
           media_type = $4, size = $5 WHERE local_id = $1 AND state = 'pending'`,
          [localId, s.bytes, s.sha256, s.mediaType, s.bytes.length],
        )
        return r.rowCount === 1
      }),
    bytes: (localId) => read(pool, (c) => storedReceiptBytes(c, localId)),
    storedHash: (localId) =>
      read(pool, async (c) => {
        const r = await c.query(
          `SELECT encode(sha256(r.bytes), 'hex') AS actual, ${AUDITED} FROM receipts r
           WHERE r.local_id = $1 AND r.state = 'stored'`,
          [localId],
        )
        const row = r.rows[0]
        if (!row) return null
        return {
          actual: typeof row.actual === 'string' ? row.actual : null,
          auditedSha256: typeof row.audited === 'string' ? row.audited : null,
        }
      }),
  }
}

/** The team's receipts as the receipt service's port (ledger/receipt-store.ts). */
export function pgReceiptStore(pool: pg.Pool): ReceiptStore {
  const r = pgReceipts(pool)
  return {
    get: (localId) => r.get(localId),
    // A pending receipt another desk registered is worth a pass here too: this desk may be the one that leads now.
    notice: async (localId, url) => {
      const known = await r.get(localId)
      return known === null ? r.track(localId, url) : known.state === 'pending'
    },
    due: (atIso, limit) => r.due(atIso, limit),
    failed: (localId, error, next) => r.failed(localId, error, next),
    // The database sets the time and who fetched; false (another desk stored them first) changes nothing.
    stored: async (localId, s) => {
      await r.stored(localId, { bytes: s.bytes, sha256: sha256Hex(s.bytes), mediaType: s.mediaType })
    },
    check: async (row) => {
      const h = await r.storedHash(row.localId)
      if (h === null || h.actual === null) return { ok: false, reason: 'missing' }
      if (h.actual !== row.sha256 || h.auditedSha256 !== row.sha256)
        return { ok: false, reason: 'hash_mismatch' }
      return { ok: true, size: row.size ?? 0 }
    },
    read: async (row) => {
      const got = await r.bytes(row.localId)
      return got === null || got.auditedSha256 !== row.sha256 ? null : got.bytes
    },
  }
}
