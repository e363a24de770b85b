/**
 * Deposits ("compras de DePix") go through the one exporter and the one verifier as a record kind: CSV, JSON and
 * HTML with their own columns and words, a signed manifest naming the kind, totals by the deposit meaning (only
 * DePix received is paid; a MED is returned), the audit member; tampering is caught like for withdrawals.
 */
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { openLedger, type Ledger } from '../../../src/main/ledger/sqlite/index'
import { openReview, verifyExport } from '../../../src/main/records/index'
import { BOM, csvHeader, csvLine, parseCsv } from '../../../src/main/records/csv'
import { DEPOSIT_CSV_COLUMNS, LEGACY_DEPOSIT_CSV_COLUMNS } from '../../../src/main/records/deposit-columns'
import {
  exportTo,
  fileIn,
  fixHash,
  readManifest,
  resign,
  rowsInOrder,
  SIGNER,
  track,
  writeManifest,
} from './helpers'
import { tempDir } from './fixtures'

const PROFILE = 'sandbox'
const ADDRESS = 'ex1qq2jw3rjsfddfl5xu2ktlujm35t6k7a5z5m6q8l'

function deposit(
  ledger: Ledger,
  cents: number,
  statuses: string[],
  extra: Record<string, unknown> = {},
): string {
  const r = ledger.deposits.insertSubmitting(
    { profile: PROFILE, request: { amountInCents: cents, depixAddress: ADDRESS } },
    'analista',
  )
  const qrId = `qr-${r.localId}`
  ledger.deposits.markCreated(r.localId, {
    remoteId: qrId,
    createResponse: { id: qrId, qrCopyPaste: '000201', expiration: '2025-06-01T12:30:00Z' },
    requestId: 'req-1',
  })
  statuses.forEach((status, i) => {
    ledger.deposits.recordObservation(r.localId, {
      status,
      body: { qrId, status, valueInCents: cents, ...(status === 'depix_sent' ? extra : {}) },
      requestId: `req-s${i}`,
      observedAt: new Date(Date.parse('2025-06-01T12:00:00Z') + (i + 1) * 60_000).toISOString(),
    })
  })
  return r.localId
}

function seeded(): Ledger {
  const ledger = track(openLedger(path.join(tempDir('deposits-export-'), 'ledger.sqlite')))
  deposit(ledger, 50_000, ['pending', 'depix_sent'], {
    blockchainTxID: 'ab'.repeat(32),
    payerName: 'Empresa',
  })
  deposit(ledger, 12_345, ['pending'])
  deposit(ledger, 70_000, ['pending', 'depix_sent', 'refunded'])
  deposit(ledger, 9_900, ['pending', 'expired'])
  // A withdrawal in the same ledger must never appear in a deposit export.
  ledger.insertSubmitting(
    {
      profile: PROFILE,
      request: { pixKey: 'a@b.com', depositAmountInCents: 1_000 },
      pixKey: 'a@b.com',
      amountKind: 'deposit',
      amountCents: 1_000,
    },
    'analista',
  )
  return ledger
}

describe('deposit export', () => {
  it('writes every format with the deposit columns, a manifest naming the kind, and verifies intact', async () => {
    const ledger = seeded()
    const res = await exportTo(ledger, { kind: 'deposit' })
    expect(res.rowCount).toBe(4)
    const m = readManifest(res) as unknown as Record<string, unknown> & {
      meaningTotals: Record<string, { count: number; depositCents: number; payoutCents: number }>
    }
    expect(m.recordKind).toBe('deposit')
    // Only DePix received is paid; the MED-reversed one is returned, the open QR open, the expired one ended.
    expect(m.meaningTotals.paid).toEqual({ count: 1, depositCents: 50_000, payoutCents: 0 })
    expect(m.meaningTotals.returned).toEqual({ count: 1, depositCents: 70_000, payoutCents: 0 })
    expect(m.meaningTotals.open).toEqual({ count: 1, depositCents: 12_345, payoutCents: 0 })
    expect(m.meaningTotals.ended).toEqual({ count: 1, depositCents: 9_900, payoutCents: 0 })
    expect(m.meaningTotals.feesPaidCents).toBe(0)

    const csv = fs.readFileSync(fileIn(res, 'records.csv'), 'utf8')
    expect(csv.split('\r\n')[0]).toContain('Transação Liquid do DePix')
    expect(csv).not.toContain('a@b.com')
    expect(csv).toContain('ab'.repeat(32))
    const json = JSON.parse(fs.readFileSync(fileIn(res, 'records.json'), 'utf8')) as {
      schema: string
      records: Array<{ localId: string }>
    }
    expect(json.schema).toBe('tesouraria-depix/deposits')
    expect(json.records.every((r) => r.localId.startsWith('dep-'))).toBe(true)
    const html = fs.readFileSync(fileIn(res, 'report.html'), 'utf8')
    expect(html).toContain('relatório de compras de DePix')
    expect(html).toContain('DePix recebido')
    expect(html).toContain('Devolvido ao pagador (MED)')
    expect(html).not.toContain('Tarifas pagas')

    const v = await verifyExport(res.manifestPath, { expectFingerprint: undefined })
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
  })

  it('the offline review loads a deposit export as deposits, with the same totals', async () => {
    const ledger = seeded()
    const res = await exportTo(ledger, { kind: 'deposit' })
    const review = await openReview(res.manifestPath)
    try {
      expect(review.verification.ok).toBe(true)
      expect(review.ledger.query({}).total).toBe(0)
      const page = review.ledger.deposits.query({})
      expect(page.total).toBe(4)
      expect(page.rows.map((r) => r.localId).sort()).toEqual(
        ledger.deposits
          .query({})
          .rows.map((r) => r.localId)
          .sort(),
      )
      expect(review.ledger.deposits.totalsByStatus({})).toEqual(ledger.deposits.totalsByStatus({}))
      expect(review.ledger.verifyAuditChain().ok).toBe(true)
    } finally {
      review.close()
    }
  })

  it('a withdrawal export of the same ledger holds no deposit and names no kind', async () => {
    const ledger = seeded()
    const res = await exportTo(ledger)
    expect(res.rowCount).toBe(1)
    expect(readManifest(res).recordKind).toBeUndefined()
    expect((await verifyExport(res.manifestPath)).ok).toBe(true)
  })

  it('catches a CSV amount edited and re-hashed, and a manifest relabelled as withdrawals', async () => {
    const ledger = seeded()
    const res = await exportTo(ledger, { kind: 'deposit' })
    const file = fileIn(res, 'records.csv')
    fs.writeFileSync(file, fs.readFileSync(file, 'utf8').replaceAll('500,00', '900,00'))
    const m = readManifest(res)
    fixHash(res, m, 'records.csv')
    resign(m, SIGNER)
    writeManifest(res, m)
    const edited = await verifyExport(res.manifestPath)
    expect(edited.ok).toBe(false)
    expect(edited.problems.some((p) => p.file === 'records.csv' && p.check === 'totals')).toBe(true)

    const res2 = await exportTo(ledger, { kind: 'deposit' })
    const m2 = readManifest(res2)
    delete m2.recordKind
    resign(m2, SIGNER)
    writeManifest(res2, m2)
    const relabelled = await verifyExport(res2.manifestPath)
    expect(relabelled.ok).toBe(false)
    expect(relabelled.problems.some((p) => p.check === 'schema' || p.check === 'totals')).toBe(true)
  })

  it('the CSV opens with what a person reads: date, payer, CPF/CNPJ, R$, status in words; codes after', async () => {
    const ledger = seeded()
    const res = await exportTo(ledger, { kind: 'deposit' })
    const rows: string[][] = []
    parseCsv(fs.readFileSync(fileIn(res, 'records.csv')).subarray(3), ';', (row) => {
      rows.push(Array.from({ length: row.length }, (_, i) => row.cell(i)))
    })
    expect(rows[0]?.slice(0, 6)).toEqual([
      'Criada em',
      'Pagador',
      'CPF/CNPJ do pagador',
      'Valor da compra (R$)',
      'Situação',
      'Endereço Liquid de destino',
    ])
    const paid = rows.find((r) => r[3] === '500,00')
    expect(paid?.slice(1, 6)).toEqual(['Empresa', '', '500,00', 'DePix recebido', ADDRESS])
    expect(paid?.[0]).toMatch(/^\d{2}\/\d{2}\/\d{4} \d{2}:\d{2}:\d{2}$/)
    // The code stays, later, for scripts and the verifier.
    const header = rows[0] ?? []
    expect(header.indexOf('Situação (código)')).toBeGreaterThan(header.indexOf('Situação'))
    expect(paid?.[header.indexOf('Situação (código)')]).toBe('depix_sent')
    expect(rows.find((r) => r[3] === '700,00')?.[4]).toBe('Devolvido ao pagador (MED)')
  })

  it("a deposit CSV in the order of exports made before issue #26 still verifies; today's rows under it do not", async () => {
    const ledger = seeded()
    for (const [locale, delimiter] of [
      ['pt-BR', ';'],
      ['en', ','],
    ] as const) {
      const res = await exportTo(ledger, { kind: 'deposit', locale, csvDelimiter: delimiter })
      const file = fileIn(res, 'records.csv')
      const todays = fs.readFileSync(file, 'utf8').slice(1).split('\r\n').slice(1)
      const legacyHeader = csvLine(csvHeader(locale, LEGACY_DEPOSIT_CSV_COLUMNS), delimiter).slice(0, -2)
      expect(legacyHeader.startsWith(locale === 'pt-BR' ? '"ID local"' : '"local_id"')).toBe(true)
      const rows = rowsInOrder(file, delimiter, DEPOSIT_CSV_COLUMNS, LEGACY_DEPOSIT_CSV_COLUMNS)
      fs.writeFileSync(file, BOM + [legacyHeader, ...rows, ''].join('\r\n'))
      const m = readManifest(res)
      fixHash(res, m, 'records.csv')
      resign(m, SIGNER)
      writeManifest(res, m)
      expect((await verifyExport(res.manifestPath)).problems).toEqual([])

      // Today's rows under the older header: the status and amount are read where the older order has them.
      fs.writeFileSync(file, BOM + [legacyHeader, ...todays].join('\r\n'))
      fixHash(res, m, 'records.csv')
      resign(m, SIGNER)
      writeManifest(res, m)
      const v = await verifyExport(res.manifestPath)
      expect(v.ok).toBe(false)
      expect(v.problems.some((p) => p.file === 'records.csv' && p.check === 'totals')).toBe(true)
    }
  })
})
