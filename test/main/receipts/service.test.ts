/** Retries within limits: a receipt that cannot be fetched backs off, then is given up on and shown as missing. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { sqliteReceiptStore } from '../../../src/main/ledger/receipt-store'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite'
import {
  BACKOFF_MS,
  createReceiptService,
  GIVE_UP_AFTER_MS,
  MAX_ATTEMPTS,
} from '../../../src/main/receipts/service'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'

const T0 = Date.parse('2026-01-10T12:00:00.000Z')
let dir: string
let ledger: Ledger
let now = T0
let localId = ''

beforeEach(() => {
  now = T0
  dir = mkdtempSync(join(tmpdir(), 'receipts-service-'))
  ledger = openLedger(join(dir, 'ledger.sqlite'), { now: () => now })
  localId = ledger.insertSubmitting(
    { profile: 'sandbox', request: {}, pixKey: 'k@example.com', amountKind: 'deposit', amountCents: 1000 },
    'op',
  ).localId
})
afterEach(() => {
  ledger.close()
  rmSync(dir, { recursive: true, force: true })
})

// Plain http with no sandbox origin allowed: refused at every attempt, without any network.
const refusedUrl = 'http://127.0.0.1:9/receipts/x'
const withUrl = (url: unknown): WithdrawalRecord =>
  ({ ...ledger.get(localId)!, lastRemote: { receiptUrl: url } }) as WithdrawalRecord

describe('receipt retries', () => {
  it('backs off after each failure and gives up after MAX_ATTEMPTS', async () => {
    const changes: string[] = []
    const s = createReceiptService({
      store: sqliteReceiptStore(ledger),
      now: () => now,
      loopbackOrigin: () => null,
      onChange: (id) => changes.push(id),
    })
    expect(ledger.receipts.track(localId, refusedUrl, new Date(now).toISOString())).toBe(true)
    expect(await s.runDue()).toBe(1)
    let row = ledger.receipts.get(localId)!
    expect(row).toMatchObject({
      state: 'pending',
      attempts: 1,
      lastError: expect.stringContaining('url_refused'),
    })
    expect(Date.parse(row.nextAttemptAt!) - now).toBe(BACKOFF_MS[0])
    // Not due yet: nothing is attempted.
    expect(await s.runDue()).toBe(0)
    for (let i = 1; i < MAX_ATTEMPTS; i++) {
      now = Date.parse(ledger.receipts.get(localId)!.nextAttemptAt!)
      await s.runDue()
    }
    row = ledger.receipts.get(localId)!
    expect(row.state).toBe('gave_up')
    expect(row.attempts).toBe(MAX_ATTEMPTS)
    expect(await s.view(localId)).toMatchObject({ state: 'gave_up' })
    expect(changes).toEqual([localId])
    expect(await s.bytes(localId)).toBeNull()
  })

  it('gives up after GIVE_UP_AFTER_MS since first seen, however few attempts', async () => {
    const s = createReceiptService({
      store: sqliteReceiptStore(ledger),
      now: () => now,
      loopbackOrigin: () => null,
    })
    ledger.receipts.track(localId, refusedUrl, new Date(now).toISOString())
    now += GIVE_UP_AFTER_MS
    await s.runDue()
    expect(ledger.receipts.get(localId)).toMatchObject({ state: 'gave_up', attempts: 1 })
  })

  it('notice registers a string receiptUrl once and ignores hostile values', async () => {
    const s = createReceiptService({
      store: sqliteReceiptStore(ledger),
      now: () => now,
      loopbackOrigin: () => null,
    })
    for (const bad of [null, 42, '', 'x'.repeat(3000), { url: 'https://a' }]) await s.notice(withUrl(bad))
    expect(ledger.receipts.get(localId)).toBeNull()
    await s.notice(withUrl('https://receipts.example/1'))
    await s.notice(withUrl('https://receipts.example/2'))
    expect(ledger.receipts.get(localId)?.url).toBe('https://receipts.example/1')
    await s.stop()
    // A desk's store kicks a pass only for a receipt it registers now, never again for one it knows.
    const store = sqliteReceiptStore(ledger)
    expect(await store.notice(localId, 'https://receipts.example/3', new Date(now).toISOString())).toBe(false)
  })

  it('a stored receipt is read back from its file only while the file is intact', async () => {
    const store = sqliteReceiptStore(ledger)
    const s = createReceiptService({ store, now: () => now, loopbackOrigin: () => null })
    ledger.receipts.track(localId, refusedUrl, new Date(now).toISOString())
    const pdf = Buffer.from('%PDF-1.4 receipt')
    await store.stored(localId, {
      bytes: pdf,
      mediaType: 'application/pdf',
      fetchedAt: '2026-01-10T12:00:01.000Z',
    })
    expect(await s.view(localId)).toMatchObject({
      state: 'stored',
      size: pdf.length,
      mediaType: 'application/pdf',
    })
    expect((await s.bytes(localId))?.bytes.equals(pdf)).toBe(true)
    const row = ledger.receipts.get(localId)!
    writeFileSync(join(dir, 'receipts', `${row.sha256}.pdf`), '%PDF-1.4 changed')
    expect(await s.view(localId)).toMatchObject({ state: 'damaged', reason: 'hash_mismatch' })
    expect(await s.bytes(localId)).toBeNull()
    rmSync(join(dir, 'receipts', `${row.sha256}.pdf`))
    expect(await s.view(localId)).toMatchObject({ state: 'damaged', reason: 'missing' })
  })

  it('a stopped service attempts nothing (quitting never waits on receipts)', async () => {
    const s = createReceiptService({
      store: sqliteReceiptStore(ledger),
      now: () => now,
      loopbackOrigin: () => null,
    })
    ledger.receipts.track(localId, refusedUrl, new Date(now).toISOString())
    await s.stop()
    expect(await s.runDue()).toBe(0)
    expect(ledger.receipts.get(localId)?.attempts).toBe(0)
  })
})
