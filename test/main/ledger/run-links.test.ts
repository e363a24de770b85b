/**
 * The payment run ("Lote") of a withdrawal (issue #26), on both engines: a run's row names the record it became,
 * and the list query, the detail's lookup and the export read the run (and the row's payee name) through that row. The export writes the
 * run's name and line in the people's part of the CSV and its id at the end, leaves records.json the records'
 * own (no run member, so state hashes and earlier exports are untouched), and still verifies.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { LedgerStore } from '../../../src/main/ledger/engines'
import type { RunStore } from '../../../src/main/ledger/run-store'
import { generateLiquidAddress } from '../../../src/main/liquid'
import { verifyExport } from '../../../src/main/records'
import { parseCsv } from '../../../src/main/records/csv'
import { exportFrom } from '../../../src/main/records/export'
import type { ExportLedger } from '../../../src/main/ledger/engines'
import type { ImportedRow } from '../../../src/shared/run'
import { tempDir } from '../records/fixtures'
import { SIGNER } from '../records/helpers'
import { bothEngines } from './engines'

const engines = bothEngines('run links (Lote)', 'run-links-')
const refund = generateLiquidAddress('liquid').address

const row = (i: number): ImportedRow => ({
  line: i + 2,
  draft: {
    pixKey: `lote-${i}-${randomUUID().slice(0, 8)}@example.com`,
    taxNumber: '52998224725',
    amount: { kind: 'payout', cents: 1_000 + i },
    refundAddress: refund,
  },
  // A name typed in the spreadsheet that matched no book entry: the payee's name until the service reports one.
  payee: { kind: 'none', payeeId: null, name: `Fornecedora ${i}` },
  refundFromProfile: false,
  duplicate: null,
  warnings: [],
})

/** A payment made as the run executor makes it: the row goes in flight naming the record, then the record. */
async function payRow(
  store: LedgerStore,
  runs: RunStore,
  profile: string,
  runId: string,
  r: ImportedRow,
  idx: number,
) {
  const localId = randomUUID()
  await runs.changeRow(runId, idx, ['queued'], { state: 'in_flight', localId }, 'Ana', 'run.row_in_flight')
  const pixKey = r.draft.pixKey
  const cents = r.draft.amount.cents
  await store.insertSubmitting(
    {
      localId,
      profile,
      pixKey,
      amountKind: 'payout',
      amountCents: cents,
      request: { pixKey, taxNumber: '52998224725', payoutAmountInCents: cents },
    },
    'Ana',
  )
  await runs.changeRow(runId, idx, ['in_flight'], { state: 'submitted' }, 'Ana', 'run.row_submitted')
  return localId
}

/** A run approved and its first wave started with every row: what the executor pays from. */
async function startedRun(runs: RunStore, profile: string, name: string, rows: ImportedRow[]) {
  const run = await runs.create({ profile, name, rows }, 'Ana')
  await runs.setState(run.runId, ['draft'], 'approved', 'Ana', 'run.approved', {}, { hash: 'ab'.repeat(32) })
  await runs.leases?.claim(run.runId, 60_000)
  await runs.startWave(
    run.runId,
    1,
    rows.map((_, i) => i),
    'Ana',
  )
  return run
}

async function lonePayment(store: LedgerStore, profile: string): Promise<string> {
  const pixKey = `so-${randomUUID().slice(0, 8)}@example.com`
  const r = await store.insertSubmitting(
    {
      profile,
      pixKey,
      amountKind: 'payout',
      amountCents: 777,
      request: { pixKey, payoutAmountInCents: 777 },
    },
    'Ana',
  )
  return r.localId
}

function csvRows(file: string): string[][] {
  const buf = readFileSync(file)
  const rows: string[][] = []
  parseCsv(buf.subarray(3), ';', (r) => rows.push(Array.from({ length: r.length }, (_, i) => r.cell(i))))
  return rows
}

describe.each(engines)('a run’s payment and its Lote on $name', (engine) => {
  let store: LedgerStore
  let runs: RunStore
  let exports: ExportLedger
  let done: () => Promise<void>
  beforeAll(async () => {
    ;({ store, runs, exports, done } = await engine.open())
  }, 120_000)
  afterAll(async () => done?.())

  it('lists, looks up and exports the run of a run’s payment, and nothing for a lone one', async () => {
    const profile = `p-${randomUUID()}`
    const rows = [row(0), row(1)]
    const run = await startedRun(runs, profile, 'Folha de novembro', rows)
    // Row 1 (spreadsheet line 3) is paid; row 0 stays queued: no record, no link.
    const fromRun = await payRow(store, runs, profile, run.runId, rows[1]!, 1)
    const alone = await lonePayment(store, profile)

    const page = await store.query({ profile })
    expect(page.rows.map((r) => r.localId).sort()).toEqual([fromRun, alone].sort())
    expect(page.runs).toEqual({
      [fromRun]: { runId: run.runId, name: 'Folha de novembro', line: 3, payee: 'Fornecedora 1' },
    })
    const links = await store.runLinks([fromRun, alone, 'no-such-id'])
    expect([...links.keys()]).toEqual([fromRun])

    const res = await exportFrom(exports, {
      dir: tempDir('run-links-export-'),
      formats: ['csv', 'json', 'html'],
      signer: SIGNER,
      appVersion: '0.1.0-test',
      profile: { name: 'Teste', network: 'liquid' },
      filter: { profile },
    })
    const [header, ...cells] = csvRows(join(res.folder, 'records.csv'))
    const lote = header!.indexOf('Lote')
    const runIdAt = header!.indexOf('ID do lote')
    // The people's part: right after the cost centre; the id for scripts is the last column.
    expect(header![lote - 1]).toBe('Centro de custo')
    expect(runIdAt).toBe(header!.length - 1)
    const byId = new Map(cells.map((c) => [c[header!.indexOf('ID local')]!, c]))
    expect(byId.get(fromRun)?.[lote]).toBe('Folha de novembro · linha 3')
    expect(byId.get(fromRun)?.[runIdAt]).toBe(run.runId)
    expect(byId.get(alone)?.[lote]).toBe('')
    // Names first: the spreadsheet's name is the payee's name of the run's payment (nothing reported yet).
    const name = header!.indexOf('Nome do favorecido')
    expect(byId.get(fromRun)?.[name]).toBe('Fornecedora 1')
    expect(byId.get(alone)?.[name]).toBe('')
    expect(byId.get(alone)?.[runIdAt]).toBe('')
    const report = readFileSync(join(res.folder, 'report.html'), 'utf8')
    expect(report).toContain('Folha de novembro · linha 3')
    // records.json stays the records' own: the run is not a member of any record.
    const json = readFileSync(join(res.folder, 'records.json'), 'utf8')
    expect(json).not.toContain(run.runId)
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
  }, 60_000)

  it('an export asks for runs a batch of records at a time, never the whole ledger, and misses none', async () => {
    const profile = `p-${randomUUID()}`
    const rows = [row(0)]
    const run = await startedRun(runs, profile, 'Lote grande', rows)
    // More records than one batch, the run's payment among the first and the last written.
    const early = await lonePayment(store, profile)
    for (let i = 0; i < 520; i++) await lonePayment(store, profile)
    const fromRun = await payRow(store, runs, profile, run.runId, rows[0]!, 0)
    const asked: number[] = []
    const counting: ExportLedger = {
      ...exports,
      open: async () => {
        const view = await exports.open()
        return {
          ...view,
          runLinksOf: (ids) => {
            asked.push(ids.length)
            return view.runLinksOf(ids)
          },
        }
      },
    }
    const res = await exportFrom(counting, {
      dir: tempDir('run-links-batch-'),
      formats: ['csv'],
      signer: SIGNER,
      appVersion: '0.1.0-test',
      profile: { name: 'Teste', network: 'liquid' },
      filter: { profile },
    })
    expect(asked.reduce((a, b) => a + b, 0)).toBe(522)
    expect(asked.length).toBeGreaterThan(1)
    expect(Math.max(...asked)).toBeLessThanOrEqual(500)
    const [header, ...cells] = csvRows(join(res.folder, 'records.csv'))
    const byId = new Map(cells.map((c) => [c[header!.indexOf('ID local')]!, c]))
    expect(byId.get(fromRun)?.[header!.indexOf('Lote')]).toBe('Lote grande · linha 2')
    expect(byId.get(early)?.[header!.indexOf('Lote')]).toBe('')
  }, 120_000)
})
