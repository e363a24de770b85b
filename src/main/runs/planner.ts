/**
 * The wave rule. A wave's withdrawals must all be funded before the FIRST one expires, and the operator funds the
 * wave after it is fully created. The first create starts the clock; the bucket's free tokens go at once, then one
 * create per 60/limit seconds. So a wave of n rows needs
 *
 *   creation span = max(0, n − free) × (60 000 / limit) ms,  and  span + funding margin ≤ lifetime
 *
 * where `lifetime` is how long the service gives a withdrawal (`expiration` − creation time, read from the last
 * wave's answers; before any answer, an assumed lifetime that the first wave then corrects).
 */

import { DEFAULT_RATE_LIMITS } from '../../shared/api-limits'
import { DEADLINE_MARGIN_MS } from '../wallet/pay/lines'

export interface WavePlanInput {
  /** Rows still waiting. */
  remaining: number
  /** POST /withdraw allowance per minute in force. */
  limitPerMinute: number
  /** Tokens free in the bucket now. */
  freeTokens: number
  /** How long a withdrawal stays payable, ms (observed; or the assumption below). */
  lifetimeMs: number
  /** Time the operator needs to send the deposit after the wave is created, ms. */
  fundingMarginMs: number
  /**
   * Funding time that grows with the wave, ms per row: when the wallet pays, each payment is asked again
   * (`GET /withdraw-status`, at its own rate limit) and built into the transaction (WALLET_FUNDING_PER_ROW_MS).
   * Default 0.
   */
  perRowFundingMs?: number
}

export interface WavePlan {
  size: number
  /** Time to create the wave, ms. */
  creationMs: number
  /** The wave's first deadline after its first create, ms (the lifetime). */
  firstDeadlineMs: number
  /** True when `lifetimeMs` is an assumption (no withdrawal seen yet). */
  assumed: boolean
}

/** Before any withdrawal has answered: the sandbox's default and a conservative reading of the service. */
export const ASSUMED_LIFETIME_MS = 30 * 60_000
export const DEFAULT_FUNDING_MARGIN_MS = 10 * 60_000
/**
 * Added to the funding margin when the profile pays from its treasury wallet (issue #28): the line-by-line review,
 * the export to a signer and the signed PSET back (two signers on a 2-of-3), then the broadcast. Signing itself is
 * seconds; the margin is for people handing a file to a device. The payment's own check (wallet/pay/lines.ts,
 * DEADLINE_MARGIN_MS) still refuses a payment whose deadline is too close when the wave is paid.
 */
export const WALLET_SIGNING_MARGIN_MS = 5 * 60_000

/**
 * Per payment when the wallet pays: its fresh status read at the contract's 60 a minute (1 s; the tracker shares
 * that budget, so its free tokens are not counted on) plus LWK building and blinding its output (~60 ms,
 * docs/BENCHMARKS.md). A 160-row wave spends ~3 minutes on these before the review even starts.
 */
export const WALLET_FUNDING_PER_ROW_MS = Math.ceil(60_000 / DEFAULT_RATE_LIMITS['withdraw-status']) + 60

/**
 * The margin a wave is planned with: the configured one (or the default), plus signing when the wallet pays — and
 * then never less than the wallet's own refusal margin (DEADLINE_MARGIN_MS), or the wave's first payments would be
 * refused as too close to their deadline when the wave is paid.
 */
export function fundingMargin(o: { fundingMarginMs?: number; walletPays?: () => boolean }): number {
  const configured = o.fundingMarginMs ?? DEFAULT_FUNDING_MARGIN_MS
  return o.walletPays?.() ? Math.max(configured + WALLET_SIGNING_MARGIN_MS, DEADLINE_MARGIN_MS) : configured
}

/** The per-row funding time a wave is planned with (WavePlanInput.perRowFundingMs). */
export function perRowFunding(o: { walletPays?: () => boolean }): number {
  return o.walletPays?.() ? WALLET_FUNDING_PER_ROW_MS : 0
}

export function creationSpanMs(n: number, limitPerMinute: number, freeTokens: number): number {
  const free = Math.max(0, Math.floor(freeTokens))
  return Math.max(0, n - free) * Math.ceil(60_000 / limitPerMinute)
}

export function planWave(i: WavePlanInput, assumed = false): WavePlan {
  if (!(i.limitPerMinute > 0)) throw new RangeError('limitPerMinute must be > 0')
  const interval = Math.ceil(60_000 / i.limitPerMinute)
  const free = Math.max(0, Math.min(Math.floor(i.freeTokens), Math.ceil(i.limitPerMinute)))
  const budget = i.lifetimeMs - i.fundingMarginMs
  const perRow = Math.max(0, i.perRowFundingMs ?? 0)
  // The largest n with creationSpan(n) + n × perRow ≤ budget: past the free tokens each row costs interval + perRow.
  const pastFree = Math.floor((budget + free * interval) / (interval + perRow))
  const withinFree = perRow === 0 ? free : Math.min(free, Math.floor(budget / perRow))
  // With no time left to fund, one row at a time: its own deadline is all there is.
  const bySpan = budget <= 0 ? 1 : pastFree >= free ? pastFree : withinFree
  const size = Math.max(0, Math.min(i.remaining, Math.max(1, bySpan)))
  return {
    size,
    creationMs: creationSpanMs(size, i.limitPerMinute, free),
    firstDeadlineMs: i.lifetimeMs,
    assumed,
  }
}

/** The lifetime the service gave the withdrawals of a wave: the shortest `expiration − createdAt` seen. */
export function observedLifetimeMs(
  records: ReadonlyArray<{ createdAt: string; expiration: string | null }>,
): number | null {
  let best: number | null = null
  for (const r of records) {
    if (r.expiration === null) continue
    const ms = Date.parse(r.expiration) - Date.parse(r.createdAt)
    if (Number.isFinite(ms) && ms > 0 && (best === null || ms < best)) best = ms
  }
  return best
}
