/**
 * "Move a desk ledger into the team ledger" carries everything a desk has (pg/desk-import.ts): the payee book, the
 * payment runs (only in a state that cannot send) and the stored receipts (bytes checked), next to its payments
 * with their references and expected payee (migration 5). Idempotent, desk ids kept, the desk trail carried, the
 * owner's CLI runs it. Real throwaway cluster; two roles.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLedger, type Ledger } from '../../../../src/main/ledger/sqlite'
import { auditHash } from '../../../../src/main/ledger/sqlite/audit'
import { importDeskLedger, type PgLedgerStore } from '../../../../src/main/ledger/engines'
import { main as ownerCli } from '../../../../src/main/ledger/team/cli'
import { pgPayeeStore } from '../../../../src/main/ledger/pg/payees'
import { pgReceipts } from '../../../../src/main/ledger/pg/receipts'
import { pgRunStore } from '../../../../src/main/ledger/pg/run-store'
import { generateLiquidAddress } from '../../../../src/main/liquid'
import { createPayeeBook } from '../../../../src/main/payees'
import { receiptsDir, writeReceiptFile } from '../../../../src/main/ledger/sqlite/receipt-files'
import type { ImportedRow } from '../../../../src/shared/run'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { handRun } from '../adversary'
import { startTeam, type Team } from '../team'

announceSkip('desk ledger import: payees, runs, receipts (postgres)')

const refund = generateLiquidAddress('liquid').address
const runRow = (i: number, cents = 1_000 + i): ImportedRow => ({
  line: i + 2,
  draft: {
    pixKey: `row-${randomUUID()}@example.com`,
    taxNumber: '52998224725',
    amount: { kind: 'payout', cents },
    refundAddress: refund,
  },
  payee: { kind: 'blank', payeeId: null, name: null },
  refundFromProfile: false,
  duplicate: null,
  warnings: [],
})

async function pgCode(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (e) {
    return String((e as { code?: unknown }).code)
  }
  return 'no error'
}

/**
 * The pool as it is, except that in its `txNo`-th checked-out connection the `queryNo`-th statement is replaced by
 * the backend terminating itself: the server cuts the connection in the middle of that transaction.
 */
function cutting(pool: pg.Pool, txNo: number, queryNo: number): pg.Pool {
  let tx = 0
  return new Proxy(pool, {
    get(target, key) {
      if (key === 'connect') {
        return async () => {
          const c = await target.connect()
          tx += 1
          if (tx !== txNo) return c
          let q = 0
          const query = c.query.bind(c) as (...a: unknown[]) => Promise<unknown>
          ;(c as unknown as { query: (...a: unknown[]) => Promise<unknown> }).query = (...a: unknown[]) => {
            q += 1
            return q === queryNo ? query('SELECT pg_terminate_backend(pg_backend_pid())') : query(...a)
          }
          return c
        }
      }
      const v: unknown = Reflect.get(target, key)
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v
    },
  })
}

describe.skipIf(PG_SKIP_REASON !== null)('importing a desk ledger: payees, runs, receipts', () => {
  let team: Team
  let ana: PgLedgerStore
  let bia: PgLedgerStore
  let owner: pg.Client
  const dirs: string[] = []
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    bia = await team.desk('bia')
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => {
    await team?.stop()
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true })
  })

  const freshDesk = (): Ledger => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-rest-'))
    dirs.push(dir)
    return openLedger(path.join(dir, 'ledger.sqlite'))
  }
  /** A payout the service created and sent, with its receipt URL (and what it is for). */
  const paidOnDesk = (desk: Ledger, o: { cents?: number; localId?: string } = {}) => {
    const key = `pay-${randomUUID()}@example.com`
    const cents = o.cents ?? 2_500
    const r = desk.insertSubmitting(
      {
        ...(o.localId ? { localId: o.localId } : {}),
        profile: 'desk',
        request: { pixKey: key, payoutAmountInCents: cents },
        pixKey: key,
        amountKind: 'payout',
        amountCents: cents,
        references: { invoice: 'NF-981', costCentre: 'Compras' },
        expectedPayee: { id: 'p-x', name: 'Maria da Silva', taxNumber: '52998224725' },
      },
      'Carla',
    )
    const remoteId = randomUUID()
    desk.markCreated(r.localId, { remoteId, createResponse: null, requestId: null })
    const url = `https://depix.example/r/${r.localId}`
    desk.recordObservation(r.localId, {
      status: 'sent',
      body: { id: remoteId, status: 'sent', receiptUrl: url },
    })
    return { localId: r.localId, url }
  }
  const storeReceiptOnDesk = (desk: Ledger, localId: string, url: string, bytes: Buffer): string => {
    desk.receipts.track(localId, url, new Date().toISOString())
    const dir = receiptsDir(desk.file)
    fs.mkdirSync(dir, { recursive: true })
    const sha256 = writeReceiptFile(dir, bytes, 'application/pdf')
    desk.receipts.stored(localId, {
      sha256,
      size: bytes.length,
      mediaType: 'application/pdf',
      fetchedAt: new Date().toISOString(),
    })
    return sha256
  }

  it('brings payees, final and draft runs, receipts and references in once, keeping ids and the desk trail', async () => {
    const desk = freshDesk()
    try {
      const book = createPayeeBook(desk)
      const maria = book.create(
        { name: 'Maria da Silva', taxNumber: '529.982.247-25', pixKeys: [{ key: 'maria@example.com' }] },
        'Carla',
      )
      book.update(
        maria.id,
        { name: maria.name, taxNumber: maria.taxNumber, pixKeys: maria.pixKeys, notes: 'fornecedora' },
        'Carla',
      )
      const acme = book.create(
        { name: 'ACME Ltda', taxNumber: '11.222.333/0001-81', pixKeys: [{ key: '+5561988887777' }] },
        'Carla',
      )
      // The team already has an entry with ACME's CNPJ (another desk made it): left alone, listed.
      const teamAcme = await pgPayeeStore(ana.pool).create(
        { name: 'ACME (equipe)', taxNumber: '11.222.333/0001-81', pixKeys: [{ key: 'acme@example.com' }] },
        'ana',
      )

      // Payments with what they are for and their payee; two with stored receipts, one file damaged on disk.
      const p1 = paidOnDesk(desk)
      const p2 = paidOnDesk(desk)
      const pdf = Buffer.from('%PDF-1.4 comprovante 1')
      const sha1 = storeReceiptOnDesk(desk, p1.localId, p1.url, pdf)
      const sha2 = storeReceiptOnDesk(desk, p2.localId, p2.url, Buffer.from('%PDF-1.4 comprovante 2'))
      fs.writeFileSync(path.join(receiptsDir(desk.file), `${sha2}.pdf`), 'forged')

      // A completed run whose two rows were sent as p3 and p4, a cancelled one, a draft with a decision, an
      // approved one not started.
      const done = desk.runs.create(
        { profile: 'desk', name: 'folha novembro', rows: [runRow(0), runRow(1)] },
        'Carla',
      )
      desk.runs.setState(
        done.runId,
        ['draft'],
        'approved',
        'Carla',
        'run.approved',
        {},
        { hash: 'ab'.repeat(32) },
      )
      desk.runs.startWave(done.runId, 1, [0, 1], 'Carla')
      for (const idx of [0, 1]) {
        const p = paidOnDesk(desk, { cents: 1_000 + idx })
        desk.runs.changeRow(
          done.runId,
          idx,
          ['queued'],
          { state: 'in_flight', localId: p.localId },
          'Carla',
          'x',
        )
        desk.runs.changeRow(done.runId, idx, ['in_flight'], { state: 'submitted' }, 'Carla', 'x')
      }
      desk.runs.setState(done.runId, ['creating'], 'completed', 'Carla', 'run.completed')
      const cancelled = desk.runs.create({ profile: 'desk', name: 'cancelado', rows: [runRow(0)] }, 'Carla')
      desk.runs.changeRow(cancelled.runId, 0, ['pending'], { state: 'dropped' }, 'Carla', 'run.row_cancelled')
      desk.runs.setState(cancelled.runId, ['draft'], 'cancelled', 'Carla', 'run.cancelled')
      const draft = desk.runs.create(
        { profile: 'desk', name: 'rascunho', rows: [runRow(0), runRow(1)] },
        'Carla',
      )
      desk.runs.changeRow(draft.runId, 1, ['pending'], { decision: 'drop' }, 'Carla', 'run.row_decided')
      const approved = desk.runs.create(
        { profile: 'desk', name: 'aprovado', rows: [runRow(0, 90_000)] },
        'Carla',
      )
      desk.runs.setState(
        approved.runId,
        ['draft'],
        'approved',
        'Carla',
        'run.approved',
        {},
        { hash: 'cd'.repeat(32) },
      )

      const first = await importDeskLedger(bia.pool, desk, 'bia')
      expect(first.imported).toBe(4)
      expect(first.rest.payees).toEqual({ imported: 1, skipped: 0, conflicts: [acme.id] })
      expect(first.rest.runs).toEqual({ imported: 4, skipped: 0, conflicts: [] })
      expect(first.rest.receipts).toEqual({
        imported: 1,
        skipped: 0,
        conflicts: [],
        unreadable: [p2.localId],
      })
      const again = await importDeskLedger(bia.pool, desk, 'bia')
      expect(again.rest).toEqual({
        payees: { imported: 0, skipped: 1, conflicts: [acme.id] },
        runs: { imported: 0, skipped: 4, conflicts: [] },
        receipts: { imported: 0, skipped: 1, conflicts: [], unreadable: [p2.localId] },
      })
      expect(again.skipped).toBe(4)

      // References and expected payee came with the payment (migration 5), exactly as the desk has them.
      const rec = await ana.get(p1.localId)
      expect(rec).toEqual(desk.get(p1.localId))
      expect(rec).toMatchObject({
        references: { invoice: 'NF-981', costCentre: 'Compras' },
        expectedPayee: { id: 'p-x', name: 'Maria da Silva' },
      })

      // Payees: the desk id kept, the team book reads it, the conflicting one untouched, the trail carried.
      const teamBook = pgPayeeStore(ana.pool)
      expect(await teamBook.byId(maria.id)).toMatchObject({ name: 'Maria da Silva', notes: 'fornecedora' })
      expect(await teamBook.byId(acme.id)).toBeUndefined()
      expect(await teamBook.byId(teamAcme.id)).toMatchObject({ name: 'ACME (equipe)' })
      const payeeRow = await owner.query('SELECT imported_from, created_by FROM payees WHERE id = $1', [
        maria.id,
      ])
      expect(payeeRow.rows[0]).toEqual({ imported_from: first.origin, created_by: 'bia' })
      const payeeEntry = (await ana.audit({ subject: `payee:${maria.id}` })).rows[0]
      expect(payeeEntry).toMatchObject({ action: 'payee.imported_from_desk', operator: 'bia' })
      const payeeHistory = payeeEntry?.details.history as (Parameters<typeof auditHash>[0] & {
        hash: string
      })[]
      expect(payeeHistory.map((h) => h.action)).toEqual(['payee.created', 'payee.updated'])
      for (const { hash, ...entry } of payeeHistory) expect(auditHash(entry)).toBe(hash)
      // An imported payee is edited like any other (its state hash is the team row's).
      const live = (await teamBook.byId(maria.id))!
      await teamBook.update(
        maria.id,
        {
          name: live.name,
          taxNumber: live.taxNumber,
          pixKeys: [{ key: 'maria@example.com' }],
          notes: 'equipe',
        },
        'ana',
        {
          expectedUpdatedAt: live.updatedAt,
        },
      )

      // Runs: ids, rows and local ids kept; the completed one final, the approved one a team draft.
      const a = pgRunStore(ana.pool, ana.identity)
      const b = pgRunStore(bia.pool, bia.identity)
      expect(await a.get(done.runId)).toMatchObject({
        state: 'completed',
        wave: 1,
        createdAt: done.createdAt,
      })
      expect((await a.rows(done.runId)).map((r) => [r.state, r.localId])).toEqual(
        desk.runs.rows(done.runId).map((r) => [r.state, r.localId]),
      )
      expect(await a.get(cancelled.runId)).toMatchObject({ state: 'cancelled' })
      expect((await a.rows(draft.runId)).map((r) => [r.state, r.decision])).toEqual([
        ['pending', null],
        ['pending', 'drop'],
      ])
      expect(await a.get(approved.runId)).toMatchObject({
        state: 'draft',
        approvedHash: null,
        approvedBy: null,
      })
      const runEntry = (await ana.audit({ subject: approved.runId })).rows[0]
      expect(runEntry).toMatchObject({ action: 'run.imported_from_desk', operator: 'bia' })
      expect(runEntry?.details).toMatchObject({ deskState: 'approved', state: 'draft' })
      const runHistory = runEntry?.details.history as { action: string }[]
      expect(runHistory.map((h) => h.action)).toContain('run.approved')
      // A final run cannot move on the team.
      await expect(a.startWave(done.runId, 2, [0], 'ana')).rejects.toMatchObject({
        code: 'illegal_transition',
      })
      expect(
        await pgCode(owner.query(`UPDATE runs SET state = 'creating' WHERE run_id = $1`, [done.runId])),
      ).toBe('22023')

      // Receipts: the desk's bytes, stored under the importing role, audited with the hash the desk recorded.
      const stored = await pgReceipts(ana.pool).bytes(p1.localId)
      expect(stored).toEqual({ bytes: pdf, auditedSha256: sha1 })
      expect(await pgReceipts(ana.pool).get(p2.localId)).toBeNull()
      const receiptRow = await owner.query('SELECT fetched_by FROM receipts WHERE local_id = $1', [
        p1.localId,
      ])
      expect(receiptRow.rows[0]).toEqual({ fetched_by: 'bia' })

      // One summary per import that moved something; the chain (payee book included) verifies.
      const summaries = await owner.query(`SELECT details FROM audit_log WHERE action = 'ledger.imported'`)
      expect(summaries.rows).toHaveLength(1)
      expect(JSON.parse(String(summaries.rows[0]?.details))).toMatchObject({
        deskHead: desk.auditHead(),
        payeesImported: 1,
        runsImported: 4,
        receiptsImported: 1,
      })
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })

      // The formerly approved run goes through the team's four-eyes: the importing role cannot approve it.
      await owner.query('UPDATE team_settings SET approval_above_cents = 50000 WHERE id = 1')
      try {
        await b.fourEyes!.requestApproval(approved.runId, 'ef'.repeat(32), 'bia', {})
        expect(
          await pgCode(
            b.setState(
              approved.runId,
              ['draft'],
              'approved',
              'bia',
              'run.approved',
              {},
              { hash: 'ef'.repeat(32) },
            ),
          ),
        ).toBe('approval_self')
        await expect(
          a.setState(
            approved.runId,
            ['draft'],
            'approved',
            'ana',
            'run.approved',
            {},
            { hash: 'ef'.repeat(32) },
          ),
        ).resolves.toMatchObject({ state: 'approved', approvedBy: 'ana' })
      } finally {
        await owner.query('UPDATE team_settings SET approval_above_cents = NULL WHERE id = 1')
      }
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    } finally {
      desk.close()
    }
  })

  it('two desks importing the same ledger at once: each thing once, no failure, the rerun skips all', async () => {
    const desk = freshDesk()
    try {
      const book = createPayeeBook(desk)
      const docs = ['27182818205', '31415926590', '16180339805']
      for (const [i, taxNumber] of docs.entries()) {
        book.create(
          { name: `Fornecedor ${i}`, taxNumber, pixKeys: [{ key: `f${i}-${randomUUID()}@example.com` }] },
          'Carla',
        )
      }
      const paid = Array.from({ length: 150 }, () => paidOnDesk(desk))
      storeReceiptOnDesk(desk, paid[0]!.localId, paid[0]!.url, Buffer.from('%PDF-1.4 corrida'))
      for (let i = 0; i < 2; i++) {
        const r = desk.runs.create({ profile: 'desk', name: `corrida ${i}`, rows: [runRow(0)] }, 'Carla')
        desk.runs.setState(r.runId, ['draft'], 'cancelled', 'Carla', 'run.cancelled')
      }
      const [a, b] = await Promise.all([
        importDeskLedger(ana.pool, desk, 'ana'),
        importDeskLedger(bia.pool, desk, 'bia'),
      ])
      const sum = (f: (r: typeof a) => number): number => f(a) + f(b)
      expect(sum((r) => r.imported)).toBe(150)
      expect(sum((r) => r.skipped)).toBe(150)
      expect(sum((r) => r.rest.payees.imported)).toBe(3)
      expect(sum((r) => r.rest.runs.imported)).toBe(2)
      expect(sum((r) => r.rest.receipts.imported)).toBe(1)
      expect([
        ...a.conflicts,
        ...b.conflicts,
        ...a.rest.payees.conflicts,
        ...b.rest.payees.conflicts,
      ]).toEqual([])
      const origin = a.origin
      const counts = await owner.query(
        `SELECT (SELECT count(*) FROM withdrawals WHERE imported_from = $1) AS w,
                (SELECT count(*) FROM payees WHERE imported_from = $1) AS p,
                (SELECT count(*) FROM runs WHERE imported_from = $1) AS r`,
        [origin],
      )
      expect(counts.rows[0]).toEqual({ w: '150', p: '3', r: '2' })
      const again = await importDeskLedger(bia.pool, desk, 'bia')
      expect(again).toMatchObject({
        imported: 0,
        skipped: 150,
        rest: {
          payees: { imported: 0, skipped: 3 },
          runs: { imported: 0, skipped: 2 },
          receipts: { imported: 0, skipped: 1 },
        },
      })
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    } finally {
      desk.close()
    }
  }, 60_000)

  it('a connection cut mid-import leaves whole batches only; running it again completes it once', async () => {
    const desk = freshDesk()
    try {
      createPayeeBook(desk).create(
        {
          name: 'Cortes Ltda',
          taxNumber: '11.444.777/0001-61',
          pixKeys: [{ key: `cut-${randomUUID()}@example.com` }],
        },
        'Carla',
      )
      const paid = Array.from({ length: 150 }, () => paidOnDesk(desk))
      storeReceiptOnDesk(desk, paid[149]!.localId, paid[149]!.url, Buffer.from('%PDF-1.4 corte'))
      const r = desk.runs.create({ profile: 'desk', name: 'corte', rows: [runRow(0)] }, 'Carla')
      desk.runs.setState(r.runId, ['draft'], 'cancelled', 'Carla', 'run.cancelled')
      const origin = `${desk.ledgerId}:ledger.sqlite`
      const count = async (): Promise<Record<string, string>> =>
        (
          await owner.query(
            `SELECT (SELECT count(*) FROM withdrawals WHERE imported_from = $1) AS w,
                    (SELECT count(*) FROM payees WHERE imported_from = $1) AS p,
                    (SELECT count(*) FROM runs WHERE imported_from = $1) AS r,
                    (SELECT count(*) FROM receipts WHERE local_id = $2) AS rc`,
            [origin, paid[149]!.localId],
          )
        ).rows[0] as Record<string, string>

      // Cut inside the second batch of payments: the first batch stays, nothing of the second.
      await expect(importDeskLedger(cutting(bia.pool, 2, 30), desk, 'bia')).rejects.toMatchObject({
        code: 'unavailable',
      })
      expect(await count()).toEqual({ w: '100', p: '0', r: '0', rc: '0' })
      // Cut inside the run's transaction (payments and payees done): no run, no half of one.
      await expect(importDeskLedger(cutting(bia.pool, 4, 6), desk, 'bia')).rejects.toMatchObject({
        code: 'unavailable',
      })
      expect(await count()).toEqual({ w: '150', p: '1', r: '0', rc: '0' })
      const done = await importDeskLedger(bia.pool, desk, 'bia')
      expect(done).toMatchObject({
        imported: 0,
        skipped: 150,
        rest: { payees: { skipped: 1 }, runs: { imported: 1 }, receipts: { imported: 1 } },
      })
      expect(await count()).toEqual({ w: '150', p: '1', r: '1', rc: '1' })
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    } finally {
      desk.close()
    }
  }, 60_000)

  it('refuses a desk with a run mid-wave, writing nothing; the database refuses it too', async () => {
    const desk = freshDesk()
    try {
      const paid = paidOnDesk(desk)
      createPayeeBook(desk).create(
        { name: 'Joana', taxNumber: '390.533.447-05', pixKeys: [{ key: 'joana@example.com' }] },
        'Carla',
      )
      const run = desk.runs.create(
        { profile: 'desk', name: 'em andamento', rows: [runRow(0), runRow(1)] },
        'Carla',
      )
      desk.runs.setState(
        run.runId,
        ['draft'],
        'approved',
        'Carla',
        'run.approved',
        {},
        { hash: 'ab'.repeat(32) },
      )
      desk.runs.startWave(run.runId, 1, [0], 'Carla')
      desk.runs.setState(run.runId, ['creating'], 'awaiting_funding', 'Carla', 'run.wave_created')
      const head = await ana.auditHead()
      const e = await importDeskLedger(bia.pool, desk, 'bia').catch((x: unknown) => x)
      expect(e).toMatchObject({ code: 'invalid_input' })
      expect((e as { userMessage: Record<string, string> }).userMessage['pt-BR']).toContain('em andamento')
      expect(await ana.auditHead()).toEqual(head)
      expect(await ana.get(paid.localId)).toBeUndefined()
      expect((await owner.query('SELECT 1 FROM runs WHERE run_id = $1', [run.runId])).rows).toHaveLength(0)

      // Straight SQL cannot bring a sending run or a row in flight in either.
      expect(
        await pgCode(
          handRun.insert(bia.pool, 'sneak-run', 1, { importedFrom: 'x', state: 'creating', wave: 1 }),
        ),
      ).toBe('22023')
      const c = await bia.pool.connect()
      try {
        await c.query('BEGIN')
        await handRun.insert(c, 'sneak-run2', 1, { importedFrom: 'x', state: 'completed', wave: 1 })
        expect(
          await pgCode(
            handRun.insertRow(c, 'sneak-run2', 0, '{}', { state: 'in_flight', localId: 'sneak-w' }),
          ),
        ).toBe('22023')
      } finally {
        await c.query('ROLLBACK')
        c.release()
      }
    } finally {
      desk.close()
    }
  })

  it("another role cannot slip history rows into someone's imported run", async () => {
    // Through the run functions (migration 16), as a desk import writes them.
    await handRun.insert(bia.pool, 'bia-final', 1, { importedFrom: 'x', state: 'completed', wave: 1 })
    // ana's row arrives as a fresh pending row (the normal insert), never as "submitted" with a local id.
    await handRun.insertRow(ana.pool, 'bia-final', 0, '{}', { state: 'submitted', localId: 'someone-else' })
    const r = await owner.query(`SELECT state, local_id FROM run_rows WHERE run_id = 'bia-final'`)
    expect(r.rows).toEqual([{ state: 'pending', local_id: null }])
  })

  it('is run by the owner tool as an analyst, and refuses a path with no ledger', async () => {
    const desk = freshDesk()
    const file = desk.file
    createPayeeBook(desk).create(
      { name: 'Rafael', taxNumber: '111.444.777-35', pixKeys: [{ key: 'rafael@example.com' }] },
      'Carla',
    )
    const p = paidOnDesk(desk)
    desk.close()
    const out = await ownerCli(['import', file, 'Carla'], team.config('bia'))
    expect(out).toContain('payments: 1 imported')
    expect(out).toContain('payees: 1 imported')
    expect((await ana.get(p.localId))?.localId).toBe(p.localId)
    expect(await ownerCli(['import', file], team.config('bia'))).toContain(
      'payments: 0 imported, 1 already there',
    )
    await expect(
      ownerCli(['import', path.join(os.tmpdir(), `nope-${randomUUID()}.sqlite`)], team.config('bia')),
    ).rejects.toThrow('no desk ledger')
  })
})
