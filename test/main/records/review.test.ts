import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openReview, verifyExport } from '../../../src/main/records/index'
import { sortTotals } from '../../../src/main/records/totals'
import { makeRecords, seededLedger } from './fixtures'
import {
  exportTo,
  fileIn,
  fixHash,
  flipByte,
  readManifest,
  resign,
  SIGNER,
  track,
  writeManifest,
} from './helpers'

describe('openReview', () => {
  it('serves the exported records through the same ledger queries as the live list', async () => {
    const { ledger } = seededLedger(makeRecords(300))
    track(ledger)
    const res = await exportTo(ledger)
    const review = await openReview(res.folder)
    try {
      expect(review.verification.ok).toBe(true)
      expect(review.verification.records).toBeUndefined()
      const filters = [
        {},
        { statuses: ['sent'] },
        { statuses: ['refunded', 'error'], sort: { field: 'amount', dir: 'desc' } as const },
        { text: 'joão', limit: 20 },
        { from: '2025-01-01T12:00:00.000Z', to: '2025-01-02T00:00:00.000Z' },
      ]
      for (const f of filters) {
        expect(review.ledger.query(f)).toEqual(ledger.query(f))
        expect(sortTotals(review.ledger.totalsByStatus(f))).toEqual(sortTotals(ledger.totalsByStatus(f)))
      }
      expect(review.ledger.audit().rows[0]).toMatchObject({
        action: 'records.imported',
        details: { count: 300 },
      })
    } finally {
      review.close()
    }
    review.close()
    expect(() => review.ledger.query({})).toThrow(/closed/)
  })

  it('issue #30: opens with the verdict and the first page; the ledger loads afterwards with one audit entry', async () => {
    const { ledger } = seededLedger(makeRecords(5_000))
    track(ledger)
    const res = await exportTo(ledger, { formats: ['json'] })
    const review = await openReview(res.folder)
    try {
      expect(review.verification.ok).toBe(true)
      // Before the load: the first page from the verified bytes, the manifest's count and totals.
      const first = review.firstPage({ limit: 200, sort: { field: 'createdAt', dir: 'desc' } })
      expect(first?.rows).toHaveLength(200)
      expect(first?.total).toBe(5_000)
      expect(review.firstPage({ statuses: ['sent'] })).toBeNull()
      expect(review.firstPage({ offset: 200 })).toBeNull()
      await review.loaded
      // Loaded: the shortcut is gone and the ledger's first page is the same page, ties included.
      expect(review.firstPage({})).toBeNull()
      const page = review.ledger.query({ limit: 200 })
      expect(first?.rows).toEqual(page.rows)
      expect(sortTotals(first?.totals ?? [])).toEqual(sortTotals(review.ledger.totalsByStatus({})))
      const audit = review.ledger.audit()
      expect(audit.rows).toHaveLength(1)
      expect(audit.rows[0]).toMatchObject({ action: 'records.imported', details: { count: 5_000 } })
    } finally {
      review.close()
    }
  })

  it('the fixed hashes (--against) are computed when asked for, from the ledger, as the verifier computes them', async () => {
    const { ledger } = seededLedger(makeRecords(300))
    track(ledger)
    const res = await exportTo(ledger)
    const review = await openReview(res.folder)
    try {
      expect(review.verification.audit?.fixedHashes).toBeNull()
      review.addFixedHashes()
      const direct = await verifyExport(res.folder, { fixedHashes: true })
      expect(review.verification.audit?.fixedHashes?.size).toBe(300)
      expect(review.verification.audit?.fixedHashes).toEqual(direct.audit?.fixedHashes)
    } finally {
      review.close()
    }
  })

  it('closed while it loads: the load stops and the ledger is gone', async () => {
    const { ledger } = seededLedger(makeRecords(5_000))
    track(ledger)
    const res = await exportTo(ledger, { formats: ['json'] })
    const review = await openReview(res.folder)
    review.close()
    await review.loaded
    expect(() => review.ledger).toThrow(/closed/)
  })

  it('a tampered export still opens, with its problems, so the reviewer sees both', async () => {
    const { ledger } = seededLedger(makeRecords(20))
    track(ledger)
    const res = await exportTo(ledger)
    flipByte(fileIn(res, 'records.csv'), 500)
    const review = await openReview(res.manifestPath)
    try {
      expect(review.verification.ok).toBe(false)
      expect(review.verification.problems).toContainEqual(
        expect.objectContaining({ file: 'records.csv', check: 'hash' }),
      )
      expect(review.ledger.query({}).total).toBe(20)
    } finally {
      review.close()
    }
  })

  it('records that cannot be loaded (duplicate ids) leave an empty review and a schema problem', async () => {
    const { ledger } = seededLedger(makeRecords(5))
    track(ledger)
    const res = await exportTo(ledger, { formats: ['json'] })
    const json = fileIn(res, 'records.json')
    const lines = fs.readFileSync(json, 'utf8').split('\n')
    lines[2] = lines[1]!
    fs.writeFileSync(json, lines.join('\n'))
    const m = readManifest(res)
    fixHash(res, m, 'records.json')
    resign(m, SIGNER)
    writeManifest(res, m)
    const review = await openReview(res.manifestPath)
    try {
      expect(review.verification.ok).toBe(false)
      expect(review.verification.problems.map((p) => `${p.file}:${p.check}`)).toEqual([
        'records.json:schema',
        'records.json:totals',
        // the audit member names a record the JSON no longer has
        'records.json:audit',
        'records.json:schema',
      ])
      expect(review.verification.problems.at(-1)?.detail).toMatch(/cannot be loaded for review/)
      expect(review.ledger.query({}).total).toBe(0)
    } finally {
      review.close()
    }
  })

  it('a folder without an export: verification says missing, the review is empty', async () => {
    const { ledger } = seededLedger(makeRecords(1))
    track(ledger)
    const res = await exportTo(ledger)
    fs.rmSync(res.manifestPath)
    const review = await openReview(path.dirname(res.manifestPath))
    try {
      expect(review.verification.problems).toEqual([
        expect.objectContaining({ file: 'manifest.json', check: 'missing' }),
      ])
      expect(review.ledger.query({}).total).toBe(0)
    } finally {
      review.close()
    }
  })
})
