/**
 * The channels of deposits ("Comprar DePix", issue #17), bound to the active profile's deposit service and its
 * ledger: this computer's, or the team's (issue #16), where the list shows every desk's top-ups.
 */
import { SANDBOX_PROFILE_ID } from '../../shared/profile'
import { generateLiquidAddress } from '../liquid'
import type { depositsChannels } from '../../shared/channels-deposits'
import type { HandlersOf } from '../ipc/router'
import type { DepositsDeps } from './deps'
import { engineOf, scopedFilter } from './engine'
import { AppError } from './errors'

export function depositsHandlers(deps: DepositsDeps): HandlersOf<typeof depositsChannels> {
  const rt = () => deps.runtime()

  /** Sandbox tools exist only on the Sandbox profile, and act only on its own deposits. */
  const sandboxDeposit = async (localId: string) => {
    const sandbox = deps.sandbox
    if (!sandbox || rt().profile.kind !== 'sandbox') {
      throw new AppError('not_sandbox', 'Sandbox tools exist only on the Sandbox profile.')
    }
    const r = await rt().deposits.records.get(localId)
    if (!r || r.profile !== rt().profile.id) throw new AppError('not_found', 'No such deposit.')
    if (!r.remoteId) throw new AppError('not_created', 'This deposit has no id at the service.')
    return { sandbox, remoteId: r.remoteId }
  }

  return {
    'deposits:defaults': () => {
      const p = rt().profile
      return { depixAddress: p.defaultRefundAddress ?? null, network: p.network }
    },
    'deposits:quote': ({ draft }) => rt().deposits.quote(draft),
    'deposits:create': ({ draft, intentId, confirmedDuplicates }) =>
      rt().deposits.create(draft, { intentId, confirmedDuplicates: confirmedDuplicates ?? [] }),
    'deposits:list': async (filter) => {
      // The live list shows the active profile's deposits unless the filter names one; a team's, every desk's.
      const f = scopedFilter(engineOf(rt()), rt().profile.id, filter)
      const records = rt().deposits.records
      const [page, totals] = await Promise.all([records.query(f), records.totalsByStatus(f)])
      return { rows: page.rows, total: page.total, totals }
    },
    'deposits:get': ({ localId }) => rt().deposits.detail(localId),
    'deposits:refresh': ({ localId }) => rt().deposits.refresh(localId),
    'deposits:resolveUnknown': ({ localId, resolution }) => rt().deposits.resolveUnknown(localId, resolution),
    'deposits:reconcile': ({ days }) => rt().deposits.reconcile(days),
    'deposits:reconciliation': () => rt().deposits.lastReconciliation(),
    'deposits:import': ({ qrId }) => rt().deposits.importOutside(qrId),
    'deposits:userInfo': ({ euid }) => rt().deposits.userInfo(euid),
    'deposits:reviewList': (filter) => {
      const review = deps.review.current
      if (!review) throw new AppError('no_review', 'Open an export folder first.')
      const page = review.ledger.deposits.query(filter)
      return { rows: page.rows, total: page.total, totals: review.ledger.deposits.totalsByStatus(filter) }
    },
    'sandbox:payDeposit': async ({ localId }) => {
      const { sandbox, remoteId } = await sandboxDeposit(localId)
      sandbox.control.payDeposit(remoteId)
      return rt().deposits.refresh(localId)
    },
    'sandbox:fileMed': async ({ localId }) => {
      const { sandbox, remoteId } = await sandboxDeposit(localId)
      sandbox.control.fileMed(remoteId)
      return rt().deposits.refresh(localId)
    },
    'sandbox:outsideDeposit': ({ amountCents, pay }) => {
      const sandbox = deps.sandbox
      if (!sandbox || rt().profile.id !== SANDBOX_PROFILE_ID) {
        throw new AppError('not_sandbox', 'Sandbox tools exist only on the Sandbox profile.')
      }
      // Made at the service by "someone else": the app's client, ledger and allowance are not involved.
      const d = sandbox.control.createDeposit({
        amountInCents: amountCents,
        // A fresh address of the profile's network when it has none of its own: the payee of an outside deposit.
        depixAddress:
          rt().profile.defaultRefundAddress ?? generateLiquidAddress(rt().profile.network).address,
        endUserTaxNumber: '52998224725',
      })
      if (pay) sandbox.control.payDeposit(d.qrId)
      return { qrId: d.qrId }
    },
  }
}
