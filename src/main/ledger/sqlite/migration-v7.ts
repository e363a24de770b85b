/**
 * Migration 7 (issue #14, receipts and notifications): two side tables, keyed by the record they belong to.
 *
 * `receipts` is the local copy of a payout's receipt: the URL the service reported, the fetch attempts (a
 * receipt that cannot be fetched is retried with backoff, then given up on), and once stored the file's
 * SHA-256, size, media type and fetch time. The bytes live beside the ledger in `receipts/<sha256>.<ext>`; the
 * hash here is what says the file is the one fetched. Records are never touched: a receipt is evidence about a
 * record, not part of its state, so record state hashes and the audit chain of earlier entries are unchanged.
 *
 * `notifications_sent` remembers each desktop notification already shown (one key per event), so a restart
 * never repeats one.
 */
import type { DatabaseSync } from 'node:sqlite'

const schema = `
CREATE TABLE receipts (
  local_id TEXT PRIMARY KEY REFERENCES withdrawals (local_id),
  url TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN ('pending', 'stored', 'gave_up')),
  first_seen_at TEXT NOT NULL,
  attempts INTEGER NOT NULL DEFAULT 0 CHECK (attempts >= 0),
  next_attempt_at TEXT,
  last_error TEXT,
  sha256 TEXT CHECK (sha256 IS NULL OR (length(sha256) = 64 AND sha256 NOT GLOB '*[^0-9a-f]*')),
  size INTEGER CHECK (size IS NULL OR size > 0),
  media_type TEXT CHECK (media_type IS NULL OR media_type IN ('application/pdf', 'text/html')),
  fetched_at TEXT,
  CHECK (state <> 'stored' OR (sha256 IS NOT NULL AND size IS NOT NULL AND media_type IS NOT NULL
    AND fetched_at IS NOT NULL))
) STRICT;
CREATE INDEX receipts_due ON receipts (next_attempt_at) WHERE state = 'pending';

CREATE TABLE notifications_sent (
  event_key TEXT PRIMARY KEY,
  sent_at TEXT NOT NULL
) STRICT;
`

export function v7ReceiptsAndNotifications(db: DatabaseSync): void {
  db.exec(schema)
}
