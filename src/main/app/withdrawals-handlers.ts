/**
 * The channels of withdrawals (src/shared/channels-withdrawals.ts), bound to the active profile's withdrawal
 * service and its record store: this computer's ledger, or the team's (every desk's payments).
 */
import type { withdrawalsChannels } from '../../shared/channels-withdrawals'
import type { HandlersOf } from '../ipc/router'
import { checkLiquidAddress } from '../liquid'
import type { WithdrawalsDeps } from './deps'
import { checkDeskConfirmation } from './desk-confirmation'
import { engineOf, scopedFilter } from './engine'
import { AppError } from './errors'
import { reconcileRefund, reconciledAmong } from './refund-reconcile'
import type { ProfileRuntime } from './runtime'

/** The active profile's record, or `not_found`. */
export async function withdrawalRecord(rt: ProfileRuntime, localId: string) {
  const r = await rt.withdrawals.store.get(localId)
  if (!r) throw new AppError('not_found', 'No such withdrawal.')
  return r
}

export function withdrawalsHandlers(deps: WithdrawalsDeps): HandlersOf<typeof withdrawalsChannels> {
  const rt = () => deps.runtime()
  const store = () => rt().withdrawals.store
  return {
    'liquid:check': ({ address }) => checkLiquidAddress(address, rt().profile.network),

    'withdrawals:quote': ({ draft }) => rt().withdrawals.quote(draft),
    'withdrawals:create': ({ draft, intentId, confirmedDuplicates, confirmedAmountCents }) => {
      const limit = deps.profiles.settings().liveConfirmAboveCents
      checkDeskConfirmation(rt().profile.kind, limit, draft.amount.cents, confirmedAmountCents)
      return rt().withdrawals.create(draft, { intentId, confirmedDuplicates: confirmedDuplicates ?? [] })
    },
    'withdrawals:list': async (filter) => {
      const r = rt()
      const f = scopedFilter(engineOf(r), r.profile.id, filter)
      const s = store()
      const [page, totals] = await Promise.all([s.query(f), s.totalsByStatus(f)])
      return { rows: page.rows, total: page.total, totals, runs: page.runs ?? {} }
    },
    'withdrawals:get': async ({ localId }) => {
      const r = await withdrawalRecord(rt(), localId)
      const { funding, problem, alert } = await rt().withdrawals.funding(localId)
      const observations = await store().observations(localId)
      const run = (await store().runLinks([localId])).get(localId) ?? null
      // Under an alert the stored address is not shown anywhere (the detail page lists the record's facts).
      const shown = alert === null ? r : { ...r, depositAddress: null }
      return { record: shown, observations, funding, fundingProblem: problem, fundingAlert: alert, run }
    },
    'withdrawals:markFunded': ({ localId, txId }) =>
      rt().withdrawals.markFunded(localId, txId ? { txId } : {}),
    'withdrawals:resolveUnknown': ({ localId, resolution }) =>
      rt().withdrawals.resolveUnknown(localId, resolution),
    'withdrawals:refresh': ({ localId }) => rt().withdrawals.refresh(localId),
    'withdrawals:reconcileRefund': ({ localId }) => reconcileRefund(store(), localId, deps.operator),
    'withdrawals:reconciledRefunds': ({ localIds }) => reconciledAmong(store(), localIds),
  }
}
