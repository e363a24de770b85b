/** src/main/ledger/sqlite/import.ts (added for the review mode and for seeding): bulk import into a ledger file. */
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { importRecords } from '../../../src/main/ledger/sqlite/import'
import { LedgerError, openLedger } from '../../../src/main/ledger/sqlite/index'
import { makeRecords, tempDir } from './fixtures'
import { track } from './helpers'

describe('importRecords', () => {
  it('inserts every record as given, searchable, with one audit row', () => {
    const file = path.join(tempDir(), 'l.sqlite')
    const recs = [...makeRecords(200)]
    expect(importRecords(file, recs, { operator: 'ana', details: { source: 'test' }, now: () => 0 })).toBe(
      200,
    )
    const ledger = track(openLedger(file))
    expect(ledger.get(recs[17]!.localId)).toEqual(recs[17])
    expect(ledger.query({ limit: 1000 }).total).toBe(200)
    // The full-text index was built after the bulk insert, and its trigger is back for later writes.
    const name = recs.find((r) => r.receiverName !== null)!.receiverName!
    const hits = ledger.query({ text: name.slice(1, 6), limit: 1000 }).rows
    expect(hits.length).toBe(recs.filter((r) => r.receiverName?.includes(name.slice(1, 6))).length)
    const created = ledger.insertSubmitting(
      {
        profile: 'producao',
        pixKey: 'novissima.chave@example.com',
        amountKind: 'payout',
        amountCents: 500,
        request: { pixKey: 'novissima.chave@example.com', payoutAmountInCents: 500 },
      },
      'ana',
    )
    expect(ledger.query({ text: 'novissima' }).rows.map((r) => r.localId)).toEqual([created.localId])
    expect(ledger.audit({ limit: 3 }).rows.map((r) => r.action)).toEqual([
      'withdrawal.submitting',
      'records.imported',
      'withdrawal.imported',
    ])
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })

  it('into a ledger that has records: row-by-row index, same result', () => {
    const file = path.join(tempDir(), 'l.sqlite')
    const recs = [...makeRecords(40)]
    importRecords(file, recs.slice(0, 20))
    importRecords(file, recs.slice(20))
    const ledger = track(openLedger(file))
    expect([...ledger.iterate({ sort: { field: 'createdAt', dir: 'asc' } })]).toEqual(recs)
    expect(ledger.query({ text: recs[35]!.localId }).rows.map((r) => r.localId)).toEqual([recs[35]!.localId])
  })

  it('all or nothing: a duplicate or an invalid record aborts the import', () => {
    const file = path.join(tempDir(), 'l.sqlite')
    const recs = [...makeRecords(10)]
    expect(() => importRecords(file, [...recs, recs[3]!])).toThrow(LedgerError)
    expect(() => importRecords(file, [recs[0]!, { ...recs[1]!, amountCents: 1.5 }])).toThrow(/record #2/)
    const ledger = track(openLedger(file))
    expect(ledger.query({}).total).toBe(0)
    expect(ledger.audit().total).toBe(0)
    // The deferred full-text trigger was restored by the rollback.
    ledger.close()
    importRecords(file, recs)
    const again = track(openLedger(file))
    expect(again.query({ text: recs[4]!.localId }).total).toBe(1)
  })

  it('the indexes deferred to the end of an import into an empty table are all back, after a failure too', () => {
    const file = path.join(tempDir(), 'l.sqlite')
    const indexes = (): string[] => {
      const db = new DatabaseSync(file, { readOnly: true })
      try {
        return db
          .prepare(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'withdrawals' ORDER BY name",
          )
          .all()
          .map((r) => String(r.name))
      } finally {
        db.close()
      }
    }
    importRecords(file, [])
    const before = indexes()
    expect(before.length).toBeGreaterThan(5)
    const recs = [...makeRecords(30)]
    expect(() => importRecords(file, [...recs, recs[0]!], { scratch: true })).toThrow(LedgerError)
    expect(indexes()).toEqual(before)
    importRecords(file, recs, { scratch: true })
    expect(indexes()).toEqual(before)
    const ledger = track(openLedger(file))
    expect(ledger.query({ limit: 100 }).total).toBe(30)
    expect(ledger.verifyAuditChain().ok).toBe(true)
  })
})
