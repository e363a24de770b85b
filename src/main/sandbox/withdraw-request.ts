/**
 * Validation of a `POST /withdraw` body (docs/API-CONTRACT.md#s4-6, §8.2, §7.3/§7.4), in the order the sandbox applies it:
 * pixKey → beneficiary (taxNumber and/or euid) → amount (exactly one, 200..600000) → refundAddress → blocks →
 * compliance. Produces a request the store can act on, or throws the refusal.
 */
import { WITHDRAWAL_MAX_CENTS, WITHDRAWAL_MIN_CENTS } from '../../shared/api-limits'
import { checkLiquidAddress } from '../liquid'
import { validTaxNumber, type EndUsers } from './end-users'
import {
  blockedUser,
  businessRefusal,
  complianceBlocked,
  conflictingParameters,
  invalidParameter,
  missingParameter,
} from './errors'
import { optInteger, optString, type Params } from './params'

/** Longest Pix key: an e-mail of 77 characters (Banco Central DICT rules). */
const PIX_KEY_MAX = 77

export interface WithdrawRequest {
  pixKey: string
  /** The recipient's canonical tax number: the one sent, or the euid's. */
  taxNumber: string
  euid: string | undefined
  amount: { depositAmountInCents: number } | { payoutAmountInCents: number }
  refundAddress: string | undefined
}

/** A valid Liquid mainnet address, as typed: no URI scheme, no query, no surrounding blanks. */
export function isLiquidMainnetAddress(s: string): boolean {
  // checkLiquidAddress also accepts a `liquidnetwork:` URI and trims blanks; the API wants a bare address.
  return !/[\s:?]/.test(s) && checkLiquidAddress(s, 'liquid').ok
}

export function parseWithdrawRequest(body: Params, users: EndUsers): WithdrawRequest {
  const pixKey = optString(body, 'pixKey', 1024)
  if (pixKey === undefined) throw missingParameter('pixKey')
  // A malformed key is accepted here and fails at payout (refund.reason invalid_pix_key, docs/API-CONTRACT.md#s2-3).
  if (pixKey.length > PIX_KEY_MAX) throw invalidParameter('pixKey', `longer than ${PIX_KEY_MAX} characters`)

  const taxRaw = optString(body, 'taxNumber')
  const euid = optString(body, 'euid')
  if (taxRaw === undefined && euid === undefined) {
    throw missingParameter('taxNumber', 'Beneficiary identification required: send taxNumber and/or euid')
  }
  let taxNumber: string | undefined
  if (taxRaw !== undefined) {
    taxNumber = validTaxNumber(taxRaw) ?? undefined
    if (taxNumber === undefined) {
      throw invalidParameter('taxNumber', 'not a CPF or CNPJ with valid check digits')
    }
  }
  if (euid !== undefined) {
    const user = users.get(euid)
    if (user === undefined) throw businessRefusal(`End user not found: ${euid}`, 'END_USER_NOT_FOUND')
    if (taxNumber !== undefined && user.taxNumber !== taxNumber) {
      throw conflictingParameters('taxNumber and euid refer to different people')
    }
    taxNumber = user.taxNumber
  }
  if (taxNumber === undefined) throw missingParameter('taxNumber')

  const dep = optInteger(body, 'depositAmountInCents')
  const pay = optInteger(body, 'payoutAmountInCents')
  if (dep !== undefined && pay !== undefined) {
    throw conflictingParameters('send depositAmountInCents or payoutAmountInCents, not both')
  }
  if (dep === undefined && pay === undefined) {
    throw missingParameter(
      'depositAmountInCents',
      'Missing required parameter: depositAmountInCents or payoutAmountInCents',
    )
  }
  const [param, value] =
    dep !== undefined ? ['depositAmountInCents', dep] : ['payoutAmountInCents', pay as number]
  // The range applies to whichever amount is sent (docs/API-CONTRACT.md#s8-2 note 1); it has no messageCode (§7.5).
  if (value < WITHDRAWAL_MIN_CENTS || value > WITHDRAWAL_MAX_CENTS) {
    throw businessRefusal(
      `${param} must be between ${WITHDRAWAL_MIN_CENTS} and ${WITHDRAWAL_MAX_CENTS} cents (got ${value})`,
    )
  }

  const refundAddress = optString(body, 'refundAddress')
  if (refundAddress !== undefined && !isLiquidMainnetAddress(refundAddress)) {
    throw invalidParameter('refundAddress', 'not a valid Liquid mainnet address')
  }

  if (users.isBlocked(taxNumber, euid)) throw blockedUser()
  const reference = users.complianceReference(taxNumber)
  if (reference !== undefined) throw complianceBlocked(reference)

  return {
    pixKey,
    taxNumber,
    euid,
    amount: dep !== undefined ? { depositAmountInCents: dep } : { payoutAmountInCents: value },
    refundAddress,
  }
}
