/**
 * Migration 8 (issue #17, deposits): runs in order between 7 and 9; and a ledger that a build of main with the
 * no-op placeholder for 8 took to version 9 gets the deposit tables on its next open, its records and chain intact.
 */
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { openLedger } from '../../../../src/main/ledger/sqlite/index'
import { LATEST_VERSION, MIGRATIONS, migrate } from '../../../../src/main/ledger/sqlite/migrations'
import { tempDir, track } from './helpers'

const hasDeposits = (db: DatabaseSync): boolean =>
  db.prepare("SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'deposits'").get() !==
  undefined

describe('migration 8: deposits', () => {
  it('keeps the order 6, 7, 8, 9, 10 and creates the deposit tables', () => {
    expect(MIGRATIONS.filter((m) => m.version >= 6).map((m) => m.version)).toEqual([6, 7, 8, 9, 10])
    const db = new DatabaseSync(path.join(tempDir(), 'fresh.sqlite'))
    expect(migrate(db)).toBe(LATEST_VERSION)
    expect(hasDeposits(db)).toBe(true)
    db.close()
  })

  it('a ledger migrated with the placeholder 8 gets the deposit tables on open; nothing else changes', () => {
    const file = path.join(tempDir(), 'placeholder.sqlite')
    const db = new DatabaseSync(file)
    const placeholder = MIGRATIONS.map((m) => (m.version === 8 ? { ...m, up: () => undefined } : m))
    expect(migrate(db, LATEST_VERSION, placeholder)).toBe(LATEST_VERSION)
    expect(hasDeposits(db)).toBe(false)
    db.close()

    const ledger = track(openLedger(file))
    expect(ledger.schemaVersion).toBe(LATEST_VERSION)
    const r = ledger.deposits.insertSubmitting(
      { profile: 'sandbox', request: { amountInCents: 1000, depixAddress: 'lq1x' } },
      'ana',
    )
    expect(ledger.deposits.get(r.localId)?.localState).toBe('submitting')
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })

  it('healing runs once: a second open of a healed file changes nothing', () => {
    const file = path.join(tempDir(), 'twice.sqlite')
    const db = new DatabaseSync(file)
    migrate(
      db,
      LATEST_VERSION,
      MIGRATIONS.map((m) => (m.version === 8 ? { ...m, up: () => undefined } : m)),
    )
    db.close()
    track(openLedger(file)).close()
    const again = new DatabaseSync(file)
    expect(hasDeposits(again)).toBe(true)
    expect(migrate(again)).toBe(LATEST_VERSION)
    again.close()
  })
})
