import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { recordStateHash } from '../../../../src/main/ledger/model/state-hash'
import { newWithdrawal, tempLedger } from './helpers'

function sql(file: string, text: string): void {
  const db = new DatabaseSync(file)
  db.exec(text)
  db.close()
}

function createdWithdrawal(): ReturnType<typeof tempLedger> {
  const t = tempLedger()
  const rec = t.ledger.insertSubmitting(newWithdrawal({ localId: 'w1' }), 'ana')
  t.ledger.markCreated(rec.localId, { remoteId: 'wd-1', createResponse: { id: 'wd-1' }, requestId: 'r1' })
  t.ledger.recordObservation('w1', { status: 'pending', body: { status: 'pending' } })
  return t
}

describe('audit entries carry the state of the record they produced', () => {
  it('every record write leaves an entry whose state hash is the record as stored', () => {
    const { ledger } = createdWithdrawal()
    const latest = ledger.audit({ subject: 'w1', limit: 1 }).rows[0]
    expect(latest).toMatchObject({ action: 'withdrawal.observed' })
    expect(latest?.stateHash).toBe(recordStateHash(ledger.get('w1')!))
    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: 3 })
  })

  it('a poll that only repeats the last answer writes no entry and still verifies', () => {
    const { ledger } = createdWithdrawal()
    ledger.recordObservation('w1', { status: 'pending', body: { status: 'pending' } })
    expect(ledger.audit().total).toBe(3)
    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: 3 })
  })

  it("a plain-SQL edit of a withdrawal row's Pix key and amount is detected", () => {
    const { ledger, file } = createdWithdrawal()
    sql(
      file,
      "UPDATE withdrawals SET pix_key = 'mallory@example.com', amount_cents = 999999 WHERE local_id = 'w1'",
    )
    expect(ledger.get('w1')?.pixKey).toBe('mallory@example.com')
    expect(ledger.verifyAuditChain()).toMatchObject({
      ok: false,
      brokenAt: 3,
      reason: expect.stringMatching(/record w1 differs/),
    })
  })

  it('a record row inserted with plain SQL (no entry at all) is detected', () => {
    const { ledger, file } = createdWithdrawal()
    sql(
      file,
      `INSERT INTO withdrawals (local_id, profile, operator, created_at, updated_at, local_state, request, pix_key,
         amount_kind, amount_cents) SELECT 'forged', profile, operator, created_at, updated_at, 'rejected', request,
         pix_key, amount_kind, amount_cents FROM withdrawals WHERE local_id = 'w1'`,
    )
    expect(ledger.verifyAuditChain()).toMatchObject({
      ok: false,
      reason: expect.stringMatching(/forged has no audit/),
    })
  })

  it('forging the matching state hash into the last entry breaks that entry’s own hash', () => {
    const { ledger, file } = createdWithdrawal()
    const tampered = { ...ledger.get('w1')!, pixKey: 'mallory@example.com' }
    sql(
      file,
      `DROP TRIGGER audit_log_no_update;
       UPDATE withdrawals SET pix_key = 'mallory@example.com' WHERE local_id = 'w1';
       UPDATE audit_log SET state_hash = '${recordStateHash(tampered)}' WHERE seq = 3;`,
    )
    expect(ledger.verifyAuditChain()).toMatchObject({
      ok: false,
      brokenAt: 3,
      reason: expect.stringMatching(/hash does not match/),
    })
  })
})

describe('a write never launders an edit made outside the app', () => {
  it('the next write to a tampered record is refused (record_tampered), the chain still reports it', () => {
    const { ledger, file } = createdWithdrawal()
    sql(file, "UPDATE withdrawals SET pix_key = 'mallory@example.com' WHERE local_id = 'w1'")
    expect(() => ledger.markFunded('w1', { txId: 'tx1' }, 'ana')).toThrow(
      expect.objectContaining({ code: 'record_tampered', userMessage: expect.anything() }),
    )
    expect(() => ledger.recordObservation('w1', { status: 'sent', body: { status: 'sent' } })).toThrow(
      /differs/,
    )
    expect(ledger.verifyAuditChain()).toMatchObject({ ok: false, reason: expect.stringMatching(/record w1/) })
  })
})
