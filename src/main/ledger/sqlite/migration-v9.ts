/**
 * Migration 9: payment runs (issue #15). A run, its rows (each row's draft as imported, its duplicate decision,
 * its wave and the local id of the withdrawal record it became) and its waves. Rows and runs are never deleted;
 * every change goes through ledger/sqlite/runs.ts, which appends an audit entry carrying the hash of the state it
 * produced (subjects `<runId>` and `<runId>#<idx>`), like records do.
 */
import type { DatabaseSync } from 'node:sqlite'

export const v9Runs = `
CREATE TABLE runs (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL UNIQUE,
  profile TEXT NOT NULL,
  operator TEXT NOT NULL,
  name TEXT NOT NULL,
  created_at TEXT NOT NULL,
  updated_at TEXT NOT NULL,
  state TEXT NOT NULL CHECK (state IN
    ('draft', 'approved', 'creating', 'awaiting_funding', 'paused', 'completed', 'cancelled')),
  approved_hash TEXT,
  approved_at TEXT,
  approved_by TEXT,
  wave INTEGER NOT NULL DEFAULT 0 CHECK (wave >= 0),
  row_count INTEGER NOT NULL CHECK (row_count BETWEEN 1 AND 1000)
) STRICT;
CREATE INDEX runs_by_profile ON runs (profile, created_at);

CREATE TABLE run_rows (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs (run_id),
  idx INTEGER NOT NULL CHECK (idx >= 0),
  line INTEGER NOT NULL CHECK (line > 0),
  draft TEXT NOT NULL,
  payee TEXT NOT NULL,
  duplicate TEXT,
  decision TEXT CHECK (decision IN ('keep', 'drop')),
  state TEXT NOT NULL CHECK (state IN ('pending', 'queued', 'in_flight', 'submitted', 'held', 'dropped')),
  wave INTEGER CHECK (wave > 0),
  local_id TEXT UNIQUE,
  held_reason TEXT,
  UNIQUE (run_id, idx),
  CHECK (state NOT IN ('in_flight', 'submitted') OR local_id IS NOT NULL)
) STRICT;
CREATE INDEX run_rows_by_state ON run_rows (run_id, state, idx);

CREATE TABLE run_waves (
  id INTEGER PRIMARY KEY,
  run_id TEXT NOT NULL REFERENCES runs (run_id),
  wave INTEGER NOT NULL CHECK (wave > 0),
  planned INTEGER NOT NULL CHECK (planned > 0),
  started_at TEXT NOT NULL,
  funded_at TEXT,
  funding_tx_id TEXT,
  UNIQUE (run_id, wave)
) STRICT;

CREATE TRIGGER runs_no_delete BEFORE DELETE ON runs BEGIN
  SELECT RAISE(ABORT, 'runs are never deleted');
END;
CREATE TRIGGER run_rows_no_delete BEFORE DELETE ON run_rows BEGIN
  SELECT RAISE(ABORT, 'run rows are never deleted');
END;
CREATE TRIGGER run_waves_no_delete BEFORE DELETE ON run_waves BEGIN
  SELECT RAISE(ABORT, 'run waves are never deleted');
END;
`

export function v9PaymentRuns(db: DatabaseSync): void {
  db.exec(v9Runs)
}
