/**
 * Issue #24, attack 4 end to end: top-ups have four-eyes. Two desks through the real IPC router on one team ledger
 * and one sandbox account (team-rig.ts), the team's limit at R$ 100,00. R$ 2.000,00 of DePix to ana's own wallet
 * is not created from the form: it goes to Aprovações (the one approvals queue, a card of kind top-up showing the
 * delivery address), ana cannot approve it herself, bia approves it, and ana's desk creates exactly that top-up,
 * once. A desk on this computer's ledger (no team) keeps its behaviour: no approvals there.
 */
import type pg from 'pg'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { generateLiquidAddress } from '../../../src/main/liquid'
import type { ApprovalView } from '../../../src/shared/channels-team'
import type { DepositQuote } from '../../../src/shared/channels-deposits'
import type { DepositRecord } from '../../../src/shared/deposit-record'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { leadingNow, startDesks, until, type Desk, type DeskRig } from './team-rig'

announceSkip('issue #24 attack 4 through the desks (postgres + sandbox + app contexts)')

const LIMIT = 10_000
/** The payer's CPF (the service asks to identify the payer). */
const PAYER = '52998224725'

describe.skipIf(PG_SKIP_REASON !== null)('issue #24 attack 4: top-ups have four-eyes on the desks', () => {
  let rig: DeskRig
  let ana: Desk
  let bia: Desk
  let owner: pg.Client
  beforeAll(async () => {
    rig = await startDesks(['ana', 'bia'])
    ;[ana, bia] = rig.desks as [Desk, Desk]
    await until('one leader', async () => (leadingNow(rig.desks).length === 1 ? true : undefined))
    owner = await rig.team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = $1 WHERE id = 1', [LIMIT])
  }, 120_000)
  afterAll(async () => {
    await rig?.stop()
  })

  it('R$ 2.000,00 to her own wallet goes to Aprovações; approved by a second analyst it is created once', async () => {
    const d = {
      amountCents: 200_000,
      depixAddress: generateLiquidAddress('liquid').address,
      endUserTaxNumber: PAYER,
    }
    const q = await ana.call('deposits:quote', { draft: d })
    expect(q).toMatchObject({ ok: true, data: { needsApproval: true } })
    const intentId = (q.data as DepositQuote).intent.id
    // The form's create is refused (nothing POSTed), the review's intent still good for the request.
    const direct = await ana.call('deposits:create', { draft: d, intentId })
    expect(direct).toMatchObject({ ok: false, error: { code: 'approval_required' } })
    const asked = await ana.call('approvals:requestTopUp', { draft: d, intentId, note: 'caixa' })
    expect(asked).toMatchObject({
      ok: true,
      data: {
        kind: 'deposit',
        state: 'pending',
        amountCents: 200_000,
        depixAddress: d.depixAddress,
        depixRegistered: false,
        requestedBy: 'ana',
        mine: true,
      },
    })
    const a = asked.data as ApprovalView
    // The review's intent was consumed by the request: it creates nothing now.
    expect(await ana.call('deposits:create', { draft: d, intentId })).toMatchObject({ ok: false })
    expect(await ana.call('approvals:approve', { id: a.id })).toMatchObject({
      ok: false,
      error: { code: 'approval_self' },
    })
    expect(await ana.call('approvals:send', { id: a.id })).toMatchObject({
      ok: false,
      error: { code: 'approval_not_sendable' },
    })
    // bia sees the top-up in the queue with its delivery address and the requester.
    const queue = await bia.call('approvals:list')
    expect((queue.data as ApprovalView[]).find((x) => x.id === a.id)).toMatchObject({
      kind: 'deposit',
      depixAddress: d.depixAddress,
      requestedBy: 'ana',
      mine: false,
    })
    expect(await bia.call('approvals:approve', { id: a.id })).toMatchObject({
      ok: true,
      data: { state: 'approved', decidedBy: 'bia' },
    })
    const sent = await ana.call('approvals:send', { id: a.id })
    expect(sent).toMatchObject({
      ok: true,
      data: { localId: a.localId, amountCents: 200_000, depixAddress: d.depixAddress, localState: 'created' },
    })
    expect((sent.data as DepositRecord).qrCopyPaste).toBeTruthy()
    // Once: a second send is refused and the queue no longer lists it.
    expect(await bia.call('approvals:send', { id: a.id })).toMatchObject({
      ok: false,
      error: { code: 'approval_not_sendable' },
    })
    const after = await bia.call('approvals:list')
    expect((after.data as ApprovalView[]).map((x) => x.id)).not.toContain(a.id)
    const n = await owner.query('SELECT count(*)::int AS n FROM deposits WHERE approval_id = $1', [a.id])
    expect(n.rows[0].n).toBe(1)
  })

  it('within the limit a top-up is created from the form as before', async () => {
    const d = {
      amountCents: LIMIT,
      depixAddress: generateLiquidAddress('liquid').address,
      endUserTaxNumber: PAYER,
    }
    const q = await ana.call('deposits:quote', { draft: d })
    expect(q).toMatchObject({ ok: true, data: { needsApproval: false } })
    const made = await ana.call('deposits:create', { draft: d, intentId: (q.data as DepositQuote).intent.id })
    expect(made).toMatchObject({ ok: true, data: { localState: 'created' } })
  })

  it("a desk on this computer's ledger keeps its behaviour: no approvals, any amount created", async () => {
    const solo = await rig.openDesk('solo', null, '')
    const d = {
      amountCents: 200_000,
      depixAddress: generateLiquidAddress('liquid').address,
      endUserTaxNumber: PAYER,
    }
    const q = await solo.call('deposits:quote', { draft: d })
    expect(q).toMatchObject({ ok: true, data: { needsApproval: false } })
    const made = await solo.call('deposits:create', {
      draft: d,
      intentId: (q.data as DepositQuote).intent.id,
    })
    expect(made).toMatchObject({ ok: true, data: { localState: 'created', amountCents: 200_000 } })
    expect(await solo.call('approvals:requestTopUp', { draft: d, intentId: 'x' })).toMatchObject({
      ok: false,
      error: { code: 'unsupported' },
    })
  })
})
