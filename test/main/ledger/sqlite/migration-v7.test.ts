/**
 * Migration 7 (issue #14): runs forward on a ledger with records written before it, leaves every record and
 * audit entry as they were (the chain still verifies), and its tables keep their own rules.
 */
import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { openLedger } from '../../../../src/main/ledger/sqlite/index'
import { LATEST_VERSION, migrate } from '../../../../src/main/ledger/sqlite/migrations'
import { tempDir, track } from './helpers'

function oldLedgerWithRecords(): string {
  const file = path.join(tempDir(), 'old.sqlite')
  const db = new DatabaseSync(file)
  migrate(db, 4)
  const insert = db.prepare(`INSERT INTO withdrawals (local_id, profile, operator, created_at, updated_at,
    local_state, request, pix_key, amount_kind, amount_cents, remote_id, remote_status, last_remote, flags, is_open)
    VALUES (?, 'sandbox', 'ana', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'created', '{}',
    'k@example.com', 'payout', 1000, ?, 'sent', ?, '[]', 0)`)
  insert.run('a', 'wd-1', '{"status":"sent","receiptUrl":"https://r.example/1"}')
  insert.run('b', 'wd-2', '{"status":"sent"}')
  db.close()
  return file
}

describe('migration 7: receipts and sent notifications', () => {
  it('runs forward on an older ledger with records; the audit chain verifies before and after receipt writes', () => {
    const file = oldLedgerWithRecords()
    const ledger = track(openLedger(file))
    expect(ledger.schemaVersion).toBe(LATEST_VERSION)
    expect(ledger.verifyAuditChain().ok).toBe(true)
    expect(ledger.get('a')?.lastRemote?.['receiptUrl']).toBe('https://r.example/1')
    expect(ledger.receipts.get('a')).toBeNull()

    expect(ledger.receipts.track('a', 'https://r.example/1', '2025-01-02T00:00:00.000Z')).toBe(true)
    expect(ledger.receipts.track('a', 'https://r.example/other', '2025-01-02T00:00:00.000Z')).toBe(false)
    ledger.receipts.stored('a', {
      sha256: 'ab'.repeat(32),
      size: 10,
      mediaType: 'text/html',
      fetchedAt: '2025-01-02T00:00:01.000Z',
    })
    expect(ledger.receipts.get('a')).toMatchObject({
      state: 'stored',
      url: 'https://r.example/1',
      attempts: 1,
    })
    expect(ledger.verifyAuditChain().ok).toBe(true)
    expect(ledger.receipts.claimNotification('paid:a', '2025-01-02T00:00:00.000Z')).toBe(true)
    expect(ledger.receipts.claimNotification('paid:a', '2025-01-02T00:00:00.000Z')).toBe(false)
  })

  it('the tables refuse what they must: unknown records, a stored row without its hash, bad hashes and types', () => {
    const file = oldLedgerWithRecords()
    track(openLedger(file)).close()
    const db = new DatabaseSync(file)
    db.exec('PRAGMA foreign_keys = ON')
    const ins = (sql: string) => () => db.exec(sql)
    expect(
      ins(`INSERT INTO receipts (local_id, url, state, first_seen_at) VALUES ('nope', 'u', 'pending', 't')`),
    ).toThrow(/FOREIGN KEY/)
    expect(
      ins(`INSERT INTO receipts (local_id, url, state, first_seen_at) VALUES ('a', 'u', 'stored', 't')`),
    ).toThrow(/CHECK/)
    expect(
      ins(
        `INSERT INTO receipts (local_id, url, state, first_seen_at, sha256) VALUES ('a', 'u', 'pending', 't', 'XYZ')`,
      ),
    ).toThrow(/CHECK/)
    expect(
      ins(
        `INSERT INTO receipts (local_id, url, state, first_seen_at, media_type) VALUES ('a', 'u', 'pending', 't', 'image/png')`,
      ),
    ).toThrow(/CHECK/)
    db.close()
  })
})
