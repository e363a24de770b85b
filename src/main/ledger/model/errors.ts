/** Failures the ledger reports on purpose, distinguishable from SQLite or programming errors by `code`. */
export type LedgerErrorCode =
  | 'not_found'
  | 'illegal_transition'
  | 'duplicate_remote_id'
  | 'invalid_input'
  | 'schema_too_new'
  | 'closed'
  // Refusals at open (identity.ts, open-checks.ts): the file is not the ledger this computer last wrote.
  | 'ledger_missing'
  | 'ledger_empty'
  | 'ledger_replaced'
  | 'ledger_behind'
  | 'ledger_corrupt'
  | 'identity_unreadable'
  | 'backup_not_found'
  // A record row that no longer matches its latest audit entry (record-write.ts): never written over.
  | 'record_tampered'
  /** Another connection (another instance of the app) owns the file; see lock.ts. */
  | 'locked'

export interface UserMessage {
  'pt-BR': string
  en: string
}

export class LedgerError extends Error {
  override readonly name = 'LedgerError'
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
    /** What the operator is told, in both languages; set on the refusals an operator must act on. */
    readonly userMessage?: UserMessage,
    /** The underlying error (e.g. SQLite's), kept for the start-up log. */
    options?: { cause?: unknown },
  ) {
    super(message, options)
  }
}
