/**
 * A team export's receipts member (ledger/pg/export-receipts.ts through records/export.ts) on a real
 * throwaway cluster, two analyst roles: receipts stored by one desk are exported by the other with the export's
 * records and verify intact; they are read in the export's own view (a receipt stored after the view began is not
 * in it); a receipt whose bytes the owner changed, with or without its hash, is left out and counted, never
 * vouched for, while the intact one next to it is still exported.
 */
import { randomUUID } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewWithdrawal } from '../../../../src/main/ledger/sqlite'
import type { PgLedgerStore } from '../../../../src/main/ledger/engines'
import { openPgLedgerView, pgExportLedger } from '../../../../src/main/ledger/pg/export-view'
import { pgReceipts } from '../../../../src/main/ledger/pg/receipts'
import { sha256Hex } from '../../../../src/main/receipts'
import { verifyExport } from '../../../../src/main/records'
import { exportFrom, type ExportOptions, type ExportResult } from '../../../../src/main/records/export'
import { writeReceiptEntries } from '../../../../src/main/records/receipts-member'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { tempDir } from '../../records/fixtures'
import { SIGNER } from '../../records/helpers'
import { startTeam, type Team } from '../team'

announceSkip('team export receipts (postgres)')

const pdf = (n: string): Buffer =>
  Buffer.from(`%PDF-1.4\n% comprovante ${n}\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n`)

const options = (over: Partial<ExportOptions> = {}): ExportOptions => ({
  dir: tempDir('team-export-receipts-'),
  formats: ['json'],
  includeReceipts: true,
  signer: SIGNER,
  appVersion: '0.1.0-test',
  profile: { name: 'Equipe', network: 'liquid' },
  ...over,
})

interface ReceiptEntry {
  name: string
  format: string
  localId?: string
  sha256: string
}

describe.skipIf(PG_SKIP_REASON !== null)('a team export’s receipts', () => {
  let team: Team
  let ana: PgLedgerStore
  let bruno: PgLedgerStore

  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    bruno = await team.desk('bruno')
  }, 60_000)
  afterAll(async () => team?.stop())

  /** A payout bruno made, sent, its receipt stored by ana (the leader) with `bytes`. */
  const paidWithReceipt = async (bytes: Buffer | null): Promise<string> => {
    const pixKey = `${randomUUID()}@example.com`
    const input: NewWithdrawal = {
      localId: randomUUID(),
      profile: 'main',
      request: { pixKey, payoutAmountInCents: 10_000 },
      pixKey,
      amountKind: 'payout',
      amountCents: 10_000,
    }
    const r = await bruno.insertSubmitting(input, 'bruno')
    const remoteId = randomUUID()
    await bruno.markCreated(r.localId, { remoteId, createResponse: null, requestId: null })
    const url = `https://receipts.example/r/${r.localId}`
    await ana.recordObservation(r.localId, {
      status: 'sent',
      body: { id: remoteId, status: 'sent', receiptUrl: url },
    })
    if (bytes) {
      const rc = pgReceipts(ana.pool)
      expect(await rc.track(r.localId, url)).toBe(true)
      expect(
        await rc.stored(r.localId, { bytes, sha256: sha256Hex(bytes), mediaType: 'application/pdf' }),
      ).toBe(true)
    }
    return r.localId
  }

  const receiptsOf = (res: ExportResult): ReceiptEntry[] => {
    const m = JSON.parse(readFileSync(res.manifestPath, 'utf8')) as { files: ReceiptEntry[] }
    return m.files.filter((f) => f.format === 'receipt')
  }

  /** The `records.exported` entry of the last export (as every desk reads it). */
  const lastExported = async (): Promise<Record<string, unknown>> => {
    const owner = await team.owner()
    const r = await owner.query(
      `SELECT operator, details FROM audit_log WHERE action = 'records.exported' ORDER BY seq DESC LIMIT 1`,
    )
    const row = r.rows[0] as { operator: string; details: string }
    return { operator: row.operator, ...(JSON.parse(row.details) as Record<string, unknown>) }
  }

  /** Runs `sql` as the owner with the receipts' guard off, as someone editing the table by hand would. */
  const asOwner = async (sql: string, params: unknown[]): Promise<void> => {
    const owner = await team.owner()
    await owner.query('ALTER TABLE receipts DISABLE TRIGGER USER')
    try {
      await owner.query(sql, params)
    } finally {
      await owner.query('ALTER TABLE receipts ENABLE TRIGGER USER')
    }
  }

  let first = ''
  let second = ''
  const A = pdf('A')
  const B = pdf('B')

  it('receipts stored by one desk are exported by the other, with their bytes, and verify intact', async () => {
    first = await paidWithReceipt(A)
    second = await paidWithReceipt(B)
    const pending = await paidWithReceipt(null) // no receipt yet: nothing listed, nothing skipped
    const res = await exportFrom(pgExportLedger(bruno), options())
    const v = await verifyExport(res.manifestPath)
    expect(v.problems).toEqual([])
    expect(v.ok).toBe(true)
    const listed = receiptsOf(res)
    expect(listed.map((e) => e.localId).sort()).toEqual([first, second].sort())
    expect(listed.map((e) => e.localId)).not.toContain(pending)
    for (const [id, bytes] of [
      [first, A],
      [second, B],
    ] as const) {
      const e = listed.find((x) => x.localId === id)!
      expect(e).toMatchObject({ name: `receipts/${sha256Hex(bytes)}.pdf`, sha256: sha256Hex(bytes) })
      expect(readFileSync(join(res.folder, e.name)).equals(bytes)).toBe(true)
    }
    expect(await lastExported()).toMatchObject({ operator: 'bruno', receipts: 2, receiptsSkipped: 0 })
  })

  it('without includeReceipts, or filtered to other records, no receipt is written', async () => {
    const none = await exportFrom(pgExportLedger(bruno), options({ includeReceipts: false }))
    expect(receiptsOf(none)).toEqual([])
    expect(existsSync(join(none.folder, 'receipts'))).toBe(false)
    const other = await exportFrom(pgExportLedger(bruno), options({ filter: { profile: 'nobody' } }))
    expect(other.rowCount).toBe(0)
    expect(receiptsOf(other)).toEqual([])
  })

  it('the receipts are read in the export’s view: one stored after it began is not in it', async () => {
    const later = await paidWithReceipt(null)
    const view = await openPgLedgerView(bruno.pool)
    const folder = tempDir('team-view-receipts-')
    try {
      // ana stores the receipt after bruno's view began (committed before bruno reads the receipts).
      const rc = pgReceipts(ana.pool)
      const bytes = pdf('later')
      expect(await rc.track(later, `https://receipts.example/r/${later}`)).toBe(true)
      expect(await rc.stored(later, { bytes, sha256: sha256Hex(bytes), mediaType: 'application/pdf' })).toBe(
        true,
      )
      const asked = new Set([first, later])
      const got = await writeReceiptEntries(folder, asked, view.receiptCandidates(asked))
      expect(got.entries.map((e) => (e as ReceiptEntry).localId)).toEqual([first])
      expect(got.skipped).toBe(0)
    } finally {
      await view.close()
    }
    const now = await exportFrom(pgExportLedger(bruno), options())
    expect(receiptsOf(now).map((e) => e.localId)).toContain(later)
    expect((await verifyExport(now.manifestPath)).ok).toBe(true)
  })

  it('a receipt is read only while its view is open: after close() its candidates are refused', async () => {
    const view = await openPgLedgerView(bruno.pool)
    const asked = new Set([first])
    const got = []
    for await (const c of view.receiptCandidates(asked)) got.push(c)
    expect(got.map((c) => c.localId)).toEqual([first])
    expect((await got[0]!.read())?.equals(A)).toBe(true)
    await view.close()
    // Its connection went back to the pool: a read now would be of another moment, so it is refused.
    await expect(got[0]!.read()).rejects.toThrow(/closed/)
    await expect(
      (async () => {
        for await (const c of view.receiptCandidates(asked)) void c
      })(),
    ).rejects.toThrow(/closed/)
  })

  it('bytes changed by the owner, without and then with their hash, are left out and counted', async () => {
    const forged = pdf('forged')
    // Bytes only: they no longer match the hash stored with them.
    await asOwner(`UPDATE receipts SET bytes = $2, size = $3 WHERE local_id = $1`, [
      first,
      forged,
      forged.length,
    ])
    const one = await exportFrom(pgExportLedger(bruno), options())
    const v1 = await verifyExport(one.manifestPath)
    expect(v1.problems).toEqual([])
    expect(receiptsOf(one).map((e) => e.localId)).not.toContain(first)
    expect(receiptsOf(one).map((e) => e.localId)).toContain(second)
    expect(await lastExported()).toMatchObject({ receiptsSkipped: 1 })
    expect(readdirSync(join(one.folder, 'receipts'))).not.toContain(`${sha256Hex(forged)}.pdf`)

    // Bytes and hash together: the row agrees with itself, not with the hash the audit trail recorded.
    await asOwner(`UPDATE receipts SET sha256 = $2 WHERE local_id = $1`, [first, sha256Hex(forged)])
    const two = await exportFrom(pgExportLedger(bruno), options())
    expect((await verifyExport(two.manifestPath)).ok).toBe(true)
    expect(receiptsOf(two).map((e) => e.localId)).not.toContain(first)
    expect(receiptsOf(two).map((e) => e.localId)).toContain(second)
    expect(await lastExported()).toMatchObject({ receiptsSkipped: 1 })
    for (const f of readdirSync(join(two.folder, 'receipts')))
      expect(readFileSync(join(two.folder, 'receipts', f)).equals(forged)).toBe(false)

    // Put back as stored: exported again (what was skipped was the change, not the record).
    await asOwner(`UPDATE receipts SET bytes = $2, size = $3, sha256 = $4 WHERE local_id = $1`, [
      first,
      A,
      A.length,
      sha256Hex(A),
    ])
    const back = await exportFrom(pgExportLedger(bruno), options())
    expect(receiptsOf(back).map((e) => e.localId)).toContain(first)
    expect(await lastExported()).toMatchObject({ receiptsSkipped: 0 })
  })
})
