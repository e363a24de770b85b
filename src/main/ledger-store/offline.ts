/**
 * A team profile whose server could not be reached (or refused this desk) at open: why, as the verdict codes the
 * connection test uses (src/shared/channels-team.ts), and a stand-in store that refuses every call with that reason,
 * so the app keeps running, nothing is written anywhere else (never into this computer's ledger), and the analyst
 * can fix the settings and reconnect. Errors are classified by code (SQLSTATE, Node's TLS codes), never by text.
 */
import type { TeamTestVerdict } from '../../shared/channels-team'
import { LedgerError } from '../ledger'
import { TeamLedgerError, unavailable } from './errors'
import type { LedgerStore } from './types'

const TLS_CODES = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_HAS_EXPIRED',
  'CERT_NOT_YET_VALID',
  'CERT_SIGNATURE_FAILURE',
  'ERR_TLS_CERT_ALTNAME_INVALID',
  'ERR_SSL_WRONG_VERSION_NUMBER',
])

/** Why opening the team ledger failed, as a verdict the UI already translates. */
export function openFailureVerdict(e: unknown): Exclude<TeamTestVerdict, 'ok'> {
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

function causeVerdict(e: unknown): Exclude<TeamTestVerdict, 'ok'> | null {
  const code = typeof e === 'object' && e !== null ? (e as { code?: unknown }).code : undefined
  if (typeof code !== 'string') return null
  // invalid_password, invalid_authorization_specification; 3D000: no such database for this role.
  if (code === '28P01' || code === '28000' || code === '3D000') return 'auth_failed'
  if (code === '42501') return 'permission_denied'
  if (TLS_CODES.has(code) || code.startsWith('ERR_TLS_') || code.startsWith('ERR_SSL_')) return 'tls_failed'
  return null
}

const REASON_TEXT: Record<Exclude<TeamTestVerdict, 'ok'>, { 'pt-BR': string; en: string }> = {
  unavailable: {
    'pt-BR': 'O livro-caixa da equipe não respondeu. Verifique a rede e as configurações e tente de novo.',
    en: 'The team ledger did not answer. Check the network and the settings and try again.',
  },
  auth_failed: {
    'pt-BR':
      'O servidor da equipe recusou o usuário ou a senha. Confira as configurações do livro-caixa da equipe.',
    en: 'The team server refused the role or password. Check the team ledger settings.',
  },
  tls_failed: {
    'pt-BR':
      'O certificado do servidor da equipe não pôde ser verificado. Confira o modo TLS e o certificado da CA.',
    en: "The team server's certificate could not be verified. Check the TLS mode and the CA certificate.",
  },
  permission_denied: {
    'pt-BR':
      'Seu usuário do banco da equipe não tem permissão. Peça ao responsável pelo banco para incluí-lo.',
    en: 'Your team database role lacks the privilege. Ask the database owner to add it.',
  },
  schema_too_new: {
    'pt-BR': 'O livro-caixa da equipe é de uma versão mais nova do aplicativo: atualize o aplicativo.',
    en: 'The team ledger is from a newer version of the app: update the app.',
  },
  schema_too_old: {
    'pt-BR': 'O livro-caixa da equipe precisa ser atualizado pelo responsável pelo banco.',
    en: 'The team ledger must be upgraded by the database owner.',
  },
  no_password: {
    'pt-BR': 'Falta a senha do livro-caixa da equipe: informe-a nas configurações.',
    en: 'The team ledger password is missing: enter it in the settings.',
  },
  invalid_settings: {
    'pt-BR': 'As configurações do livro-caixa da equipe são inválidas: corrija-as.',
    en: 'The team ledger settings are invalid: correct them.',
  },
}

/** The refusal every call of an unconnected team profile gets. */
export function notConnected(reason: Exclude<TeamTestVerdict, 'ok'>): TeamLedgerError {
  if (reason === 'unavailable') return unavailable(null)
  return new TeamLedgerError('unavailable', `team ledger not connected: ${reason}`, REASON_TEXT[reason])
}

/** A store that refuses everything with `notConnected(reason)`: the team profile while its server is out of reach. */
export function offlineStore(reason: Exclude<TeamTestVerdict, 'ok'>): LedgerStore {
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
    setFlags: refuse,
    get: refuse,
    findByRemoteId: refuse,
    listOpen: refuse,
    findRecentSimilar: refuse,
    query: refuse,
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
    close: () => Promise.resolve(),
  }
}
