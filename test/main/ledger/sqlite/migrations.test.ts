import path from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { auditHash, LedgerError, openLedger } from '../../../../src/main/ledger/sqlite/index'
import { openDb } from '../../../../src/main/ledger/sqlite/db'
import {
  LATEST_VERSION,
  migrate,
  MIGRATIONS,
  schemaVersion,
  type Migration,
} from '../../../../src/main/ledger/sqlite/migrations'
import { tempDir, track } from './helpers'

const ZEROS = '0'.repeat(64)

/** A ledger file as version 1 of the app left it: only migration 1, data written with v1's columns. */
function makeV1File(): string {
  const file = path.join(tempDir(), 'v1.sqlite')
  const db = new DatabaseSync(file)
  expect(migrate(db, 1)).toBe(1)
  const insert =
    db.prepare(`INSERT INTO withdrawals (local_id, profile, operator, created_at, updated_at, local_state,
    request, pix_key, amount_kind, amount_cents, create_response, remote_id, remote_status, remote_status_at,
    last_remote, deposit_address, payout_amount_cents, refund, receiver_name, error, request_id, flags)
    VALUES (?, 'production', 'ana', ?, ?, ?, ?, ?, 'payout', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
  const t1 = '2024-05-01T10:00:00.000Z'
  const t2 = '2024-05-02T10:00:00.000Z'
  insert.run(
    'v1-open',
    t1,
    t1,
    'created',
    '{"pixKey":"12345678909","payoutAmountInCents":5000}',
    '12345678909',
    5000,
    '{"withdrawalId":"wd-open"}',
    'wd-open',
    'Sending',
    t1,
    '{"status":"Sending","extra":true}',
    'lq1qqdep',
    5000,
    null,
    'José Conceição',
    null,
    'req-1',
    '[]',
  )
  insert.run(
    'v1-refunded',
    t2,
    t2,
    'created',
    '{"pixKey":"joao@example.com","payoutAmountInCents":700}',
    'joao@example.com',
    700,
    '{"withdrawalId":"wd-ref"}',
    'wd-ref',
    'error',
    t2,
    '{"status":"error","refund":{"txId":"tx","reason":"invalid_pix_key"}}',
    'lq1qqdep2',
    700,
    '{"txId":"tx","reason":"invalid_pix_key"}',
    null,
    null,
    'req-2',
    '["deposit_address_invalid"]',
  )
  insert.run(
    'v1-rejected',
    t2,
    t2,
    'rejected',
    '{"pixKey":"+5511999998888","payoutAmountInCents":100}',
    '+5511999998888',
    100,
    null,
    null,
    null,
    null,
    null,
    null,
    100,
    null,
    null,
    '{"kind":"business","status":520,"messageCode":"INVALID_PARAMETER","denialCode":null,"requestId":"req-3"}',
    'req-3',
    '[]',
  )
  insert.run(
    'v1-submitting',
    t2,
    t2,
    'submitting',
    '{"pixKey":"x@y.com","payoutAmountInCents":300}',
    'x@y.com',
    300,
    null,
    null,
    null,
    null,
    null,
    null,
    300,
    null,
    null,
    null,
    null,
    '[]',
  )
  db.prepare(
    `INSERT INTO observations (local_id, observed_at, remote_status, body, request_id, nonce, applied)
    VALUES ('v1-open', ?, 'Sending', '{"status":"Sending","extra":true}', 'req-o', 'nonce-o', 1)`,
  ).run(t1)
  let prev = ZEROS
  for (let seq = 1; seq <= 3; seq++) {
    const e = {
      seq,
      at: t1,
      operator: 'ana',
      action: 'withdrawal.submitting',
      subject: `s${seq}`,
      details: { seq },
      prevHash: prev,
    }
    const hash = auditHash(e)
    db.prepare('INSERT INTO audit_log VALUES (?, ?, ?, ?, ?, ?, ?, ?)').run(
      seq,
      t1,
      'ana',
      e.action,
      e.subject,
      `{"seq":${seq}}`,
      prev,
      hash,
    )
    prev = hash
  }
  db.close()
  return file
}

describe('migrations', () => {
  it('are numbered from 1 in increasing order, the latest being the last', () => {
    // Numbers are handed out per change: a branch may carry 8 before 6 and 7 land (they fill the gap at merge).
    const versions = MIGRATIONS.map((m) => m.version)
    expect(versions[0]).toBe(1)
    expect(versions.every((v, i) => i === 0 || v > (versions[i - 1] as number))).toBe(true)
    expect(LATEST_VERSION).toBe(versions.at(-1))
  })

  it('migration 4 re-opens records whose terminal-looking status can still change (expired → refund)', () => {
    const file = path.join(tempDir(), 'v3.sqlite')
    const db = new DatabaseSync(file)
    migrate(db, 3)
    const insert = db.prepare(`INSERT INTO withdrawals (local_id, profile, operator, created_at, updated_at,
      local_state, request, pix_key, amount_kind, amount_cents, remote_id, remote_status, refund, flags, is_open)
      VALUES (?, 'sandbox', 'ana', '2025-01-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', 'created', '{}',
      'k@example.com', 'payout', 1000, ?, ?, ?, '[]', 0)`)
    insert.run('expired', 'wd-1', 'expired', null)
    insert.run('cancelled', 'wd-2', 'Canceled', null)
    insert.run('refunded-no-object', 'wd-3', 'refunded', null)
    insert.run('refunded', 'wd-4', 'refunded', '{"txId":"tx"}')
    insert.run('sent', 'wd-5', 'sent', null)
    db.close()
    const ledger = track(openLedger(file))
    expect(
      ledger
        .listOpen()
        .map((r) => r.localId)
        .sort(),
    ).toEqual(['cancelled', 'expired', 'refunded-no-object'])
  })

  it('a fresh file is created at the latest version; reopening runs nothing', () => {
    const file = path.join(tempDir(), 'fresh.sqlite')
    const l = track(openLedger(file))
    expect(l.schemaVersion).toBe(LATEST_VERSION)
    l.close()
    expect(track(openLedger(file)).schemaVersion).toBe(LATEST_VERSION)
  })

  it('upgrade a v1 file with data: everything intact, derived columns, search and audit head backfilled', () => {
    const file = makeV1File()
    const before = new DatabaseSync(file)
    const rawBefore = before.prepare('SELECT * FROM withdrawals ORDER BY id').all()
    const obsBefore = before.prepare('SELECT * FROM observations').all()
    before.close()

    const ledger = track(openLedger(file))
    expect(ledger.schemaVersion).toBe(LATEST_VERSION)

    // Raw data untouched by the upgrade.
    const after = new DatabaseSync(file, { readOnly: true })
    const rawAfter = after.prepare('SELECT * FROM withdrawals ORDER BY id').all()
    expect(rawAfter.map((r) => Object.fromEntries(Object.keys(rawBefore[0]!).map((k) => [k, r[k]])))).toEqual(
      rawBefore,
    )
    expect(after.prepare('SELECT * FROM observations').all()).toEqual(obsBefore)
    after.close()

    expect(ledger.get('v1-open')).toMatchObject({
      localState: 'created',
      remoteId: 'wd-open',
      remoteStatus: 'Sending',
      lastRemote: { status: 'Sending', extra: true },
      receiverName: 'José Conceição',
      request: { pixKey: '12345678909', payoutAmountInCents: 5000 },
    })
    expect(ledger.get('v1-refunded')).toMatchObject({
      refund: { txId: 'tx' },
      flags: ['deposit_address_invalid'],
    })
    expect(ledger.get('v1-rejected')?.error).toMatchObject({ messageCode: 'INVALID_PARAMETER' })
    expect(ledger.observations('v1-open')).toMatchObject([
      { remoteStatus: 'Sending', nonce: 'nonce-o', applied: true },
    ])

    // Backfilled listing columns: open list, status filter (normalised), text search, totals.
    expect(ledger.listOpen().map((r) => r.localId)).toEqual(['v1-open'])
    expect(ledger.query({ statuses: ['sending'] }).rows.map((r) => r.localId)).toEqual(['v1-open'])
    expect(ledger.query({ text: 'conceicao' }).rows.map((r) => r.localId)).toEqual(['v1-open'])
    expect(ledger.query({ text: 'wd-ref' }).rows.map((r) => r.localId)).toEqual(['v1-refunded'])
    expect(ledger.query({ text: '99999-8888' }).rows.map((r) => r.localId)).toEqual(['v1-rejected'])
    expect(ledger.totalsByStatus().find((t) => t.status === 'error')).toMatchObject({
      hasRefund: true,
      count: 1,
    })

    // Audit head backfilled from the last v1 row: the old chain verifies and new rows continue it. Migration 4
    // gives each of the 4 records a baseline entry carrying its state hash.
    expect(ledger.audit({ limit: 4 }).rows.map((r) => [r.action, r.seq])).toEqual([
      ['record.state_baseline', 7],
      ['record.state_baseline', 6],
      ['record.state_baseline', 5],
      ['record.state_baseline', 4],
    ])
    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: 7 })
    expect(ledger.recoverInterrupted()).toBe(1)
    expect(ledger.verifyAuditChain()).toEqual({ ok: true, rows: 8 })
    expect(ledger.audit({ limit: 1 }).rows[0]).toMatchObject({ seq: 8, subject: 'v1-submitting' })
  })

  it('a failing migration leaves the file at the previous version, data intact', () => {
    const file = makeV1File()
    const db = new DatabaseSync(file)
    const broken: Migration[] = [
      ...MIGRATIONS.slice(0, 1),
      {
        version: 2,
        name: 'half done then fails',
        up: (d) => {
          d.exec('ALTER TABLE withdrawals ADD COLUMN doomed TEXT')
          d.exec("UPDATE withdrawals SET doomed = 'x'")
          throw new Error('boom')
        },
      },
    ]
    expect(() => migrate(db, 2, broken)).toThrow('boom')
    expect(schemaVersion(db)).toBe(1)
    const cols = db
      .prepare('PRAGMA table_info(withdrawals)')
      .all()
      .map((c) => c.name)
    expect(cols).not.toContain('doomed')
    expect(db.prepare('SELECT count(*) AS n FROM withdrawals').get()).toEqual({ n: 4 })
    db.close()
    // The real migrations still apply afterwards.
    expect(track(openLedger(file)).schemaVersion).toBe(LATEST_VERSION)
  })

  it('refuses a file written by a newer app, without touching it', () => {
    const file = path.join(tempDir(), 'future.sqlite')
    track(openLedger(file)).close()
    const db = new DatabaseSync(file)
    db.exec(`PRAGMA user_version = ${LATEST_VERSION + 1}`)
    db.close()
    let err: unknown
    try {
      openLedger(file)
    } catch (e) {
      err = e
    }
    expect(err).toBeInstanceOf(LedgerError)
    expect((err as LedgerError).code).toBe('schema_too_new')
    const check = new DatabaseSync(file)
    expect(schemaVersion(check)).toBe(LATEST_VERSION + 1)
    check.close()
  })

  it('connection settings: WAL, synchronous=FULL, foreign keys, busy timeout', () => {
    const db = openDb(path.join(tempDir(), 'p.sqlite'))
    expect(db.raw.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    expect(db.raw.prepare('PRAGMA synchronous').get()).toEqual({ synchronous: 2 })
    expect(db.raw.prepare('PRAGMA foreign_keys').get()).toEqual({ foreign_keys: 1 })
    expect(Number(db.raw.prepare('PRAGMA busy_timeout').get()?.timeout)).toBeGreaterThan(0)
    db.close()
  })
})
