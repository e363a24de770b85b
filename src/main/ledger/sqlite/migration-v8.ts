/**
 * Migration 8: deposits ("compras de DePix") become the ledger's second record kind. Their own table and
 * observation history, with the same guarantees as withdrawals: rows never deleted, observations append-only, and
 * every change audited through the one write path (record-write.ts) with the hash of the state it produced, in the
 * same audit chain. Nothing existing is touched, so the migration needs no baseline entries.
 *
 * Listing is small by nature (a treasury tops up a few times a day), so text search is a LIKE over a folded
 * column rather than a full-text index; the indexes serve the list's profile + date order and the tracker's
 * open list.
 */
import type { DatabaseSync } from 'node:sqlite'

const schema = `
CREATE TABLE deposits (
  id INTEGER PRIMARY KEY,
  local_id TEXT NOT NULL UNIQUE,
  profile TEXT NOT NULL,
  operator TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  local_state TEXT NOT NULL
    CHECK (local_state IN ('submitting', 'created', 'rejected', 'outcome_unknown', 'not_created')),
  origin TEXT NOT NULL CHECK (origin IN ('app', 'imported')),
  request TEXT NOT NULL,
  amount_cents INTEGER NOT NULL,
  depix_address TEXT,
  create_response TEXT,
  remote_id TEXT,
  remote_status TEXT,
  remote_status_at TEXT,
  remote_checked_at TEXT,
  last_remote TEXT,
  qr_copy_paste TEXT,
  expiration TEXT,
  value_cents INTEGER,
  bank_tx_id TEXT,
  blockchain_tx_id TEXT,
  payer_name TEXT,
  reversed_at TEXT,
  error TEXT,
  request_id TEXT,
  flags TEXT NOT NULL DEFAULT '[]',
  display_status TEXT NOT NULL,
  is_open INTEGER NOT NULL DEFAULT 0,
  search_text TEXT NOT NULL DEFAULT '',
  CHECK (local_state <> 'created' OR remote_id IS NOT NULL),
  -- One account's deposit ids are unique; two profiles (two accounts) may in principle reuse one.
  UNIQUE (profile, remote_id)
) STRICT;
CREATE INDEX deposits_list ON deposits (profile, created_at, display_status);
CREATE INDEX deposits_by_created ON deposits (created_at);
CREATE INDEX deposits_open ON deposits (created_at) WHERE is_open = 1;

CREATE TABLE deposit_observations (
  id INTEGER PRIMARY KEY,
  local_id TEXT NOT NULL REFERENCES deposits (local_id),
  observed_at TEXT NOT NULL,
  remote_status TEXT NOT NULL,
  body TEXT,
  request_id TEXT,
  nonce TEXT,
  applied INTEGER NOT NULL CHECK (applied IN (0, 1))
) STRICT;
CREATE INDEX deposit_observations_by_record ON deposit_observations (local_id, id);

CREATE TRIGGER deposits_no_delete BEFORE DELETE ON deposits BEGIN
  SELECT RAISE(ABORT, 'deposit records are never deleted');
END;
CREATE TRIGGER deposit_observations_no_update BEFORE UPDATE ON deposit_observations BEGIN
  SELECT RAISE(ABORT, 'observations are append-only');
END;
CREATE TRIGGER deposit_observations_no_delete BEFORE DELETE ON deposit_observations BEGIN
  SELECT RAISE(ABORT, 'observations are append-only');
END;
`

export function v8Deposits(db: DatabaseSync): void {
  db.exec(schema)
}

/**
 * Main carried a no-op placeholder for migration 8 while this branch was open (merge of p15): a ledger opened by
 * such a build is at user_version ≥ 8 without the deposit tables, and would fail at the first deposit query. This
 * runs the real migration 8 on such a file, once, in its own transaction; any other file is left untouched.
 */
export function healReservedV8(db: DatabaseSync, version: number): boolean {
  if (version < 8) return false
  const has = db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'deposits'").get()
  if (has) return false
  db.exec('BEGIN IMMEDIATE')
  try {
    const again = db
      .prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'deposits'")
      .get()
    if (!again) v8Deposits(db)
    db.exec('COMMIT')
    return !again
  } catch (e) {
    try {
      db.exec('ROLLBACK')
    } catch {
      // already rolled back by SQLite
    }
    throw e
  }
}
