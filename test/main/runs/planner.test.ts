/** The wave rule: a wave is as large as can be created and then funded before its first withdrawal expires. */
import { describe, expect, it } from 'vitest'
import { creationSpanMs, planWave } from '../../../src/main/runs'
import {
  DEFAULT_FUNDING_MARGIN_MS,
  fundingMargin,
  observedLifetimeMs,
  perRowFunding,
  WALLET_FUNDING_PER_ROW_MS,
  WALLET_SIGNING_MARGIN_MS,
} from '../../../src/main/runs/planner'
import { DEADLINE_MARGIN_MS } from '../../../src/main/wallet/pay/lines'

const base = { limitPerMinute: 10, freeTokens: 10, lifetimeMs: 30 * 60_000, fundingMarginMs: 10 * 60_000 }

describe('planWave', () => {
  it('at 10/min with a full bucket, 30 min lifetime and 10 min to fund: 10 at once + 20 min × 10 = 210', () => {
    const p = planWave({ ...base, remaining: 1000 })
    expect(p.size).toBe(210)
    // The first ten go at once; the other 200 one every 6 s: exactly the 20 minutes left before funding.
    expect(p.creationMs).toBe(200 * 6_000)
    expect(p.creationMs + base.fundingMarginMs).toBeLessThanOrEqual(base.lifetimeMs)
  })

  it('one row more would not be fundable before the first deadline', () => {
    const p = planWave({ ...base, remaining: 1000 })
    expect(creationSpanMs(p.size + 1, 10, 10) + base.fundingMarginMs).toBeGreaterThan(base.lifetimeMs)
  })

  it('an empty bucket costs its wait; never more than the rows left; never zero while rows wait', () => {
    expect(planWave({ ...base, freeTokens: 0, remaining: 1000 }).size).toBe(200)
    expect(planWave({ ...base, freeTokens: 0.99, remaining: 1000 }).size).toBe(200)
    expect(planWave({ ...base, remaining: 45 }).size).toBe(45)
    expect(planWave({ ...base, lifetimeMs: 5 * 60_000, remaining: 45 }).size).toBe(1)
    expect(planWave({ ...base, remaining: 0 }).size).toBe(0)
  })

  it('a short lifetime seen from the service shrinks the wave; a higher allowance grows it', () => {
    expect(planWave({ ...base, lifetimeMs: 15 * 60_000, remaining: 1000 }).size).toBe(10 + 50)
    expect(planWave({ ...base, limitPerMinute: 60, freeTokens: 60, remaining: 2000 }).size).toBe(60 + 1200)
    expect(() => planWave({ ...base, limitPerMinute: 0, remaining: 1 })).toThrow(RangeError)
  })

  it('reads the shortest lifetime the service gave, ignoring records without an expiration', () => {
    const at = '2026-11-25T10:00:00.000Z'
    expect(
      observedLifetimeMs([
        { createdAt: at, expiration: '2026-11-25T10:30:00.000Z' },
        { createdAt: at, expiration: '2026-11-25T10:20:00.000Z' },
        { createdAt: at, expiration: null },
      ]),
    ).toBe(20 * 60_000)
    expect(observedLifetimeMs([{ createdAt: at, expiration: 'garbage' }])).toBeNull()
  })
})

describe('signing time when the wallet pays (issue #28)', () => {
  it('adds the signing margin only when the profile pays from its wallet', () => {
    expect(WALLET_SIGNING_MARGIN_MS).toBe(5 * 60_000)
    expect(fundingMargin({})).toBe(DEFAULT_FUNDING_MARGIN_MS)
    expect(fundingMargin({ walletPays: () => false })).toBe(DEFAULT_FUNDING_MARGIN_MS)
    expect(fundingMargin({ walletPays: () => true })).toBe(15 * 60_000)
    // Never below the wallet's own refusal margin: a shorter one would plan waves whose first payments are
    // refused as too close to their deadline when the wave is paid.
    expect(fundingMargin({ fundingMarginMs: 60_000, walletPays: () => true })).toBe(DEADLINE_MARGIN_MS)
    expect(fundingMargin({ fundingMarginMs: 20 * 60_000, walletPays: () => true })).toBe(25 * 60_000)
    expect(perRowFunding({})).toBe(0)
    expect(perRowFunding({ walletPays: () => true })).toBe(WALLET_FUNDING_PER_ROW_MS)
    expect(WALLET_FUNDING_PER_ROW_MS).toBe(1_060)
  })

  it('counts the status read and build of each row: after creating and re-checking the wave, its first deadline is still ≥ the refusal margin', () => {
    const i = {
      ...base,
      remaining: 1000,
      fundingMarginMs: fundingMargin({ walletPays: () => true }),
      perRowFundingMs: perRowFunding({ walletPays: () => true }),
    }
    const p = planWave(i)
    const span = (n: number) => creationSpanMs(n, 10, 10) + n * WALLET_FUNDING_PER_ROW_MS
    // Created, then every payment asked again and built: the first deadline is still DEADLINE_MARGIN_MS away.
    expect(span(p.size) + DEADLINE_MARGIN_MS).toBeLessThanOrEqual(base.lifetimeMs)
    expect(span(p.size + 1) + DEADLINE_MARGIN_MS).toBeGreaterThan(base.lifetimeMs)
    // Without the per-row time the wave would be 160 rows and its re-check alone would eat into that margin.
    expect(planWave({ ...i, perRowFundingMs: 0 }).size).toBe(160)
    expect(p.size).toBeLessThan(160)
    // Within the free tokens only the per-row time counts; no time at all still gives one row.
    expect(planWave({ ...i, freeTokens: 10, lifetimeMs: DEADLINE_MARGIN_MS + 5 * 1_060 }).size).toBe(5)
    expect(planWave({ ...i, lifetimeMs: DEADLINE_MARGIN_MS }).size).toBe(1)
  })

  it('a wave the wallet pays is smaller by the rows the signing time would have created', () => {
    const byHand = planWave({ ...base, remaining: 1000, fundingMarginMs: fundingMargin({}) })
    const wallet = planWave({
      ...base,
      remaining: 1000,
      fundingMarginMs: fundingMargin({ walletPays: () => true }),
    })
    // 5 min less to create at 10/min: 50 rows fewer, and the last still fundable with signing included.
    expect(byHand.size - wallet.size).toBe(50)
    expect(wallet.creationMs + 15 * 60_000).toBeLessThanOrEqual(base.lifetimeMs)
  })
})
