/**
 * Totals by meaning in the exports: the ledger's SQL and the exporter's accumulator agree on refund fees, and
 * the HTML report and the manifest count only paid records as paid.
 */
import fs from 'node:fs'
import { describe, expect, it } from 'vitest'
import { sortTotals, TotalsAccumulator, withdrawalTotalsRow } from '../../../src/main/records/totals'
import { meaningTotals } from '../../../src/shared/money-totals'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { makeRecords, seededLedger } from './fixtures'
import { exportTo, fileIn, readManifest, track } from './helpers'

/** Records with refunds of every shape the service might send (the fee's name is "not shown" in the API contract). */
function withOddRefunds(): WithdrawalRecord[] {
  const shapes: Array<Record<string, unknown>> = [
    { txId: 'a', reason: 'invalid_pix_key', feeInCents: 100 },
    { txId: 'b', reason: 'payout_failure', feeWithheldInCents: 75 },
    { txId: 'c', reason: 'x', feeInCents: '100', withheldFeeInCents: 30 },
    { txId: 'd', reason: 'x', feeInCents: -5 },
    { txId: 'e', reason: 'x', feeInCents: 1.5 },
    { txId: 'f', reason: 'x', feeInCents: 2 ** 60 },
    { txId: 'g', reason: 'x', feeInCents: { cents: 1 } },
    { txId: 'h' },
  ]
  const out = [...makeRecords(200, { seed: 42 })]
  let k = 0
  for (const r of out) {
    if (r.localState === 'created' && r.remoteStatus !== 'refunded' && k < shapes.length * 3) {
      r.refund = shapes[k % shapes.length] ?? null
      k += 1
    }
  }
  return out
}

describe('totals by meaning', () => {
  it('the ledger’s SQL reads refund fees exactly as the exporter does', () => {
    const records = withOddRefunds()
    const { ledger } = seededLedger(records)
    track(ledger)
    const acc = new TotalsAccumulator()
    for (const r of records) acc.add(withdrawalTotalsRow(r))
    expect(sortTotals(ledger.totalsByStatus())).toEqual(acc.result())
    // 3 × (100 + 75 + 30), plus the fixtures' own refunded records at 100 each.
    const own = records.filter((r) => r.remoteStatus === 'refunded').length
    expect(meaningTotals(acc.result()).feesWithheldCents).toBe(3 * 205 + own * 100)
  })

  it('the manifest and the HTML report count only paid records as paid', async () => {
    const { ledger } = seededLedger(makeRecords(300))
    track(ledger)
    const res = await exportTo(ledger)
    const m = readManifest(res)
    const totals = ledger.totalsByStatus()
    const expected = meaningTotals(totals)
    expect(m.meaningTotals).toEqual(expected)
    const sent = totals.filter((t) => t.status === 'sent' && !t.hasRefund)
    expect(expected.paid.payoutCents).toBe(sent.reduce((n, t) => n + t.payoutCents, 0))
    const everything = totals.reduce((n, t) => n + t.payoutCents, 0)
    expect(expected.paid.payoutCents).toBeLessThan(everything)
    expect(expected.open.count).toBeGreaterThan(0)
    expect(expected.returned.count).toBeGreaterThan(0)

    const html = fs.readFileSync(fileIn(res, 'report.html'), 'utf8')
    const paidRow = /<tr data-meaning="paid">(.*?)<\/tr>/.exec(html)?.[1] ?? ''
    expect(paidRow).toContain('<th scope="row">Pago</th>')
    const brl = (c: number): string =>
      (c / 100)
        .toFixed(2)
        .replace('.', ',')
        .replace(/\B(?=(\d{3})+(?!\d))/g, '.')
    expect(paidRow).toContain(`>${brl(expected.paid.payoutCents)}</td>`)
    expect(html).toContain('<tr data-meaning="returned"><th scope="row">Devolvido</th>')
    expect(html).toMatch(/<tr id="fees-withheld">.*data-v="\d+"/)
    // The per-day table sums what was paid, not every amount created that day.
    const dayFoot = /<table id="totals-day">[\s\S]*?<tfoot><tr>(.*?)<\/tr><\/tfoot>/.exec(html)?.[1] ?? ''
    expect(dayFoot).toContain(`>${brl(expected.paid.payoutCents)}</td>`)
    expect(dayFoot).not.toContain(`>${brl(everything)}</td>`)
  })

  it('the report says statuses in the export’s language, in the totals and in every record row', async () => {
    const { ledger } = seededLedger(makeRecords(80))
    track(ledger)
    const pt = fs.readFileSync(fileIn(await exportTo(ledger, { locale: 'pt-BR' }), 'report.html'), 'utf8')
    const en = fs.readFileSync(fileIn(await exportTo(ledger, { locale: 'en' }), 'report.html'), 'utf8')
    const statusCells = (html: string): string[] =>
      [...html.matchAll(/<tr class="rec"><td class="d"[^>]*>[^<]*<\/td><td>([^<]*)<\/td>/g)].map(
        (x) => x[1] ?? '',
      )
    expect(statusCells(pt).length).toBe(80)
    expect(new Set(statusCells(pt))).toContain('Pago')
    for (const c of statusCells(pt)) expect(c).not.toMatch(/^(sent|unsent|sending|refunded|expired|created)$/)
    expect(new Set(statusCells(en))).toContain('Paid')
    expect(pt).toContain('<th scope="col">Situação</th>')
    expect(en).toContain('<th scope="col">Status</th>')
    expect(pt).not.toMatch(/<tr><td>(sent|unsent|refunded)<\/td>/)
  })
})
