/**
 * Every channel of the contract, bound to the app context: one handler module per feature, each given its own
 * slice of the context (deps.ts) and answering exactly its feature's channels (src/shared/channels-X.ts ↔
 * X-handlers.ts). The compiler checks that together they answer every channel.
 */
import { createRouter, type Handlers, type Router } from '../ipc/router'
import type { AppDeps, Log } from './deps'
import { depositsHandlers } from './deposits-handlers'
import { mapServiceError } from './errors'
import { ledgerHandlers } from './ledger-handlers'
import { payeesHandlers } from './payees-handlers'
import { profilesHandlers } from './profiles-handlers'
import { receiptsHandlers } from './receipts-handlers'
import { recordsHandlers } from './records-handlers'
import { reviewHandlers } from './review-handlers'
import { runsHandlers } from './runs-handlers'
import { sandboxHandlers } from './sandbox-handlers'
import { sessionHandlers } from './session-handlers'
import { shellHandlers } from './shell-handlers'
import { teamConnectionHandlers } from './team-connection-handlers'
import { teamHandlers } from './team-handlers'
import { walletHandlers } from './wallet-handlers'
import { walletPayHandlers } from './wallet-pay-handlers'
import { withdrawalsHandlers } from './withdrawals-handlers'

export function buildRouter(deps: AppDeps, log: Log): Router {
  const handlers: Handlers = {
    ...sessionHandlers(deps.session),
    ...profilesHandlers(deps.profiles),
    ...withdrawalsHandlers(deps.withdrawals),
    ...sandboxHandlers(deps.sandbox),
    ...shellHandlers(deps.shell),
    ...recordsHandlers(deps.records),
    // On a team profile the review's ledger check reads the team ledger (issue #16).
    ...reviewHandlers(deps.review),
    ...ledgerHandlers(deps.ledger),
    // The payee book and receipts are the team's on a team profile (engine.ts), this computer's otherwise.
    ...payeesHandlers(deps.payees),
    ...receiptsHandlers(deps.receipts),
    // Runs work on a team profile too (issue #16): on the team ledger, with four-eyes for runs.
    ...runsHandlers(deps.runs),
    // Top-ups too: on the team ledger, tracked by the leading desk.
    ...depositsHandlers(deps.deposits),
    ...teamHandlers(deps.team),
    ...teamConnectionHandlers(deps.teamConnection),
    ...walletHandlers(deps.wallet),
    ...walletPayHandlers(deps.walletPay),
  }

  return createRouter(handlers, {
    mapError: mapServiceError,
    onUnexpected: (channel, e) => log(`IPC ${channel} failed: ${e instanceof Error ? e.name : typeof e}`),
  })
}
