/**
 * Four-eyes approvals across desks, through the IPC router (team-rig.ts): above the team's threshold a payment is
 * asked for on one desk (with the review's intent, one use), cannot be decided by its requester, is approved or
 * rejected on another, and is sent once — through the one journaled create — with POSTs counted on the wire.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import type { Team } from '../ledger/team'
import {
  draft,
  expectNoPasswords,
  postsSent,
  startDesks,
  statusOf,
  until,
  type Desk,
  type DeskRig,
} from './team-rig'

announceSkip('team approvals (postgres + sandbox + app contexts)')

describe.skipIf(PG_SKIP_REASON !== null)('four-eyes approvals across desks', () => {
  let rig: DeskRig
  let team: Team
  let desks: Desk[]
  beforeAll(async () => {
    rig = await startDesks(['alice', 'bob', 'carol'])
    ;({ team, desks } = rig)
  }, 120_000)
  afterAll(async () => rig?.stop())

  it('above the threshold: asked on one desk, refused to its requester, approved on another, sent once', async () => {
    const [alice, bob, carol] = desks as [Desk, Desk, Desk]
    const owner = await team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
    // Pushed (NOTIFY), not read per call: it arrives within a second.
    await until('the pushed threshold', async () =>
      (await statusOf(alice)).approvalAboveCents === 10_000 ? true : undefined,
    )

    // What the payment is for travels with the request and is on the record the approved send makes.
    const references = { invoice: 'NF 7781', costCentre: 'Obras', note: 'Parcela 2/3' }
    const d = { ...draft('four-eyes@example.com', 25_000), references }
    const before = postsSent()
    const q = await alice.call('withdrawals:quote', { draft: d })
    expect(q).toMatchObject({ ok: true, data: { needsApproval: true } })
    const intentId = (q.data as { intent: { id: string } }).intent.id
    const direct = await alice.call('withdrawals:create', { draft: d, intentId })
    expect(direct).toMatchObject({ ok: false, error: { code: 'approval_required' } })
    expect((direct.error as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toMatch(/aprovação/)

    // The request checks the review's intent like a create: a wrong one is refused, the right one is used once.
    expect(await alice.call('approvals:request', { draft: d, intentId: 'not-an-intent' })).toMatchObject({
      ok: false,
      error: { code: 'intent_invalid' },
    })
    const asked = await alice.call('approvals:request', { draft: d, intentId, note: 'fornecedor novo' })
    expect(asked).toMatchObject({ ok: true, data: { state: 'pending', mine: true, requestedBy: 'alice' } })
    const approval = asked.data as { id: string; localId: string; amountCents: number }
    expect(approval.amountCents).toBe(25_000)
    expect(await alice.call('approvals:request', { draft: d, intentId })).toMatchObject({
      ok: false,
      error: { code: 'intent_invalid' },
    })

    // Not yet approved: nobody can send it.
    expect(await carol.call('approvals:send', { id: approval.id })).toMatchObject({
      ok: false,
      error: { code: 'approval_not_sendable' },
    })
    // The requester cannot decide it.
    const self = await alice.call('approvals:approve', { id: approval.id })
    expect(self).toMatchObject({ ok: false, error: { code: 'approval_self' } })
    expect((self.error as { userMessage: { 'pt-BR': string } }).userMessage['pt-BR']).toMatch(
      /outro analista/,
    )

    // Bob sees it in his queue (not his own), and approves it; Alice hears of it.
    const queue = await bob.call('approvals:list')
    const seen = (queue.data as Array<{ id: string; mine: boolean; state: string }>).find(
      (a) => a.id === approval.id,
    )
    expect(seen).toMatchObject({ mine: false, state: 'pending' })
    expect(await bob.call('approvals:approve', { id: approval.id, note: 'ok' })).toMatchObject({
      ok: true,
      data: { state: 'approved', decidedBy: 'bob' },
    })
    await until('approval event on alice', async () =>
      alice.events.some(
        (e) =>
          e.event === 'approval:changed' &&
          (e.payload as { id: string; state: string }).id === approval.id &&
          (e.payload as { state: string }).state === 'approved',
      )
        ? true
        : undefined,
    )
    expect(postsSent() - before).toBe(0)

    // Carol sends it: one POST, with the approval's body; the record has the approval's local id.
    const sent = await carol.call('approvals:send', { id: approval.id })
    expect(sent).toMatchObject({ ok: true, data: { localId: approval.localId, localState: 'created' } })
    expect((sent.data as { request: Record<string, unknown> }).request).toMatchObject({
      pixKey: 'four-eyes@example.com',
      payoutAmountInCents: 25_000,
    })
    expect(postsSent() - before).toBe(1)
    expect(sent.data).toMatchObject({ references })
    expect((await bob.call('withdrawals:get', { localId: approval.localId })).data).toMatchObject({
      record: { references },
    })
    // Sent twice (another desk, and at once on one desk): refused, no second POST.
    const [again1, again2] = await Promise.all([
      alice.call('approvals:send', { id: approval.id }),
      carol.call('approvals:send', { id: approval.id }),
    ])
    expect(again1).toMatchObject({ ok: false, error: { code: 'approval_not_sendable' } })
    expect(again2).toMatchObject({ ok: false, error: { code: 'approval_not_sendable' } })
    expect(postsSent() - before).toBe(1)
    const after = (await bob.call('approvals:list')).data as Array<{ id: string }>
    expect(after.some((a) => a.id === approval.id)).toBe(false)

    // A rejection needs a note and ends the approval: it can never be sent.
    const q2 = await bob.call('withdrawals:quote', { draft: draft('rejected@example.com', 30_000) })
    const asked2 = await bob.call('approvals:request', {
      draft: draft('rejected@example.com', 30_000),
      intentId: (q2.data as { intent: { id: string } }).intent.id,
    })
    const id2 = (asked2.data as { id: string }).id
    expect(await carol.call('approvals:reject', { id: id2, note: '' })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    })
    expect(await carol.call('approvals:reject', { id: id2, note: 'valor errado' })).toMatchObject({
      ok: true,
      data: { state: 'rejected', decidedBy: 'carol' },
    })
    expect(await bob.call('approvals:send', { id: id2 })).toMatchObject({
      ok: false,
      error: { code: 'approval_not_sendable' },
    })
    expect(postsSent() - before).toBe(1)
    await owner.query('UPDATE team_settings SET approval_above_cents = NULL WHERE id = 1')
  })

  it('no role password reaches a result or an event', () => expectNoPasswords(rig))
})
