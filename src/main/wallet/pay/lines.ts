/**
 * The payments one funding transaction pays: each from the record as the service answered `GET /withdraw-status`
 * right before building, never from what the screen showed earlier.
 */
import type { WithdrawalRecord } from '../../../shared/withdrawal-record'
import { fundingProblem, type FundingCtx } from '../../withdrawals/funding'
import { checkLiquidAddress } from '../../liquid'
import { PayRefusal } from './errors'

/** 1 cent = 10^6 units (DePix has 8 decimals). */
export const UNITS_PER_CENT = 1_000_000n
/**
 * A payment whose deadline is closer than this is refused: the review, the signing (an external wallet, or two
 * signers on a multisig), the broadcast and a confirmation must all fit before it.
 */
export const DEADLINE_MARGIN_MS = 15 * 60_000

export interface PayLine {
  readonly localId: string
  /** the payee's name as the payment knows it; null when none */
  readonly payee: string | null
  readonly cents: number
  readonly units: bigint
  /** as the service gave it (confidential when it gave one) */
  readonly address: string
  readonly expiration: string | null
}

/** What the operator selected (from the screen), re-checked against the fresh record. */
export interface Selected {
  readonly localId: string
  readonly address?: string
  readonly cents?: number
}

export function centsToUnits(cents: number): bigint {
  if (!Number.isSafeInteger(cents) || cents <= 0)
    throw new RangeError('cents must be a positive safe integer')
  return BigInt(cents) * UNITS_PER_CENT
}

/** One line from a fresh record, or a refusal saying why it cannot be paid now. */
export function lineFor(ctx: FundingCtx, fresh: WithdrawalRecord, selected: Selected): PayLine {
  const localId = fresh.localId
  if (fresh.fundedAt !== null || fresh.fundingTxId !== null)
    throw new PayRefusal('not_payable', { localId, problem: 'already_declared_sent' })
  const problem = fundingProblem(ctx, fresh)
  if (problem !== null) throw new PayRefusal('not_payable', { localId, problem })
  const checked = checkLiquidAddress(fresh.depositAddress as string, ctx.network)
  if (!checked.ok) throw new PayRefusal('not_payable', { localId, problem: 'deposit_address_invalid' })
  const cents = fresh.depositAmountCents as number
  if (selected.address !== undefined && selected.address !== checked.address)
    throw new PayRefusal('changed_since_selected', { localId, what: 'address' })
  if (selected.cents !== undefined && selected.cents !== cents)
    throw new PayRefusal('changed_since_selected', { localId, what: 'amount' })
  if (fresh.expiration !== null) {
    const expires = Date.parse(fresh.expiration)
    if (!Number.isNaN(expires) && expires - ctx.now() < DEADLINE_MARGIN_MS)
      throw new PayRefusal('deadline_too_close', { localId })
  }
  return {
    localId,
    payee: fresh.expectedPayee?.name ?? fresh.receiverName,
    cents,
    units: centsToUnits(cents),
    address: checked.address,
    expiration: fresh.expiration,
  }
}
