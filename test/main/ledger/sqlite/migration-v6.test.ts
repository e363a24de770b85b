/**
 * Migration 6 on a ledger the shipped code wrote. test/fixtures/ledger-v5/ holds a ledger file (and its identity
 * file) made by the ledger code of main before this migration existed (generate.ts, run against that tree): a paid
 * payment with a reported receiver, a refund, a rejection, an unknown outcome resolved, one awaiting its deposit,
 * and an app-wide entry. A copy is opened with the current code.
 */
import { copyFileSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import type { WithdrawalRecord } from '../../../../src/shared/withdrawal-record'
import { openLedger } from '../../../../src/main/ledger/sqlite/index'
import { recordStateHash } from '../../../../src/main/ledger/model/state-hash'
import { LATEST_VERSION } from '../../../../src/main/ledger/sqlite/migrations'
import { createPayeeBook } from '../../../../src/main/payees'
import { tempDir, track } from './helpers'

const FIXTURE = path.resolve(__dirname, '../../../fixtures/ledger-v5')
const made = JSON.parse(readFileSync(path.join(FIXTURE, 'records.json'), 'utf8')) as {
  head: { seq: number; hash: string }
  records: WithdrawalRecord[]
}

function copyOfFixture(): string {
  const dir = tempDir()
  const file = path.join(dir, 'ledger.sqlite')
  copyFileSync(path.join(FIXTURE, 'ledger.sqlite'), file)
  copyFileSync(path.join(FIXTURE, 'ledger.sqlite.identity.json'), `${file}.identity.json`)
  return file
}

describe('migration 6 on a ledger made by the code before it', () => {
  it('the fixture really is a version 5 file with data', () => {
    // On a copy: even a read-only open of a WAL file leaves -wal/-shm files beside it.
    const db = new DatabaseSync(copyOfFixture(), { readOnly: true })
    expect(Number(db.prepare('PRAGMA user_version').get()?.user_version)).toBe(5)
    expect(Number(db.prepare('SELECT count(*) AS n FROM withdrawals').get()?.n)).toBe(5)
    db.close()
    expect(made.records).toHaveLength(5)
  })

  it('upgrades: same records, same state hashes, the chain still verifies, a backup was taken first', () => {
    const file = copyOfFixture()
    const ledger = track(openLedger(file))
    expect(ledger.schemaVersion).toBe(LATEST_VERSION)
    expect(LATEST_VERSION).toBeGreaterThanOrEqual(6)

    const records = ledger.query({ limit: 100, sort: { field: 'createdAt', dir: 'asc' } }).rows
    // Exactly what the old code read: no new member appears on an old record, so nothing re-hashes.
    expect(records).toStrictEqual(made.records)
    for (const r of records)
      expect(recordStateHash(r)).toBe(recordStateHash(made.records.find((m) => m.localId === r.localId)!))

    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: made.head.seq })
    expect(ledger.auditHead()).toEqual(made.head)
    expect(ledger.backups().map((b) => b.reason)).toContain('migration')
  })

  it('the old records are still found, listed and flagged as before; new tables and columns work', () => {
    const file = copyOfFixture()
    const ledger = track(openLedger(file))
    expect(ledger.query({ text: 'maria da silva' }).rows.map((r) => r.remoteId)).toEqual(['wd-paid'])
    expect(ledger.query({ text: 'wd-ref' }).rows).toHaveLength(1)

    // A payee and a payment with references on the upgraded file: the chain covers both.
    const book = createPayeeBook(ledger)
    const payee = book.create(
      {
        name: 'Fornecedora Exemplo Ltda',
        taxNumber: '11.222.333/0001-81',
        pixKeys: [{ key: 'pagar@fornecedora.example' }],
      },
      'ana',
    )
    const rec = ledger.insertSubmitting(
      {
        profile: 'sandbox',
        request: {
          pixKey: 'pagar@fornecedora.example',
          taxNumber: '11222333000181',
          payoutAmountInCents: 5000,
        },
        pixKey: 'pagar@fornecedora.example',
        amountKind: 'payout',
        amountCents: 5000,
        references: { invoice: 'NF 4471', costCentre: 'ADM-01' },
        expectedPayee: { id: payee.id, name: payee.name, taxNumber: payee.taxNumber },
      },
      'ana',
    )
    expect(ledger.get(rec.localId)?.references).toEqual({ invoice: 'NF 4471', costCentre: 'ADM-01' })
    expect(ledger.query({ text: 'nf 4471' }).rows.map((r) => r.localId)).toEqual([rec.localId])
    expect(ledger.verifyAuditChain().ok).toBe(true)
    ledger.close()

    // Reopened (identity, head and record count follow the new writes): still version 6, still verifying.
    const again = track(openLedger(file))
    expect(again.verifyAuditChain().ok).toBe(true)
    expect(again.get(rec.localId)?.expectedPayee?.name).toBe('Fornecedora Exemplo Ltda')
  })

  it('an edit of a new column outside the app is caught by the chain (references are covered by the state hash)', () => {
    const file = copyOfFixture()
    const ledger = track(openLedger(file))
    const rec = ledger.insertSubmitting(
      {
        profile: 'sandbox',
        request: { pixKey: 'x@example.com', taxNumber: '52998224725', payoutAmountInCents: 700 },
        pixKey: 'x@example.com',
        amountKind: 'payout',
        amountCents: 700,
        references: { invoice: 'NF 1' },
      },
      'ana',
    )
    ledger.close()
    const db = new DatabaseSync(file)
    db.prepare("UPDATE withdrawals SET reference_invoice = 'NF 2' WHERE local_id = ?").run(rec.localId)
    db.close()
    const reopened = track(openLedger(file))
    const v = reopened.verifyAuditChain()
    expect(v.ok).toBe(false)
    expect(v.ok ? '' : v.reason).toContain(rec.localId)
  })
})
