/**
 * The money rule: POST /withdraw and POST /deposit leave the client exactly once, under every injected fault.
 * Counted twice: by the sandbox (what arrived) and on our side of the wire (undici diagnostics: what left).
 */
import { afterEach, describe, expect, it } from 'vitest'
import type { ApiErrorKind } from '../../../src/main/api'
import type { Fault } from '../../../src/main/sandbox'
import { expectApiError, harness, posts, secretScan, TAX_NUMBER, WITHDRAWAL, type Harness } from './helpers'

let h: Harness | undefined
afterEach(async () => {
  await h?.close()
  h = undefined
})

const TIMEOUT_MS = 1_000

const faults: Array<[string, Fault, ApiErrorKind]> = [
  ['reset', { kind: 'reset' }, 'outcome_unknown'],
  ['slow beyond the timeout', { kind: 'slow', delayMs: 2_500 }, 'outcome_unknown'],
  ['timeout_after_create', { kind: 'timeout_after_create' }, 'outcome_unknown'],
  ['malformed_json', { kind: 'malformed_json' }, 'outcome_unknown'],
  ['status 500', { kind: 'status', status: 500 }, 'outcome_unknown'],
  ['status 502', { kind: 'status', status: 502 }, 'outcome_unknown'],
  ['status 503', { kind: 'status', status: 503 }, 'outcome_unknown'],
  ['status 504', { kind: 'status', status: 504 }, 'outcome_unknown'],
  ['status 429', { kind: 'status', status: 429 }, 'rate_limited'],
  ['status 520', { kind: 'status', status: 520 }, 'business'],
  ['status 401', { kind: 'status', status: 401 }, 'unauthorized'],
]

describe('POST /withdraw is sent exactly once', () => {
  it.each(faults)('under %s', async (_name, fault, kind) => {
    h = await harness({}, { timeoutMs: TIMEOUT_MS, sleep: async () => undefined })
    await h.client.signIn()
    const before = posts('/api/withdraw')
    h.sb.control.injectFault({ ...fault, endpoint: 'withdraw' })
    await expectApiError(h.client.withdraw(WITHDRAWAL), kind)
    if (fault.kind === 'slow') {
      // Outlive the service's delay: nothing is resent late either.
      await new Promise((r) => setTimeout(r, fault.delayMs - TIMEOUT_MS + 500))
    }
    expect(h.sb.control.requestCounts()['POST /api/withdraw']).toBe(1)
    expect(posts('/api/withdraw') - before).toBe(1)
  })
})

describe('POST /deposit is sent exactly once', () => {
  // A valid Liquid mainnet unconfidential address (the sandbox checks it).
  const deposit = {
    amountInCents: 5_000,
    depixAddress: 'ex1q7gkeyjut0mrxc3j0kjlt7rmcnvsh0gt45d3fud',
    endUserTaxNumber: TAX_NUMBER,
  }
  it.each(
    faults.filter(([n]) => ['reset', 'timeout_after_create', 'malformed_json', 'status 502'].includes(n)),
  )('under %s', async (_name, fault, kind) => {
    h = await harness({}, { timeoutMs: TIMEOUT_MS })
    await h.client.signIn()
    const before = posts('/api/deposit')
    h.sb.control.injectFault({ ...fault, endpoint: 'deposit' })
    await expectApiError(h.client.deposit(deposit), kind)
    expect(h.sb.control.requestCounts()['POST /api/deposit']).toBe(1)
    expect(posts('/api/deposit') - before).toBe(1)
  })
})

secretScan()
