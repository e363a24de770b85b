/** The channels of deposits ("Comprar DePix", issue #17), bound to the active profile's deposit service. */
import { SANDBOX_PROFILE_ID } from '../../shared/profile'
import { generateLiquidAddress } from '../liquid'
import type { Handlers } from '../ipc/router'
import type { AppState } from './context'
import { AppError } from './errors'

type DepositHandlers = Pick<
  Handlers,
  | 'deposits:defaults'
  | 'deposits:quote'
  | 'deposits:create'
  | 'deposits:list'
  | 'deposits:get'
  | 'deposits:refresh'
  | 'deposits:resolveUnknown'
  | 'deposits:reconcile'
  | 'deposits:reconciliation'
  | 'deposits:import'
  | 'deposits:userInfo'
  | 'deposits:reviewList'
  | 'sandbox:payDeposit'
  | 'sandbox:fileMed'
  | 'sandbox:outsideDeposit'
>

export function depositsHandlers(state: AppState): DepositHandlers {
  const rt = () => state.runtime()
  const { ledger } = state

  /** Sandbox tools exist only on the Sandbox profile, and act only on its own deposits. */
  const sandboxDeposit = (localId: string) => {
    const sandbox = state.sandbox
    if (!sandbox || rt().profile.kind !== 'sandbox') {
      throw new AppError('not_sandbox', 'Sandbox tools exist only on the Sandbox profile.')
    }
    const r = ledger.deposits.get(localId)
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
    'deposits:list': (filter) => {
      // The live list shows the active profile's deposits unless the filter names one.
      const f = { ...filter, profile: filter.profile ?? rt().profile.id }
      const page = ledger.deposits.query(f)
      return { rows: page.rows, total: page.total, totals: ledger.deposits.totalsByStatus(f) }
    },
    'deposits:get': ({ localId }) => rt().deposits.detail(localId),
    'deposits:refresh': ({ localId }) => rt().deposits.refresh(localId),
    'deposits:resolveUnknown': ({ localId, resolution }) => rt().deposits.resolveUnknown(localId, resolution),
    'deposits:reconcile': ({ days }) => rt().deposits.reconcile(days),
    'deposits:reconciliation': () => rt().deposits.lastReconciliation(),
    'deposits:import': ({ qrId }) => rt().deposits.importOutside(qrId),
    'deposits:userInfo': ({ euid }) => rt().deposits.userInfo(euid),
    'deposits:reviewList': (filter) => {
      const review = state.review
      if (!review) throw new AppError('no_review', 'Open an export folder first.')
      const page = review.ledger.deposits.query(filter)
      return { rows: page.rows, total: page.total, totals: review.ledger.deposits.totalsByStatus(filter) }
    },
    'sandbox:payDeposit': async ({ localId }) => {
      const { sandbox, remoteId } = sandboxDeposit(localId)
      sandbox.control.payDeposit(remoteId)
      return rt().deposits.refresh(localId)
    },
    'sandbox:fileMed': async ({ localId }) => {
      const { sandbox, remoteId } = sandboxDeposit(localId)
      sandbox.control.fileMed(remoteId)
      return rt().deposits.refresh(localId)
    },
    'sandbox:outsideDeposit': ({ amountCents, pay }) => {
      const sandbox = state.sandbox
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
