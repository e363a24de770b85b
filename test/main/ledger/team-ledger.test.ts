/**
 * What only the PostgreSQL engine promises, tested against a real server with real roles: migrations and the
 * newer-schema refusal, identity from the database, audit rows only through the chaining function and never
 * changed, tamper detection, privileges (and a clear message without them), the cross-desk duplicate guard under
 * real concurrent connections, four-eyes approval enforced by the database, and the import of a desk ledger.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openLedger, type NewWithdrawal } from '../../../src/main/ledger/sqlite'
import { auditHash } from '../../../src/main/ledger/sqlite/audit'
import { main as ownerCli } from '../../../src/main/ledger/team/cli'
import {
  importDeskLedger,
  openPgStore,
  PG_LATEST_VERSION,
  TeamLedgerError,
  type PgLedgerStore,
} from '../../../src/main/ledger/engines'
import { PG_MIGRATIONS } from '../../../src/main/ledger/pg/schema'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { OWNER, startTeam, type Team } from './team'

announceSkip('team ledger (postgres)')

const since = '2000-01-01T00:00:00.000Z'

function input(o: { pixKey?: string; amountCents?: number; localId?: string } = {}): NewWithdrawal {
  const pixKey = o.pixKey ?? `${randomUUID()}@example.com`
  const amountCents = o.amountCents ?? 10_000
  return {
    localId: o.localId ?? randomUUID(),
    profile: 'main',
    request: { pixKey, payoutAmountInCents: amountCents },
    pixKey,
    amountKind: 'payout',
    amountCents,
  }
}

async function pgCode(p: Promise<unknown>): Promise<string> {
  try {
    await p
  } catch (e) {
    return String((e as { code?: unknown }).code)
  }
  return 'no error'
}

describe.skipIf(PG_SKIP_REASON !== null)('team ledger on PostgreSQL', () => {
  let team: Team
  let ana: PgLedgerStore
  let bia: PgLedgerStore
  let owner: pg.Client
  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    bia = await team.desk('bia')
    owner = await team.owner()
  }, 120_000)
  afterAll(async () => team?.stop())

  describe('schema', () => {
    it('records each migration with who applied it', async () => {
      const r = await owner.query('SELECT version, applied_by FROM schema_version ORDER BY version')
      expect(r.rows).toEqual(PG_MIGRATIONS.map((m) => ({ version: m.version, applied_by: OWNER })))
      expect(r.rows.at(-1)).toEqual({ version: PG_LATEST_VERSION, applied_by: OWNER })
      expect(ana.schemaVersion).toBe(PG_LATEST_VERSION)
    })

    it('gives the owner a tool to check and apply migrations', async () => {
      expect(await ownerCli(['status'], team.config(OWNER))).toContain(
        `team ledger schema v${PG_LATEST_VERSION} (this tool: v${PG_LATEST_VERSION})\n`,
      )
      expect(await ownerCli(['migrate'], team.config(OWNER))).toBe(
        `team ledger schema already at v${PG_LATEST_VERSION}`,
      )
      // An analyst cannot create the schema's objects.
      await expect(ownerCli(['migrate'], team.config('ana'))).rejects.toMatchObject({
        code: 'permission_denied',
      })
    })

    it('refuses a schema newer than the app, with a clear message', async () => {
      await owner.query(`INSERT INTO schema_version (version, name) VALUES (99, 'from the future')`)
      try {
        const e = await openPgStore({ connection: team.config('ana') }).then(
          () => null,
          (x: unknown) => x,
        )
        expect(e).toBeInstanceOf(TeamLedgerError)
        expect(e).toMatchObject({ code: 'schema_too_new' })
        expect((e as TeamLedgerError).userMessage['pt-BR']).toContain('Atualize o aplicativo')
      } finally {
        await owner.query('DELETE FROM schema_version WHERE version = 99')
      }
    })
  })

  describe('identity and audit', () => {
    it('recovers its own interrupted records past one edited outside the app, which it leaves alone', async () => {
      // Anything of ana's left submitting by earlier tests is recovered first, so only these two count below.
      await ana.recoverInterrupted()
      const edited = await ana.insertSubmitting(input(), 'ana')
      const plain = await ana.insertSubmitting(input(), 'ana')
      const theirs = await bia.insertSubmitting(input(), 'bia')
      await owner.query('UPDATE withdrawals SET amount_cents = 1 WHERE local_id = $1', [edited.localId])
      try {
        // One tampered row must not roll back the recovery of the others (start-up must reach the operator).
        expect(await ana.recoverInterrupted()).toBe(1)
        expect((await ana.get(plain.localId))?.localState).toBe('outcome_unknown')
        expect((await ana.get(edited.localId))?.localState).toBe('submitting')
        expect((await ana.get(theirs.localId))?.localState).toBe('submitting')
        expect(await ana.verifyAuditChain()).toMatchObject({ ok: false })
      } finally {
        await owner.query('UPDATE withdrawals SET amount_cents = $2 WHERE local_id = $1', [
          edited.localId,
          edited.amountCents,
        ])
      }
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
      await ana.recoverInterrupted()
      await bia.recoverInterrupted()
    })

    it('records the database role on every row and entry, whatever the desk claims', async () => {
      const rec = await ana.insertSubmitting(input(), 'Bia (claimed)')
      const row = await owner.query('SELECT db_user, operator FROM withdrawals WHERE local_id = $1', [
        rec.localId,
      ])
      expect(row.rows[0]).toEqual({ db_user: 'ana', operator: 'Bia (claimed)' })
      const entry = (await bia.audit({ subject: rec.localId })).rows[0]
      expect(entry?.operator).toBe('ana')
      expect(entry?.details.appOperator).toBe('Bia (claimed)')
      // A desk cannot rewrite who inserted a record: no UPDATE at all since migration 11, and the function keeps it.
      expect(
        await pgCode(
          ana.pool.query(`UPDATE withdrawals SET db_user = 'bia' WHERE local_id = $1`, [rec.localId]),
        ),
      ).toBe('42501')
      const after = await owner.query('SELECT db_user FROM withdrawals WHERE local_id = $1', [rec.localId])
      expect(after.rows[0]?.db_user).toBe('ana')
    })

    it('chains hashes in the database exactly as the desk ledger does', async () => {
      await ana.appendAudit({
        operator: 'ana',
        action: 'note',
        details: { texto: 'ção\u2028"\\\t', n: 1.5, z: null },
      })
      const rows = (await ana.audit({ limit: 5 })).rows
      for (const e of rows) {
        const { hash, ...rest } = e
        expect(auditHash(rest)).toBe(hash)
      }
      expect(await bia.verifyAuditChain()).toMatchObject({ ok: true })
    })

    it('lets analysts write the audit log only through the function, and nobody change it', async () => {
      const c = (p: Promise<unknown>) => pgCode(p)
      expect(
        await c(
          ana.pool.query(`INSERT INTO audit_log VALUES (9999, 'x', 'x', 'x', null, '{}', 'x', 'x', null)`),
        ),
      ).toBe('42501')
      expect(await c(ana.pool.query(`UPDATE audit_log SET action = 'x' WHERE seq = 1`))).toBe('42501')
      expect(await c(ana.pool.query(`DELETE FROM audit_log WHERE seq = 1`))).toBe('42501')
      expect(await c(ana.pool.query(`UPDATE audit_head SET seq = 0`))).toBe('42501')
      expect(await c(ana.pool.query(`DELETE FROM withdrawals`))).toBe('42501')
      expect(await c(ana.pool.query(`DELETE FROM observations`))).toBe('42501')
      // The owner holds every privilege on its tables, and still cannot rewrite history.
      expect(await c(owner.query(`UPDATE audit_log SET action = 'x' WHERE seq = 1`))).toBe('42501')
      expect(await c(owner.query(`DELETE FROM audit_log WHERE seq = 1`))).toBe('42501')
      expect(await c(owner.query(`DELETE FROM withdrawals`))).toBe('42501')
      expect(await bia.verifyAuditChain()).toMatchObject({ ok: true })
    })

    it('detects a record changed outside the app and writes nothing more on it', async () => {
      const rec = await ana.insertSubmitting(input(), 'ana')
      // An analyst can no longer write a row by hand (migration 11): the owner, who can, stands in for any edit
      // made outside the app.
      await owner.query(`UPDATE withdrawals SET receiver_name = 'Outro' WHERE local_id = $1`, [rec.localId])
      const v = await bia.verifyAuditChain()
      expect(v.ok).toBe(false)
      expect(!v.ok && v.reason).toContain(rec.localId)
      await expect(
        ana.markCreated(rec.localId, {
          remoteId: `w-${randomUUID()}`,
          createResponse: null,
          requestId: null,
        }),
      ).rejects.toMatchObject({
        code: 'record_tampered',
      })
      // Put it back as the trail says, so the rest of the file works on a sound ledger.
      await owner.query(`UPDATE withdrawals SET receiver_name = $2 WHERE local_id = $1`, [
        rec.localId,
        rec.receiverName ?? null,
      ])
      expect(await bia.verifyAuditChain()).toMatchObject({ ok: true })
    })

    it('refuses text PostgreSQL cannot hold (U+0000) with a clear error, writing nothing', async () => {
      const rec = await ana.insertSubmitting(input(), 'ana')
      await ana.markCreated(rec.localId, {
        remoteId: `w-${randomUUID()}`,
        createResponse: null,
        requestId: null,
      })
      const head = await ana.auditHead()
      for (const obs of [
        { status: 'sent', body: { status: 'sent', receiverName: 'a\u0000b' } },
        { status: 'se\u0000nt', body: null },
      ]) {
        const e = await ana.recordObservation(rec.localId, obs).then(
          () => null,
          (x: unknown) => x,
        )
        expect(e).toMatchObject({ code: 'invalid_input' })
        expect((e as { userMessage?: { 'pt-BR': string } }).userMessage?.['pt-BR']).toContain(
          'caractere nulo',
        )
      }
      expect(await ana.auditHead()).toEqual(head)
      expect(await ana.observations(rec.localId)).toEqual([])
    })

    it('tells a role without the analysts’ privileges what to ask for', async () => {
      await team.addAnalyst('intruder', false)
      const e = await openPgStore({ connection: team.config('intruder') }).then(
        () => null,
        (x: unknown) => x,
      )
      expect(e).toBeInstanceOf(TeamLedgerError)
      expect(e).toMatchObject({ code: 'permission_denied' })
      expect((e as TeamLedgerError).userMessage['pt-BR']).toContain('depix_analysts')
    })

    it('reports an unreachable server as unavailable', async () => {
      const e = await openPgStore({
        connection: { ...team.config('ana'), port: 1, connectionTimeoutMillis: 2000 },
      }).then(
        () => null,
        (x: unknown) => x,
      )
      expect(e).toMatchObject({ code: 'unavailable' })
    })
  })

  describe('cross-desk duplicate guard', () => {
    it('lets one of two desks paying the same key and amount at the same moment proceed', async () => {
      for (let round = 0; round < 10; round++) {
        const pixKey = `Same-${randomUUID()}@example.com`
        const results = await Promise.all([
          ana.createGuarded(input({ pixKey }), 'ana', { sinceIso: since }),
          bia.createGuarded(input({ pixKey: pixKey.toLowerCase() }), 'bia', { sinceIso: since }),
        ])
        expect(results.map((r) => r.kind).sort()).toEqual(['duplicate', 'inserted'])
        expect(
          await ana.findRecentSimilar({ pixKey, amountKind: 'payout', amountCents: 10_000, sinceIso: since }),
        ).toHaveLength(1)
      }
    })

    it('does not hold back a different amount to the same key', async () => {
      const pixKey = `other-${randomUUID()}@example.com`
      const [a, b] = await Promise.all([
        ana.createGuarded(input({ pixKey, amountCents: 10_000 }), 'ana', { sinceIso: since }),
        bia.createGuarded(input({ pixKey, amountCents: 10_001 }), 'bia', { sinceIso: since }),
      ])
      expect([a.kind, b.kind]).toEqual(['inserted', 'inserted'])
    })
  })

  describe('four-eyes approval', () => {
    beforeAll(async () => {
      await owner.query('UPDATE team_settings SET approval_above_cents = 100000')
    })
    afterAll(async () => {
      await owner.query('UPDATE team_settings SET approval_above_cents = NULL')
    })

    it('is a team setting only the owner changes', async () => {
      expect(await ana.approvalThreshold()).toBe(100_000)
      expect(await ana.needsApproval(100_000)).toBe(false)
      expect(await ana.needsApproval(100_001)).toBe(true)
      await expect(ana.setApprovalThreshold(0)).rejects.toMatchObject({ code: 'permission_denied' })
    })

    it('refuses a payment above the threshold without an approval, and below it lets it through', async () => {
      await expect(ana.insertSubmitting(input({ amountCents: 150_000 }), 'ana')).rejects.toMatchObject({
        code: 'approval_required',
      })
      await expect(
        ana.createGuarded(input({ amountCents: 150_000 }), 'ana', { sinceIso: since }),
      ).rejects.toMatchObject({
        code: 'approval_required',
      })
      expect((await ana.insertSubmitting(input({ amountCents: 100_000 }), 'ana')).localState).toBe(
        'submitting',
      )
    })

    it('needs another analyst: the requester cannot decide, the database says who decided', async () => {
      const draft = input({ amountCents: 250_000 })
      const req = await ana.requestApproval(draft, 'fornecedor novo')
      expect(req).toMatchObject({ state: 'pending', requestedBy: 'ana', localId: draft.localId })
      expect((await bia.pendingApprovals()).map((a) => a.id)).toContain(req.id)
      await expect(ana.approve(req.id)).rejects.toMatchObject({ code: 'approval_self' })
      // Not even by writing the columns directly (no UPDATE since migration 11) or calling the function.
      expect(
        await pgCode(ana.pool.query(`UPDATE approvals SET state = 'approved' WHERE id = $1`, [req.id])),
      ).toBe('42501')
      expect(await pgCode(ana.pool.query(`SELECT decide_approval($1, 'approved', NULL)`, [req.id]))).toBe(
        'DPX03',
      )
      expect(
        await pgCode(ana.pool.query(`UPDATE approvals SET decided_by = 'bia' WHERE id = $1`, [req.id])),
      ).toBe('42501')
      await expect(ana.insertSubmitting(draft, 'ana', { approvalId: req.id })).rejects.toMatchObject({
        code: 'approval_required',
      })
      const ok = await bia.approve(req.id, 'conferido')
      expect(ok).toMatchObject({ state: 'approved', decidedBy: 'bia', decisionNote: 'conferido' })
      await expect(bia.reject(req.id, 'tarde demais')).rejects.toMatchObject({ code: 'approval_decided' })
      // Approved for this exact payment only.
      await expect(
        ana.insertSubmitting({ ...draft, localId: randomUUID() }, 'ana', { approvalId: req.id }),
      ).rejects.toMatchObject({
        code: 'approval_required',
      })
      const rec = await ana.insertSubmitting(draft, 'ana', { approvalId: req.id })
      expect(rec.localState).toBe('submitting')
      const actions = (await bia.audit({ subject: draft.localId })).rows
        .map((e) => [e.action, e.operator])
        .reverse()
      expect(actions).toEqual([
        ['approval.requested', 'ana'],
        ['approval.approved', 'bia'],
        ['withdrawal.submitting', 'ana'],
      ])
      expect(await bia.verifyAuditChain()).toMatchObject({ ok: true })
    })

    it('audits a rejection, and a rejected request never becomes a payment', async () => {
      const draft = input({ amountCents: 300_000 })
      const req = await bia.requestApproval(draft)
      const rejected = await ana.reject(req.id, 'chave errada')
      expect(rejected).toMatchObject({ state: 'rejected', decidedBy: 'ana' })
      await expect(bia.insertSubmitting(draft, 'bia', { approvalId: req.id })).rejects.toMatchObject({
        code: 'approval_required',
      })
      const last = (await ana.audit({ subject: draft.localId })).rows[0]
      expect(last).toMatchObject({
        action: 'approval.rejected',
        operator: 'ana',
        details: { note: 'chave errada' },
      })
    })
  })
  describe('import of a desk ledger', () => {
    it('brings records, status history and the desk trail in once, keeping local ids', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-import-'))
      const desk = openLedger(path.join(dir, 'desk.sqlite'))
      try {
        const a = desk.insertSubmitting(input(), 'Carla')
        desk.markCreated(a.localId, {
          remoteId: `w-${randomUUID()}`,
          createResponse: { status: 'pending' },
          requestId: 'r',
          status: 'pending',
        })
        desk.recordObservation(a.localId, { status: 'sent', body: { status: 'sent' } })
        const b = desk.insertSubmitting(input(), 'Carla')
        desk.markRejected(b.localId, {
          kind: 'business',
          status: 422,
          messageCode: 'x',
          denialCode: null,
          requestId: null,
        })
        const clash = desk.insertSubmitting(input(), 'Carla')
        desk.markOutcomeUnknown(clash.localId, null, 'timeout')
        // The team ledger already has a record with that id from elsewhere.
        await ana.insertSubmitting({ ...input(), localId: clash.localId }, 'ana')
        // …and already follows the payment another desk record names: listed, not imported, the import goes on.
        const followed = `w-${randomUUID()}`
        const onTeam = await ana.insertSubmitting(input(), 'ana')
        await ana.markCreated(onTeam.localId, { remoteId: followed, createResponse: {}, requestId: 'r' })
        const twin = desk.insertSubmitting(input(), 'Carla')
        desk.markCreated(twin.localId, { remoteId: followed, createResponse: {}, requestId: 'r' })

        const first = await importDeskLedger(bia.pool, desk, 'bia')
        expect(first).toMatchObject({ imported: 2, skipped: 0, conflicts: [clash.localId, twin.localId] })
        expect(first.origin).toContain(desk.ledgerId)
        expect(await ana.get(twin.localId)).toBeUndefined()
        const again = await importDeskLedger(bia.pool, desk, 'bia')
        expect(again).toMatchObject({ imported: 0, skipped: 2, conflicts: [clash.localId, twin.localId] })

        expect(await ana.get(a.localId)).toEqual(desk.get(a.localId))
        expect(await ana.get(b.localId)).toEqual(desk.get(b.localId))
        expect((await ana.observations(a.localId)).map((o) => [o.remoteStatus, o.observedAt])).toEqual(
          desk.observations(a.localId).map((o) => [o.remoteStatus, o.observedAt]),
        )
        const row = await owner.query('SELECT imported_from, db_user FROM withdrawals WHERE local_id = $1', [
          a.localId,
        ])
        expect(row.rows[0]).toEqual({ imported_from: first.origin, db_user: 'bia' })
        const entry = (await ana.audit({ subject: a.localId })).rows[0]
        expect(entry).toMatchObject({ action: 'withdrawal.imported', operator: 'bia' })
        const history = entry?.details.history as (Parameters<typeof auditHash>[0] & { hash: string })[]
        expect(history).toHaveLength(desk.audit({ subject: a.localId }).total)
        for (const { hash, ...rest } of history) expect(auditHash(rest)).toBe(hash)
        // One summary, anchoring the desk's head: the idempotent second run wrote nothing.
        const summaries = await owner.query(`SELECT details FROM audit_log WHERE action = 'ledger.imported'`)
        expect(summaries.rows).toHaveLength(1)
        expect(JSON.parse(String(summaries.rows[0]?.details))).toMatchObject({
          deskHead: desk.auditHead(),
          imported: 2,
        })
        expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
        // Imported history can be worked on like any record.
        expect(
          (await bia.recordObservation(a.localId, { status: 'sent', body: { status: 'sent', x: 1 } }))
            .changed,
        ).toBe(true)
      } finally {
        desk.close()
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })

    it('refuses a desk ledger with an unfinished create', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'desk-import-'))
      const desk = openLedger(path.join(dir, 'desk.sqlite'))
      try {
        desk.insertSubmitting(input(), 'Carla')
        await expect(importDeskLedger(bia.pool, desk, 'bia')).rejects.toMatchObject({ code: 'invalid_input' })
        // Nor can a desk sneak one in as "imported" to skip approval: not by hand, not through the function.
        expect(
          await pgCode(
            bia.pool.query(
              `INSERT INTO withdrawals (local_id, profile, operator, db_user, created_at, updated_at, local_state, request,
                 pix_key, amount_kind, amount_cents, display_status, has_refund, is_open, search_text, imported_from)
               VALUES ('sneak', 'p', 'o', 'x', 'a', 'a', 'submitting', '{}', 'k', 'payout', 1, 'submitting', false, false, '', 'x')`,
            ),
          ),
        ).toBe('42501')
        const sneak = {
          local_id: 'sneak',
          profile: 'p',
          operator: 'o',
          created_at: 'a',
          updated_at: 'a',
          local_state: 'submitting',
          request: {},
          pix_key: 'k',
          amount_kind: 'payout',
          amount_cents: 1,
          flags: [],
          search_text: '',
          imported_from: 'x',
        }
        expect(
          await pgCode(
            bia.pool.query(`SELECT write_withdrawal($1::jsonb, true, NULL, 'withdrawal.imported', '{}')`, [
              JSON.stringify(sneak),
            ]),
          ),
        ).toBe('22023')
      } finally {
        desk.close()
        fs.rmSync(dir, { recursive: true, force: true })
      }
    })
  })
})
