/**
 * The in-process control surface (`sandbox.control`). Not part of the DePix API: it plays the other side of
 * the world — the payer, the Liquid network, the banking processor, the operator, and the clock.
 */
import type { EndpointName } from '../../shared/api-limits'
import { badInput, OpError } from './errors'
import type { SandboxCore } from './state'
import type {
  DepositView,
  Fault,
  PayoutOutcome,
  RuntimeOptions,
  SandboxControl,
  SandboxStateSnapshot,
} from './types'

const OUTCOMES: ReadonlySet<string> = new Set([
  'sent',
  'invalid_pix_key',
  'key_tax_mismatch',
  'processor_failure',
  'payout_failure',
])

export function createControl(core: SandboxCore): SandboxControl {
  return {
    createCredential: (o) => core.auth.createCredential(o),
    revokeCredential: (clientId) => core.auth.revokeCredential(clientId),
    mintLegacyToken: (o) => core.auth.mintLegacyToken(o?.expiresInSeconds),
    fundWithdrawal: (id, amountInCents) => core.withdrawals.fund(id, amountInCents),
    settlePayout: (id, outcome: PayoutOutcome) => {
      if (!OUTCOMES.has(outcome)) throw badInput(`outcome must be one of ${[...OUTCOMES].join(', ')}`)
      return core.withdrawals.settle(id, outcome)
    },
    cancelWithdrawal: (id) => core.withdrawals.cancel(id),
    seedWithdrawals: (count, o) => core.withdrawals.seed(count, o?.payoutAmountInCents),
    createDeposit: (body) => {
      if (typeof body !== 'object' || body === null) throw badInput('body must be an object')
      try {
        core.deposits.create(body as Record<string, unknown>)
      } catch (e) {
        // The operation's refusal, as a control error: this is the tools talking, not the API.
        if (e instanceof OpError) throw badInput(`${e.fields.messageCode ?? 'refused'}: ${e.message}`)
        throw e
      }
      return core.deposits.views(core.deposits.size - 1, 1)[0] as DepositView
    },
    payDeposit: (id, o) => core.deposits.pay(id, o),
    fileMed: (qrId) => core.deposits.fileMed(qrId),
    setMaintenance: (on) => {
      if (typeof on !== 'boolean') throw badInput('on must be a boolean')
      core.maintenance = on
    },
    injectFault: (f: Fault) => core.faults.inject(f),
    clearFaults: () => core.faults.clear(),
    advanceClock: (seconds) => {
      try {
        core.clock.advance(seconds)
      } catch (e) {
        throw badInput((e as Error).message)
      }
    },
    now: () => core.clock.now(),
    blockUser: (o) => core.users.block(o),
    complianceBlock: (taxNumber) => core.users.complianceBlock(taxNumber),
    registerEndUser: (o) => {
      core.users.register(o)
    },
    setRateLimits: (limits: Partial<Record<EndpointName, number>>) => core.setRateLimits(limits),
    setOptions: (o: Partial<RuntimeOptions>) => core.setOptions(o),
    state: (o): SandboxStateSnapshot => {
      const offset = o?.offset ?? 0
      const limit = o?.limit ?? Number.MAX_SAFE_INTEGER
      if (!Number.isSafeInteger(offset) || offset < 0) throw badInput('offset must be a non-negative integer')
      if (!Number.isSafeInteger(limit) || limit < 0) throw badInput('limit must be a non-negative integer')
      return {
        withdrawals: core.withdrawals.list(offset, limit),
        deposits: core.deposits.views(offset, limit),
        sessions: core.auth.liveSessions(),
        credentials: core.auth.listCredentials(),
        securityAlerts: core.auth.securityAlerts,
      }
    },
    summary: () => ({
      withdrawals: core.withdrawals.size,
      withdrawalsByStatus: core.withdrawals.countByStatus(),
      deposits: core.deposits.size,
      depositsByStatus: core.deposits.countByStatus(),
      sessions: core.auth.liveSessions(),
      credentials: core.auth.listCredentials().filter((c) => !c.revoked).length,
    }),
    requestCounts: () => Object.fromEntries(core.counts),
    resetRequestCounts: () => core.counts.clear(),
  }
}
