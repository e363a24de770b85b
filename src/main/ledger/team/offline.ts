/**
 * A team profile whose server could not be reached (or refused this desk) at open: why, as the verdict codes the
 * connection test uses (src/shared/channels-team.ts), and a stand-in store that refuses every call with that reason,
 * so the app keeps running, nothing is written anywhere else (never into this computer's ledger), and the analyst
 * can fix the settings and reconnect. Errors are classified by code (SQLSTATE, Node's TLS codes), never by text.
 */
import { teamTestMessages } from '../../../shared/team-ledger'
import { LedgerError } from '../model/errors'
import { TeamLedgerError, unavailable } from '../team-errors'
import { failureCode, verdictOfCode, type TeamFailureVerdict } from './failure'
import type { DepositStore } from '../deposit-store'
import type { LedgerStore } from '../ports'

/** Why opening the team ledger failed, as a verdict the UI already translates. */
export function openFailureVerdict(e: unknown): TeamFailureVerdict {
  if (e instanceof TeamLedgerError) {
    switch (e.code) {
      case 'permission_denied':
      case 'schema_too_new':
      case 'schema_too_old':
        return e.code
      default:
        return causeVerdict(e.cause) ?? 'unavailable'
    }
  }
  if (e instanceof LedgerError && e.code === 'invalid_input') return 'invalid_settings'
  return causeVerdict(e) ?? 'unavailable'
}

function causeVerdict(e: unknown): TeamFailureVerdict | null {
  return verdictOfCode(failureCode(e))
}

/** The refusal every call of an unconnected team profile gets. */
export function notConnected(reason: TeamFailureVerdict): TeamLedgerError {
  if (reason === 'unavailable') return unavailable(null)
  return new TeamLedgerError('unavailable', `team ledger not connected: ${reason}`, teamTestMessages[reason])
}

/** A store that refuses everything with `notConnected(reason)`: the team profile while its server is out of reach. */
export function offlineStore(reason: TeamFailureVerdict): LedgerStore {
  const refuse = (): Promise<never> => Promise.reject(notConnected(reason))
  return {
    engine: 'postgres',
    identity: '',
    insertSubmitting: refuse,
    createGuarded: refuse,
    markCreated: refuse,
    applyJournaledCreate: refuse,
    markRejected: refuse,
    markOutcomeUnknown: refuse,
    recoverInterrupted: refuse,
    resolveUnknown: refuse,
    recordObservation: refuse,
    markFunded: refuse,
    markFundedMany: refuse,
    setFlags: refuse,
    get: refuse,
    findByRemoteId: refuse,
    listOpen: refuse,
    findRecentSimilar: refuse,
    query: refuse,
    runLinks: refuse,
    // eslint-disable-next-line require-yield -- refuses before the first record
    iterate: async function* () {
      throw notConnected(reason)
    },
    totalsByStatus: refuse,
    observations: refuse,
    audit: refuse,
    appendAudit: refuse,
    auditHead: refuse,
    verifyAuditChain: refuse,
    deposits: offlineDeposits(reason),
    close: () => Promise.resolve(),
  }
}

/** The deposits of a team profile whose server is out of reach: every call refused, nothing written elsewhere. */
function offlineDeposits(reason: TeamFailureVerdict): DepositStore {
  const refuse = (): Promise<never> => Promise.reject(notConnected(reason))
  return {
    engine: 'postgres',
    insertSubmitting: refuse,
    createGuarded: refuse,
    markCreated: refuse,
    applyJournaledCreate: refuse,
    markRejected: refuse,
    markOutcomeUnknown: refuse,
    recoverInterrupted: refuse,
    resolveUnknown: refuse,
    importOutside: refuse,
    recordObservation: refuse,
    setFlags: refuse,
    get: refuse,
    findByRemoteId: refuse,
    knownRemoteIds: refuse,
    listOpen: refuse,
    findRecentSimilar: refuse,
    query: refuse,
    // eslint-disable-next-line require-yield -- refuses before the first record
    iterate: async function* () {
      throw notConnected(reason)
    },
    totalsByStatus: refuse,
    observations: refuse,
  }
}
