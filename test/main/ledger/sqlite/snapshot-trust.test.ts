/**
 * The check before an export walks only what changed since the last full verification, and only while no other
 * connection has written the file (SQLite's data_version): an edit from outside the app is still caught.
 */
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, it } from 'vitest'
import { newWithdrawal, tempLedger } from './helpers'

function sql(file: string, text: string): void {
  const db = new DatabaseSync(file)
  db.exec(text)
  db.close()
}

async function verify(ledger: ReturnType<typeof tempLedger>['ledger']) {
  const snap = ledger.snapshot()
  try {
    return await snap.verify()
  } finally {
    snap.close()
  }
}

function seeded(n: number): ReturnType<typeof tempLedger> {
  const t = tempLedger()
  for (let i = 0; i < n; i++) {
    const r = t.ledger.insertSubmitting(
      newWithdrawal({ localId: `w${i}`, pixKey: `k${i}@example.com` }),
      'ana',
    )
    t.ledger.markCreated(r.localId, {
      remoteId: `wd-${i}`,
      createResponse: { id: `wd-${i}` },
      requestId: `r${i}`,
    })
  }
  return t
}

describe('verification after a full one', () => {
  it('our own writes since are walked incrementally and verify', async () => {
    const { ledger } = seeded(5)
    expect(await verify(ledger)).toEqual({ ok: true, rows: 10 })
    ledger.recordObservation('w1', { status: 'sent', body: { status: 'sent' } })
    ledger.insertSubmitting(newWithdrawal({ localId: 'w9', pixKey: 'new@example.com' }), 'ana')
    ledger.markFunded('w2', { txId: 'f'.repeat(64) }, 'ana')
    expect(await verify(ledger)).toEqual({ ok: true, rows: 13 })
  })

  it('a plain-SQL edit by another connection after a full verification is still detected', async () => {
    const { ledger, file } = seeded(5)
    expect((await verify(ledger)).ok).toBe(true)
    sql(file, "UPDATE withdrawals SET amount_cents = 999999 WHERE local_id = 'w3'")
    const v = await verify(ledger)
    expect(v).toMatchObject({ ok: false, reason: expect.stringContaining('record w3 differs') })
  })

  it('an already verified entry rewritten by another connection is detected', async () => {
    const { ledger, file } = seeded(3)
    expect((await verify(ledger)).ok).toBe(true)
    sql(file, `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET operator = 'mallory' WHERE seq = 2;`)
    expect((await verify(ledger)).ok).toBe(false)
  })

  it('a new entry that does not link is detected on the incremental path', async () => {
    const { ledger, file } = seeded(2)
    expect((await verify(ledger)).ok).toBe(true)
    ledger.recordObservation('w0', { status: 'sent', body: { status: 'sent' } })
    // Same connection count as our own writes would leave, but the file changed underneath: full walk, caught.
    sql(
      file,
      `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET prev_hash = '${'0'.repeat(64)}' WHERE seq = 5;`,
    )
    expect((await verify(ledger)).ok).toBe(false)
  })
})
