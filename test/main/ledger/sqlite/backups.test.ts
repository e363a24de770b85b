import fs from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { BACKUPS_KEPT, LedgerError, openLedger } from '../../../../src/main/ledger/sqlite/index'
import { readIdentity } from '../../../../src/main/ledger/sqlite/identity'
import { migrate, schemaVersion } from '../../../../src/main/ledger/sqlite/migrations'
import { newWithdrawal, steppingClock, T0, tempDir, tempLedger, track } from './helpers'

const DAY = 24 * 3600_000

describe('ledger backups', () => {
  it('a backup is taken before a migration, of the file as it was', () => {
    const file = path.join(tempDir(), 'ledger.sqlite')
    const db = new DatabaseSync(file)
    migrate(db, 3)
    db.exec(
      `INSERT INTO audit_log (seq, at, operator, action, subject, details, prev_hash, hash)
       VALUES (1, '2025-01-01T00:00:00.000Z', 'ana', 'x', NULL, '{}', '${'0'.repeat(64)}', '${'1'.repeat(64)}')`,
    )
    db.close()
    const ledger = track(openLedger(file))
    const backups = ledger.backups()
    expect(backups).toHaveLength(1)
    expect(backups[0]).toMatchObject({ reason: 'migration' })
    const copy = new DatabaseSync(path.join(path.dirname(file), 'backups', backups[0]!.name), {
      readOnly: true,
    })
    expect(schemaVersion(copy)).toBe(3)
    copy.close()
  })

  it('a fresh ledger takes no migration backup', () => {
    expect(tempLedger().ledger.backups()).toEqual([])
  })

  it(`rotates: only the newest ${BACKUPS_KEPT} are kept`, () => {
    const { ledger } = tempLedger()
    const made: string[] = []
    for (let i = 0; i < 10; i++) made.push(ledger.backup('manual').name)
    const kept = ledger.backups().map((b) => b.name)
    expect(kept).toHaveLength(BACKUPS_KEPT)
    expect(kept).toEqual(made.slice(-BACKUPS_KEPT).reverse())
  })

  it('the daily backup is taken only when the newest is a day old', () => {
    const clock = steppingClock(T0, 1)
    const { ledger } = tempLedger({ now: clock.now })
    expect(ledger.backupIfDue(DAY)?.reason).toBe('daily')
    expect(ledger.backupIfDue(DAY)).toBeNull()
    clock.set(T0 + DAY + 1000)
    expect(ledger.backupIfDue(DAY)?.reason).toBe('daily')
    expect(ledger.backups()).toHaveLength(2)
  })

  it('restore: takes a backup of the current file first, puts the chosen one back, audits it', () => {
    const { ledger, file } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'kept' }), 'ana')
    const chosen = ledger.backup('manual').name
    ledger.insertSubmitting(newWithdrawal({ localId: 'later' }), 'ana')

    const r = ledger.restoreBackup(chosen, 'bia')
    expect(r.restored).toBe(chosen)
    expect(ledger.get('kept')).toBeDefined()
    expect(ledger.get('later')).toBeUndefined()
    expect(ledger.audit({ limit: 1 }).rows[0]).toMatchObject({
      action: 'ledger.restored',
      operator: 'bia',
      details: { backup: chosen, safetyBackup: r.safetyBackup, replacedHead: { seq: 2 } },
    })
    expect(ledger.verifyAuditChain().ok).toBe(true)

    // The safety backup holds what was replaced.
    const safety = new DatabaseSync(path.join(path.dirname(file), 'backups', r.safetyBackup), {
      readOnly: true,
    })
    expect(safety.prepare("SELECT count(*) AS n FROM withdrawals WHERE local_id = 'later'").get()?.n).toBe(1)
    safety.close()

    // The restored file is the expected ledger from now on: it reopens, and it still writes.
    expect(readIdentity(file)?.head).toEqual(ledger.auditHead())
    ledger.insertSubmitting(newWithdrawal({ localId: 'after' }), 'ana')
    ledger.close()
    const again = track(openLedger(file))
    expect(again.get('after')).toBeDefined()
  })

  it('restore refuses a name that is not one of the backups (no paths)', () => {
    const { ledger, file } = tempLedger()
    fs.writeFileSync(path.join(path.dirname(file), 'evil.sqlite'), 'x')
    for (const name of ['../evil.sqlite', 'ledger-20250101T000000000Z-manual.sqlite']) {
      expect(() => ledger.restoreBackup(name, 'ana')).toThrow(LedgerError)
    }
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })
})
