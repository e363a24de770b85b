/**
 * The duplicate guard's notion of "the same payment" (issue #25), for both engines: the same Pix key and the same
 * payout — what the payee receives — whichever amount kind either payment was typed in ("Valor do Pix" or "DePix a
 * enviar"), by the fee rule of src/shared/fees.ts. The query asks for the payout amount itself and for the range of
 * DePix amounts that pay exactly it.
 */
import { DEFAULT_PARTNER_RATE_BPS } from '../../shared/profile'
import { depositRangeForPayout, payoutCentsOf } from '../../shared/fees'
import type { SimilarQuery } from './types'

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

/** The beneficiary's CPF/CNPJ of a stored or about-to-be-sent request body, as a query field (absent when none). */
export function taxNumberOf(request: Record<string, unknown>): { taxNumber?: string } {
  const t = request.taxNumber
  return typeof t === 'string' && t !== '' ? { taxNumber: t } : {}
}

/**
 * The names the team ledger's guard locks before its lookup (one advisory lock each, in this order): every create
 * that could match this one — the same key, or the same CPF/CNPJ — waits for the other's insert.
 */
export function guardLockNames(pixKey: string, request: Record<string, unknown>): string[] {
  const t = taxNumberOf(request).taxNumber
  return [`key:${pixKey.trim().toLowerCase()}`, ...(t === undefined ? [] : [`tax:${t}`])].sort()
}
