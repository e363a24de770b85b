/**
 * Migration 5: audit entries carry the hash of the record state they produced, and the ledger gets an identity.
 * Records written before it get one baseline entry each (operator 'system'), so from here on every record has
 * an entry to be checked against. The identity (`ledger_meta.ledger_id`, random) is what the identity file
 * beside the ledger names (identity.ts): a different file in its place is refused, not silently used.
 */
import type { DatabaseSync } from 'node:sqlite'
import { appendAuditRow, SYSTEM_OPERATOR } from './audit'
import { RECORD_SELECT_V5 as RECORD_SELECT, rowToRecord } from './rows'
import { recordStateHash } from '../model/state-hash'

const schema = `
ALTER TABLE audit_log ADD COLUMN state_hash TEXT;
CREATE INDEX audit_state_by_subject ON audit_log (subject, seq) WHERE state_hash IS NOT NULL;

CREATE TABLE ledger_meta (
  id INTEGER PRIMARY KEY CHECK (id = 1),
  ledger_id TEXT NOT NULL,
  created_at TEXT NOT NULL
) STRICT;
INSERT INTO ledger_meta (id, ledger_id, created_at)
  VALUES (1, lower(hex(randomblob(16))), strftime('%Y-%m-%dT%H:%M:%fZ', 'now'));
CREATE TRIGGER ledger_meta_no_update BEFORE UPDATE ON ledger_meta BEGIN
  SELECT RAISE(ABORT, 'the ledger identity never changes');
END;
CREATE TRIGGER ledger_meta_no_delete BEFORE DELETE ON ledger_meta BEGIN
  SELECT RAISE(ABORT, 'the ledger identity never changes');
END;
`

export function v5StateHashesAndIdentity(db: DatabaseSync): void {
  db.exec(schema)
  const at = new Date().toISOString()
  const stmts = new Map<string, ReturnType<DatabaseSync['prepare']>>()
  const stmt = (sql: string): ReturnType<DatabaseSync['prepare']> => {
    let s = stmts.get(sql)
    if (!s) stmts.set(sql, (s = db.prepare(sql)))
    return s
  }
  for (const row of db.prepare(`SELECT ${RECORD_SELECT} FROM withdrawals w ORDER BY w.id`).all()) {
    const record = rowToRecord(row)
    appendAuditRow({ stmt }, at, {
      operator: SYSTEM_OPERATOR,
      action: 'record.state_baseline',
      subject: record.localId,
      details: { localState: record.localState, remoteStatus: record.remoteStatus },
      stateHash: recordStateHash(record),
    })
  }
}
