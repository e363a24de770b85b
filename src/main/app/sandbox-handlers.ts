/**
 * The Sandbox profile's tools for withdrawals (src/shared/channels-sandbox.ts): they drive the embedded service
 * in process (sandbox.control) and exist only on the Sandbox profile.
 */
import type { sandboxChannels } from '../../shared/channels-sandbox'
import type { HandlersOf } from '../ipc/router'
import type { SandboxDeps } from './deps'
import { AppError } from './errors'
import { fundingAmount } from './sandbox-tools'
import { withdrawalRecord } from './withdrawals-handlers'

/** The embedded sandbox, when the active profile is the Sandbox one; `not_sandbox` otherwise. */
export function sandboxOnly(deps: SandboxDeps) {
  const sandbox = deps.sandbox
  if (!sandbox || deps.runtime().profile.kind !== 'sandbox') {
    throw new AppError('not_sandbox', 'Sandbox tools exist only on the Sandbox profile.')
  }
  return sandbox
}

export function sandboxHandlers(deps: SandboxDeps): HandlersOf<typeof sandboxChannels> {
  const rt = () => deps.runtime()
  const remoteIdOf = async (localId: string): Promise<string> => {
    const r = await withdrawalRecord(rt(), localId)
    if (!r.remoteId) throw new AppError('not_created', 'This withdrawal has no id at the service.')
    return r.remoteId
  }
  return {
    'sandbox:fund': async ({ localId, mode }) => {
      const sandbox = sandboxOnly(deps)
      const r = await withdrawalRecord(rt(), localId)
      const remoteId = await remoteIdOf(localId)
      if (r.depositAmountCents === null)
        throw new AppError('no_amount', 'The withdrawal has no deposit amount yet.')
      sandbox.control.fundWithdrawal(remoteId, fundingAmount(r.depositAmountCents, mode))
      return rt().withdrawals.refresh(localId)
    },
    'sandbox:settle': async ({ localId, outcome }) => {
      const sandbox = sandboxOnly(deps)
      sandbox.control.settlePayout(await remoteIdOf(localId), outcome)
      return rt().withdrawals.refresh(localId)
    },
    'sandbox:maintenance': ({ on }) => {
      sandboxOnly(deps).control.setMaintenance(on)
      return { on }
    },
  }
}
