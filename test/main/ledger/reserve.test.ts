/**
 * A create reserves the team's token before it journals (journal/create.ts), and its POST then uses that token
 * instead of taking (or waiting for) another one. A reservation lapses: a refused create must not let a later call
 * skip the team's budget.
 */
import { describe, expect, it } from 'vitest'
import type { EndpointName } from '../../../src/shared/api-limits'
import { RateLimiter } from '../../../src/main/api/rate-limiter'
import {
  RESERVED_TOKEN_TTL_MS,
  sharedLimiter,
  type SharedRateBudget,
} from '../../../src/main/api/team-rate-budget'

function fakeBudget(tokens: number) {
  const taken: string[] = []
  let left = tokens
  const budget: SharedRateBudget = {
    tryTake: async (e: EndpointName) => {
      if (left < 1) return 6_000
      left -= 1
      taken.push(`try:${e}`)
      return 0
    },
    take: async (e: EndpointName) => {
      if (left < 1) throw new Error('would wait')
      left -= 1
      taken.push(`take:${e}`)
    },
    penalize: async () => undefined,
    limits: async () => ({}) as Record<EndpointName, number>,
  }
  return { budget, taken }
}

describe('sharedLimiter.reserve', () => {
  it('the next call uses the reserved team token; the one after takes its own', async () => {
    const { budget, taken } = fakeBudget(5)
    const t = 0
    const l = sharedLimiter(new RateLimiter({ limits: { withdraw: 10 } }), budget, { now: () => t })
    expect(await l.reserve('withdraw')).toBe(0)
    await l.acquire('withdraw')
    expect(taken).toEqual(['try:withdraw'])
    await l.acquire('withdraw')
    expect(taken).toEqual(['try:withdraw', 'take:withdraw'])
    l.close()
  })

  it('two creates at once on one desk each reserve their own token, and neither POST waits for the team', async () => {
    const { budget, taken } = fakeBudget(2)
    const l = sharedLimiter(new RateLimiter({ limits: { withdraw: 10 } }), budget, { now: () => 0 })
    expect(await Promise.all([l.reserve('withdraw'), l.reserve('withdraw')])).toEqual([0, 0])
    expect(taken).toEqual(['try:withdraw', 'try:withdraw'])
    // The team is empty now: a POST that took instead of using its reservation would throw 'would wait'.
    await l.acquire('withdraw')
    await l.acquire('withdraw')
    expect(taken).toHaveLength(2)
    // A third create finds nothing reserved and the team empty: told to wait, nothing taken.
    expect(await l.reserve('withdraw')).toBe(6_000)
    l.close()
  })

  it('says how long to wait when the team has no token, taking nothing', async () => {
    const { budget, taken } = fakeBudget(0)
    const l = sharedLimiter(new RateLimiter({ limits: { withdraw: 10 } }), budget)
    expect(await l.reserve('withdraw')).toBe(6_000)
    expect(taken).toEqual([])
    l.close()
  })

  it('a reservation not used in time lapses', async () => {
    const { budget, taken } = fakeBudget(5)
    let t = 0
    const l = sharedLimiter(new RateLimiter({ limits: { withdraw: 10 } }), budget, { now: () => t })
    expect(await l.reserve('withdraw')).toBe(0)
    t += RESERVED_TOKEN_TTL_MS + 1
    await l.acquire('withdraw')
    expect(taken).toEqual(['try:withdraw', 'take:withdraw'])
    // Reserved for one endpoint only.
    expect(await l.reserve('deposit')).toBe(0)
    await l.acquire('withdraw')
    expect(taken).toEqual(['try:withdraw', 'take:withdraw', 'try:deposit', 'take:withdraw'])
    l.close()
  })
})
