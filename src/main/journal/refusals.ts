/**
 * The refusals the shared mechanisms (intents, the journaled create, the ledger's lifecycle) raise, whatever the
 * record kind. Each
 * kind turns them into its own error class (WithdrawalError, DepositError) through a `Refuse` function, so the
 * IPC layer and the renderer keep one vocabulary of codes per kind.
 */
import { LedgerError } from '../ledger/sqlite'

export type JournalRefusalCode =
  /** No such intent: never issued, already used, or voided by a restart or profile switch. */
  | 'intent_invalid'
  | 'intent_expired'
  /** The intent was issued for another request body or profile. */
  | 'intent_mismatch'
  /** A similar record (maybe still `submitting`) appeared after the review; the intent is void. */
  | 'duplicate_since_review'
  /** Similar records shown at review were not all confirmed. */
  | 'duplicate'
  | 'not_signed_in'
  /** No POST token free right now: nothing was journaled or sent. */
  | 'rate_limited'
  /** The API answered but the ledger could not store it. */
  | 'ledger_write_failed'
  // The ledger's refusals (refusalOfLedgerError):
  | 'not_found'
  | 'illegal_state'
  | 'remote_id_in_use'
  | 'invalid_input'

export interface JournalRefusalExtra {
  duplicates?: ReadonlyArray<{ localId: string }>
  retryAfterSeconds?: number
  localId?: string
  reason?: string
  requestId?: string | null
  /** An id the API created although the ledger could not store it: the operator must see it at once. */
  createdId?: string
  userMessage?: { 'pt-BR': string; en: string }
}

export type Refuse = (code: JournalRefusalCode, message: string, extra?: JournalRefusalExtra) => Error

/**
 * Ledger refusals in the service's vocabulary, for any record kind (`noun`: "withdrawal", "deposit"); anything
 * else (SQLite, disk) is returned unchanged.
 */
export function refusalOfLedgerError(e: unknown, localId: string, noun: string, refuse: Refuse): unknown {
  if (!(e instanceof LedgerError)) return e
  switch (e.code) {
    case 'not_found':
      return refuse('not_found', `No ${noun} record ${localId}.`, { localId })
    case 'illegal_transition':
      return refuse('illegal_state', e.message, { localId, reason: e.code })
    case 'duplicate_remote_id':
      return refuse('remote_id_in_use', e.message, { localId, reason: e.code })
    case 'invalid_input':
      return refuse('invalid_input', e.message, { localId, reason: e.code })
    default:
      return e
  }
}

/** How a kind names itself in the English fallback texts and in the operator's sentences. */
export interface KindWords {
  /** "withdrawal", "top-up" */
  en: string
  /** "O pagamento", "A compra de DePix" (subject of a sentence, with its article) */
  ptSubject: string
  /** "criado", "criada": agrees with ptSubject */
  ptCreated: string
  /** "o", "a": the pronoun for "não o crie de novo" */
  ptPronoun: string
}
