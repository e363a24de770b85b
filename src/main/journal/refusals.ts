/**
 * The refusals the shared create mechanism (intents, the journaled create) raises, whatever the record kind. Each
 * kind turns them into its own error class (WithdrawalError, DepositError) through a `Refuse` function, so the
 * IPC layer and the renderer keep one vocabulary of codes per kind.
 */

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
