/**
 * The chain walk hashes the stored details text as it is (verify-chain.ts). A row whose text is not canonical
 * but whose content is what its hash covers still verifies (the full path), as it always did; a changed value
 * is still caught, whatever its form.
 */
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { openLedger } from '../../../../src/main/ledger/sqlite'
import { newWithdrawal, tempLedger, track } from './helpers'

function rewriteDetails(file: string, seq: number, text: string): void {
  const db = new DatabaseSync(file)
  for (const t of db
    .prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'audit_log'")
    .all())
    db.exec(`DROP TRIGGER "${String(t.name)}"`)
  db.prepare('UPDATE audit_log SET details = ? WHERE seq = ?').run(text, seq)
  db.close()
}

describe('chain walk over the stored details text', () => {
  it('a reordered but equal details text verifies; a changed value does not', () => {
    const { ledger, file } = tempLedger()
    const r = ledger.insertSubmitting(newWithdrawal(), 'ana')
    ledger.appendAudit({ operator: 'ana', action: 'note', details: { a: 1, b: { c: 2, d: 'x' } } })
    const seq = ledger.auditHead().seq
    ledger.close()
    rewriteDetails(file, seq, '{"b":{"d":"x","c":2},"a":1}')
    const reopened = track(openLedger(file))
    expect(reopened.verifyAuditChain()).toEqual({ ok: true, rows: seq })
    expect(reopened.get(r.localId)).toBeDefined()
    reopened.close()
    rewriteDetails(file, seq, '{"b":{"d":"x","c":3},"a":1}')
    const edited = track(openLedger(file))
    expect(edited.verifyAuditChain()).toMatchObject({ ok: false, brokenAt: seq })
  })
})
