/**
 * Four-eyes approvals in the renderer (issue #16): who may act, the badge, the queue's order, which live change
 * shows a banner, the words for main's refusals, and the store that ties them to main's calls and events.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalView, TeamStatus } from '../../src/shared/channels-team'
import { approvalViewSchema, teamChannels } from '../../src/shared/channels-team'
import {
  actionFor,
  amountText,
  applyChange,
  withoutSent,
  APPROVAL_CODES,
  approvalCode,
  badgeCount,
  needsMyAction,
  sortQueue,
  teamIndicator,
  teamReasonText,
  toastFor,
} from '../../src/renderer/src/components/approvals/approval-model'
import { namespaces } from '../../src/renderer/src/i18n/locales'
import { useTeam } from '../../src/renderer/src/stores/team'

function approval(over: Partial<ApprovalView> = {}): ApprovalView {
  return approvalViewSchema.parse({
    id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0001',
    localId: 'local-1',
    profile: 'p1',
    request: { pixKey: 'fornecedor@example.com', payoutAmountInCents: 250_000 },
    pixKey: 'fornecedor@example.com',
    amountKind: 'payout',
    amountCents: 250_000,
    note: null,
    requestedBy: 'ana',
    requestedAt: '2026-11-25T10:00:00.000Z',
    state: 'pending',
    decidedBy: null,
    decidedAt: null,
    decisionNote: null,
    mine: false,
    ...over,
  })
}

const status = (over: Partial<TeamStatus> = {}): TeamStatus => ({
  engine: 'postgres',
  identity: 'bruno',
  connected: true,
  leader: false,
  approvalAboveCents: 100_000,
  ...over,
})

describe('who may act', () => {
  it('decides only others’ pending requests; waits on its own; anyone sends an approved one', () => {
    expect(actionFor(approval())).toBe('decide')
    expect(actionFor(approval({ mine: true }))).toBe('wait')
    expect(actionFor(approval({ state: 'approved', decidedBy: 'bruno' }))).toBe('send')
    expect(actionFor(approval({ state: 'approved', mine: true, decidedBy: 'carla' }))).toBe('send')
    expect(actionFor(approval({ state: 'rejected', decisionNote: 'no' }))).toBe('none')
    expect(actionFor(approval({ state: 'sent' }))).toBe('none')
  })

  it('the badge counts what needs this desk: others’ pending plus approved, never its own pending', () => {
    const list = [
      approval({ id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0001' }),
      approval({ id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0002', mine: true }),
      approval({ id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0003', state: 'approved', decidedBy: 'x' }),
      approval({ id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0004', state: 'rejected', mine: true }),
    ]
    expect(list.map(needsMyAction)).toEqual([true, false, true, false])
    expect(badgeCount(list)).toBe(2)
    expect(badgeCount([])).toBe(0)
  })
})

describe('the queue', () => {
  const a = approval({ id: 'a0000000-0000-4000-8000-000000000001', requestedAt: '2026-11-25T10:00:00.000Z' })
  const b = approval({ id: 'b0000000-0000-4000-8000-000000000002', requestedAt: '2026-11-25T09:00:00.000Z' })
  const c = approval({ id: 'c0000000-0000-4000-8000-000000000003', requestedAt: '2026-11-25T10:00:00.000Z' })

  it('oldest first, ties by id, and an unparsable time last (never first, never a crash)', () => {
    const bad = approval({ id: '00000000-0000-4000-8000-000000000000', requestedAt: 'yesterday' })
    expect(sortQueue([c, bad, a, b]).map((x) => x.id)).toEqual([b.id, a.id, c.id, bad.id])
    // Offsets are compared as instants, not as text.
    const offset = approval({
      id: 'd0000000-0000-4000-8000-000000000004',
      requestedAt: '2026-11-25T06:30:00-03:00',
    })
    expect(sortQueue([a, offset]).map((x) => x.id)).toEqual([offset.id, a.id])
  })

  it('a change replaces the older copy in place of order; a sent one leaves; a rejected one stays', () => {
    const list = sortQueue([a, b, c])
    const approved = { ...a, state: 'approved' as const, decidedBy: 'bruno' }
    const after = applyChange(list, approved)
    expect(after).toHaveLength(3)
    expect(after.find((x) => x.id === a.id)?.state).toBe('approved')
    expect(applyChange(after, { ...approved, state: 'sent' }).map((x) => x.id)).toEqual([b.id, c.id])
    expect(applyChange(after, { ...c, state: 'rejected', decisionNote: 'NF errada' })).toHaveLength(3)
    // Sent on another desk: no approval event, only the payment's record. Only the approved item it belongs to
    // leaves; a pending item with the same planned id (never sendable) and other records change nothing.
    expect(withoutSent(after, a.localId).map((x) => x.id)).toEqual([b.id, c.id])
    expect(withoutSent(list, a.localId)).toHaveLength(3)
    expect(withoutSent(after, 'another-record')).toHaveLength(3)
    // A request seen for the first time is added in its place.
    const fresh = approval({
      id: 'e0000000-0000-4000-8000-000000000005',
      requestedAt: '2026-11-25T09:30:00.000Z',
    })
    expect(applyChange(list, fresh).map((x) => x.id)).toEqual([b.id, fresh.id, a.id, c.id])
  })
})

describe('banners for live changes', () => {
  it('another analyst’s new request, a decision taken elsewhere; never this desk’s own action', () => {
    expect(toastFor(approval(), 'bruno')).toBe('to_decide')
    expect(toastFor(approval({ mine: true }), 'ana')).toBeNull()
    expect(toastFor(approval({ state: 'approved', mine: true, decidedBy: 'bruno' }), 'ana')).toBe('approved')
    expect(toastFor(approval({ state: 'approved', decidedBy: 'bruno' }), 'bruno')).toBeNull()
    expect(toastFor(approval({ state: 'rejected', mine: true, decidedBy: 'bruno' }), 'ana')).toBe('rejected')
    // Someone else's request rejected by a third desk is not this desk's business.
    expect(toastFor(approval({ state: 'rejected', decidedBy: 'carla' }), 'bruno')).toBeNull()
    expect(toastFor(approval({ state: 'sent' }), 'bruno')).toBeNull()
    // Identity unknown (status not read yet): a decision is news rather than silently dropped.
    expect(toastFor(approval({ state: 'approved', decidedBy: 'bruno' }), null)).toBe('approved')
  })
})

describe('team status line', () => {
  it('nothing on this computer’s ledger; amber when disconnected; the leader says so', () => {
    expect(teamIndicator(null)).toBe('none')
    expect(teamIndicator(status({ engine: 'sqlite' }))).toBe('none')
    expect(teamIndicator(status())).toBe('connected')
    expect(teamIndicator(status({ leader: true }))).toBe('leader')
    // A leader that lost the connection is not tracking anything: disconnected wins.
    expect(teamIndicator(status({ connected: false, leader: true }))).toBe('disconnected')
  })

  it('disconnected says why in the connection test’s words; connected or no reason says nothing more', () => {
    expect(teamReasonText(status({ connected: false, reason: 'auth_failed' }), 'pt-BR')).toBe(
      'Usuário do banco ou senha incorretos.',
    )
    expect(teamReasonText(status({ connected: false, reason: 'auth_failed' }), 'en')).toBe(
      'Wrong database role or password.',
    )
    expect(teamReasonText(status({ connected: false, reason: 'unavailable' }), 'pt-BR')).toMatch(
      /não respondeu/,
    )
    expect(teamReasonText(status({ connected: false, reason: null }), 'pt-BR')).toBeNull()
    expect(teamReasonText(status({ connected: false }), 'pt-BR')).toBeNull()
    // A stale reason on a connected desk is not shown; nor one from this computer's ledger.
    expect(teamReasonText(status({ connected: true, reason: 'auth_failed' }), 'pt-BR')).toBeNull()
    expect(teamReasonText(null, 'pt-BR')).toBeNull()
    // An unknown code (a newer main) is not shown raw.
    const odd = { ...status({ connected: false }), reason: '__proto__' } as unknown as TeamStatus
    expect(teamReasonText(odd, 'pt-BR')).toBeNull()
  })
})

describe('amounts and refusals in words', () => {
  it('BRL for a payout amount, DePix for a deposit amount, as finance staff read them', () => {
    expect(amountText(approval(), 'pt-BR')).toBe('R$ 2.500,00')
    expect(amountText(approval(), 'en')).toBe('R$2,500.00')
    expect(amountText(approval({ amountKind: 'deposit', amountCents: 123_456 }), 'pt-BR')).toBe(
      '1.234,56000000 DePix',
    )
  })

  it('every refusal code main may give has its own sentence in both languages, no raw code in it', () => {
    for (const lang of ['pt-BR', 'en'] as const) {
      const texts = namespaces.approvals[lang].ipcCodes as Record<string, string>
      for (const code of APPROVAL_CODES) {
        expect(texts[code], `${lang} ${code}`).toMatch(/\p{L}{3}/u)
        expect(texts[code]).not.toContain(code)
      }
    }
    expect(namespaces.approvals['pt-BR'].ipcCodes.approval_self).toMatch(/próprio pedido/)
    // Every code main's approval calls can refuse with: TeamLedgerErrorCode (src/main/ledger/team-errors.ts)
    // and the withdrawal service's approval codes (src/main/withdrawals/errors.ts). Listed here because the
    // renderer's project cannot import main; a new code there must be added to APPROVAL_CODES and the words.
    const fromMain = [
      'permission_denied',
      'approval_required',
      'approval_self',
      'approval_decided',
      'schema_too_new',
      'schema_too_old',
      'unavailable',
      'unsupported',
      'approval_not_sendable',
    ]
    expect(fromMain.filter((c) => approvalCode(c) === null)).toEqual([])
    expect(namespaces.approvals['pt-BR'].ipcCodes.approval_not_sendable).toMatch(/não pode ser enviado/)
    expect(approvalCode('approval_decided')).toBe('approval_decided')
    expect(approvalCode('__proto__')).toBeNull()
    expect(approvalCode('errorMessage text')).toBeNull()
  })

  it('the refusal sentence reaches the error notice through the approvals area (withAreaMessage)', async () => {
    const { withAreaMessage } = await import('../../src/renderer/src/components/withdrawal-form/error-text')
    for (const code of [
      'approval_self',
      'approval_decided',
      'approval_required',
      'permission_denied',
      'unavailable',
      'unsupported',
      'approval_not_sendable',
    ]) {
      const e = withAreaMessage({ code, message: 'English from main' }, 'approvals')
      expect(e.userMessage?.['pt-BR'], code).toBe(
        (namespaces.approvals['pt-BR'].ipcCodes as Record<string, string>)[code],
      )
      expect(e.userMessage?.en, code).toBe((namespaces.approvals.en.ipcCodes as Record<string, string>)[code])
    }
    // An unknown code is left to the generic notice, untouched.
    expect(withAreaMessage({ code: 'brand_new', message: 'x' }, 'approvals').userMessage).toBeUndefined()
  })
})

describe('contract', () => {
  it('rejecting needs a note; a blank one is refused before it leaves', () => {
    const input = teamChannels['approvals:reject'].input
    const id = '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0001'
    expect(input.safeParse({ id, note: '   ' }).success).toBe(false)
    expect(input.safeParse({ id }).success).toBe(false)
    expect(input.safeParse({ id, note: 'NF errada' }).success).toBe(true)
    expect(input.safeParse({ id: 'not-a-uuid', note: 'x' }).success).toBe(false)
  })
})

/** The store against a scripted `window.treasury`: what main answers and pushes, exactly as the bridge would. */
describe('team store', () => {
  type Answer = (input: unknown) => unknown
  let answers: Record<string, Answer>
  let calls: string[]

  beforeEach(() => {
    answers = {}
    calls = []
    ;(globalThis as unknown as { window: unknown }).window = {
      treasury: {
        invoke: (channel: string, input: unknown) => {
          calls.push(channel)
          const answer = answers[channel]
          if (!answer) return Promise.resolve({ ok: false, error: { code: 'unknown_channel', message: 'x' } })
          return Promise.resolve({ ok: true, data: answer(input) })
        },
        on: () => () => undefined,
      },
    }
  })
  afterEach(() => {
    delete (globalThis as unknown as { window?: unknown }).window
  })

  // `call` reads window.treasury at call time, so the store is imported once and reset per test.
  function freshStore(): Promise<typeof useTeam> {
    useTeam.setState({ status: null, approvals: [], listError: null, toast: null })
    return Promise.resolve(useTeam)
  }

  it('a main without team channels reads as this computer’s ledger and never asks for the queue', async () => {
    const team = await freshStore()
    await team.getState().refresh()
    expect(team.getState().status).toBeNull()
    expect(calls).toEqual(['team:status'])
    // A stray event on this computer's ledger changes nothing (no queue, no banner).
    team.getState().changed(approval(), true)
    expect(team.getState().approvals).toEqual([])
    expect(team.getState().toast).toBeNull()
  })

  it('on a team: the queue sorted, events update it, a banner only for what concerns this desk', async () => {
    const team = await freshStore()
    const old = approval({
      id: 'b0000000-0000-4000-8000-000000000002',
      requestedAt: '2026-11-25T09:00:00.000Z',
    })
    answers['team:status'] = () => status()
    answers['approvals:list'] = () => [approval(), old]
    await team.getState().refresh()
    // The runs waiting for approval are asked with the payments (run-approvals.test.ts).
    expect(calls).toEqual(['team:status', 'approvals:list', 'approvals:runs'])
    expect(team.getState().approvals.map((a) => a.id)).toEqual([old.id, approval().id])

    // This desk's own approval coming back as an event: queue follows, no banner.
    team.getState().changed({ ...old, state: 'approved', decidedBy: 'bruno' }, true)
    expect(team.getState().toast).toBeNull()
    expect(team.getState().approvals[0]?.state).toBe('approved')
    // Another desk's new request: banner.
    const fresh = approval({ id: 'c0000000-0000-4000-8000-000000000003', requestedBy: 'carla' })
    team.getState().changed(fresh, true)
    expect(team.getState().toast).toEqual({ kind: 'to_decide', approval: fresh })
    // Its own call's answer never raises a banner even when it would as an event.
    team.getState().dismissToast()
    team
      .getState()
      .changed({ ...fresh, requestedBy: 'dora', id: 'd0000000-0000-4000-8000-000000000004' }, false)
    expect(team.getState().toast).toBeNull()
  })

  it('a "to decide" banner closes when its request is decided or rejected elsewhere, or is gone from the queue (issue #26)', async () => {
    const team = await freshStore()
    answers['team:status'] = () => status()
    answers['approvals:list'] = () => []
    await team.getState().refresh()
    const asked = approval({ id: 'c0000000-0000-4000-8000-000000000003', requestedBy: 'carla' })
    const other = approval({ id: 'e0000000-0000-4000-8000-000000000005', requestedBy: 'carla' })
    team.getState().changed(asked, true)
    expect(team.getState().toast).toEqual({ kind: 'to_decide', approval: asked })
    // Another request decided elsewhere: this banner stays.
    team.getState().changed({ ...other, state: 'rejected', decidedBy: 'dora' }, true)
    expect(team.getState().toast?.approval.id).toBe(asked.id)
    // This one decided by a third analyst (nothing for this desk to hear): the stale banner closes.
    team.getState().changed({ ...asked, state: 'rejected', decidedBy: 'dora' }, true)
    expect(team.getState().toast).toBeNull()
    // Decided on this desk (its own call's answer): closes too.
    team.getState().changed(asked, true)
    team.getState().changed({ ...asked, state: 'approved', decidedBy: 'bruno' }, false)
    expect(team.getState().toast).toBeNull()
    // Decided while the events were lost: the queue read again no longer has it pending.
    team.getState().changed(asked, true)
    answers['approvals:list'] = () => [{ ...asked, state: 'approved', decidedBy: 'dora' }]
    await team.getState().refreshList()
    expect(team.getState().toast).toBeNull()
    // Still pending there: it stays.
    team.getState().changed(asked, true)
    answers['approvals:list'] = () => [asked]
    await team.getState().refreshList()
    expect(team.getState().toast?.approval.id).toBe(asked.id)
  })

  it('reconnecting asks for the queue again (changes made meanwhile sent no event here)', async () => {
    const team = await freshStore()
    answers['team:status'] = () => status({ connected: false })
    answers['approvals:list'] = () => []
    await team.getState().refresh()
    calls = []
    team.getState().setStatus(status({ connected: false }))
    expect(calls).toEqual([])
    team.getState().setStatus(status({ connected: true }))
    expect(calls).toEqual(['approvals:list', 'approvals:runs'])
    calls = []
    team.getState().setStatus(status({ connected: true, leader: true }))
    expect(calls).toEqual([])
  })

  it('the standing alone is asked again (the limit the review names); a failure keeps what is known', async () => {
    const team = await freshStore()
    answers['team:status'] = () => status()
    answers['approvals:list'] = () => []
    await team.getState().refresh()
    calls = []
    answers['team:status'] = () => status({ approvalAboveCents: 10_000 })
    await team.getState().refreshStatus()
    expect(calls).toEqual(['team:status'])
    expect(team.getState().status?.approvalAboveCents).toBe(10_000)
    delete answers['team:status']
    await team.getState().refreshStatus()
    expect(team.getState().status?.approvalAboveCents).toBe(10_000)
  })

  it('switching to a profile on this computer’s ledger empties the queue and the banner', async () => {
    const team = await freshStore()
    answers['team:status'] = () => status()
    answers['approvals:list'] = () => [approval()]
    await team.getState().refresh()
    team.getState().changed(approval({ id: 'c0000000-0000-4000-8000-000000000003' }), true)
    expect(team.getState().toast).not.toBeNull()
    answers['team:status'] = () => status({ engine: 'sqlite', identity: null })
    await team.getState().refresh()
    expect(team.getState()).toMatchObject({ approvals: [], toast: null })
  })
})
