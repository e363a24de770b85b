/**
 * Records' JSON columns are stored as canonical JSON (db.ts toRecordJson) so their state hash is written
 * natively; rows stored before that (members in the service's order) must verify the same, and an edit of a
 * value inside such a column must still be found.
 */
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { recordStateHash } from '../../../../src/main/ledger/model/state-hash'
import { newWithdrawal, tempLedger } from './helpers'

function sql(file: string, text: string, ...params: string[]): void {
  const db = new DatabaseSync(file)
  db.prepare(text).run(...params)
  db.close()
}

function column(file: string, name: string): string {
  const db = new DatabaseSync(file, { readOnly: true })
  const row = db.prepare(`SELECT ${name} AS v FROM withdrawals WHERE local_id = 'w1'`).get() as { v: string }
  db.close()
  return row.v
}

const BODY = { status: 'pending', id: 'wd-1', zeta: { b: 1, a: [{ y: 2, x: 1 }] }, 10: 'ten', 9: 'nine' }

function observed(): ReturnType<typeof tempLedger> {
  const t = tempLedger()
  t.ledger.insertSubmitting(newWithdrawal({ localId: 'w1' }), 'ana')
  t.ledger.markCreated('w1', {
    remoteId: 'wd-1',
    createResponse: { withdrawalId: 'wd-1', a: 1 },
    requestId: 'r1',
  })
  t.ledger.recordObservation('w1', { status: 'pending', body: BODY })
  return t
}

describe('records’ JSON columns', () => {
  it('are stored canonically (the request as sent), and read back as the same values', () => {
    const { ledger, file } = observed()
    expect(column(file, 'last_remote')).toBe(
      '{"10":"ten","9":"nine","id":"wd-1","status":"pending","zeta":{"a":[{"x":1,"y":2}],"b":1}}',
    )
    expect(column(file, 'create_response')).toBe('{"a":1,"withdrawalId":"wd-1"}')
    expect(column(file, 'request')).toBe(JSON.stringify(newWithdrawal({ localId: 'w1' }).request))
    expect(ledger.get('w1')?.lastRemote).toEqual(BODY)
    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: 3 })
  })

  it('a row stored in the older form (same values, service order, spaces) verifies the same', () => {
    const { ledger, file } = observed()
    const before = recordStateHash(ledger.get('w1')!)
    sql(
      file,
      "UPDATE withdrawals SET last_remote = ?, create_response = ? WHERE local_id = 'w1'",
      '{"status": "pending", "id": "wd-1", "zeta": {"b": 1, "a": [{"y": 2, "x": 1}]}, "9": "nine", "10": "ten"}',
      '{"withdrawalId":"wd-1","a":1}',
    )
    ledger.close()
    const again = tempLedger({ file })
    expect(recordStateHash(again.ledger.get('w1')!)).toBe(before)
    expect(again.ledger.verifyAuditChain()).toEqual({ ok: true, rows: 3 })
  })

  it('a value changed inside a stored column, in either form, is found', () => {
    for (const text of [
      '{"10":"ten","9":"nine","id":"wd-1","status":"sent","zeta":{"a":[{"x":1,"y":2}],"b":1}}',
      '{"status": "pending", "id": "wd-1", "zeta": {"b": 1, "a": [{"y": 2, "x": 3}]}, "9": "nine", "10": "ten"}',
    ]) {
      const { ledger, file } = observed()
      sql(file, "UPDATE withdrawals SET last_remote = ? WHERE local_id = 'w1'", text)
      ledger.close()
      const again = tempLedger({ file })
      expect(again.ledger.verifyAuditChain()).toMatchObject({ ok: false })
    }
  })
})
