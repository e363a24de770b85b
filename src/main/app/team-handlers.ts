/**
 * The team channels (src/shared/channels-team.ts, issue #16): the desk's standing and four-eyes approvals, and
 * the refusal of features that still live only in this computer's ledger when the active profile is a team's.
 * Approvals go through the withdrawal service (withdrawals/approvals.ts), so a request checks and consumes the
 * review's intent and a send is the one journaled create.
 */
import type { ApprovalView, teamChannels } from '../../shared/channels-team'
import type { HandlersOf } from '../ipc/router'
import { TeamLedgerError, type Approval, type PgLedgerStore } from '../ledger/engines'
import { readSettingChanges } from '../ledger/pg/settings-changes'
import type { Emit, Log, TeamDeps } from './deps'
import { engineOf } from './engine'
import { runApprovalQueue } from './run-approvals'
import type { ProfileRuntime } from './runtime'
import { SQLITE_STATUS } from './team-runtime'

/** What an approval looks like to this desk: sent or not, and whether this desk's role asked for it. */
export async function approvalView(store: PgLedgerStore, a: Approval): Promise<ApprovalView> {
  const sent = a.state === 'approved' && (await store.approvalSent(a))
  return { ...a, state: sent ? 'sent' : a.state, mine: a.requestedBy === store.identity }
}

const unsupportedApprovals = (): TeamLedgerError =>
  new TeamLedgerError('unsupported', 'approvals exist only on a team ledger', {
    'pt-BR': 'Aprovações existem só em um perfil com livro-caixa da equipe.',
    en: 'Approvals exist only on a profile with a team ledger.',
  })

/** The connected team store of the active profile, or the refusal saying why there is none. */
function teamStore(rt: ProfileRuntime): PgLedgerStore {
  const engine = engineOf(rt)
  if (engine.kind === 'sqlite') throw unsupportedApprovals()
  return engine.connected()
}

export function teamHandlers(deps: TeamDeps): HandlersOf<typeof teamChannels> {
  const rt = (): ProfileRuntime => deps.runtime()
  const store = (): PgLedgerStore => teamStore(rt())
  return {
    'team:status': async () => {
      const engine = engineOf(rt())
      return engine.kind === 'postgres' ? engine.team.status() : SQLITE_STATUS
    },
    'team:changes': async () =>
      engineOf(rt()).kind === 'postgres' ? readSettingChanges(store().pool, 50) : [],
    'approvals:list': async () => {
      const s = store()
      const open = await s.openApprovals()
      return Promise.all(open.map((a) => approvalView(s, a)))
    },
    'approvals:request': async ({ draft, intentId, confirmedDuplicates, note }) => {
      const s = store()
      const a = await rt().withdrawals.requestApproval(
        draft,
        { intentId, confirmedDuplicates: confirmedDuplicates ?? [] },
        note === undefined || note === '' ? undefined : note,
      )
      return approvalView(s, a)
    },
    'approvals:requestTopUp': async ({ draft, intentId, confirmedDuplicates, note }) => {
      const s = store()
      const a = await rt().deposits.requestApproval(
        draft,
        { intentId, confirmedDuplicates: confirmedDuplicates ?? [] },
        note === undefined || note === '' ? undefined : note,
      )
      return approvalView(s, a)
    },
    'approvals:approve': async ({ id, note }) => {
      const s = store()
      return approvalView(s, await s.approve(id, note === undefined || note === '' ? undefined : note))
    },
    'approvals:reject': async ({ id, note }) => {
      const s = store()
      return approvalView(s, await s.reject(id, note))
    },
    'approvals:send': async ({ id }) => {
      const a = await store().getApproval(id)
      return a?.kind === 'deposit' ? rt().deposits.sendApproved(id) : rt().withdrawals.sendApproved(id)
    },
    'approvals:runs': async () => runApprovalQueue(store(), rt().profile.partnerRateBps),
  }
}

/**
 * The team's events for the renderer while `rt` is the active runtime: its standing, record changes made on any
 * desk (LISTEN/NOTIFY: every desk sees every payment within a second) and approvals. Returns the unsubscribers.
 */
export function teamEvents(rt: ProfileRuntime, emit: Emit, log: Log): Array<() => void> {
  const engine = engineOf(rt)
  emit('team:status', engine.kind === 'postgres' ? engine.team.snapshot() : SQLITE_STATUS)
  if (engine.kind === 'sqlite') return []
  const { team, pg } = engine
  return [
    team.onStatus((s) => emit('team:status', s)),
    team.onRecordChange((c) => {
      team.store
        .get(c.localId)
        .then((r) => {
          if (r) emit('withdrawal:changed', r)
        })
        .catch(() => log('team ledger: a changed record could not be read'))
    }),
    team.onDepositChange((c) => {
      team.store.deposits
        ?.get(c.localId)
        .then((r) => {
          if (r) emit('deposit:changed', r)
        })
        .catch(() => log('team ledger: a changed top-up could not be read'))
    }),
    team.onApproval((ev) => {
      if (!pg) return
      pg.getApproval(ev.id)
        .then(async (a) => {
          if (a) emit('approval:changed', await approvalView(pg, a))
        })
        .catch(() => log('team ledger: a changed approval could not be read'))
    }),
    // Another desk's run changes (its waves, an approval) reach this desk's runs screen.
    team.onRunChange((runId) => emit('run:changed', { runId })),
    // Another desk's change of the payee book reaches an open Favorecidos page, which re-reads the book.
    team.onPayeeChange((id) => emit('payee:changed', { id })),
  ]
}
