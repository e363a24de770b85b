/**
 * The duplicate guard's notion of "the same payment" (issue #25), for both engines: the same Pix key and the same
 * payout — what the payee receives — whichever amount kind either payment was typed in ("Valor do Pix" or "DePix a
 * enviar"), by the fee rule of src/shared/fees.ts. The query asks for the payout amount itself and for the range of
 * DePix amounts that pay exactly it.
 */
import { DEFAULT_PARTNER_RATE_BPS } from '../../../shared/profile'
import { depositRangeForPayout, payoutCentsOf } from '../../../shared/fees'
import type { SimilarQuery } from './inputs'

export interface SimilarAmounts {
  payoutCents: number
  depositMin: number
  depositMax: number
}

export function similarAmounts(q: SimilarQuery): SimilarAmounts {
  const rate = q.partnerRateBps ?? DEFAULT_PARTNER_RATE_BPS
  const payoutCents = payoutCentsOf(q.amountKind, q.amountCents, rate)
  // A DePix amount at or below the fee floor pays nothing: only that very amount is the same payment.
  if (payoutCents < 1) return { payoutCents, depositMin: q.amountCents, depositMax: q.amountCents }
  const r = depositRangeForPayout(payoutCents, rate)
  return { payoutCents, depositMin: r.min, depositMax: r.max }
}

/**
 * The name the team ledger's guard locks before its lookup: one advisory lock per Pix key (case-insensitive like the
 * lookup), whatever the amount kind, so every create the lookup could match waits for the other's insert.
 */
export function guardLockName(pixKey: string): string {
  return `key:${pixKey.trim().toLowerCase()}`
}
