/**
 * Issue #24, attacks 1, 2, 3 and 6: a hostile analyst at a psql prompt (an ordinary depix_analysts role, created
 * as the README says) against a colleague's payments, top-ups and runs. Before migration 11 each of these left the
 * team's integrity check green; now each is refused by the database (SQLSTATE), the colleague's desk reads the
 * record as it was, and the chain still checks. Then the move table itself, allowed and refused, on a real server.
 */
import { randomUUID } from 'node:crypto'
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { NewWithdrawal } from '../../../src/main/ledger/sqlite'
import type { PgLedgerStore } from '../../../src/main/ledger/engines'
import { depositRow } from '../../../src/main/ledger/pg/deposit-rows'
import { recordRow } from '../../../src/main/ledger/pg/rows'
import { recordStateHash } from '../../../src/main/ledger/model/state-hash'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { handRun, psqlAs, sqlstate } from './adversary'
import { startTeam, type Team } from './team'

announceSkip('adversarial: the database is the state machine (postgres)')

const THRESHOLD = 10_000
const ANA_ADDRESS = 'lq1qqana0000000000000000000000000000000000000000000000000000000000'
const EVE_ADDRESS = 'lq1qqeve0000000000000000000000000000000000000000000000000000000000'

const payment = (cents = 5_000): NewWithdrawal => {
  const pixKey = `${randomUUID()}@example.com`
  return {
    localId: randomUUID(),
    profile: 'main',
    request: { pixKey, payoutAmountInCents: cents },
    pixKey,
    amountKind: 'payout',
    amountCents: cents,
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('adversarial: the database is the state machine', () => {
  let team: Team
  let ana: PgLedgerStore
  let eve: pg.Client
  let bia: pg.Client
  let owner: pg.Client

  /** eve's call of the one write path, with a record of her making. */
  const eveWrites = (r: WithdrawalRecord, action = 'withdrawal.observed'): Promise<string> =>
    sqlstate(eve.query(`SELECT write_withdrawal($1::jsonb, false, NULL, $2, '{}')`, [recordRow(r), action]))
  const eveWritesDeposit = (d: DepositRecord, action = 'deposit.observed'): Promise<string> =>
    sqlstate(eve.query(`SELECT write_deposit($1::json, false, NULL, $2, '{}')`, [depositRow(d), action]))

  /** A payment of ana's, created, with its funding instructions. */
  const created = async (cents = 5_000): Promise<WithdrawalRecord> => {
    const rec = await ana.insertSubmitting(payment(cents), 'Ana')
    return ana.markCreated(rec.localId, {
      remoteId: `w-${randomUUID()}`,
      createResponse: { depositAddress: ANA_ADDRESS },
      requestId: null,
      depositAddress: ANA_ADDRESS,
      depositAmountCents: cents + 100,
      payoutAmountCents: cents,
      status: 'unsent',
    })
  }

  beforeAll(async () => {
    team = await startTeam()
    ana = await team.desk('ana')
    eve = await psqlAs(team, 'eve')
    bia = await psqlAs(team, 'bia')
    owner = await team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = $1 WHERE id = 1', [THRESHOLD])
  }, 120_000)
  afterAll(async () => {
    for (const c of [eve, bia]) await c?.end().catch(() => undefined)
    await team?.stop()
  })

  it("attack 2: a colleague's deposit address cannot be redirected, nor the payment hidden from the tracker", async () => {
    const rec = await created()
    expect(
      await sqlstate(
        eve.query(`UPDATE withdrawals SET deposit_address = $2, is_open = false WHERE local_id = $1`, [
          rec.localId,
          EVE_ADDRESS,
        ]),
      ),
    ).toBe('42501')
    expect(await eveWrites({ ...rec, depositAddress: EVE_ADDRESS })).toBe('DPX10')
    expect(await eveWrites({ ...rec, depositAmountCents: 1 })).toBe('DPX10')
    expect(await eveWrites({ ...rec, localState: 'not_created' })).toBe('DPX11')
    // The matching audit entry of before: refused, whatever hash it carries.
    const redirected: WithdrawalRecord = { ...rec, depositAddress: EVE_ADDRESS }
    const forged = recordStateHash(redirected)
    expect(
      await sqlstate(
        eve.query(`SELECT append_audit('withdrawal.created', $1, '{}', $2)`, [rec.localId, forged]),
      ),
    ).toBe('DPX14')
    expect(await ana.get(rec.localId)).toMatchObject({
      depositAddress: ANA_ADDRESS,
      depositAmountCents: 5_100,
    })
    const open = await owner.query('SELECT is_open FROM withdrawals WHERE local_id = $1', [rec.localId])
    expect(open.rows[0].is_open).toBe(true)
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('the service naming another address later raises the flag and changes nothing (frozen once set)', async () => {
    const rec = await created()
    const r = await ana.recordObservation(rec.localId, {
      status: 'unsent',
      body: { status: 'unsent', depositAddress: EVE_ADDRESS, depositAmountInCents: 1 },
    })
    expect(r.record).toMatchObject({ depositAddress: ANA_ADDRESS, depositAmountCents: 5_100 })
    expect(r.record.flags).toContain('deposit_address_changed')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it("attack 3: a colleague's top-up QR and delivery address cannot be swapped", async () => {
    const dep = await ana.deposits.insertSubmitting(
      { profile: 'main', request: { amountInCents: 5_000, depixAddress: ANA_ADDRESS } },
      'Ana',
    )
    const remoteId = `q-${randomUUID()}`
    const rec = await ana.deposits.markCreated(dep.localId, {
      remoteId,
      createResponse: { id: remoteId, qrCopyPaste: '00020126ana-pix-key5204000053039865406' },
      requestId: null,
      status: 'pending',
    })
    expect(rec.qrCopyPaste).toContain('ana-pix-key')
    expect(
      await sqlstate(
        eve.query(`UPDATE deposits SET qr_copy_paste = 'eve' WHERE local_id = $1`, [rec.localId]),
      ),
    ).toBe('42501')
    expect(await eveWritesDeposit({ ...rec, qrCopyPaste: '00020126eve-pix-key5204000053039865406' })).toBe(
      'DPX10',
    )
    expect(await eveWritesDeposit({ ...rec, depixAddress: EVE_ADDRESS })).toBe('DPX10')
    expect(await eveWritesDeposit({ ...rec, amountCents: 1 })).toBe('DPX10')
    expect(await eveWritesDeposit({ ...rec, remoteStatus: 'expired' }, 'withdrawal.observed')).toBe('DPX14')
    expect(await ana.deposits.get(rec.localId)).toEqual(rec)
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('attack 6: a recorded refund is never removed, nor the status moved back to "sent"', async () => {
    const rec = await created()
    const refund = { txid: 'ab'.repeat(32), amountInCents: 5_100 }
    const r = await ana.recordObservation(rec.localId, {
      status: 'refunded',
      body: { status: 'refunded', refund },
    })
    expect(r.record).toMatchObject({ remoteStatus: 'refunded', refund })
    const sent = { ...r.record, remoteStatus: 'sent', refund: null }
    expect(
      await sqlstate(
        eve.query(`UPDATE withdrawals SET remote_status = 'sent', refund = NULL WHERE local_id = $1`, [
          rec.localId,
        ]),
      ),
    ).toBe('42501')
    expect(await eveWrites(sent)).toBe('DPX13')
    expect(await eveWrites({ ...r.record, remoteStatus: 'sent' })).toBe('DPX12')
    // A fake observation is history under eve's name; it changes no record.
    await eve.query(
      `SELECT add_observation('withdrawal', $1, $2, 'sent', '{"status":"sent"}', NULL, NULL, true)`,
      [rec.localId, new Date().toISOString()],
    )
    const obs = await owner.query(
      `SELECT db_user FROM observations WHERE local_id = $1 AND remote_status = 'sent'`,
      [rec.localId],
    )
    expect(obs.rows.map((x) => x.db_user)).toEqual(['eve'])
    expect(
      await sqlstate(
        eve.query(`SELECT append_audit('record.updated', $1, '{}', $2)`, [
          rec.localId,
          recordStateHash(sent),
        ]),
      ),
    ).toBe('DPX14')
    expect(await ana.get(rec.localId)).toMatchObject({ remoteStatus: 'refunded', refund })
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('attack 1: a row marked "drop" stays out: no self-approved run sends it afterwards', async () => {
    const draft = (cents: number): string =>
      JSON.stringify({ pixKey: 'alvo@example.com', amount: { kind: 'payout', cents }, refundAddress: 'x' })
    const runId = randomUUID()
    // Since migration 16 her prompt writes runs only through the run functions; a direct write is refused.
    expect(
      await sqlstate(
        eve.query(
          `INSERT INTO runs (run_id, profile, operator, name, row_count) VALUES ($1, 'main', 'Eve', 'lote', 2)`,
          [runId],
        ),
      ),
    ).toBe('42501')
    await handRun.insert(eve, runId, 2)
    for (const [i, v] of [90_000, 500].entries()) await handRun.insertRow(eve, runId, i, draft(v))
    // R$ 900,00 marked "drop": what is left is under the threshold, so she may approve alone.
    await handRun.changeRow(eve, runId, 0, { decision: 'drop' })
    await handRun.setState(eve, runId, 'approved', 'ab'.repeat(32))
    await handRun.setState(eve, runId, 'creating')
    expect(await sqlstate(handRun.changeRow(eve, runId, 0, { state: 'queued' }))).toBe('DPX11')
    expect(
      await sqlstate(handRun.changeRow(eve, runId, 0, { state: 'in_flight', localId: randomUUID() })),
    ).toBe('DPX11')
    // Nor undone: a changed decision voids the approval, and a creating run never goes back to draft (DPX11); a
    // dropped row is final.
    expect(await sqlstate(handRun.changeRow(eve, runId, 0, { decision: 'keep' }))).toBe('DPX11')
    await handRun.changeRow(eve, runId, 0, { state: 'dropped' })
    expect(await sqlstate(handRun.changeRow(eve, runId, 0, { state: 'pending' }))).toBe('DPX11')
    // Nor any move a run row never makes (the table: ledger.run_row_moves).
    // (queued → pending is a move since migration 13: a wave cut on the service's lifetime defers its rows.)
    for (const [from, to] of [
      ['dropped', 'queued'],
      ['queued', 'submitted'],
      ['submitted', 'queued'],
      ['held', 'queued'],
    ]) {
      expect(
        await owner.query(`SELECT 1 FROM run_row_moves WHERE from_state = $1 AND to_state = $2`, [from, to]),
      ).toMatchObject({ rowCount: 0 })
    }
    expect(await sqlstate(handRun.changeRow(eve, runId, 1, { state: 'submitted' }))).toBe('DPX11')
    // A run moves only as ledger.run_moves lists: back to draft from creating would unfreeze its rows.
    expect(await sqlstate(handRun.setState(eve, runId, 'draft'))).toBe('DPX11')
    expect(await sqlstate(handRun.setState(eve, runId, 'completed'))).toBe('DPX11')
    // The row that was approved still goes.
    expect(await sqlstate(handRun.changeRow(eve, runId, 1, { state: 'queued', wave: 1 }))).toBe('ok')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('attack 5: the approver is shown the refund address, marked until the owner registers it', async () => {
    const pixKey = `${randomUUID()}@example.com`
    const req = await ana.requestApproval({
      localId: randomUUID(),
      profile: 'main',
      request: { pixKey, payoutAmountInCents: 90_000, refundAddress: EVE_ADDRESS },
      pixKey,
      amountKind: 'payout',
      amountCents: 90_000,
    })
    expect(req).toMatchObject({ refundAddress: EVE_ADDRESS, refundRegistered: false })
    // Only the owner keeps the list; an analyst cannot add her own wallet to it, nor remove one.
    expect(
      await sqlstate(
        eve.query(`INSERT INTO treasury_addresses (address, label) VALUES ($1, 'minha')`, [EVE_ADDRESS]),
      ),
    ).toBe('42501')
    await owner.query(
      `INSERT INTO treasury_addresses (address, label, added_by) VALUES ($1, 'Tesouraria', 'eve')`,
      [ANA_ADDRESS],
    )
    expect(await sqlstate(eve.query(`DELETE FROM treasury_addresses`))).toBe('42501')
    const row = await owner.query('SELECT added_by FROM treasury_addresses WHERE address = $1', [ANA_ADDRESS])
    expect(row.rows[0].added_by).toBe('depix_owner')
    await owner.query(`INSERT INTO treasury_addresses (address) VALUES ($1)`, [EVE_ADDRESS])
    expect(await ana.getApproval(req.id)).toMatchObject({
      refundAddress: EVE_ADDRESS,
      refundRegistered: true,
    })
    const entry = (await ana.audit({ subject: EVE_ADDRESS })).rows[0]
    expect(entry).toMatchObject({ action: 'treasury.address_added', operator: 'depix_owner' })
    await owner.query(`DELETE FROM treasury_addresses WHERE address = $1`, [EVE_ADDRESS])
    expect((await ana.pendingApprovals()).find((a) => a.id === req.id)).toMatchObject({
      refundRegistered: false,
    })
    await owner.query('DELETE FROM treasury_addresses')
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it('once the team registers addresses, a payment refunding elsewhere needs a second analyst', async () => {
    await owner.query(`INSERT INTO treasury_addresses (address) VALUES ($1) ON CONFLICT DO NOTHING`, [
      ANA_ADDRESS,
    ])
    try {
      expect(await ana.needsApproval(5_000, EVE_ADDRESS)).toBe(true)
      expect(await ana.needsApproval(5_000, ANA_ADDRESS)).toBe(false)
      expect(await ana.needsApproval(5_000)).toBe(false)
      const to = (refundAddress: string): NewWithdrawal => {
        const p = payment()
        return { ...p, request: { ...p.request, refundAddress } }
      }
      await expect(ana.insertSubmitting(to(EVE_ADDRESS), 'Ana')).rejects.toMatchObject({
        code: 'approval_required',
      })
      await expect(ana.insertSubmitting(to(ANA_ADDRESS), 'Ana')).resolves.toMatchObject({
        localState: 'submitting',
      })
      // With another analyst's approval of exactly that payment, it goes.
      const n = to(EVE_ADDRESS)
      const req = await ana.requestApproval(n)
      expect(req).toMatchObject({ refundAddress: EVE_ADDRESS, refundRegistered: false })
      await expect(ana.insertSubmitting(n, 'Ana', { approvalId: req.id })).rejects.toMatchObject({
        code: 'approval_required',
      })
      await bia.query(`SELECT decide_approval($1, 'approved', NULL)`, [req.id])
      await expect(ana.insertSubmitting(n, 'Ana', { approvalId: req.id })).resolves.toMatchObject({
        localState: 'submitting',
      })
    } finally {
      await owner.query('DELETE FROM treasury_addresses')
    }
    // No list, no rule: a team that registered nothing keeps the threshold only.
    expect(await ana.needsApproval(5_000, EVE_ADDRESS)).toBe(false)
    expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
  })

  describe('the move table (record_moves, status_ranks)', () => {
    it('local states: only the lifecycle moves, and only the sending role settles a submission', async () => {
      const rec = await ana.insertSubmitting(payment(), 'Ana')
      // eve may not answer for ana's POST, even with an allowed move.
      expect(await eveWrites({ ...rec, localState: 'rejected' }, 'withdrawal.rejected')).toBe('DPX15')
      const anaWrites = (r: WithdrawalRecord, action: string): Promise<string> =>
        sqlstate(
          ana.pool.query(`SELECT write_withdrawal($1::jsonb, false, NULL, $2, '{}')`, [recordRow(r), action]),
        )
      expect(await anaWrites({ ...rec, localState: 'not_created' }, 'withdrawal.not_created')).toBe('DPX11')
      expect(await anaWrites({ ...rec, localState: 'outcome_unknown' }, 'withdrawal.outcome_unknown')).toBe(
        'ok',
      )
      const unknown = { ...rec, localState: 'outcome_unknown' as const }
      expect(await anaWrites({ ...unknown, localState: 'submitting' }, 'withdrawal.x')).toBe('DPX11')
      expect(await anaWrites({ ...unknown, localState: 'rejected' }, 'withdrawal.x')).toBe('DPX11')
      // outcome_unknown is resolved by any analyst (a human decision, audited under her name).
      expect(await eveWrites({ ...unknown, localState: 'not_created' }, 'withdrawal.resolved')).toBe('ok')
      const gone = { ...unknown, localState: 'not_created' as const }
      for (const to of ['created', 'submitting', 'outcome_unknown', 'rejected'] as const)
        expect([to, await eveWrites({ ...gone, localState: to }, 'withdrawal.x')]).toEqual([to, 'DPX11'])
      // A change with no action of its kind, and a new row that is not a submission.
      expect(await eveWrites({ ...gone, receiverName: 'x' }, 'note')).toBe('DPX14')
      expect(
        await sqlstate(
          eve.query(`SELECT write_withdrawal($1::jsonb, true, NULL, 'withdrawal.submitting', '{}')`, [
            recordRow({ ...rec, localId: randomUUID(), localState: 'created', remoteId: 'w-x' }),
          ]),
        ),
      ).toBe('DPX11')
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    })

    it('frozen, set once, kept', async () => {
      const rec = await created()
      const frozen: Partial<WithdrawalRecord>[] = [
        { profile: 'other' },
        { operator: 'Eve' },
        { createdAt: '2020-01-01T00:00:00.000Z' },
        { request: { pixKey: 'eve@example.com', payoutAmountInCents: 5_000 } },
        { pixKey: 'eve@example.com' },
        { amountKind: 'deposit' },
        { amountCents: 5_001 },
        { references: { payer: 'x' } as unknown as WithdrawalRecord['references'] },
        { remoteId: 'w-other' },
        { depositAddress: EVE_ADDRESS },
        { depositAmountCents: 1 },
        { payoutAmountCents: 1 },
      ]
      for (const f of frozen) expect([f, await eveWrites({ ...rec, ...f })]).toEqual([f, 'DPX10'])
      expect(await eveWrites({ ...rec, createResponse: null })).toBe('DPX13')
      expect(await eveWrites({ ...rec, remoteStatus: null })).toBe('DPX13')
      const funded = await ana.markFunded(rec.localId, { txId: 'tx1' }, 'Ana')
      expect(await eveWrites({ ...funded, fundedAt: null })).toBe('DPX13')
      // What the tracker and the operator may change: the funding txid, flags, the receiver's name.
      expect(await eveWrites({ ...funded, fundingTxId: 'tx2' }, 'withdrawal.funded')).toBe('ok')
      expect(await ana.verifyAuditChain()).toMatchObject({ ok: true })
    })

    it('a set-once field may be set once: a payment whose create answer had no address gets it later', async () => {
      const rec = await ana.insertSubmitting(payment(), 'Ana')
      const c = await ana.markCreated(rec.localId, {
        remoteId: `w-${randomUUID()}`,
        createResponse: null,
        requestId: null,
      })
      expect(c.depositAddress).toBeNull()
      const r = await ana.recordObservation(rec.localId, {
        status: 'unsent',
        body: { status: 'unsent', depositAddress: ANA_ADDRESS, depositAmountInCents: 5_100 },
      })
      expect(r.record).toMatchObject({ depositAddress: ANA_ADDRESS, depositAmountCents: 5_100 })
      expect(await eveWrites({ ...r.record, depositAddress: EVE_ADDRESS })).toBe('DPX10')
    })

    it('remote status only forward, per kind', async () => {
      const cases: Array<[string, string, string, boolean]> = [
        // [from, to, refund?, allowed]
        ['unsent', 'sending', '', true],
        ['sending', 'sent', '', true],
        ['unsent', 'error', '', true],
        ['error', 'refunded', 'r', true],
        ['expired', 'refunded', '', true],
        ['sent', 'refunded', 'r', true],
        ['unsent', 'Nova Coisa', '', true],
        ['Nova Coisa', 'unsent', '', true],
        ['sending', 'unsent', '', false],
        ['sent', 'sending', '', false],
        ['sent', 'expired', '', false],
        ['refunded', 'sent', 'r', false],
        ['expired', 'unsent', '', false],
        ['cancelled', 'Nova Coisa', '', false],
      ]
      for (const [from, to, refund, allowed] of cases) {
        const r = await owner.query('SELECT status_move_ok($1, $2, $3, $4, $5) AS ok', [
          'withdrawal',
          from,
          false,
          to,
          refund !== '',
        ])
        expect([from, to, r.rows[0].ok]).toEqual([from, to, allowed])
      }
      const dep: Array<[string, string, boolean]> = [
        ['pending', 'approved', true],
        ['approved', 'depix_sent', true],
        ['depix_sent', 'refunded', true],
        ['pending', 'expired', true],
        ['depix_sent', 'approved', false],
        ['refunded', 'depix_sent', false],
        ['expired', 'pending', false],
        ['expired', 'depix_sent', false],
      ]
      for (const [from, to, allowed] of dep) {
        const r = await owner.query(`SELECT status_move_ok('deposit', $1, false, $2, false) AS ok`, [
          from,
          to,
        ])
        expect([from, to, r.rows[0].ok]).toEqual([from, to, allowed])
      }
      // And on a real record: sent → sending refused at the write.
      const rec = await created()
      const s = await ana.recordObservation(rec.localId, { status: 'sent', body: { status: 'sent' } })
      expect(await eveWrites({ ...s.record, remoteStatus: 'sending' })).toBe('DPX12')
      expect(await eveWrites({ ...s.record, remoteStatus: ' SENT ' })).toBe('ok')
    })

    it('the app maps every refusal to one clear message', async () => {
      const rec = await created()
      await expect(ana.setFlags(rec.localId, ['x'], 'Ana')).resolves.toMatchObject({ flags: ['x'] })
      // The desk's own lifecycle never asks for a refused move; a hand-made one through its pool is mapped.
      const { mapPgError } = await import('../../../src/main/ledger/team-errors')
      const e = await ana.pool
        .query(`SELECT write_withdrawal($1::jsonb, false, NULL, 'withdrawal.x', '{}')`, [
          recordRow({ ...rec, depositAddress: EVE_ADDRESS }),
        ])
        .catch((x: unknown) => x)
      expect(mapPgError(e)).toMatchObject({
        code: 'transition_refused',
        userMessage: { 'pt-BR': expect.stringContaining('recusou') },
      })
    })
  })
})
