/**
 * Payment runs in the approvals queue and its desktop notifications (issue #16) on a real team (team-rig.ts:
 * PostgreSQL cluster, sandbox, one app context per analyst role, recording notifiers): a run asked for approval on
 * one desk is listed on the others as theirs to approve and on its own desk as "mine"; it leaves the queue once
 * approved or rejected; the desks are told on the payments' rule, amount and count only, once each.
 */
import type pg from 'pg'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { generateLiquidAddress } from '../../../src/main/liquid'
import type { DesktopNotification, NotifierPort } from '../../../src/main/notifications'
import type { RunApprovalItem } from '../../../src/shared/run-approval'
import { announceSkip, PG_SKIP_REASON } from '../../support/postgres'
import { expectNoPasswords, startDesks, until, type Desk, type DeskRig, type Result } from './team-rig'

announceSkip('runs in the approvals queue (postgres + sandbox + app contexts)')

const REFUND = generateLiquidAddress('liquid', { confidential: false }).address
const HEADER = 'Favorecido;Chave Pix;CPF/CNPJ;Valor do Pix (R$);Endereço de devolução'
function csv(rows: ReadonlyArray<readonly [string, number]>): string {
  const lines = rows.map(
    ([key, cents], i) =>
      `Fornecedor ${i};${key};52998224725;${Math.trunc(cents / 100)},${String(cents % 100).padStart(2, '0')};${REFUND}`,
  )
  return Buffer.from([HEADER, ...lines].join('\r\n'), 'utf8').toString('base64')
}

interface Shown extends DesktopNotification {
  click: () => void
}
const shown = new Map<string, Shown[]>()
const recorder = (role: string): NotifierPort => ({
  supported: () => true,
  show: (n, click) => shown.get(role)?.push({ ...n, click }),
})
const seen = (d: Desk): Array<{ title: string; body: string }> =>
  (shown.get(d.role) ?? []).map(({ title, body }) => ({ title, body }))

const ok = <T>(r: Result): T => {
  if (!r.ok) throw new Error(`refused: ${JSON.stringify(r.error)}`)
  return r.data as T
}

interface Detail {
  run: { runId: string; state: string }
  summary: { depositCents: number; payoutCents: number }
}

/** Imports a run on `k` and asks for its approval there (the first runs:approve above the limit asks). */
async function importRun(
  k: Desk,
  rows: ReadonlyArray<readonly [string, number]>,
  name: string,
): Promise<Detail> {
  const imported = ok<{ runId: string }>(
    await k.call('runs:import', { name: `${name}.csv`, contentBase64: csv(rows) }),
  )
  return ok<Detail>(await k.call('runs:get', { runId: imported.runId }))
}
const ask = async (k: Desk, d: Detail): Promise<void> => {
  const asked = ok<Detail>(
    await k.call('runs:approve', { runId: d.run.runId, confirmPayoutCents: d.summary.payoutCents }),
  )
  expect(asked.run.state).toBe('draft')
}

const queueOf = async (k: Desk): Promise<RunApprovalItem[]> =>
  ok<RunApprovalItem[]>(await k.call('approvals:runs'))
const heard = (k: Desk, runId: string, after: number): boolean =>
  k.events
    .slice(after)
    .some((e) => e.event === 'run:changed' && (e.payload as { runId: string }).runId === runId)

describe.skipIf(PG_SKIP_REASON !== null)('payment runs in the approvals queue', () => {
  let rig: DeskRig
  let owner: pg.Client
  let alice: Desk, bob: Desk, carol: Desk
  beforeAll(async () => {
    for (const r of ['alice', 'bob', 'carol']) shown.set(r, [])
    rig = await startDesks(['alice', 'bob', 'carol'], { notifierFor: recorder })
    ;[alice, bob, carol] = rig.desks as [Desk, Desk, Desk]
    owner = await rig.team.owner()
    await owner.query('UPDATE team_settings SET approval_above_cents = 10000 WHERE id = 1')
  }, 120_000)
  afterAll(async () => rig?.stop())
  beforeEach(() => {
    for (const list of shown.values()) list.length = 0
    for (const d of rig.desks) d.ctx.profiles.updateSettings({ notifications: true, language: 'pt-BR' })
  })

  it('asked on one desk: listed on the others to approve and as mine on its own; approved → gone, the requester told', async () => {
    const d = await importRun(
      alice,
      [
        ['lote-fila-0@example.com', 6_000],
        ['lote-fila-1@example.com', 15_000],
      ],
      'folha-novembro',
    )
    const runId = d.run.runId
    // Not asked yet: not in anyone's queue.
    expect(await queueOf(bob)).toEqual([])
    await ask(alice, d)

    const onBob = await queueOf(bob)
    expect(onBob).toEqual([
      expect.objectContaining({
        runId,
        name: 'folha-novembro.csv',
        rows: 2,
        payoutCents: 21_000,
        depositCents: d.summary.depositCents,
        requestedBy: 'alice',
        mine: false,
        mayApprove: true,
      }),
    ])
    expect(Date.parse(onBob[0]!.requestedAt)).not.toBeNaN()
    expect(await queueOf(alice)).toEqual([expect.objectContaining({ runId, mine: true, mayApprove: false })])

    // The other desks are told, amount and count only; the requester is not.
    await until('bob and carol told', async () =>
      seen(bob).length > 0 && seen(carol).length > 0 ? true : undefined,
    )
    for (const k of [bob, carol]) {
      expect(seen(k)).toEqual([
        {
          title: 'Lote aguardando aprovação',
          body: 'alice pediu aprovação de um lote de 2 pagamentos (R$ 210,00)',
        },
      ])
    }
    expect(seen(alice)).toEqual([])
    expect(JSON.stringify([...shown.values()])).not.toMatch(/lote-fila|folha-novembro|52998224725/)
    // A click asks bob's renderer to open the run.
    shown.get('bob')![0]!.click()
    expect(bob.events.at(-1)).toEqual({ event: 'notification:openRun', payload: { runId } })

    // The same change heard again (a reconnect, another row event) tells nobody twice.
    const before = bob.events.length
    await owner.query(`SELECT pg_notify('depix_runs', json_build_object('runId', $1::text)::text)`, [runId])
    await until('bob hears the repeat', async () => (heard(bob, runId, before) ? true : undefined))
    await new Promise((r) => setTimeout(r, 300))
    expect(seen(bob)).toHaveLength(1)

    for (const list of shown.values()) list.length = 0
    ok(await bob.call('runs:approve', { runId, confirmPayoutCents: d.summary.payoutCents }))
    expect(await queueOf(bob)).toEqual([])
    expect(await queueOf(alice)).toEqual([])
    await until('alice told', async () => (seen(alice).length > 0 ? true : undefined))
    expect(seen(alice)).toEqual([
      {
        title: 'Lote aprovado',
        body: 'bob aprovou seu lote de 2 pagamentos (R$ 210,00): já pode criar as ondas',
      },
    ])
    await new Promise((r) => setTimeout(r, 300))
    expect(seen(bob)).toEqual([])
    expect(seen(carol)).toEqual([])
    // Cancelled here so no later test sends it.
    ok(await alice.call('runs:cancel', { runId }))
  })

  it('rejected (cancelled by another analyst): leaves the queue, the requester told in her language; a dropped row is outside the total', async () => {
    alice.ctx.profiles.updateSettings({ language: 'en' })
    const d = await importRun(
      alice,
      [
        ['lote-recusa-0@example.com', 12_000],
        ['lote-recusa-1@example.com', 3_000],
        ['lote-recusa-1@example.com', 3_000],
      ],
      'recusa',
    )
    const runId = d.run.runId
    // The repeated line is a possible duplicate: dropping it before asking keeps it out of the queue's totals.
    ok(await alice.call('runs:decide', { runId, idx: 2, decision: 'drop' }))
    ok(await alice.call('runs:decide', { runId, idx: 1, decision: 'keep' }))
    const fresh = ok<Detail>(await alice.call('runs:get', { runId }))
    await ask(alice, fresh)
    expect(await queueOf(carol)).toEqual([expect.objectContaining({ runId, rows: 2, payoutCents: 15_000 })])
    await until('carol told', async () => (seen(carol).length > 0 ? true : undefined))
    for (const list of shown.values()) list.length = 0

    ok(await carol.call('runs:cancel', { runId, reason: 'Centro de custo errado' }))
    expect(await queueOf(bob)).toEqual([])
    await until('alice told of the rejection', async () => (seen(alice).length > 0 ? true : undefined))
    expect(seen(alice)).toEqual([
      { title: 'Payment run rejected', body: 'carol rejected your payment run of 2 withdrawals (R$150.00)' },
    ])
    await new Promise((r) => setTimeout(r, 300))
    expect(seen(bob)).toEqual([])
    expect(seen(carol)).toEqual([])
  })

  it('imported by one role, asked by another: the importer may not approve it and is not asked; a self-cancel is no rejection', async () => {
    const d = await importRun(bob, [['lote-importador@example.com', 20_000]], 'importado-por-bob')
    const runId = d.run.runId
    await ask(alice, d)
    expect(await queueOf(bob)).toEqual([expect.objectContaining({ runId, mine: false, mayApprove: false })])
    expect(await queueOf(carol)).toEqual([expect.objectContaining({ runId, mine: false, mayApprove: true })])
    await until('carol told', async () => (seen(carol).length > 0 ? true : undefined))
    await new Promise((r) => setTimeout(r, 300))
    expect(seen(bob)).toEqual([])
    expect(seen(alice)).toEqual([])

    // Alice withdraws her own request by cancelling: nobody is told of a rejection.
    ok(await alice.call('runs:cancel', { runId }))
    expect(await queueOf(carol)).toEqual([])
    await new Promise((r) => setTimeout(r, 500))
    expect(seen(alice)).toEqual([])
  })

  it('a role taken out of depix_analysts: the queue is refused by SQLSTATE (permission_denied), then works again', async () => {
    await rig.team.cluster.admin('REVOKE depix_analysts FROM carol')
    try {
      const r = await carol.call('approvals:runs')
      expect(r.ok).toBe(false)
      expect(r.error).toMatchObject({ code: 'permission_denied' })
    } finally {
      await rig.team.cluster.admin('GRANT depix_analysts TO carol')
    }
    expect(await queueOf(carol)).toEqual([])
  })

  it('notifications off on one desk: nothing there; the queue still lists the run; a desk without a team is refused', async () => {
    carol.ctx.profiles.updateSettings({ notifications: false })
    const d = await importRun(alice, [['lote-desligado@example.com', 30_000]], 'desligado')
    await ask(alice, d)
    await until('bob told', async () => (seen(bob).length > 0 ? true : undefined))
    await new Promise((r) => setTimeout(r, 300))
    expect(seen(carol)).toEqual([])
    expect((await queueOf(carol)).map((r) => r.runId)).toEqual([d.run.runId])
    ok(await alice.call('runs:cancel', { runId: d.run.runId }))

    // This computer's ledger has no approvals: refused with the payments' queue's own code and words.
    const local = await rig.openDesk('dora', null, 'dora-pw')
    const refused = await local.call('approvals:runs')
    expect(refused.ok).toBe(false)
    expect(refused.error).toMatchObject({ code: 'unsupported' })
    // No role's password in any payload or event any desk got.
    expectNoPasswords(rig)
  })
})
