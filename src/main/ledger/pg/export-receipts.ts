/**
 * A team export's receipts member (issue #16): the stored receipts of the exported records, read from the team
 * ledger's `receipts` table inside the export's own REPEATABLE READ view, so the receipts are of the same moment
 * as the records and their audit entries. Written by the desk export's rule (records/receipts-member.ts); what
 * differs is only where the bytes come from and what they are checked against: the hash stored with them AND the
 * hash the `receipt.stored` audit entry recorded (an owner who rewrites bytes and hash together still fails the
 * second). A receipt that fails either is left out and counted as skipped, as on a desk.
 */
import type pg from 'pg'
import { z } from 'zod'
import { sha256Hex } from '../model/receipts'
import { storedReceiptBytes } from './receipts'
import type { ReceiptCandidate } from '../export-view'

const SHA256 = z.string().regex(/^[0-9a-f]{64}$/)

const candidateRow = z.object({
  local_id: z.string().min(1),
  sha256: SHA256,
  media_type: z.enum(['application/pdf', 'text/html']),
})

/**
 * The stored receipts of `exported`, in local-id order, each read (one row, at most one receipt's bytes in
 * memory) when the writer asks for it. Rows that do not parse are damaged receipts: skipped, never exported.
 */
export async function* teamReceiptCandidates(
  c: pg.ClientBase,
  exported: ReadonlySet<string>,
): AsyncGenerator<ReceiptCandidate> {
  if (exported.size === 0) return
  const r = await c.query(
    `SELECT local_id, sha256, media_type FROM receipts
     WHERE state = 'stored' AND local_id = ANY($1::text[]) ORDER BY local_id`,
    [[...exported]],
  )
  for (const raw of r.rows) {
    const row = candidateRow.safeParse(raw)
    if (!row.success) {
      const id = (raw as { local_id?: unknown }).local_id
      // Still counted by the writer as a receipt it could not vouch for.
      if (typeof id === 'string') yield { localId: id, sha256: '', mediaType: 'text/html', read: none }
      continue
    }
    const { local_id: localId, sha256, media_type: mediaType } = row.data
    yield {
      localId,
      sha256,
      mediaType,
      read: async () => {
        // The receipt service's own read (ledger/pg/receipts.ts), on this view's client.
        const got = await storedReceiptBytes(c, localId)
        // Hashed here, on the bytes about to be written, whatever the table says of them.
        if (got === null || sha256Hex(got.bytes) !== sha256 || got.auditedSha256 !== sha256) return null
        return got.bytes
      },
    }
  }
}

const none = (): Promise<null> => Promise.resolve(null)
