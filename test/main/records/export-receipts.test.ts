/**
 * Issue #14: exports may include the stored receipts. They go into receipts/ in the export folder, are listed
 * and hashed in the signed manifest, and the verifier fails a modified, missing or mistyped receipt file.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifyExport } from '../../../src/main/records/index'
import { receiptsDir, writeReceiptFile } from '../../../src/main/ledger/sqlite/receipt-files'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, readManifest, resign, SIGNER, track, writeManifest } from './helpers'

const HTML = Buffer.from('<!doctype html><html><body>Comprovante 1</body></html>')
const PDF = Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\n%%EOF\n', 'latin1')

function ledgerWithReceipts() {
  const records = [...makeRecords(4)]
  const { ledger } = seededLedger(records)
  track(ledger)
  const at = '2025-06-01T10:00:00.000Z'
  const store = (localId: string, bytes: Buffer, mediaType: 'text/html' | 'application/pdf') => {
    const sha256 = writeReceiptFile(receiptsDir(ledger.file), bytes, mediaType)
    ledger.receipts.track(localId, `https://r.example/${localId}`, at)
    ledger.receipts.stored(localId, { sha256, size: bytes.length, mediaType, fetchedAt: at })
    return sha256
  }
  const ids = records.map((r) => r.localId)
  const htmlSha = store(ids[0]!, HTML, 'text/html')
  const pdfSha = store(ids[1]!, PDF, 'application/pdf')
  // A third record's receipt is still pending: nothing to include.
  ledger.receipts.track(ids[2]!, 'https://r.example/pending', at)
  return { ledger, ids, htmlSha, pdfSha }
}

describe('export with receipts', () => {
  it('copies, lists and hashes each stored receipt; the export verifies', async () => {
    const { ledger, ids, htmlSha, pdfSha } = ledgerWithReceipts()
    const res = await exportTo(ledger, { includeReceipts: true })
    const receipts = readManifest(res).files.filter((f) => f.format === 'receipt')
    expect(receipts).toEqual([
      expect.objectContaining({ name: `receipts/${htmlSha}.html`, localId: ids[0], sha256: htmlSha }),
      expect.objectContaining({
        name: `receipts/${pdfSha}.pdf`,
        localId: ids[1],
        mediaType: 'application/pdf',
      }),
    ])
    expect(fs.readFileSync(path.join(res.folder, `receipts/${pdfSha}.pdf`)).equals(PDF)).toBe(true)
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    expect(v.unlisted).toEqual([])
  })

  it('without the option, no receipt is included', async () => {
    const { ledger } = ledgerWithReceipts()
    const res = await exportTo(ledger)
    expect(readManifest(res).files.some((f) => f.format === 'receipt')).toBe(false)
    expect(fs.existsSync(path.join(res.folder, 'receipts'))).toBe(false)
  })

  it('a modified receipt file fails verification (hash)', async () => {
    const { ledger, htmlSha } = ledgerWithReceipts()
    const res = await exportTo(ledger, { includeReceipts: true })
    const file = path.join(res.folder, `receipts/${htmlSha}.html`)
    fs.writeFileSync(file, HTML.toString().replace('Comprovante 1', 'Comprovante 9'))
    const v = await verifyExport(res.manifestPath)
    expect(v.ok).toBe(false)
    expect(v.problems).toContainEqual(
      expect.objectContaining({ file: `receipts/${htmlSha}.html`, check: 'hash' }),
    )
  })

  it('a missing receipt file fails verification (missing)', async () => {
    const { ledger, pdfSha } = ledgerWithReceipts()
    const res = await exportTo(ledger, { includeReceipts: true })
    fs.rmSync(path.join(res.folder, `receipts/${pdfSha}.pdf`))
    const v = await verifyExport(res.manifestPath)
    expect(v.ok).toBe(false)
    expect(v.problems).toContainEqual(
      expect.objectContaining({ file: `receipts/${pdfSha}.pdf`, check: 'missing' }),
    )
  })

  it('a re-signed manifest whose receipt is not what its type says fails (schema), and names outside receipts/ are refused', async () => {
    const { ledger, pdfSha } = ledgerWithReceipts()
    const res = await exportTo(ledger, { includeReceipts: true })
    const name = `receipts/${pdfSha}.pdf`
    const m = readManifest(res)
    const entry = m.files.find((f) => f.name === name)!
    entry.mediaType = 'text/html'
    entry.name = `receipts/${pdfSha}.html`
    fs.renameSync(path.join(res.folder, name), path.join(res.folder, entry.name as string))
    resign(m, SIGNER)
    writeManifest(res, m)
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toContainEqual(expect.objectContaining({ file: entry.name, check: 'schema' }))

    const m2 = readManifest(res)
    m2.files.find((f) => f.format === 'receipt')!.name = '../../etc/passwd'
    resign(m2, SIGNER)
    writeManifest(res, m2)
    const v2 = await verifyExport(res.manifestPath)
    expect(v2.ok).toBe(false)
    expect(v2.problems.some((p) => p.check === 'schema' && p.file === 'manifest.json')).toBe(true)
  })

  it('a receipt changed on disk before the export is left out, not vouched for', async () => {
    const { ledger, ids, htmlSha } = ledgerWithReceipts()
    fs.writeFileSync(path.join(receiptsDir(ledger.file), `${htmlSha}.html`), '<html>forged</html>')
    const res = await exportTo(ledger, { includeReceipts: true })
    const receipts = readManifest(res).files.filter((f) => f.format === 'receipt')
    expect(receipts.map((f) => f.localId)).toEqual([ids[1]])
    expect((await verifyExport(res.manifestPath)).ok).toBe(true)
  })
})
