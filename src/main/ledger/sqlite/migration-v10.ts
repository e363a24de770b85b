/**
 * Migration 10: a run may end "partially paid" (issue #25). The only change is the CHECK of `runs.state`, which
 * SQLite cannot alter; the stored rows are all valid under the wider CHECK, so the table's text is rewritten in
 * place (SQLite's documented procedure for such a change: writable_schema, then a new schema_version, inside the
 * migration's transaction) instead of rebuilding `runs`, which run_rows and run_waves reference.
 */
import type { DatabaseSync } from 'node:sqlite'

const OLD = `('draft', 'approved', 'creating', 'awaiting_funding', 'paused', 'completed', 'cancelled')`
const NEW = `('draft', 'approved', 'creating', 'awaiting_funding', 'paused', 'completed', 'cancelled', 'partially_paid')`

export function v10PartiallyPaid(db: DatabaseSync): void {
  const table = db.prepare(`SELECT sql FROM sqlite_schema WHERE type = 'table' AND name = 'runs'`).get()
  const sql = typeof table?.sql === 'string' ? table.sql : ''
  if (!sql.includes(OLD)) throw new Error('migration 10: the runs table is not the one migration 9 made')
  const version = Number(db.prepare('PRAGMA schema_version').get()?.schema_version)
  db.exec('PRAGMA writable_schema = ON')
  try {
    db.prepare(`UPDATE sqlite_schema SET sql = ? WHERE type = 'table' AND name = 'runs'`).run(
      sql.replace(OLD, NEW),
    )
    db.exec(`PRAGMA schema_version = ${version + 1}`)
  } finally {
    db.exec('PRAGMA writable_schema = OFF')
  }
  const check = db.prepare('PRAGMA integrity_check').get()
  if (check?.integrity_check !== 'ok') throw new Error('migration 10: integrity check failed')
}
