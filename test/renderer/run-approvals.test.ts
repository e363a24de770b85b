/**
 * Payment runs in the Aprovações queue (issue #16), renderer side: what this desk may do with a waiting run, the
 * order, the count and badge (payments and runs together), the total's words, the contract's check of main's
 * answer, and the team store asking main for the runs (on a team only) and keeping the last good list.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ApprovalView, TeamStatus } from '../../src/shared/channels-team'
import { approvalViewSchema, teamChannels } from '../../src/shared/channels-team'
import { events } from '../../src/shared/contract'
import { runApprovalItemSchema, type RunApprovalItem } from '../../src/shared/run-approval'
import {
  queueCount,
  runActionFor,
  runTotalText,
  sortRunQueue,
} from '../../src/renderer/src/components/approvals/run-approval-model'
import { namespaces } from '../../src/renderer/src/i18n/locales'
import { useTeam } from '../../src/renderer/src/stores/team'

const RUN = 'run-00000000-0000-4000-8000-000000000001'
const run = (over: Partial<RunApprovalItem> = {}): RunApprovalItem =>
  runApprovalItemSchema.parse({
    runId: RUN,
    name: 'folha-novembro.csv',
    rows: 12,
    payoutCents: 1_234_56,
    depositCents: 1_260_00,
    requestedBy: 'ana',
    requestedAt: '2026-11-25T10:00:00.000Z',
    mine: false,
    mayApprove: true,
    ...over,
  })

const payment = (over: Partial<ApprovalView> = {}): ApprovalView =>
  approvalViewSchema.parse({
    id: '6f1c7c53-6a43-4c43-9d55-0a6a3f0e0001',
    localId: 'local-1',
    profile: 'p1',
    request: {},
    pixKey: 'x@example.com',
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

const status = (over: Partial<TeamStatus> = {}): TeamStatus => ({
  engine: 'postgres',
  identity: 'bruno',
  connected: true,
  leader: false,
  approvalAboveCents: 100_000,
  ...over,
})

describe('runs in the queue (model)', () => {
  it('approve only a run this desk neither asked for nor imported; wait on the others', () => {
    expect(runActionFor(run())).toBe('approve')
    expect(runActionFor(run({ mine: true, mayApprove: false }))).toBe('wait_mine')
    expect(runActionFor(run({ mayApprove: false }))).toBe('wait_imported')
  })

  it('the count adds the runs this desk may approve to the payments that need it', () => {
    // A run asked for by this desk, and one imported by it (the database refuses both their approvals).
    const mineRun = run({ runId: 'run-b', mine: true, mayApprove: false })
    const imported = run({ runId: 'run-c', mayApprove: false })
    expect(queueCount([], [])).toBe(0)
    expect(queueCount([], [run()])).toBe(1)
    expect(queueCount([], [mineRun, imported])).toBe(0)
    // A payment to decide, one of my own waiting, a run to approve: two need me.
    expect(queueCount([payment(), payment({ id: 'b', mine: true })], [run(), mineRun])).toBe(2)
  })

  it('oldest request first, ties by run id; an unreadable time goes last', () => {
    const a = run({ runId: 'run-a', requestedAt: '2026-11-25T09:00:00.000Z' })
    const b = run({ runId: 'run-b', requestedAt: '2026-11-25T09:00:00.000Z' })
    const late = run({ runId: 'run-0', requestedAt: '2026-11-25T11:00:00.000Z' })
    const odd = run({ runId: 'run-1', requestedAt: 'ontem' })
    expect(sortRunQueue([odd, late, b, a]).map((r) => r.runId)).toEqual(['run-a', 'run-b', 'run-0', 'run-1'])
  })

  it('the total in R$ in each language', () => {
    expect(runTotalText(run(), 'pt-BR')).toBe('R$ 1.234,56')
    expect(runTotalText(run(), 'en')).toBe('R$1,234.56')
  })

  it('the contract refuses a run whose money is not integer cents, and carries no Pix key', () => {
    const out = teamChannels['approvals:runs'].output
    expect(out.safeParse([run()]).success).toBe(true)
    expect(out.safeParse([{ ...run(), payoutCents: 12.5 }]).success).toBe(false)
    expect(out.safeParse([{ ...run(), depositCents: -1 }]).success).toBe(false)
    expect(out.safeParse([{ ...run(), mayApprove: undefined }]).success).toBe(false)
    expect(Object.keys(run())).not.toContain('pixKey')
    expect(events['notification:openRun'].safeParse({ runId: RUN }).success).toBe(true)
  })

  it('every word of the runs in the queue in pt-BR and English', () => {
    const pt = namespaces.approvals['pt-BR'].runs
    const en = namespaces.approvals.en.runs
    expect(Object.keys(en).sort()).toEqual(Object.keys(pt).sort())
    expect(pt.open).toBe('Abrir lote')
    expect(en.open).toBe('Open run')
    for (const v of [...Object.values(pt), ...Object.values(en)])
      expect(v).not.toMatch(/wait_|mayApprove|run-/)
  })
})

describe('team store: runs waiting for approval', () => {
  let answers: Record<string, (input: unknown) => unknown>
  let calls: string[]
  beforeEach(() => {
    answers = {}
    calls = []
    ;(globalThis as unknown as { window: unknown }).window = {
      treasury: {
        invoke: (channel: string, input: unknown) => {
          calls.push(channel)
          const answer = answers[channel]
          if (!answer) return Promise.resolve({ ok: false, error: { code: 'unavailable', message: 'x' } })
          return Promise.resolve({ ok: true, data: answer(input) })
        },
        on: () => () => undefined,
      },
    }
    useTeam.setState({ status: null, approvals: [], runs: [], listError: null, toast: null })
  })
  afterEach(() => {
    delete (globalThis as unknown as { window?: unknown }).window
  })

  it('on a team: asked with the payments, sorted; a run change asks again; a failure keeps the last list', async () => {
    const old = run({ runId: 'run-old', requestedAt: '2026-11-25T08:00:00.000Z' })
    answers['team:status'] = () => status()
    answers['approvals:list'] = () => []
    answers['approvals:runs'] = () => [run(), old]
    await useTeam.getState().refresh()
    expect(calls).toEqual(['team:status', 'approvals:list', 'approvals:runs'])
    expect(useTeam.getState().runs.map((r) => r.runId)).toEqual(['run-old', RUN])

    // Approved on another desk: the next read no longer lists it.
    answers['approvals:runs'] = () => [old]
    await useTeam.getState().refreshRuns()
    expect(useTeam.getState().runs.map((r) => r.runId)).toEqual(['run-old'])

    // Main unreachable: the last list stays (the payments' read shows why).
    delete answers['approvals:runs']
    await useTeam.getState().refreshRuns()
    expect(useTeam.getState().runs.map((r) => r.runId)).toEqual(['run-old'])
  })

  it('on this computer’s ledger: runs are never asked for and the list is emptied', async () => {
    useTeam.setState({ runs: [run()] })
    answers['team:status'] = () => status({ engine: 'sqlite', identity: null })
    await useTeam.getState().refresh()
    await useTeam.getState().refreshRuns()
    expect(calls).toEqual(['team:status'])
    expect(useTeam.getState().runs).toEqual([])
  })
})
