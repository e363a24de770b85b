/**
 * Validation of a `POST /deposit` body (docs/API-CONTRACT.md#s4-2, §7.3/§7.4), in the order the sandbox applies it: amount →
 * payout address → split → minimum (the account's deposit fee) → delay → payer identification → blocks →
 * compliance. Daily ceilings need the stored deposits and are checked by the store.
 */
import { DEPOSIT_DELAY_MAX_HOURS, DEPOSIT_DELAY_MIN_HOURS } from '../../shared/api-limits'
import { classifyPayoutAddress, type AddressClass } from './addresses'
import { validTaxNumber, type EndUser, type EndUsers } from './end-users'
import {
  blockedUser,
  businessRefusal,
  complianceBlocked,
  conflictingParameters,
  invalidParameter,
} from './errors'
import { optInteger, optNumber, optString, type Params } from './params'
import type { RuntimeOptions } from './types'

const SPLIT_FEE_MAX_PERCENT = 20

interface Identity {
  taxNumber?: string
  euid?: string
  user?: EndUser
}

export interface DepositRequest extends Identity {
  amount: number
  address: string
  delayHours: number | undefined
  merchantId: string | undefined
}

export function parseDepositRequest(body: Params, users: EndUsers, opts: RuntimeOptions): DepositRequest {
  const amount = optInteger(body, 'amountInCents')
  if (amount === undefined) throw invalidParameter('amountInCents', 'required')
  if (amount <= 0) throw invalidParameter('amountInCents', 'must be greater than zero')

  const address = optString(body, 'depixAddress') ?? opts.defaultDepixAddress ?? undefined
  if (address === undefined) {
    throw invalidParameter('depixAddress', 'required (no default address configured)')
  }
  const main = classifyPayoutAddress(address)
  refuseAddress(main, 'INVALID_DEPOSIT_ADDRESS', 'depixAddress')

  const splitAddress = optString(body, 'depixSplitAddress')
  const splitFee = optNumber(body, 'splitFee')
  if (splitFee !== undefined && splitAddress === undefined) {
    throw businessRefusal('splitFee was sent without depixSplitAddress', 'SPLIT_ADDRESS_REQUIRED')
  }
  if (splitAddress !== undefined && splitFee === undefined) {
    throw businessRefusal('depixSplitAddress was sent without splitFee', 'SPLIT_FEE_REQUIRED')
  }
  let splitPortion = 0
  if (splitAddress !== undefined && splitFee !== undefined) {
    if (splitFee <= 0 || splitFee > SPLIT_FEE_MAX_PERCENT) {
      throw invalidParameter(
        'splitFee',
        `must be greater than 0 and at most ${SPLIT_FEE_MAX_PERCENT} (percent)`,
      )
    }
    const split = classifyPayoutAddress(splitAddress)
    refuseAddress(split, 'INVALID_SPLIT_ADDRESS', 'depixSplitAddress')
    if (split.ok && main.ok && split.network !== main.network) {
      throw businessRefusal(
        `depixSplitAddress is on ${split.network}, depixAddress on ${main.network}`,
        'SPLIT_ADDRESS_NETWORK_MISMATCH',
      )
    }
    if (splitAddress.toLowerCase() === address.toLowerCase()) {
      throw businessRefusal('depixSplitAddress must differ from depixAddress', 'SPLIT_ADDRESS_CONFLICT')
    }
    splitPortion = Math.ceil((amount * splitFee) / 100)
  }

  const fee = opts.depositFeeCents
  if (amount < fee) {
    throw businessRefusal(`amountInCents is below the minimum: the deposit fee in force is ${fee} cents`)
  }
  // The "further ceiling on small deposits" (docs/API-CONTRACT.md#s4-2): the fee must still fit in what the split leaves.
  if (amount - splitPortion < fee) {
    throw businessRefusal(
      `The split portion (${splitPortion} cents) leaves ${amount - splitPortion} cents, ` +
        `below the deposit fee of ${fee} cents; raise amountInCents or lower splitFee`,
      'SPLIT_PORTION_TOO_LARGE',
    )
  }

  const delayHours = optInteger(body, 'delayDepixInHours')
  if (
    delayHours !== undefined &&
    (delayHours < DEPOSIT_DELAY_MIN_HOURS || delayHours > DEPOSIT_DELAY_MAX_HOURS)
  ) {
    throw invalidParameter(
      'delayDepixInHours',
      `must be an integer from ${DEPOSIT_DELAY_MIN_HOURS} to ${DEPOSIT_DELAY_MAX_HOURS}`,
    )
  }

  const { taxNumber, euid, user } = identify(body, users, opts)
  const merchantId = optString(body, 'merchantId', 128)
  if (users.isBlocked(taxNumber, euid)) throw blockedUser()
  const reference = users.complianceReference(taxNumber)
  if (reference !== undefined) throw complianceBlocked(reference)

  return { amount, address, delayHours, taxNumber, euid, user, merchantId }
}

function refuseAddress(c: AddressClass, invalidCode: string, param: string): void {
  if (c.ok) return
  if (c.reason === 'unknown_network') {
    throw businessRefusal(
      `${param} is not a Liquid, Arkade or Spark address`,
      'DEPOSIT_ADDRESS_NETWORK_UNKNOWN',
    )
  }
  throw businessRefusal(`The ${c.network} wallet refused ${param}`, invalidCode)
}

function identify(body: Params, users: EndUsers, opts: RuntimeOptions): Identity {
  const taxRaw = optString(body, 'endUserTaxNumber')
  const euid = optString(body, 'euid')
  if (taxRaw === undefined && euid === undefined) {
    if (opts.requireDepositIdentification) {
      throw businessRefusal(
        'The payer must be identified with endUserTaxNumber or euid',
        'IDENTIFICATION_REQUIRED',
      )
    }
    return {}
  }
  let taxNumber: string | undefined
  if (taxRaw !== undefined) {
    taxNumber = validTaxNumber(taxRaw) ?? undefined
    if (taxNumber === undefined) {
      throw invalidParameter('endUserTaxNumber', 'not a CPF or CNPJ with valid check digits')
    }
  }
  if (euid === undefined) {
    const user = users.byTaxNumber(taxNumber as string)
    return user === undefined ? { taxNumber } : { taxNumber, user }
  }
  const user = users.get(euid)
  if (user === undefined) throw businessRefusal(`End user not found: ${euid}`, 'END_USER_NOT_FOUND')
  if (taxNumber !== undefined && taxNumber !== user.taxNumber) {
    throw conflictingParameters('endUserTaxNumber and euid refer to different people')
  }
  return { taxNumber: user.taxNumber, euid, user }
}
