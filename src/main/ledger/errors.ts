/** Failures the ledger reports on purpose, distinguishable from SQLite or programming errors by `code`. */
export type LedgerErrorCode =
  | 'not_found'
  | 'illegal_transition'
  | 'duplicate_remote_id'
  | 'invalid_input'
  | 'schema_too_new'
  | 'closed'
  /** Another connection (another instance of the app) owns the file; see lock.ts. */
  | 'locked'

export class LedgerError extends Error {
  override readonly name = 'LedgerError'
  constructor(
    readonly code: LedgerErrorCode,
    message: string,
  ) {
    super(message)
  }
}
