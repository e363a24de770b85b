/**
 * Desktop notifications for approvals on a real team (team-rig.ts: PostgreSQL cluster, sandbox, one app context
 * per analyst, each with a recording notifier): a desk is told when another analyst asks, and when its own request
 * is decided elsewhere — never of its own request or its own decision; once per approval and state; in the
 * desk's language; the Pix key masked and the free-text notes left out; off with the Settings switch; a click
 * asks the renderer to open the Aprovações page.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import type { DesktopNotification, NotifierPort } from '../../../src/main/notifications'
import type { ApprovalView } from '../../../src/shared/channels-team'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { draft, startDesks, until, type Desk, type DeskRig } from './team-rig'

announceSkip('approval notifications (postgres + sandbox + app contexts)')

interface Shown extends DesktopNotification {
  click: () => void
}
const shown = new Map<string, Shown[]>()
const recorder = (role: string): NotifierPort => ({
  supported: () => true,
  show: (n, click) => shown.get(role)?.push({ ...n, click }),
})
const seen = (d: Desk): Shown[] => shown.get(d.role) ?? []

/** Review then ask for approval on `d`, as its review step does. */
async function ask(d: Desk, pixKey: string, cents: number, note?: string): Promise<ApprovalView> {
  const q = await d.call('withdrawals:quote', { draft: draft(pixKey, cents) })
  const intentId = (q.data as { intent: { id: string } }).intent.id
  const r = await d.call('approvals:request', {
    draft: draft(pixKey, cents),
    intentId,
    ...(note ? { note } : {}),
  })
  expect(r.ok).toBe(true)
  return r.data as ApprovalView
}

/** Waits until every desk heard the approval's latest state (the LISTEN/NOTIFY round trip), then a little more. */
async function settled(desks: Desk[], id: string, state: string): Promise<void> {
  for (const d of desks) {
    await until(`${d.role} hears ${state}`, async () =>
      d.events.some(
        (e) =>
          e.event === 'approval:changed' &&
          (e.payload as ApprovalView).id === id &&
          (e.payload as ApprovalView).state === state,
      )
        ? true
        : undefined,
    )
  }
}

describe.skipIf(PG_SKIP_REASON !== null)('desktop notifications for approvals', () => {
  let rig: DeskRig
  let alice: Desk, bob: Desk, carol: Desk
  beforeAll(async () => {
    for (const r of ['alice', 'bob', 'carol']) shown.set(r, [])
    rig = await startDesks(['alice', 'bob', 'carol'], { notifierFor: recorder })
    ;[alice, bob, carol] = rig.desks as [Desk, Desk, Desk]
    const owner = await rig.team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
  }, 120_000)
  afterAll(async () => rig?.stop())
  beforeEach(() => {
    for (const list of shown.values()) list.length = 0
    for (const d of rig.desks) d.ctx.profiles.updateSettings({ notifications: true, language: 'pt-BR' })
  })

  it('another analyst asked: the others are told (masked key, no note), the requester is not; a click opens Aprovações', async () => {
    const a = await ask(alice, 'fornecedor.grande@example.com', 250_000, 'NF 991 — segredo comercial')
    await settled([alice, bob, carol], a.id, 'pending')
    await until('bob notified', async () => (seen(bob).length > 0 ? true : undefined))
    expect(seen(alice)).toEqual([])
    for (const d of [bob, carol]) {
      expect(seen(d).map(({ title, body }) => ({ title, body }))).toEqual([
        {
          title: 'Pedido de aprovação',
          body: `alice pediu aprovação de R$ 2.500,00 para for${'*'.repeat(12)}om`,
        },
      ])
    }
    const all = [...shown.values()].flat().map((n) => `${n.title} ${n.body}`)
    expect(all.join('\n')).not.toMatch(/fornecedor\.grande|NF 991|segredo|52998224725|529\.982/)

    // The click asks bob's renderer to open the queue (an event that passes the contract's schema).
    seen(bob)[0]!.click()
    expect(bob.events.at(-1)).toEqual({ event: 'notification:openApprovals', payload: { id: a.id } })
  })

  it('my request decided elsewhere: approved, then sent; rejected — only the requester is told, once each', async () => {
    const a = await ask(alice, 'aluguel.sede@example.com', 320_000)
    await settled([alice, bob, carol], a.id, 'pending')
    for (const list of shown.values()) list.length = 0
    expect((await bob.call('approvals:approve', { id: a.id })).ok).toBe(true)
    await settled([alice, bob, carol], a.id, 'approved')
    await until('alice notified', async () => (seen(alice).length > 0 ? true : undefined))
    expect(seen(alice).map(({ title, body }) => ({ title, body }))).toEqual([
      {
        title: 'Pagamento aprovado',
        body: `bob aprovou R$ 3.200,00 para alu${'*'.repeat(12)}om: já pode ser enviado`,
      },
    ])
    // The approver (its own decision) and a third desk (not its request) are not told.
    expect(seen(bob)).toEqual([])
    expect(seen(carol)).toEqual([])
    // Sending makes a record, not an approval decision: nothing more about the approval.
    expect((await carol.call('approvals:send', { id: a.id })).ok).toBe(true)

    // Rejected in English on alice's desk: the reason (free text) stays out of the notification.
    alice.ctx.profiles.updateSettings({ language: 'en' })
    const b = await ask(alice, 'consultoria@example.com', 150_000)
    await settled([alice, carol], b.id, 'pending')
    expect((await carol.call('approvals:reject', { id: b.id, note: 'contrato vencido' })).ok).toBe(true)
    await settled([alice], b.id, 'rejected')
    await until('alice told of the rejection', async () => (seen(alice).length > 1 ? true : undefined))
    expect(seen(alice)[1]).toMatchObject({
      title: 'Withdrawal rejected',
      body: `carol rejected R$1,500.00 to con${'*'.repeat(12)}om`,
    })
    expect(seen(alice).filter((n) => n.title === 'Pagamento aprovado')).toHaveLength(1)
    expect(JSON.stringify(seen(alice))).not.toContain('contrato')
  })

  it('off with the Settings switch on one desk: nothing shown there, the other desks still told', async () => {
    bob.ctx.profiles.updateSettings({ notifications: false })
    const a = await ask(alice, 'desligado@example.com', 150_000)
    await settled([bob, carol], a.id, 'pending')
    await until('carol notified', async () => (seen(carol).length > 0 ? true : undefined))
    expect(seen(bob)).toEqual([])
    expect(seen(carol)).toHaveLength(1)
  })
})
