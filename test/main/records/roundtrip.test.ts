/**
 * Round trip at scale (slow: seeds a ledger, exports all three formats, verifies). ROUNDTRIP_ROWS overrides the
 * size; bench/records.bench.ts measures 100,000.
 */
import { describe, expect, it } from 'vitest'
import { verifyExport } from '../../../src/main/records/index'
import { sortTotals } from '../../../src/main/records/totals'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, track } from './helpers'

const ROWS = Number(process.env.ROUNDTRIP_ROWS ?? 100_000)

describe(`round trip of ${ROWS} records (slow)`, { timeout: 600_000 }, () => {
  it('exports CSV, JSON and HTML and verifies them intact', async () => {
    const { ledger } = seededLedger(makeRecords(ROWS))
    track(ledger)
    let last = 0
    const res = await exportTo(ledger, { onProgress: (done) => (last = done) })
    expect(res.rowCount).toBe(ROWS)
    expect(last).toBe(ROWS)
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    expect(v.manifest?.rowCount).toBe(ROWS)
    expect(v.manifest?.totals).toEqual(sortTotals(ledger.totalsByStatus()))
  })
})
