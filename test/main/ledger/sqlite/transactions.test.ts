import { spawnSync } from 'node:child_process'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { openLedger } from '../../../../src/main/ledger/sqlite/index'
import { businessError, newWithdrawal, tempDir, tempLedger, track } from './helpers'

/** Makes the next write to `table` fail inside SQLite, from a second connection, as a full disk or bug would. */
function sabotage(file: string, table: string, op: 'INSERT' | 'UPDATE'): () => void {
  const db = new DatabaseSync(file)
  db.exec(`CREATE TRIGGER sabotage BEFORE ${op} ON ${table} BEGIN SELECT RAISE(ABORT, 'sabotaged'); END`)
  return () => {
    db.exec('DROP TRIGGER sabotage')
    db.close()
  }
}

describe('transactions: a failing step leaves nothing half-written', () => {
  it('insertSubmitting: audit insert fails → no record either', () => {
    const { ledger, file } = tempLedger()
    const undo = sabotage(file, 'audit_log', 'INSERT')
    expect(() => ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')).toThrow(/sabotaged/)
    undo()
    expect(ledger.get('a')).toBeUndefined()
    expect(ledger.query().total).toBe(0)
    expect(ledger.auditHead()).toEqual({ seq: 0, hash: '0'.repeat(64) })
    // The ledger is still usable and the chain intact.
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: 1 })
  })

  it('markCreated: audit fails after the record and observation were written → all rolled back', () => {
    const { ledger, file } = tempLedger()
    const before = ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    const undo = sabotage(file, 'audit_log', 'INSERT')
    expect(() =>
      ledger.markCreated('a', {
        remoteId: 'wd',
        createResponse: { withdrawalId: 'wd' },
        requestId: 'r',
        status: 'unsent',
      }),
    ).toThrow(/sabotaged/)
    undo()
    expect(ledger.get('a')).toEqual(before)
    expect(ledger.observations('a')).toEqual([])
    expect(ledger.findByRemoteId('wd')).toBeUndefined()
    expect(ledger.query({ text: 'wd' }).total).toBe(0)
  })

  it('recordObservation: record update fails after the observation insert → observation rolled back', () => {
    const { ledger, file } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    ledger.markCreated('a', { remoteId: 'wd', createResponse: null, requestId: null })
    const undo = sabotage(file, 'withdrawals', 'UPDATE')
    expect(() => ledger.recordObservation('a', { status: 'sent', body: { status: 'sent' } })).toThrow(
      /sabotaged/,
    )
    undo()
    expect(ledger.observations('a')).toEqual([])
    expect(ledger.get('a')?.remoteStatus).toBeNull()
  })

  it('recoverInterrupted is all or nothing', () => {
    const { ledger, file } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    ledger.insertSubmitting(newWithdrawal({ localId: 'b' }), 'ana')
    const db = new DatabaseSync(file)
    // Fails on the second record only.
    db.exec(`CREATE TRIGGER sabotage BEFORE UPDATE ON withdrawals WHEN old.local_id = 'b'
             BEGIN SELECT RAISE(ABORT, 'sabotaged'); END`)
    expect(() => ledger.recoverInterrupted()).toThrow(/sabotaged/)
    db.exec('DROP TRIGGER sabotage')
    db.close()
    expect(ledger.get('a')?.localState).toBe('submitting')
    expect(ledger.audit().total).toBe(2)
    expect(ledger.recoverInterrupted()).toBe(2)
  })

  it('the database refuses what the code would never write (defence in depth)', () => {
    const { ledger, file } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    ledger.markRejected('a', businessError)
    const db = new DatabaseSync(file)
    expect(() => db.exec("UPDATE withdrawals SET local_state = 'created' WHERE local_id = 'a'")).toThrow(
      /CHECK/,
    )
    expect(() => db.exec("UPDATE withdrawals SET local_state = 'paid'")).toThrow(/CHECK/)
    expect(() => db.exec('DELETE FROM withdrawals')).toThrow(/never deleted/)
    expect(() => db.exec("UPDATE audit_log SET operator = 'x'")).toThrow(/append-only/)
    expect(() => db.exec('DELETE FROM audit_log')).toThrow(/append-only/)
    expect(() => db.exec('UPDATE audit_head SET seq = 0')).toThrow(/forward/)
    db.close()
  })
})

describe('durability', () => {
  it('a returned write is committed: another connection sees it before close, and it survives reopen', () => {
    const { ledger, file } = tempLedger()
    const rec = ledger.insertSubmitting(newWithdrawal({ localId: 'a' }), 'ana')
    const other = new DatabaseSync(file, { readOnly: true })
    expect(other.prepare("SELECT local_state FROM withdrawals WHERE local_id = 'a'").get()).toEqual({
      local_state: 'submitting',
    })
    other.close()
    ledger.markCreated('a', {
      remoteId: 'wd',
      createResponse: { withdrawalId: 'wd' },
      requestId: 'r',
      status: 'unsent',
    })
    ledger.recordObservation('a', { status: 'sent', body: { status: 'sent', receiverName: 'Maria' } })
    const snapshot = { rec: ledger.get('a'), obs: ledger.observations('a'), audit: ledger.audit() }
    ledger.close()
    const again = track(openLedger(file))
    expect(again.get('a')).toEqual(snapshot.rec)
    expect(again.observations('a')).toEqual(snapshot.obs)
    expect(again.audit()).toEqual(snapshot.audit)
    // submitting, created, observed (the status changed the record)
    expect(again.verifyAuditChain()).toEqual({ ok: true, rows: 3 })
    expect(rec.localId).toBe('a')
  })

  it('the file is in WAL mode (synchronous is per connection and set by openDb)', () => {
    const { file } = tempLedger()
    const db = new DatabaseSync(file)
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    db.close()
  })

  it('a process killed right after insertSubmitting leaves the record, which recovery marks outcome_unknown', () => {
    const file = path.join(tempDir(), 'ledger.sqlite')
    const child = spawnSync(
      process.execPath,
      ['--no-warnings', '--import', 'tsx', path.join(__dirname, 'fixtures', 'crash-writer.ts'), file],
      { encoding: 'utf8', timeout: 20_000 },
    )
    expect(child.signal).toBe('SIGKILL')
    const localId = child.stdout.trim()
    expect(localId).toMatch(/^[0-9a-f-]{36}$/)
    const ledger = track(openLedger(file))
    expect(ledger.get(localId)?.localState).toBe('submitting')
    expect(ledger.recoverInterrupted()).toBe(1)
    expect(ledger.get(localId)).toMatchObject({ localState: 'outcome_unknown', pixKey: 'crash@example.com' })
    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: 2 })
  })

  it('close is idempotent and later calls fail clearly', () => {
    const { ledger } = tempLedger()
    ledger.close()
    ledger.close()
    expect(() => ledger.get('x')).toThrow(/closed/)
  })
})
