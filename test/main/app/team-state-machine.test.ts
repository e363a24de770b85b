/**
 * Issue #24, attacks 2, 3 and 6 end to end: two desks through the real IPC router on one team ledger and one
 * sandbox account (team-rig.ts), and a hostile analyst at a psql prompt (her own depix_analysts role). Whatever she
 * tries on a colleague's payment or top-up, the colleague's desk keeps showing the funding address, the QR and the
 * refund the service gave, and the team's integrity check stays honest (green, because nothing changed).
 */
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { fundingAmount } from '../../../src/main/app/sandbox-tools'
import { depositRow } from '../../../src/main/ledger/pg/deposit-rows'
import { recordRow } from '../../../src/main/ledger/pg/rows'
import { generateLiquidAddress } from '../../../src/main/liquid'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import type { WithdrawalRecord } from '../../../src/shared/withdrawal-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { psqlAs, sqlstate } from '../ledger/adversary'
import { draft, leadingNow, pay, startDesks, until, type Desk, type DeskRig } from './team-rig'

announceSkip('issue #24 attacks through the desks (postgres + sandbox + app contexts)')

const EVE_WALLET = generateLiquidAddress('liquid').address

async function get(k: Desk, localId: string): Promise<WithdrawalRecord> {
  const got = await k.call('withdrawals:get', { localId })
  expect(got.ok).toBe(true)
  return (got.data as { record: WithdrawalRecord }).record
}

describe.skipIf(PG_SKIP_REASON !== null)('issue #24 attacks against the desks', () => {
  let rig: DeskRig
  let ana: Desk
  let bia: Desk
  let eve: pg.Client
  beforeAll(async () => {
    rig = await startDesks(['ana', 'bia'])
    ;[ana, bia] = rig.desks as [Desk, Desk]
    await until('one leader', async () => (leadingNow(rig.desks).length === 1 ? true : undefined))
    eve = await psqlAs(rig.team, 'eve')
  }, 120_000)
  afterAll(async () => {
    await eve?.end().catch(() => undefined)
    await rig?.stop()
  })

  it("attack 2: ana's funding instructions stay hers on every desk", async () => {
    const made = await pay(ana, draft('fornecedor24@example.com', 12_345))
    expect(made.ok).toBe(true)
    const rec = made.data as WithdrawalRecord
    const before = await get(bia, rec.localId)
    expect(before.depositAddress).toBeTruthy()
    expect(
      await sqlstate(
        eve.query(`UPDATE withdrawals SET deposit_address = $2, is_open = false WHERE local_id = $1`, [
          rec.localId,
          EVE_WALLET,
        ]),
      ),
    ).toBe('42501')
    expect(
      await sqlstate(
        eve.query(`SELECT write_withdrawal($1::jsonb, false, NULL, 'withdrawal.observed', '{}')`, [
          recordRow({ ...before, depositAddress: EVE_WALLET }),
        ]),
      ),
    ).toBe('DPX10')
    for (const k of [ana, bia]) {
      const now = await get(k, rec.localId)
      expect([k.role, now.depositAddress, now.depositAmountCents]).toEqual([
        k.role,
        before.depositAddress,
        before.depositAmountCents,
      ])
    }
    // The team's integrity check is green because nothing changed (not because a forged entry matched).
    const auditor = await rig.team.desk('carla')
    expect(await auditor.verifyAuditChain()).toMatchObject({ ok: true })
  })

  it("attack 3: ana's top-up QR and delivery address stay hers on every desk", async () => {
    const d = {
      amountCents: 20_000,
      depixAddress: generateLiquidAddress('liquid', { confidential: true }).address,
      endUserTaxNumber: '52998224725',
    }
    const q = await ana.call('deposits:quote', { draft: d })
    const made = await ana.call('deposits:create', {
      draft: d,
      intentId: (q.data as { intent: { id: string } }).intent.id,
    })
    expect(made.ok).toBe(true)
    const rec = made.data as DepositRecord
    expect(rec.qrCopyPaste).toBeTruthy()
    expect(
      await sqlstate(eve.query(`UPDATE deposits SET qr_copy_paste = 'x' WHERE local_id = $1`, [rec.localId])),
    ).toBe('42501')
    for (const swap of [{ qrCopyPaste: `${rec.qrCopyPaste}0` }, { depixAddress: EVE_WALLET }])
      expect(
        await sqlstate(
          eve.query(`SELECT write_deposit($1::json, false, NULL, 'deposit.observed', '{}')`, [
            depositRow({ ...rec, ...swap }),
          ]),
        ),
      ).toBe('DPX10')
    const seen = await bia.call('deposits:get', { localId: rec.localId })
    expect(seen).toMatchObject({
      ok: true,
      data: { record: { qrCopyPaste: rec.qrCopyPaste, depixAddress: d.depixAddress } },
    })
  })

  it('attack 6: a refund the service reported is never hidden', async () => {
    const made = await pay(ana, draft('fornecedor-refund@example.com', 4_321))
    expect(made.ok).toBe(true)
    const rec = made.data as WithdrawalRecord
    // Funded, then the payout fails (closed key): the service returns the deposit; the desks record the refund.
    rig.sb.control.fundWithdrawal(rec.remoteId!, fundingAmount(rec.depositAmountCents!, 'exact'))
    rig.sb.control.settlePayout(rec.remoteId!, 'invalid_pix_key')
    await until(
      'the refund recorded',
      async () => {
        for (const k of [ana, bia]) await k.call('withdrawals:refresh', { localId: rec.localId })
        return (await get(bia, rec.localId)).refund !== null ? true : undefined
      },
      20_000,
    )
    const withRefund = await get(bia, rec.localId)
    expect(withRefund.refund).not.toBeNull()
    expect(
      await sqlstate(
        eve.query(`SELECT write_withdrawal($1::jsonb, false, NULL, 'withdrawal.observed', '{}')`, [
          recordRow({ ...withRefund, remoteStatus: 'sent', refund: null }),
        ]),
      ),
    ).toBe('DPX13')
    for (const k of [ana, bia]) expect((await get(k, rec.localId)).refund).toEqual(withRefund.refund)
  })
})
