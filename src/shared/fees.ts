/**
 * Withdrawal fee arithmetic, integer cents only. The API contract says the fee is max(partner rate, R$ 1,00) but not
 * which amount the rate applies to; we apply it to the DePix sent (the gross) and round up to the cent, the
 * reading that never promises the beneficiary more than arrives (docs/history/DECISIONS.md).
 */
import { FUNDING_TOLERANCE_BPS, WITHDRAWAL_FEE_FLOOR_CENTS } from './api-limits'

/** Partner rate in basis points (100 = 1%). Integer, 0..10000. */
export type RateBps = number

function assertCents(n: number, what: string): void {
  if (!Number.isSafeInteger(n) || n < 0) throw new RangeError(`${what} must be a non-negative safe integer`)
}

function assertRate(rateBps: RateBps): void {
  if (!Number.isSafeInteger(rateBps) || rateBps < 0 || rateBps >= 10_000) {
    throw new RangeError('rateBps must be an integer in 0..9999')
  }
}

/** Fee withheld from `depositCents` of DePix sent. */
export function withdrawalFeeCents(depositCents: number, rateBps: RateBps): number {
  assertCents(depositCents, 'depositCents')
  assertRate(rateBps)
  const byRate = Math.ceil((depositCents * rateBps) / 10_000)
  return Math.max(byRate, WITHDRAWAL_FEE_FLOOR_CENTS)
}

/** BRL paid out when `depositCents` of DePix arrive. May be ≤ 0 for tiny amounts (the caller range-checks). */
export function payoutForDeposit(depositCents: number, rateBps: RateBps): number {
  return depositCents - withdrawalFeeCents(depositCents, rateBps)
}

/**
 * DePix to send so that exactly `payoutCents` is paid out. `payoutForDeposit` rises by 0 or 1 per extra cent,
 * so an exact answer always exists; we take the smallest.
 */
export function depositForPayout(payoutCents: number, rateBps: RateBps): number {
  assertCents(payoutCents, 'payoutCents')
  assertRate(rateBps)
  // Start from a lower bound and walk up; the estimate is within a couple of cents.
  let d = Math.max(payoutCents, Math.floor((payoutCents * 10_000) / (10_000 - rateBps)) - 2)
  while (payoutForDeposit(d, rateBps) < payoutCents) d += 1
  return d
}

/**
 * What the payee receives, from either amount kind: the duplicate guard compares payments by it, so "Valor do Pix
 * R$ 100,00" and "DePix a enviar 101,02" (at 1 %) are the same payment.
 */
export function payoutCentsOf(kind: 'deposit' | 'payout', cents: number, rateBps: RateBps): number {
  return kind === 'payout' ? cents : payoutForDeposit(cents, rateBps)
}

/**
 * Every DePix amount whose payout is exactly `payoutCents`: a contiguous range, because the payout rises by 0 or 1
 * per extra cent sent. The guard's query asks for these deposit amounts and this payout, in one indexed lookup.
 */
export function depositRangeForPayout(payoutCents: number, rateBps: RateBps): { min: number; max: number } {
  return { min: depositForPayout(payoutCents, rateBps), max: depositForPayout(payoutCents + 1, rateBps) - 1 }
}

/** Both sides of a withdrawal from whichever amount the request carries. */
export function quoteWithdrawal(
  amount: { depositAmountInCents: number } | { payoutAmountInCents: number },
  rateBps: RateBps,
): { depositCents: number; payoutCents: number; feeCents: number } {
  const depositCents =
    'depositAmountInCents' in amount
      ? amount.depositAmountInCents
      : depositForPayout(amount.payoutAmountInCents, rateBps)
  const feeCents = withdrawalFeeCents(depositCents, rateBps)
  return { depositCents, payoutCents: depositCents - feeCents, feeCents }
}

/**
 * The DePix amounts that still fund a withdrawal expecting `expectedCents` (docs/API-CONTRACT.md#s3-2 / §6.4: within 5 % either
 * way, inclusive). The sandbox decides with it and the funding page explains it with it.
 */
export function fundingToleranceRange(
  expectedCents: number,
  toleranceBps: number = FUNDING_TOLERANCE_BPS,
): { min: number; max: number } {
  assertCents(expectedCents, 'expectedCents')
  const tolerance = Math.floor((expectedCents * toleranceBps) / 10_000)
  return { min: expectedCents - tolerance, max: expectedCents + tolerance }
}

/**
 * Basis points as a percentage, built by hand like the money strings: 'trim' gives 500 → "5%", 250 → "2,5%";
 * 'fixed' always two decimals, 150 → "1,50%" (pt-BR; en uses '.').
 */
export function formatBps(bps: number, lang: 'pt-BR' | 'en', style: 'trim' | 'fixed' = 'trim'): string {
  const whole = Math.trunc(bps / 100)
  const two = String(Math.abs(bps % 100)).padStart(2, '0')
  const frac = style === 'fixed' ? two : two.replace(/0+$/, '')
  return frac === '' ? `${whole}%` : `${whole}${lang === 'pt-BR' ? ',' : '.'}${frac}%`
}
