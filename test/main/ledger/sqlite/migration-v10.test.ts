/** Migration 10 (issue #25): a ledger made by migration 9 keeps its runs and takes the `partially_paid` state. */
import { DatabaseSync } from 'node:sqlite'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { migrate } from '../../../../src/main/ledger/sqlite/migrations'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

describe('migration 10: partially paid', () => {
  it('widens the runs state CHECK in place; existing runs, rows and the schema stay sound', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mig10-'))
    dirs.push(dir)
    const db = new DatabaseSync(path.join(dir, 'l.sqlite'))
    db.exec('PRAGMA foreign_keys = ON')
    expect(migrate(db, 9)).toBe(9)
    db.exec(`INSERT INTO runs (run_id, profile, operator, name, created_at, updated_at, state, row_count)
             VALUES ('run-a', 'p', 'ana', 'x', 't', 't', 'completed', 1)`)
    db.exec(
      `INSERT INTO run_rows (run_id, idx, line, draft, payee, state) VALUES ('run-a', 0, 2, '{}', '{}', 'pending')`,
    )
    expect(() => db.exec(`UPDATE runs SET state = 'partially_paid'`)).toThrow(/CHECK/)
    expect(migrate(db)).toBeGreaterThanOrEqual(10)
    db.exec(`UPDATE runs SET state = 'partially_paid'`)
    expect(() => db.exec(`UPDATE runs SET state = 'nonsense'`)).toThrow(/CHECK/)
    expect(db.prepare('SELECT state FROM runs').get()?.state).toBe('partially_paid')
    expect(db.prepare('PRAGMA integrity_check').get()?.integrity_check).toBe('ok')
    expect(db.prepare('PRAGMA foreign_key_check').all()).toEqual([])
    // The run's rows still reference it, and it still cannot be deleted.
    expect(() => db.exec(`DELETE FROM runs`)).toThrow()
    db.close()
  })
})
