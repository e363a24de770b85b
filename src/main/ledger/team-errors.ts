/**
 * Refusals specific to the team ledger. The lifecycle refusals both engines share (not_found, illegal_transition,
 * invalid_input, duplicate_remote_id, record_tampered) stay `LedgerError` with the same codes, so callers handle
 * one type whatever the engine. PostgreSQL errors are mapped by SQLSTATE, never by message text.
 */
import { LedgerError, type UserMessage } from './model/errors'

export type TeamLedgerErrorCode =
  /** The role lacks a privilege the operation needs (SQLSTATE 42501). */
  | 'permission_denied'
  /** The payment is above the team's threshold and has no approved request (DPX01/DPX02). */
  | 'approval_required'
  /** The analyst who asked for the approval tried to decide it (DPX03). */
  | 'approval_self'
  /** The approval was already approved or rejected (DPX04). */
  | 'approval_decided'
  /** The team database refused a change its state machine does not allow (DPX10–DPX15, migration 11). */
  | 'transition_refused'
  | 'schema_too_new'
  | 'schema_too_old'
  /** The server cannot be reached or the connection was cut; the operation's outcome is unknown for writes. */
  | 'unavailable'
  /** The tracker lease this desk wrote under is no longer the current one (DPX40): another desk leads. */
  | 'not_leading'
  /** Not available on this engine (approvals, leadership, shared budget on the embedded SQLite ledger). */
  | 'unsupported'

export class TeamLedgerError extends Error {
  override readonly name = 'TeamLedgerError'
  constructor(
    readonly code: TeamLedgerErrorCode,
    message: string,
    readonly userMessage: UserMessage,
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}

interface PgErrorLike {
  code?: unknown
  message?: unknown
  constraint?: unknown
}

const pgText = (m: unknown): string => (typeof m === 'string' ? m : 'refused by the team ledger')

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENOTFOUND',
])

export function unavailable(cause: unknown): TeamLedgerError {
  return new TeamLedgerError(
    'unavailable',
    'the team ledger server cannot be reached or the connection was lost',
    {
      'pt-BR':
        'O livro-caixa da equipe (servidor PostgreSQL) não respondeu ou a conexão caiu. Verifique a rede e tente de novo; nenhum pagamento é reenviado automaticamente.',
      en: 'The team ledger (PostgreSQL server) did not answer or the connection dropped. Check the network and try again; no payment is resent automatically.',
    },
    { cause },
  )
}

/** PostgreSQL's error (by SQLSTATE) as what the operator is told; anything unrecognised is returned as it is. */
export function mapPgError(e: unknown): unknown {
  if (e instanceof LedgerError || e instanceof TeamLedgerError) return e
  const pe = (typeof e === 'object' && e !== null ? e : {}) as PgErrorLike
  const code = typeof pe.code === 'string' ? pe.code : ''
  if (
    CONNECTION_CODES.has(code) ||
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03'
  ) {
    return unavailable(e)
  }
  if (
    e instanceof Error &&
    code === '' &&
    /Connection terminated|Client has encountered a connection error/.test(e.message)
  ) {
    // node-postgres reports a cut socket without a code.
    return unavailable(e)
  }
  switch (code) {
    case '42501':
      return new TeamLedgerError(
        'permission_denied',
        'the database role lacks a privilege for this operation',
        {
          'pt-BR':
            'Seu usuário do banco da equipe não tem permissão para esta operação. Peça ao responsável pelo banco para incluí-lo no grupo depix_analysts (veja resources/team-ledger/setup.sql).',
          en: 'Your team database role lacks the privilege for this operation. Ask the database owner to add it to the depix_analysts group (see resources/team-ledger/setup.sql).',
        },
        { cause: e },
      )
    case 'DPX01':
    case 'DPX02':
      return new TeamLedgerError(
        'approval_required',
        'this payment needs an approved request from another analyst',
        {
          // Payments and top-ups (migration 15) alike.
          'pt-BR': 'Este pagamento ou compra de DePix precisa da aprovação de outro analista antes do envio.',
          en: 'This payment or top-up needs another analyst’s approval before it is sent.',
        },
        { cause: e },
      )
    case 'DPX03':
      return new TeamLedgerError(
        'approval_self',
        'the analyst who requested a payment cannot approve or reject it',
        {
          'pt-BR': 'Quem pediu o pagamento não pode aprová-lo nem recusá-lo: outro analista precisa decidir.',
          en: 'Whoever requested the payment cannot approve or reject it: another analyst must decide.',
        },
        { cause: e },
      )
    case 'DPX04':
      return new TeamLedgerError(
        'approval_decided',
        'the approval was already decided',
        {
          'pt-BR': 'Esta aprovação já foi decidida por outro analista.',
          en: 'This approval was already decided by another analyst.',
        },
        { cause: e },
      )
    case 'DPX10':
    case 'DPX11':
    case 'DPX12':
    case 'DPX13':
    case 'DPX14':
    case 'DPX15':
      return new TeamLedgerError(
        'transition_refused',
        'the team ledger does not allow this change to the record',
        {
          'pt-BR':
            'O livro-caixa da equipe recusou esta alteração: valores, chave Pix, endereços e o QR de um registro não mudam depois de gravados, o status só avança e um estorno registrado não é apagado. Nada foi gravado.',
          en: 'The team ledger refused this change: a record’s amounts, Pix key, addresses and QR never change once written, its status only moves forward and a recorded refund is never removed. Nothing was written.',
        },
        { cause: e },
      )
    // Migration 16: a run's or row's write refused by its function.
    case 'DPX16':
      return new LedgerError(
        'record_tampered',
        pgText(pe.message),
        {
          'pt-BR':
            'O lote foi alterado fora do aplicativo (não confere com a trilha de auditoria); nada mais é gravado nele.',
          en: 'The run was changed outside the app (it does not match the audit trail); nothing more is written to it.',
        },
        { cause: e },
      )
    case 'DPX17':
      return new LedgerError('illegal_transition', pgText(pe.message), undefined, { cause: e })
    case 'DPX18':
      return new LedgerError('not_found', pgText(pe.message), undefined, { cause: e })
    case '23505':
      if (pe.constraint === 'withdrawals_remote_id_key') {
        return new LedgerError('duplicate_remote_id', 'withdrawal id is already linked to another record')
      }
      if (pe.constraint === 'withdrawals_local_id_key' || pe.constraint === 'approvals_local_id_key') {
        return new LedgerError('invalid_input', 'a record with this local id already exists')
      }
      return e
    case '22P05':
    case '22021':
      // PostgreSQL text and jsonb cannot hold U+0000; SQLite can. Nothing was written (the transaction rolled back).
      return new LedgerError(
        'invalid_input',
        'text with a NUL character cannot be stored in the team ledger',
        {
          'pt-BR':
            'Os dados contêm um caractere nulo (U+0000), que o livro-caixa da equipe não consegue guardar; nada foi gravado. Veja os detalhes técnicos.',
          en: 'The data contains a NUL character (U+0000), which the team ledger cannot store; nothing was written. See the technical details.',
        },
      )
    case 'DPX40':
      return new TeamLedgerError(
        'not_leading',
        'this desk no longer leads the status tracker',
        {
          'pt-BR':
            'Esta mesa deixou de acompanhar os status da equipe (outra mesa assumiu); a consulta não foi gravada.',
          en: 'This desk no longer tracks statuses for the team (another desk took over); the check was not recorded.',
        },
        { cause: e },
      )
    case '22023':
      return new LedgerError('invalid_input', e instanceof Error ? e.message : 'invalid input')
    default:
      return e
  }
}
