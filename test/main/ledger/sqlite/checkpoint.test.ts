/**
 * The start-up check from a checkpoint kept beside the ledger: trusted only while the chain proves it, and never
 * a reason to skip hashing a record, so a record row edited with plain SQL while the app was closed is still
 * found. Each "restart" closes the ledger and opens the same file again.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { DatabaseSync } from 'node:sqlite'
import { beforeAll, describe, expect, it } from 'vitest'
import { openLedger, type Ledger } from '../../../../src/main/ledger/sqlite'
import { checkpointPath } from '../../../../src/main/ledger/sqlite/checkpoint'
import { verifyWorkerPath } from '../../../../src/main/ledger/sqlite/verify-worker-path'
import { newWithdrawal, tempLedger, track } from './helpers'

function sql(file: string, text: string): void {
  const db = new DatabaseSync(file)
  db.exec(text)
  db.close()
}

async function verify(ledger: Ledger) {
  const snap = ledger.snapshot()
  try {
    return await snap.verify()
  } finally {
    snap.close()
  }
}

/** The start-up check's worker, as the app opens the ledger (app/context.ts); unset: on this thread. */
let verifyWorker: string | undefined

function reopen(file: string): Ledger {
  return track(openLedger(file, verifyWorker ? { verifyWorker } : {}))
}

function restart(ledger: Ledger, file: string): Ledger {
  ledger.close()
  return reopen(file)
}

/** 4 records, 8 entries, verified once (checkpoint at seq 8), then closed and opened again. */
async function checkedAndRestarted(): Promise<{ ledger: Ledger; file: string }> {
  const t = tempLedger()
  for (let i = 0; i < 4; i++) {
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
  expect(await verify(t.ledger)).toEqual({ ok: true, rows: 8 })
  return { ledger: restart(t.ledger, t.file), file: t.file }
}

const checkpoint = (file: string): { seq: number; hash: string } =>
  JSON.parse(readFileSync(checkpointPath(file), 'utf8')) as { seq: number; hash: string }

/** Rewrites entry 2's operator without touching its hash: only a walk over entry 2 sees it. */
const rewriteEntry2 = `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET operator = 'mallory' WHERE seq = 2;`

describe.each([
  ['on this thread', undefined],
  ['on the start-up check worker', verifyWorkerPath],
])('start-up check from a checkpoint, %s', (_, worker) => {
  beforeAll(() => {
    verifyWorker = worker
  })

  it('a successful verification leaves the head it reached beside the ledger', async () => {
    const { ledger, file } = await checkedAndRestarted()
    expect(checkpoint(file)).toMatchObject({ version: 1, seq: 8, hash: ledger.auditHead().hash })
    ledger.recordObservation('w1', { status: 'sent', body: { status: 'sent' } })
    expect(await verify(ledger)).toEqual({ ok: true, rows: 9 })
    expect(checkpoint(file).seq).toBe(9)
  })

  it('entries up to a proven checkpoint are not walked again (what makes the check incremental)', async () => {
    const { ledger, file } = await checkedAndRestarted()
    sql(file, rewriteEntry2)
    // The same edit is found by a full walk (no checkpoint, or one the chain does not prove): see below.
    expect(await verify(ledger)).toEqual({ ok: true, rows: 8 })
  })

  it('a forged checkpoint (a hash the chain does not hold) falls back to the full walk', async () => {
    const { ledger, file } = await checkedAndRestarted()
    sql(file, rewriteEntry2)
    writeFileSync(checkpointPath(file), JSON.stringify({ version: 1, seq: 8, hash: 'a'.repeat(64) }))
    expect(await verify(ledger)).toMatchObject({ ok: false, brokenAt: 2 })
  })

  it('a checkpoint past the head, or not a checkpoint at all, falls back to the full walk', async () => {
    for (const body of [
      JSON.stringify({ version: 1, seq: 99, hash: 'a'.repeat(64) }),
      '{',
      'x'.repeat(5000),
    ]) {
      const { ledger, file } = await checkedAndRestarted()
      sql(file, rewriteEntry2)
      writeFileSync(checkpointPath(file), body)
      expect(await verify(ledger)).toMatchObject({ ok: false, brokenAt: 2 })
    }
  })

  it('a rolled-back checkpoint is walked from where it stands: an edit after it is found', async () => {
    const { ledger, file } = await checkedAndRestarted()
    const entry1 = new DatabaseSync(file, { readOnly: true })
    const hash1 = String(entry1.prepare('SELECT hash FROM audit_log WHERE seq = 1').get()?.hash)
    entry1.close()
    sql(file, rewriteEntry2)
    writeFileSync(checkpointPath(file), JSON.stringify({ version: 1, seq: 1, hash: hash1 }))
    expect(await verify(ledger)).toMatchObject({ ok: false, brokenAt: 2 })
  })

  it('an entry after the checkpoint that does not link is found', async () => {
    const { ledger, file } = await checkedAndRestarted()
    ledger.recordObservation('w0', { status: 'sent', body: { status: 'sent' } })
    const again = restart(ledger, file)
    sql(
      file,
      `DROP TRIGGER audit_log_no_update; UPDATE audit_log SET prev_hash = '${'0'.repeat(64)}' WHERE seq = 9;`,
    )
    expect(await verify(again)).toMatchObject({ ok: false, brokenAt: 9 })
  })

  it('a record row edited with plain SQL while the app was closed is found after a checkpoint', async () => {
    const { ledger, file } = await checkedAndRestarted()
    ledger.close()
    sql(file, "UPDATE withdrawals SET amount_cents = 999999 WHERE local_id = 'w1'")
    const again = reopen(file)
    expect(checkpoint(file).seq).toBe(8)
    expect(await verify(again)).toMatchObject({
      ok: false,
      reason: expect.stringContaining('record w1 differs'),
    })
  })

  it('after this run verified once, a change by another connection walks the whole chain again', async () => {
    const { ledger, file } = await checkedAndRestarted()
    expect((await verify(ledger)).ok).toBe(true)
    sql(file, rewriteEntry2)
    expect(await verify(ledger)).toMatchObject({ ok: false, brokenAt: 2 })
  })
})

describe('the start-up check worker', () => {
  it('is what runs a full check when the ledger is opened with one (a missing module fails the check)', async () => {
    const { ledger, file } = tempLedger()
    ledger.insertSubmitting(newWithdrawal({ localId: 'w0' }), 'ana')
    ledger.close()
    const again = track(openLedger(file, { verifyWorker: `${file}.missing-worker.js` }))
    await expect(verify(again)).rejects.toThrow()
  })
})
