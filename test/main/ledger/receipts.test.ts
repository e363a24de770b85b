/**
 * A team's receipts on a real PostgreSQL server (ledger/pg/receipts.ts: receipts/service.ts over pgReceiptStore),
 * two desks under two roles and a local receipt host: only the leading desk fetches, once; the other desk reads the
 * same bytes from the team ledger; the database records who fetched, checks the hash, audits the storing and keeps
 * a stored receipt final; a receipt changed in the database is reported, never shown.
 */
import { randomUUID } from 'node:crypto'
import http from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewWithdrawal } from '../../../src/main/ledger/sqlite'
import type { PgLedgerStore } from '../../../src/main/ledger/engines'
import { pgReceipts, pgReceiptStore } from '../../../src/main/ledger/pg/receipts'
import { sha256Hex } from '../../../src/main/receipts'
import { RECEIPT_MAX_BYTES } from '../../../src/main/receipts/fetch'
import { createReceiptService, type ReceiptService } from '../../../src/main/receipts/service'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { startTeam, type Team } from './team'

announceSkip('team receipts (postgres)')

const PDF = Buffer.from('%PDF-1.4\n% comprovante de teste\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n')

function input(): NewWithdrawal {
  const pixKey = `${randomUUID()}@example.com`
  return {
    localId: randomUUID(),
    profile: 'main',
    request: { pixKey, payoutAmountInCents: 10_000 },
    pixKey,
    amountKind: 'payout',
    amountCents: 10_000,
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('team receipts (PostgreSQL)', () => {
  let team: Team
  let anaDesk: PgLedgerStore
  let brunoDesk: PgLedgerStore
  let server: http.Server
  let origin: string
  const hits: string[] = []
  let failing = false
  let ana: ReceiptService
  let bruno: ReceiptService
  const changed: string[] = []

  beforeAll(async () => {
    team = await startTeam()
    anaDesk = await team.desk('ana')
    brunoDesk = await team.desk('bruno')
    server = http.createServer((req, res) => {
      hits.push(req.url ?? '')
      if (failing) {
        res.writeHead(503).end()
        return
      }
      res.writeHead(200, { 'content-type': 'application/pdf' }).end(PDF)
    })
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
    // ana leads the tracker; bruno follows.
    ana = createReceiptService({
      store: pgReceiptStore(anaDesk.pool),
      canFetch: () => true,
      loopbackOrigin: () => origin,
      onChange: (id) => changed.push(id),
    })
    bruno = createReceiptService({
      store: pgReceiptStore(brunoDesk.pool),
      canFetch: () => false,
      loopbackOrigin: () => origin,
    })
  }, 120_000)
  afterAll(async () => {
    await ana?.stop()
    await bruno?.stop()
    await new Promise((r) => server?.close(r))
    await team?.stop()
  })

  /** A payout the service says was sent, with its receipt URL, as the tracker records it. */
  const paid = async (): Promise<WithdrawalRecord> => {
    const r = await brunoDesk.insertSubmitting(input(), 'bruno')
    const remoteId = randomUUID()
    await brunoDesk.markCreated(r.localId, { remoteId, createResponse: null, requestId: null })
    const body = { id: remoteId, status: 'sent', receiptUrl: `${origin}/r/${r.localId}` }
    return (await anaDesk.recordObservation(r.localId, { status: 'sent', body })).record
  }
  const waitFor = async <T>(f: () => Promise<T>, ok: (v: T) => boolean): Promise<T> => {
    for (let i = 0; i < 200; i++) {
      const v = await f()
      if (ok(v)) return v
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error('timed out')
  }

  it('fetched once by the leading desk, read from the team ledger on the other', async () => {
    const rec = await paid()
    const before = hits.length
    // The follower sees the payment first: it registers the receipt and does not fetch.
    void bruno.notice(rec)
    await waitFor(
      () => bruno.view(rec.localId),
      (v) => v.state === 'pending',
    )
    expect(await bruno.runDue()).toBe(0)
    expect(hits.length).toBe(before)
    // The leader sees it too (its tracker): one fetch, however many desks noticed.
    void ana.notice(rec)
    const view = await waitFor(
      () => bruno.view(rec.localId),
      (v) => v.state === 'stored',
    )
    expect(view).toMatchObject({
      state: 'stored',
      sha256: sha256Hex(PDF),
      size: PDF.length,
      mediaType: 'application/pdf',
    })
    void ana.notice(rec)
    void bruno.notice(rec)
    expect(await ana.runDue()).toBe(0)
    expect(hits.length - before).toBe(1)
    const got = await bruno.bytes(rec.localId)
    expect(got?.bytes.equals(PDF)).toBe(true)
    expect(changed).toContain(rec.localId)
    const row = await (
      await team.owner()
    ).query('SELECT noticed_by, fetched_by, attempts FROM receipts WHERE local_id = $1', [rec.localId])
    expect(row.rows[0]).toEqual({ noticed_by: 'bruno', fetched_by: 'ana', attempts: 1 })
    const trail = (await brunoDesk.audit({ subject: rec.localId, limit: 50 })).rows
    const stored = trail.filter((a) => a.action === 'receipt.stored')
    expect(stored).toHaveLength(1)
    expect(stored[0]).toMatchObject({
      operator: 'ana',
      details: { fetchedBy: 'ana', sha256: sha256Hex(PDF), size: PDF.length },
    })
    expect((await brunoDesk.verifyAuditChain()).ok).toBe(true)
  })

  it('a failed fetch backs off and stays pending; a receipt for no record is not kept', async () => {
    const rec = await paid()
    failing = true
    try {
      void ana.notice(rec)
      const v = await waitFor(
        () => bruno.view(rec.localId),
        (x) => x.state === 'pending' && x.attempts === 1,
      )
      expect(v).toMatchObject({ lastError: 'http_status: HTTP 503' })
      expect(await ana.runDue()).toBe(0) // not due again before its backoff
      // Unlike a desk's store, a known pending receipt is still worth a pass: the leader may have changed.
      const store = pgReceiptStore(brunoDesk.pool)
      expect(await store.notice(rec.localId, `${origin}/other`, new Date().toISOString())).toBe(true)
      expect((await store.get(rec.localId))?.url).not.toBe(`${origin}/other`)
    } finally {
      failing = false
    }
    expect(await pgReceipts(anaDesk.pool).track('no-such-record', `${origin}/x`)).toBe(false)
    // Only the URL the service gave: a desk cannot make the leader fetch an address of its choosing.
    const other = await paid()
    const forged = await pgReceipts(brunoDesk.pool)
      .track(other.localId, 'https://attacker.example/x')
      .catch((e: unknown) => e)
    expect(forged).toMatchObject({ code: 'invalid_input' })
    expect(await bruno.view(other.localId)).toEqual({ state: 'none' })
  })

  it('the database checks the hash, bounds the size, and keeps a stored receipt final', async () => {
    const rec = await paid()
    const r = pgReceipts(brunoDesk.pool)
    expect(await r.track(rec.localId, `${origin}/r/${rec.localId}`)).toBe(true)
    const wrong = await r
      .stored(rec.localId, { bytes: PDF, sha256: '0'.repeat(64), mediaType: 'application/pdf' })
      .catch((e: unknown) => e)
    expect(wrong).toMatchObject({ code: 'invalid_input' })
    const big = Buffer.concat([PDF, Buffer.alloc(RECEIPT_MAX_BYTES)])
    const tooBig = await r
      .stored(rec.localId, { bytes: big, sha256: sha256Hex(big), mediaType: 'application/pdf' })
      .catch((e: unknown) => e)
    expect((tooBig as { code?: string }).code).toBe('23514')
    expect(
      await r.stored(rec.localId, { bytes: PDF, sha256: sha256Hex(PDF), mediaType: 'application/pdf' }),
    ).toBe(true)
    // A second desk storing after the first changes nothing.
    expect(
      await pgReceipts(anaDesk.pool).stored(rec.localId, {
        bytes: PDF,
        sha256: sha256Hex(PDF),
        mediaType: 'application/pdf',
      }),
    ).toBe(false)
    for (const sql of [
      `UPDATE receipts SET bytes = 'x'::bytea WHERE local_id = '${rec.localId}'`,
      `DELETE FROM receipts WHERE local_id = '${rec.localId}'`,
      `UPDATE receipts SET fetched_by = 'mallory' WHERE local_id = '${rec.localId}'`,
    ]) {
      const e = await anaDesk.pool.query(sql).then(
        () => null,
        (x: unknown) => x as { code?: string },
      )
      expect(e?.code).toBe('42501')
    }
  })

  it('a receipt changed in the database is reported as damaged and never served', async () => {
    const rec = await paid()
    void ana.notice(rec)
    await waitFor(
      () => bruno.view(rec.localId),
      (v) => v.state === 'stored',
    )
    const owner = await team.owner()
    const forged = Buffer.from('%PDF-1.4\n% outro comprovante\n%%EOF\n')
    await owner.query('ALTER TABLE receipts DISABLE TRIGGER USER')
    try {
      await owner.query('UPDATE receipts SET bytes = $2, size = $3 WHERE local_id = $1', [
        rec.localId,
        forged,
        forged.length,
      ])
      expect(await bruno.view(rec.localId)).toEqual({
        state: 'damaged',
        reason: 'hash_mismatch',
        sha256: sha256Hex(PDF),
      })
      expect(await bruno.bytes(rec.localId)).toBeNull()
      // Bytes and hash changed together still differ from the hash the audit trail recorded.
      await owner.query('UPDATE receipts SET sha256 = $2 WHERE local_id = $1', [
        rec.localId,
        sha256Hex(forged),
      ])
      expect(await bruno.view(rec.localId)).toMatchObject({ state: 'damaged', reason: 'hash_mismatch' })
      expect(await ana.bytes(rec.localId)).toBeNull()
    } finally {
      await owner.query('ALTER TABLE receipts ENABLE TRIGGER USER')
    }
  })
})
