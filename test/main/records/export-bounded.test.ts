import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { exportFrom } from '../../../src/main/records/export'
import { sqliteExportLedger, type ExportLedger } from '../../../src/main/ledger/engines'
import { verifyExport } from '../../../src/main/records/index'
import { makeRecords, seededLedger, tempDir } from './fixtures'
import { exportTo, fileIn, SIGNER, track } from './helpers'
import { whileReading } from '../../support/export-ledger'

/** The ledger as the exporter reads it, noting how much of records.json is on disk as each record is asked for. */
const watched = (base: ExportLedger, dir: string, onDisk: Map<number, number>): ExportLedger =>
  whileReading(base, (n) => {
    if (n > 0 && n % 500 === 0) {
      const [folder] = fs.readdirSync(dir)
      onDisk.set(n, fs.statSync(path.join(dir, folder ?? '', 'records.json')).size)
    }
  })

describe('issue #30: an export holds a bounded number of records, whatever the ledger holds', () => {
  it('records.json is on disk up to about 2,000 records behind the one read (not held to the end)', async () => {
    const { ledger } = seededLedger(makeRecords(8_000))
    track(ledger)
    const dir = tempDir('records-bounded-')
    const onDisk = new Map<number, number>()
    const res = await exportFrom(watched(sqliteExportLedger(ledger), dir, onDisk), {
      dir,
      formats: ['json', 'csv', 'html'],
      signer: SIGNER,
      appVersion: 'test',
      profile: { name: 'Produção', network: 'liquid' },
    })
    expect(res.rowCount).toBe(8_000)
    // Where each record's line ends in the finished file.
    const text = fs.readFileSync(path.join(res.folder, 'records.json'))
    const ends: number[] = []
    for (let i = text.indexOf(0x0a) + 1; i < text.length; i = text.indexOf(0x0a, i) + 1) ends.push(i)
    expect(onDisk.size).toBeGreaterThan(10)
    for (const [n, bytes] of onDisk) {
      // Read n records: all but the last 2,000 of them (one 1 MiB chunk and one batch of 1,000) are written.
      if (n > 2_000) expect(bytes, `after ${n} records`).toBeGreaterThanOrEqual(ends[n - 2_000 - 1]!)
    }
    expect((await verifyExport(res.manifestPath)).ok).toBe(true)
  })

  it('audit.jsonl holds exactly the entries about the records a filter exported (chosen in SQL, not from the ids)', async () => {
    const { ledger } = seededLedger(makeRecords(600))
    track(ledger)
    const lines = (file: string): string[] => fs.readFileSync(file, 'utf8').split('\n').slice(0, -1)
    const all = await exportTo(ledger, { formats: ['json'] })
    const allEntries = lines(fileIn(all, 'audit.jsonl'))
    for (const filter of [
      { statuses: ['refunded'] },
      { text: 'joão' },
      { from: '2025-01-02T00:00:00.000Z', to: '2025-01-03T00:00:00.000Z' },
      { attention: true },
    ]) {
      const res = await exportTo(ledger, { formats: ['json'], filter })
      const ids = new Set(
        lines(fileIn(res, 'records.json'))
          .slice(1, -1)
          .map((l) => (JSON.parse(l.replace(/,$/, '')) as { localId: string }).localId),
      )
      expect(ids.size, JSON.stringify(filter)).toBeGreaterThan(0)
      expect(ids.size, JSON.stringify(filter)).toBeLessThan(600)
      const about = allEntries.filter((l) => ids.has((JSON.parse(l) as { subject: string }).subject))
      expect(lines(fileIn(res, 'audit.jsonl')), JSON.stringify(filter)).toEqual(about)
      expect((await verifyExport(res.manifestPath)).ok).toBe(true)
    }
  })
})
