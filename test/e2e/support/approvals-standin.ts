/**
 * SCRIPTED STAND-IN — test-only, NOT main's implementation. Main's handlers for the team channels (issue #16,
 * `teamChannels` / `teamEvents` in src/shared/channels-team.ts) are being written in parallel (t16core); until
 * they land, test/e2e/renderer/approvals.spec.ts puts this in front of the real router so the renderer can be
 * driven now. It speaks the contract's zod schemas exactly (inputs refused as main's router refuses them,
 * outputs parsed), keeps approvals in memory, and passes every other channel to the real app context. Sending an
 * approved payment is a real quote + create on the real router, so the payment's detail page is real.
 * The integrator switches the spec to the real main (a team-ledger profile on test/support/postgres.ts) and
 * deletes this file once t16core is merged.
 */
import { randomUUID } from 'node:crypto'
import type { z } from 'zod'
import {
  approvalViewSchema,
  teamChannels,
  teamStatusSchema,
  type ApprovalView,
  type TeamStatus,
} from '../../../src/shared/channels-team'
import { withdrawalQuoteSchema, type IpcResult } from '../../../src/shared/contract'
import type { WithdrawalDraft } from '../../../src/shared/withdrawal'
import { fieldErrors, type Router } from '../../../src/main/ipc/router'

type TeamChannel = keyof typeof teamChannels
type Input<C extends TeamChannel> = z.output<(typeof teamChannels)[C]['input']>

interface Stored {
  view: ApprovalView
  draft: WithdrawalDraft
  intentId: string
}

export interface ApprovalsStandIn {
  /** Put in front of the real router: `app.bridge.rebind(standIn.router)`. */
  router: Router
  /** Team calls the renderer made, with their parsed input. */
  calls: Array<{ channel: TeamChannel; input: unknown }>
  /** The next call of `channel` is refused with `code` (main's refusal codes), nothing changed. */
  refuseNext(channel: TeamChannel, code: string): void
  /** Another desk asks for approval (as its own window would); the change is pushed to this desk. */
  requestFrom(requestedBy: string, draft: WithdrawalDraft, note?: string): Promise<ApprovalView>
  /** Another desk decides a request (e.g. this desk's own). */
  decideAs(
    decidedBy: string,
    id: string,
    decision: 'approved' | 'rejected',
    note?: string,
  ): Promise<ApprovalView>
  setStatus(patch: Partial<TeamStatus>): Promise<void>
  approval(id: string): ApprovalView | undefined
}

export function approvalsStandIn(
  real: Router,
  emit: (event: string, payload: unknown) => Promise<void>,
  opts: { identity: string; approvalAboveCents: number },
): ApprovalsStandIn {
  let status: TeamStatus = teamStatusSchema.parse({
    engine: 'postgres',
    identity: opts.identity,
    connected: true,
    leader: false,
    approvalAboveCents: opts.approvalAboveCents,
  })
  const stored = new Map<string, Stored>()
  const refusals = new Map<string, string>()
  const calls: ApprovalsStandIn['calls'] = []

  // The limit in force is the status's (a test may change it between a quote and a create).
  const above = (draft: WithdrawalDraft): boolean =>
    status.approvalAboveCents !== null && draft.amount.cents > status.approvalAboveCents
  // `mine` is relative to the desk looking: this desk is `opts.identity`.
  const view = (s: Stored): ApprovalView =>
    approvalViewSchema.parse({ ...s.view, mine: s.view.requestedBy === opts.identity })
  const changed = async (s: Stored): Promise<ApprovalView> => {
    const v = view(s)
    await emit('approval:changed', v)
    return v
  }
  const refuse = (code: string): IpcResult<never> => ({
    ok: false,
    error: { code, message: `Stand-in: ${code}` },
  })

  async function realCall<T>(channel: string, input: unknown): Promise<T> {
    const r = (await real.handle(channel, input)) as IpcResult<T>
    if (!r.ok) throw Object.assign(new Error(r.error.code), { ipc: r.error })
    return r.data
  }

  async function record(
    requestedBy: string,
    draft: WithdrawalDraft,
    intentId: string,
    note?: string,
  ): Promise<Stored> {
    // The exact body main would store: the real quote's request for this draft.
    const q = await realCall<{ request: Record<string, unknown> }>('withdrawals:quote', { draft })
    const s: Stored = {
      draft,
      intentId,
      view: approvalViewSchema.parse({
        id: randomUUID(),
        localId: randomUUID(),
        profile: 'sandbox',
        request: q.request,
        pixKey: draft.pixKey,
        amountKind: draft.amount.kind,
        amountCents: draft.amount.cents,
        note: note ?? null,
        requestedBy,
        requestedAt: new Date().toISOString(),
        state: 'pending',
        decidedBy: null,
        decidedAt: null,
        decisionNote: null,
        mine: false,
      }),
    }
    stored.set(s.view.id, s)
    return s
  }

  function decide(
    s: Stored,
    by: string,
    state: 'approved' | 'rejected',
    note?: string,
  ): IpcResult<never> | null {
    // As the database does: no self-decision, one decision only.
    if (s.view.requestedBy === by) return refuse('approval_self')
    if (s.view.state !== 'pending') return refuse('approval_decided')
    s.view = {
      ...s.view,
      state,
      decidedBy: by,
      decidedAt: new Date().toISOString(),
      decisionNote: note ?? null,
    }
    return null
  }

  const handlers: { [C in TeamChannel]: (input: Input<C>) => Promise<unknown> } = {
    'team:status': () => Promise.resolve(status),
    'approvals:list': () =>
      Promise.resolve(
        [...stored.values()]
          .filter((s) => s.view.state === 'pending' || s.view.state === 'approved')
          .sort((a, b) => a.view.requestedAt.localeCompare(b.view.requestedAt))
          .map(view),
      ),
    'approvals:request': async (input) => {
      if (!above(input.draft)) return refuse('approval_not_needed')
      return changed(await record(opts.identity, input.draft, input.intentId, input.note))
    },
    'approvals:approve': async (input) => {
      const s = stored.get(input.id)
      if (!s) return refuse('not_found')
      return decide(s, opts.identity, 'approved', input.note) ?? changed(s)
    },
    'approvals:reject': async (input) => {
      const s = stored.get(input.id)
      if (!s) return refuse('not_found')
      return decide(s, opts.identity, 'rejected', input.note) ?? changed(s)
    },
    'approvals:send': async (input) => {
      const s = stored.get(input.id)
      if (!s) return refuse('not_found')
      if (s.view.state !== 'approved') return refuse('approval_required')
      // One journaled create on the real router with the stored draft (a fresh intent: the stand-in has no
      // database-held authority to reuse).
      const q = await realCall<{ intent: { id: string }; duplicates: Array<{ localId: string }> }>(
        'withdrawals:quote',
        { draft: s.draft },
      )
      const created = await real.handle('withdrawals:create', {
        draft: s.draft,
        intentId: q.intent.id,
        confirmedDuplicates: q.duplicates.map((d) => d.localId),
      })
      if (!created.ok) return created
      s.view = { ...s.view, state: 'sent' }
      await changed(s)
      return created
    },
  }

  const isTeam = (c: unknown): c is TeamChannel => typeof c === 'string' && Object.hasOwn(teamChannels, c)

  const router: Router = {
    async handle(channel, rawInput) {
      if (channel === 'withdrawals:quote') {
        // Main marks a quote above the team's limit; the stand-in does the same on the real quote.
        const r = await real.handle(channel, rawInput)
        if (!r.ok) return r
        const draft = (rawInput as { draft: WithdrawalDraft }).draft
        return {
          ok: true,
          data: withdrawalQuoteSchema.parse({ ...(r.data as object), needsApproval: above(draft) }),
        }
      }
      if (channel === 'withdrawals:create') {
        const draft = (rawInput as { draft?: WithdrawalDraft }).draft
        if (draft && above(draft)) return refuse('approval_required')
        return real.handle(channel, rawInput)
      }
      if (!isTeam(channel)) return real.handle(channel, rawInput)
      const spec = teamChannels[channel]
      const parsed = spec.input.safeParse(rawInput)
      if (!parsed.success) {
        return {
          ok: false,
          error: { code: 'invalid_input', message: 'Invalid input', fields: fieldErrors(parsed.error) },
        }
      }
      calls.push({ channel, input: parsed.data })
      const refusal = refusals.get(channel)
      if (refusal) {
        refusals.delete(channel)
        return refuse(refusal)
      }
      const out = await (handlers[channel] as (i: unknown) => Promise<unknown>)(parsed.data)
      if (typeof out === 'object' && out !== null && 'ok' in out) {
        // A refusal, or send's real create result: already an IpcResult.
        return out as IpcResult<unknown>
      }
      return { ok: true, data: spec.output.parse(out) }
    },
  }

  return {
    router,
    calls,
    refuseNext: (channel, code) => refusals.set(channel, code),
    requestFrom: async (requestedBy, draft, note) => {
      const q = await realCall<{ intent: { id: string } }>('withdrawals:quote', { draft })
      return changed(await record(requestedBy, draft, q.intent.id, note))
    },
    decideAs: async (decidedBy, id, decision, note) => {
      const s = stored.get(id)
      if (!s) throw new Error(`no approval ${id}`)
      const refused = decide(s, decidedBy, decision, note)
      if (refused) throw new Error(JSON.stringify(refused))
      return changed(s)
    },
    setStatus: async (patch) => {
      status = teamStatusSchema.parse({ ...status, ...patch })
      await emit('team:status', status)
    },
    approval: (id) => {
      const s = stored.get(id)
      return s ? view(s) : undefined
    },
  }
}
