/**
 * Audit rows with the members rowToEntry reads (the chain walk, an export's audit member). Read as arrays where
 * node:sqlite can (Node ≥ 22.16): for the 200k rows of a start-up check or an export, an object built here costs
 * far less than one node:sqlite builds with a named member per column.
 */
import type { SQLInputValue, SQLOutputValue, StatementSync } from 'node:sqlite'
import type { rowToEntry } from './audit'

export type AuditRow = Parameters<typeof rowToEntry>[0]

export const AUDIT_ROW_COLUMNS = 'seq, at, operator, action, subject, details, prev_hash, hash, state_hash'

/** The rows of `SELECT AUDIT_ROW_COLUMNS FROM audit_log <where>`. */
export function* auditRows(
  db: { fresh(sql: string): StatementSync },
  where: string,
  ...params: SQLInputValue[]
): Generator<AuditRow> {
  const stmt = db.fresh(`SELECT ${AUDIT_ROW_COLUMNS} FROM audit_log ${where}`)
  if (typeof stmt.setReturnArrays !== 'function') {
    yield* stmt.iterate(...params)
    return
  }
  stmt.setReturnArrays(true)
  for (const a of stmt.iterate(...params) as unknown as Iterable<SQLOutputValue[]>) {
    yield {
      seq: a[0] as SQLOutputValue,
      at: a[1] as SQLOutputValue,
      operator: a[2] as SQLOutputValue,
      action: a[3] as SQLOutputValue,
      subject: a[4] as SQLOutputValue,
      details: a[5] as SQLOutputValue,
      prev_hash: a[6] as SQLOutputValue,
      hash: a[7] as SQLOutputValue,
      state_hash: a[8] as SQLOutputValue,
    }
  }
}
