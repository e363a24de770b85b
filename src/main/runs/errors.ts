/** Refusals of the run service: nothing was created or changed when one is thrown. */
export const RUN_ERROR_CODES = [
  'not_found',
  'other_profile',
  'no_rows',
  'illegal_state',
  /** Rows with a possible duplicate have no keep/drop decision yet. */
  'duplicates_undecided',
  /** The control total typed by the operator is not the run's total to arrive by Pix (payout). */
  'total_mismatch',
  /** Rejecting a run that waits for this desk's approval needs a reason. */
  'reason_required',
  /** The rows differ from what the approval named: approve again. */
  'approval_stale',
  /** The previous wave was not marked funded yet. */
  'wave_not_funded',
  'busy',
  'wave_invalid',
  /** The row's old outcome is not known to be "not created" by a passing cause: a new create could pay twice. */
  'row_not_retryable',
  /** The row's outcome is not unknown: there is nothing to resolve. */
  'row_not_unknown',
] as const
export type RunErrorCode = (typeof RUN_ERROR_CODES)[number]

export class RunError extends Error {
  constructor(
    readonly code: RunErrorCode,
    message: string,
    readonly userMessage?: { 'pt-BR': string; en: string },
  ) {
    super(message)
    this.name = 'RunError'
  }
}
