/**
 * This computer's ledger as an export reads it (ledger/sqlite/export-view.ts), on a real SQLite file with receipt
 * files beside it: the receipt candidates are the stored receipts of the asked ids only, in local-id order, each
 * re-hashed when read (a file changed on disk reads as null); close() is idempotent. (The records and entries are
 * the snapshot's, tested with it and through the exports.)
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { sqliteExportLedger } from '../../../../src/main/ledger/sqlite/export-view'
import type { ReceiptCandidate } from '../../../../src/main/ledger/export-view'
import { receiptsDir, writeReceiptFile } from '../../../../src/main/ledger/sqlite/receipt-files'
import { makeRecords, seededLedger } from '../../records/fixtures'
import { track } from '../../records/helpers'

const AT = '2025-06-01T10:00:00.000Z'

async function all<T>(it: Iterable<T> | AsyncIterable<T>): Promise<T[]> {
  const out: T[] = []
  for await (const x of it) out.push(x)
  return out
}

describe('the SQLite export view', () => {
  it('gives the stored receipts of the asked ids only, in local-id order, re-hashed when read', async () => {
    const records = [...makeRecords(4)]
    const { ledger } = seededLedger(records)
    track(ledger)
    const ids = records.map((r) => r.localId).sort()
    const bytes = ids.map((id) => Buffer.from(`<html><body>Comprovante ${id}</body></html>`))
    const shas = ids.slice(0, 3).map((id, i) => {
      const sha256 = writeReceiptFile(receiptsDir(ledger.file), bytes[i]!, 'text/html')
      ledger.receipts.track(id, `https://r.example/${id}`, AT)
      ledger.receipts.stored(id, { sha256, size: bytes[i]!.length, mediaType: 'text/html', fetchedAt: AT })
      return sha256
    })
    ledger.receipts.track(ids[3]!, 'https://r.example/pending', AT) // pending: never a candidate

    const view = await sqliteExportLedger(ledger).open()
    try {
      // ids[1] stored but not asked; ids[3] asked but pending.
      const got: ReceiptCandidate[] = await all(view.receiptCandidates(new Set([ids[2]!, ids[0]!, ids[3]!])))
      expect(got.map((c) => [c.localId, c.sha256, c.mediaType])).toEqual([
        [ids[0], shas[0], 'text/html'],
        [ids[2], shas[2], 'text/html'],
      ])
      expect((await got[0]!.read())?.equals(bytes[0]!)).toBe(true)
      // The file changed on disk after it was stored: read as null, never the changed bytes.
      fs.writeFileSync(path.join(receiptsDir(ledger.file), `${shas[2]}.html`), 'changed')
      expect(await got[1]!.read()).toBeNull()
    } finally {
      await view.close()
      await view.close()
    }
  })
})
