/**
 * Numbered schema migrations. `PRAGMA user_version` holds the number of the last one applied; each runs in its
 * own transaction together with the version bump, so a crash mid-migration leaves the previous version intact.
 * Append only: a migration that has shipped is never edited (test/main/ledger/sqlite/migrations.test.ts builds an old
 * file with the old steps and upgrades it).
 */
import type { DatabaseSync } from 'node:sqlite'
import { LedgerError } from '../model/errors'
import { GENESIS_HASH } from '../model/genesis'
import { v5StateHashesAndIdentity } from './migration-v5'
import { v6PayeesAndReferences } from './migration-v6'
import { v7ReceiptsAndNotifications } from './migration-v7'
import { healReservedV8, v8Deposits } from './migration-v8'
import { v9PaymentRuns } from './migration-v9'
import { v10PartiallyPaid } from './migration-v10'
// Migrations 2–5 read rows with the columns their files have: the pre-migration-6 select (rows.ts).
import { derive, RECORD_SELECT_V5 as RECORD_SELECT, rowToRecord } from './rows'

export interface Migration {
  version: number
  name: string
  up: (db: DatabaseSync) => void
}

export { GENESIS_HASH }

const v1Base = `
CREATE TABLE withdrawals (
  id INTEGER PRIMARY KEY, -- stable rowid: the full-text index refers to it, and VACUUM never renumbers it
  local_id TEXT NOT NULL UNIQUE,
  profile TEXT NOT NULL,
  operator TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  local_state TEXT NOT NULL
    CHECK (local_state IN ('submitting', 'created', 'rejected', 'outcome_unknown', 'not_created')),
  request TEXT NOT NULL,
  pix_key TEXT NOT NULL,
  amount_kind TEXT NOT NULL CHECK (amount_kind IN ('deposit', 'payout')),
  amount_cents INTEGER NOT NULL,
  create_response TEXT,
  remote_id TEXT UNIQUE,
  remote_status TEXT,
  remote_status_at TEXT,
  remote_checked_at TEXT,
  last_remote TEXT,
  deposit_address TEXT,
  deposit_amount_cents INTEGER,
  payout_amount_cents INTEGER,
  expiration TEXT,
  funded_at TEXT,
  funding_tx_id TEXT,
  refund TEXT,
  receiver_name TEXT,
  error TEXT,
  request_id TEXT,
  flags TEXT NOT NULL DEFAULT '[]',
  CHECK (local_state <> 'created' OR remote_id IS NOT NULL)
) STRICT;

CREATE TABLE observations (
  id INTEGER PRIMARY KEY,
  local_id TEXT NOT NULL REFERENCES withdrawals (local_id),
  observed_at TEXT NOT NULL,
  remote_status TEXT NOT NULL,
  body TEXT,
  request_id TEXT,
  nonce TEXT,
  applied INTEGER NOT NULL CHECK (applied IN (0, 1))
) STRICT;
CREATE INDEX observations_by_record ON observations (local_id, id);

CREATE TABLE audit_log (
  seq INTEGER PRIMARY KEY,
  at TEXT NOT NULL,
  operator TEXT NOT NULL,
  action TEXT NOT NULL,
  subject TEXT,
  details TEXT NOT NULL,
  prev_hash TEXT NOT NULL,
  hash TEXT NOT NULL
) STRICT;
CREATE INDEX audit_by_subject ON audit_log (subject, seq);
`

/** Listing at 100k rows: derived columns, one index per sort order and filter, trigram full-text search. */
function v2Listing(db: DatabaseSync): void {
  db.exec(`
    ALTER TABLE withdrawals ADD COLUMN remote_status_norm TEXT;
    ALTER TABLE withdrawals ADD COLUMN display_status TEXT NOT NULL DEFAULT '';
    ALTER TABLE withdrawals ADD COLUMN has_refund INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE withdrawals ADD COLUMN is_open INTEGER NOT NULL DEFAULT 0;
    ALTER TABLE withdrawals ADD COLUMN search_text TEXT NOT NULL DEFAULT '';
  `)
  const update = db.prepare(`UPDATE withdrawals SET remote_status_norm = :remote_status_norm,
    display_status = :display_status, has_refund = :has_refund, is_open = :is_open, search_text = :search_text
    WHERE local_id = :local_id`)
  for (const row of db.prepare(`SELECT ${RECORD_SELECT} FROM withdrawals w`).all()) {
    const r = rowToRecord(row)
    update.run({ local_id: r.localId, ...derive(r) })
  }
  db.exec(`
    -- Listing: every filter combination of RecordFilter has an index whose leading columns are its equalities
    -- and created_at range, and which also carries every sort key, so the page's ids are found, filtered by
    -- the text match (rowid), sorted and counted without reading a single (wide) table row.
    CREATE INDEX withdrawals_list_ps ON withdrawals (profile, display_status, created_at, updated_at, amount_cents);
    CREATE INDEX withdrawals_list_s ON withdrawals (display_status, created_at, updated_at, amount_cents);
    CREATE INDEX withdrawals_list_p
      ON withdrawals (profile, created_at, display_status, local_state, updated_at, amount_cents);
    CREATE INDEX withdrawals_list_c ON withdrawals (created_at, display_status, local_state, updated_at, amount_cents);
    CREATE INDEX withdrawals_by_updated ON withdrawals (updated_at);
    CREATE INDEX withdrawals_by_amount ON withdrawals (amount_cents);
    CREATE INDEX withdrawals_by_state ON withdrawals (local_state, created_at);
    CREATE INDEX withdrawals_by_pix_key ON withdrawals (pix_key COLLATE NOCASE, created_at);
    CREATE INDEX withdrawals_open ON withdrawals (created_at) WHERE is_open = 1;

    -- Trigram FTS5 over search_text: any substring of 3+ characters is an index lookup. External content (the
    -- text lives once, in withdrawals); rowid = withdrawals.id, which VACUUM never renumbers.
    CREATE VIRTUAL TABLE withdrawals_fts USING fts5 (
      search_text, content = 'withdrawals', content_rowid = 'id', tokenize = 'trigram'
    );
    INSERT INTO withdrawals_fts (withdrawals_fts) VALUES ('rebuild');
    CREATE TRIGGER withdrawals_fts_insert AFTER INSERT ON withdrawals BEGIN
      INSERT INTO withdrawals_fts (rowid, search_text) VALUES (new.id, new.search_text);
    END;
    CREATE TRIGGER withdrawals_fts_delete AFTER DELETE ON withdrawals BEGIN
      INSERT INTO withdrawals_fts (withdrawals_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
    END;
    CREATE TRIGGER withdrawals_fts_update AFTER UPDATE OF search_text ON withdrawals
    WHEN old.search_text IS NOT new.search_text BEGIN
      INSERT INTO withdrawals_fts (withdrawals_fts, rowid, search_text) VALUES ('delete', old.id, old.search_text);
      INSERT INTO withdrawals_fts (rowid, search_text) VALUES (new.id, new.search_text);
    END;
  `)
}

/**
 * Audit head and append-only guards. A hash chain alone cannot reveal that its last rows were deleted (what is
 * left is still a valid chain), so the head (last seq and hash) is kept in its own row, updated in the same
 * transaction as every append. The triggers stop our own code (or a careless tool) from rewriting history;
 * someone who edits the file can drop them, which is what the chain and head are for.
 */
const v3AuditHead = `
CREATE TABLE audit_head (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  seq INTEGER NOT NULL,
  hash TEXT NOT NULL
) STRICT;
INSERT INTO audit_head (id, seq, hash) VALUES (1,
  coalesce((SELECT seq FROM audit_log ORDER BY seq DESC LIMIT 1), 0),
  coalesce((SELECT hash FROM audit_log ORDER BY seq DESC LIMIT 1), '${GENESIS_HASH}'));

CREATE TRIGGER audit_head_forward BEFORE UPDATE ON audit_head WHEN new.seq <> old.seq + 1 BEGIN
  SELECT RAISE(ABORT, 'audit_head only moves forward by one');
END;
CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head BEGIN
  SELECT RAISE(ABORT, 'audit_head cannot be deleted');
END;
CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log BEGIN
  SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER observations_no_update BEFORE UPDATE ON observations BEGIN
  SELECT RAISE(ABORT, 'observations are append-only');
END;
CREATE TRIGGER observations_no_delete BEFORE DELETE ON observations BEGIN
  SELECT RAISE(ABORT, 'observations are append-only');
END;
CREATE TRIGGER withdrawals_no_delete BEFORE DELETE ON withdrawals BEGIN
  SELECT RAISE(ABORT, 'withdrawal records are never deleted');
END;
`

/**
 * "Open" used to end at any terminal-looking status; it now ends only when the money is settled (sent, or a refund
 * recorded), so expired, cancelled and refunded-without-refund records are re-derived and tracked again.
 */
function v4ReopenLingering(db: DatabaseSync): void {
  const update = db.prepare('UPDATE withdrawals SET is_open = :is_open WHERE local_id = :local_id')
  const rows = db
    .prepare(`SELECT ${RECORD_SELECT} FROM withdrawals w WHERE w.local_state = 'created' AND w.is_open = 0`)
    .all()
  for (const row of rows) {
    const r = rowToRecord(row)
    update.run({ local_id: r.localId, is_open: derive(r).is_open })
  }
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: 'base tables', up: (db) => db.exec(v1Base) },
  { version: 2, name: 'listing columns, indexes and full-text search', up: v2Listing },
  { version: 3, name: 'audit head and append-only guards', up: (db) => db.exec(v3AuditHead) },
  { version: 4, name: 'track terminal-looking statuses that can still change', up: v4ReopenLingering },
  { version: 5, name: 'record state hashes in the audit log, ledger identity', up: v5StateHashesAndIdentity },
  { version: 6, name: 'payee book, payment references and expected payee', up: v6PayeesAndReferences },
  { version: 7, name: 'local receipts and sent notifications', up: v7ReceiptsAndNotifications },
  { version: 8, name: 'deposits: the second record kind', up: v8Deposits },
  { version: 9, name: 'payment runs, their rows and waves', up: v9PaymentRuns },
  { version: 10, name: 'a run may end partially paid', up: v10PartiallyPaid },
]

/** The last migration's number (numbers are handed out per change, so the array may skip one until all land). */
export const LATEST_VERSION = lastVersion(MIGRATIONS)

function lastVersion(migrations: readonly Migration[]): number {
  return migrations.reduce((max, m) => Math.max(max, m.version), 0)
}

export function schemaVersion(db: DatabaseSync): number {
  const row = db.prepare('PRAGMA user_version').get()
  return Number(row?.user_version ?? 0)
}

/** Applies every pending migration up to `to` (default: all). Returns the version reached. */
export function migrate(
  db: DatabaseSync,
  to: number = LATEST_VERSION,
  migrations: readonly Migration[] = MIGRATIONS,
): number {
  let current = schemaVersion(db)
  const latest = lastVersion(migrations)
  if (current > latest) {
    // A newer app wrote this file. Writing with an older schema could lose columns it relies on.
    throw new LedgerError('schema_too_new', `ledger schema v${current} is newer than this app (v${latest})`)
  }
  for (const m of migrations) {
    if (m.version <= current || m.version > to) continue
    db.exec('BEGIN IMMEDIATE')
    try {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      if (schemaVersion(db) >= m.version) {
        db.exec('COMMIT')
        current = m.version
        continue
      }
      m.up(db)
      db.exec(`PRAGMA user_version = ${m.version}`)
      db.exec('COMMIT')
    } catch (e) {
      try {
        db.exec('ROLLBACK')
      } catch {
        // already rolled back by SQLite
      }
      throw e
    }
    current = m.version
  }
  if (to >= 8 && migrations === MIGRATIONS) healReservedV8(db, current)
  return current
}
