/**
 * Why paying from the wallet was refused, as a code the screens translate (never parsed from text), with the
 * numbers the operator needs: which payment, how much is missing.
 */
export const PAY_REFUSALS = [
  /** the payment is not waiting for a deposit (see `problem`) or was already declared sent */
  'not_payable',
  /** the deadline is too close to sign, broadcast and confirm before it */
  'deadline_too_close',
  /** the service's fresh answer differs from what was selected (address or amount) */
  'changed_since_selected',
  /** the payment already belongs to a funding transaction not known to have failed */
  'already_in_funding',
  'depix_short',
  'lbtc_short',
  /** the PSET does not do what the review says (extra output, changed amount, foreign input, other build) */
  'pset_mismatch',
  /** what was loaded is not a PSET */
  'not_a_pset',
  /** the PSET still lacks signatures */
  'not_signed',
  /** the chain's server refused or could not be reached; nothing recorded as funded */
  'broadcast_failed',
  /** the wallet could not read the chain before building: its coins may be out of date */
  'chain_unreachable',
  /** the operation is not allowed in this state (e.g. cancel after broadcast) */
  'illegal_state',
  /** the software signer exists only on the Sandbox profile */
  'sandbox_only',
] as const
export type PayRefusalCode = (typeof PAY_REFUSALS)[number]

export interface PayRefusalDetails {
  readonly localId?: string
  readonly problem?: string
  /** units (8 decimals) missing, as a decimal string (BigInt does not cross IPC) */
  readonly missingUnits?: string
  readonly attemptId?: string
  /** what exactly did not match, for "Detalhes técnicos" */
  readonly what?: string
}

export class PayRefusal extends Error {
  constructor(
    readonly code: PayRefusalCode,
    readonly details: PayRefusalDetails = {},
  ) {
    super(`payment from wallet refused: ${code}${details.what ? ` (${details.what})` : ''}`)
    this.name = 'PayRefusal'
  }
}
