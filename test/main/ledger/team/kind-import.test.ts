/**
 * A desk's SQLite ledger moved into the team ledger (importDeskLedger) carries its top-ups too: once (a second run
 * skips them), with their local ids, status history and the desk's audit trail, never overwriting a deposit the
 * team already holds from elsewhere, and refused while the desk still has a top-up whose POST's answer it lacks.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLedger, type Ledger, type NewDeposit } from '../../../../src/main/ledger/sqlite'
import { auditHash } from '../../../../src/main/ledger/sqlite/audit'
import { importDeskLedger, type PgLedgerStore } from '../../../../src/main/ledger/engines'
import { announceSkip, PG_SKIP_REASON } from '../../../support/postgres'
import { startTeam, type Team } from '../team'

announceSkip('desk ledger import, top-ups (postgres)')

const newDeposit = (): NewDeposit => ({
  profile: 'desk',
  request: { amountInCents: 9_900, depixAddress: `lq1qq${randomUUID()}` },
})
const created = (remoteId = `q-${randomUUID()}`) => ({
  remoteId,
  createResponse: { id: remoteId, qrCopyPaste: '000201PIX' },
  requestId: 'r',
  status: 'pending',
})

describe.skipIf(PG_SKIP_REASON !== null)('importing a desk ledger: top-ups', () => {
  let team: Team
  let ana: PgLedgerStore
  let bia: PgLedgerStore
  let owner: pg.Client
  let dir: string
  let desk: Ledger
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    bia = await team.desk('bia')
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => team?.stop())

  const freshDesk = (): Ledger => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-deposits-'))
    desk = openLedger(path.join(dir, 'desk.sqlite'))
    return desk
  }
  const closeDesk = (): void => {
    desk.close()
    fs.rmSync(dir, { recursive: true, force: true })
  }

  it('brings top-ups, their history and the desk trail in once, keeping local ids', async () => {
    const d = freshDesk()
    try {
      const a = d.deposits.insertSubmitting(newDeposit(), 'Carla')
      d.deposits.markCreated(a.localId, created())
      d.deposits.recordObservation(a.localId, {
        status: 'depix_sent',
        body: { status: 'depix_sent', bankTxId: 'E1' },
      })
      const b = d.deposits.insertSubmitting(newDeposit(), 'Carla')
      d.deposits.markRejected(b.localId, {
        kind: 'business',
        status: 520,
        messageCode: 'x',
        denialCode: null,
        requestId: null,
      })
      const c = d.deposits.insertSubmitting(newDeposit(), 'Carla')
      d.deposits.markOutcomeUnknown(c.localId, null, 'timeout')
      d.deposits.resolveUnknown(c.localId, { notCreated: true }, 'Carla')
      // Already on the team from elsewhere: the same local id, and the same deposit (its id) under another one.
      const clash = d.deposits.insertSubmitting(newDeposit(), 'Carla')
      d.deposits.markOutcomeUnknown(clash.localId, null, 'timeout')
      await ana.deposits.insertSubmitting({ ...newDeposit(), localId: clash.localId }, 'ana')
      const shared = `q-${randomUUID()}`
      const twin = d.deposits.insertSubmitting(newDeposit(), 'Carla')
      d.deposits.markCreated(twin.localId, created(shared))
      await ana.deposits.importOutside(
        { profile: 'team', remoteId: shared, status: 'pending', body: {} },
        'ana',
      )

      const first = await importDeskLedger(bia.pool, d, 'bia')
      expect(first).toMatchObject({
        imported: 0,
        deposits: { imported: 3, skipped: 0, conflicts: [clash.localId, twin.localId] },
      })
      const again = await importDeskLedger(bia.pool, d, 'bia')
      expect(again.deposits).toEqual({ imported: 0, skipped: 3, conflicts: [clash.localId, twin.localId] })

      for (const id of [a.localId, b.localId, c.localId])
        expect(await ana.deposits.get(id)).toEqual(d.deposits.get(id))
      expect(Object.keys((await ana.deposits.get(a.localId))!.request)).toEqual(Object.keys(a.request))
      expect((await ana.deposits.observations(a.localId)).map((o) => [o.remoteStatus, o.observedAt])).toEqual(
        d.deposits.observations(a.localId).map((o) => [o.remoteStatus, o.observedAt]),
      )
      const row = await owner.query('SELECT imported_from, db_user FROM deposits WHERE local_id = $1', [
        a.localId,
      ])
      expect(row.rows[0]).toEqual({ imported_from: first.origin, db_user: 'bia' })
      const entry = (await ana.audit({ subject: a.localId })).rows[0]
      expect(entry).toMatchObject({ action: 'deposit.imported', operator: 'bia' })
      const history = entry?.details.history as (Parameters<typeof auditHash>[0] & { hash: string })[]
      expect(history.map((h) => h.action)).toEqual([
        'deposit.submitting',
        'deposit.created',
        'deposit.observed',
      ])
      for (const { hash, ...rest } of history) expect(auditHash(rest)).toBe(hash)
      // The conflicting ones are left exactly as the team had them.
      expect((await ana.deposits.get(clash.localId))?.localState).toBe('submitting')
      const summaries = await owner.query(`SELECT details FROM audit_log WHERE action = 'ledger.imported'`)
      expect(summaries.rows).toHaveLength(1)
      expect(JSON.parse(String(summaries.rows[0]?.details))).toMatchObject({
        deskHead: d.auditHead(),
        imported: 0,
        depositsImported: 3,
      })
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
      // An imported top-up is tracked and worked on like any other.
      // (depix_sent stays open: a MED can still reverse it, so the leader keeps asking now and then.)
      expect((await ana.deposits.listOpen()).map((r) => r.localId)).toContain(a.localId)
      const recorded = await bia.deposits.recordObservation(a.localId, {
        status: 'refunded',
        body: { status: 'refunded' },
      })
      expect(recorded.raised).toEqual(['med_reversal'])
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    } finally {
      closeDesk()
    }
  })

  it('refuses a desk ledger with an unfinished top-up, writing nothing', async () => {
    const d = freshDesk()
    try {
      const w = d.insertSubmitting(
        {
          profile: 'desk',
          request: { pixKey: 'k@example.com', payoutAmountInCents: 100 },
          pixKey: 'k@example.com',
          amountKind: 'payout',
          amountCents: 100,
        },
        'Carla',
      )
      d.markOutcomeUnknown(w.localId, null, 'timeout')
      const pending = d.deposits.insertSubmitting(newDeposit(), 'Carla')
      const head = await ana.auditHead()
      await expect(importDeskLedger(bia.pool, d, 'bia')).rejects.toMatchObject({ code: 'invalid_input' })
      expect(await ana.auditHead()).toEqual(head)
      expect(await ana.get(w.localId)).toBeUndefined()
      expect(await ana.deposits.get(pending.localId)).toBeUndefined()
    } finally {
      closeDesk()
    }
  })
})
