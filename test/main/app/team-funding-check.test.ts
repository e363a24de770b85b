/**
 * Issue #24, attacks 2 and 3 against the desks (team-rig.ts: a real PostgreSQL cluster, the real sandbox, one app
 * context per analyst role): a colleague's created payment whose deposit address was rewritten in the team
 * database, and a colleague's top-up whose QR was swapped, are shown by the other desk only as a red alert with
 * nothing to pay — the service's own answer refutes the row. The row is written here with the owner's connection,
 * which can write whatever the grants of the day allow an analyst (w24db's migration takes that from analysts;
 * this check is the desks' own line either way).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateLiquidAddress } from '../../../src/main/liquid'
import type { WithdrawalDetail } from '../../../src/shared/contract'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { draft, pay, startDesks, type Desk, type DeskRig } from './team-rig'

announceSkip('team funding check (postgres + sandbox + app contexts)')

describe.skipIf(PG_SKIP_REASON !== null)('funding shown is funding checked, on a team ledger', () => {
  let rig: DeskRig
  let alice: Desk
  let bob: Desk

  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob'])
    alice = rig.desks[0]!
    bob = rig.desks[1]!
  }, 120_000)
  afterAll(async () => rig?.stop())

  it("a colleague's payment redirected in the team database: the other desk shows the alert, no address", async () => {
    const r = await pay(alice, draft('redirecionado@example.com', 2_600))
    expect(r.ok).toBe(true)
    const localId = (r.data as { localId: string }).localId
    const before = (await bob.call('withdrawals:get', { localId })).data as WithdrawalDetail
    expect(before.fundingProblem).toBeNull()
    expect(before.funding?.address).toBe(before.record.depositAddress)

    const hers = generateLiquidAddress('liquid').address
    const owner = await rig.team.owner()
    await owner.query('UPDATE withdrawals SET deposit_address = $2, is_open = false WHERE local_id = $1', [
      localId,
      hers,
    ])
    for (const desk of [bob, alice]) {
      const after = (await desk.call('withdrawals:get', { localId })).data as WithdrawalDetail
      expect(after.funding).toBeNull()
      expect(after.fundingProblem).toBe('funding_mismatch')
      expect(after.fundingAlert).toEqual({ kind: 'mismatch', fields: ['deposit_address'], reason: null })
      expect(JSON.stringify(after)).not.toContain(hers)
    }
  })

  it("a colleague's top-up QR swapped in the team database: refused on the other desk", async () => {
    const d = {
      amountCents: 20_000,
      depixAddress: generateLiquidAddress('liquid').address,
      endUserTaxNumber: '52998224725',
    }
    const q = await alice.call('deposits:quote', { draft: d })
    expect(q.ok).toBe(true)
    const made = await alice.call('deposits:create', {
      draft: d,
      intentId: (q.data as { intent: { id: string } }).intent.id,
    })
    expect(made.ok).toBe(true)
    const localId = (made.data as { localId: string }).localId
    type Detail = { qr: { payload: string } | null; qrAlert: unknown }
    const genuine = ((await bob.call('deposits:get', { localId })).data as Detail).qr?.payload
    expect(genuine).toMatch(/^000201/)
    const owner = await rig.team.owner()
    await owner.query('UPDATE deposits SET qr_copy_paste = $2 WHERE local_id = $1', [
      localId,
      `${genuine!.slice(0, -8)}ABCD6304`,
    ])
    const after = (await bob.call('deposits:get', { localId })).data as Detail
    expect(after.qr).toBeNull()
    expect(after.qrAlert).toEqual({ kind: 'mismatch', fields: ['qr_payload'], reason: null })
  })
})
