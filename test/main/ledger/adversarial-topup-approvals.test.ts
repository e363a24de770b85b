/**
 * Issue #24, attack 4: top-ups have four-eyes (team ledger migration 15). A hostile analyst at a psql prompt (an
 * ordinary depix_analysts role, created as the README says) tries R$ 2.000,00 of DePix to her own wallet with a
 * R$ 100,00 limit: refused without another analyst's approval of exactly that top-up, self-approval refused, one
 * top-up per approval; with the approval it is created. The desk's own calls (pg/approvals.ts) see the same rule.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PgLedgerStore } from '../../../src/main/ledger/engines'
import { depositRow } from '../../../src/main/ledger/pg/deposit-rows'
import { blank } from '../../../src/main/ledger/sqlite/deposits'
import { DEPOSIT_ID_PREFIX } from '../../../src/shared/deposit-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { insertWithdrawal, psqlAs, sqlstate } from './adversary'
import { startTeam, type Team } from './team'

announceSkip('adversarial: top-ups have four-eyes (postgres)')

const LIMIT = 10_000
const ANA_ADDRESS = 'lq1qqana0000000000000000000000000000000000000000000000000000000000'
const EVE_ADDRESS = 'lq1qqeve0000000000000000000000000000000000000000000000000000000000'

/** A top-up row as a desk would write it, new and submitting. */
const topUp = (cents: number, address: string, localId = `${DEPOSIT_ID_PREFIX}${randomUUID()}`) =>
  blank({
    localId,
    profile: 'main',
    operator: 'Eve',
    now: '2026-11-27T12:00:00.000Z',
    origin: 'app',
    request: { amountInCents: cents, depixAddress: address },
    amountCents: cents,
    depixAddress: address,
    flags: [],
  })

describe.skipIf(PG_SKIP_REASON !== null)('adversarial: top-ups have four-eyes', () => {
  let team: Team
  let ana: PgLedgerStore
  let eve: pg.Client
  let bia: pg.Client
  let owner: pg.Client

  /** eve's call of the one write path for a new top-up, with or without an approval. */
  const eveCreates = (row: ReturnType<typeof topUp>, approval: string | null = null): Promise<string> =>
    sqlstate(
      eve.query(`SELECT write_deposit($1::json, true, NULL, 'deposit.submitting', '{}', $2)`, [
        depositRow(row),
        approval,
      ]),
    )
  const eveAsks = async (row: ReturnType<typeof topUp>): Promise<string> =>
    (
      await eve.query(`SELECT id FROM request_topup_approval($1, 'main', $2, NULL)`, [
        row.localId,
        JSON.stringify(row.request),
      ])
    ).rows[0].id as string

  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    eve = await psqlAs(team, 'eve')
    bia = await psqlAs(team, 'bia')
    owner = await team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = $1 WHERE id = 1', [LIMIT])
  }, 120_000)
  afterAll(async () => {
    for (const c of [eve, bia]) await c?.end().catch(() => undefined)
    await team?.stop()
  })

  it('attack 4: R$ 2.000,00 of DePix to her own wallet with a R$ 100,00 limit is refused without a second analyst', async () => {
    const row = topUp(200_000, EVE_ADDRESS)
    expect(await eveCreates(row)).toBe('DPX01')
    expect(
      await sqlstate(
        eve.query(
          `INSERT INTO deposits (local_id, profile, operator, created_at, updated_at, local_state, origin,
          request, amount_cents) VALUES ($1, 'main', 'Eve', 'x', 'x', 'submitting', 'app', '{}', 200000)`,
          [row.localId],
        ),
      ),
    ).toBe('42501')
    // The row's amount is the body's: a small amount column over a large body is no way around the limit.
    expect(await eveCreates({ ...row, amountCents: 5_000 })).toBe('DPX10')
    expect(await eveCreates({ ...row, depixAddress: ANA_ADDRESS })).toBe('DPX10')
    // Her own request, pending, then decided by herself: refused.
    const id = await eveAsks(row)
    expect(await eveCreates(row, id)).toBe('DPX02')
    expect(await sqlstate(eve.query(`SELECT decide_approval($1, 'approved', NULL)`, [id]))).toBe('DPX03')
    expect(await sqlstate(eve.query(`UPDATE approvals SET state = 'approved' WHERE id = $1`, [id]))).toBe(
      '42501',
    )
    expect(await ana.deposits.get(row.localId)).toBeUndefined()

    // Approved by a second analyst: exactly that top-up goes, once.
    await bia.query(`SELECT decide_approval($1, 'approved', NULL)`, [id])
    expect(
      await eveCreates(
        { ...row, request: { ...row.request, amountInCents: 300_000 }, amountCents: 300_000 },
        id,
      ),
    ).toBe('DPX02')
    expect(await eveCreates(row, id)).toBe('ok')
    expect(await eveCreates(row, id)).toBe('23505')
    expect(await eveCreates(topUp(200_000, EVE_ADDRESS), id)).toBe('DPX02')
    const stored = await owner.query('SELECT approval_id, amount_cents FROM deposits WHERE local_id = $1', [
      row.localId,
    ])
    expect(stored.rows[0]).toEqual({ approval_id: id, amount_cents: '200000' })
    // A top-up's approval lets no payment in, whatever the payment looks like.
    expect(
      await sqlstate(insertWithdrawal(eve, { localId: row.localId, cents: 200_000, approvalId: id })),
    ).toBe('DPX02')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('within the limit and with no registered addresses, a top-up needs nobody else (the amount rule only)', async () => {
    expect(await ana.topUpNeedsApproval(LIMIT, EVE_ADDRESS)).toBe(false)
    expect(await ana.topUpNeedsApproval(LIMIT + 1, EVE_ADDRESS)).toBe(true)
    expect(await eveCreates(topUp(LIMIT, EVE_ADDRESS))).toBe('ok')
  })

  it('once the owner registers treasury addresses, a delivery elsewhere needs a second analyst at any amount', async () => {
    await owner.query('INSERT INTO treasury_addresses (address) VALUES ($1)', [ANA_ADDRESS])
    try {
      expect(await ana.topUpNeedsApproval(100, EVE_ADDRESS)).toBe(true)
      expect(await ana.topUpNeedsApproval(100, ANA_ADDRESS)).toBe(false)
      expect(await eveCreates(topUp(100, EVE_ADDRESS))).toBe('DPX01')
      expect(await eveCreates(topUp(100, ANA_ADDRESS))).toBe('ok')
      // Through the desk's own calls: the request shows the address, marked as not registered.
      const localId = `${DEPOSIT_ID_PREFIX}${randomUUID()}`
      const request = { amountInCents: 100, depixAddress: EVE_ADDRESS }
      await expect(
        ana.deposits.createGuarded({ localId, profile: 'main', request }, 'Ana', {
          sinceIso: '2026-01-01T00:00:00.000Z',
          allow: [],
        }),
      ).rejects.toMatchObject({ code: 'approval_required' })
      const a = await ana.requestTopUpApproval({ localId, profile: 'main', request })
      expect(a).toMatchObject({
        kind: 'deposit',
        depixAddress: EVE_ADDRESS,
        depixRegistered: false,
        amountCents: 100,
        pixKey: '',
        requestedBy: 'ana',
        state: 'pending',
      })
      expect((await ana.openApprovals()).map((o) => o.id)).toContain(a.id)
      await expect(ana.approve(a.id)).rejects.toMatchObject({ code: 'approval_self' })
      await bia.query(`SELECT decide_approval($1, 'approved', NULL)`, [a.id])
      expect(await ana.approvalSent(a)).toBe(false)
      const made = await ana.deposits.createGuarded(
        { localId, profile: 'main', request },
        'Ana',
        {
          sinceIso: '2026-01-01T00:00:00.000Z',
          allow: [],
        },
        { approvalId: a.id },
      )
      expect(made).toMatchObject({ kind: 'inserted', record: { localId, depixAddress: EVE_ADDRESS } })
      expect(await ana.approvalSent(a)).toBe(true)
      expect((await ana.openApprovals()).map((o) => o.id)).not.toContain(a.id)
      const entry = (await ana.audit({ subject: localId })).rows.find(
        (e) => e.action === 'approval.requested',
      )
      expect(entry?.details).toMatchObject({ kind: 'deposit', depixAddress: EVE_ADDRESS, amountCents: 100 })
    } finally {
      await owner.query('DELETE FROM treasury_addresses')
    }
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })
})
