import { describe, expect, it } from 'vitest'
import {
  countdown,
  formatCountdown,
  rawText,
  receiptFacts,
  refundFacts,
  svgDataUri,
  txIdProblem,
} from '../../src/renderer/src/components/funding/funding-model'
import type { WithdrawalRecord } from '../../src/shared/withdrawal-record'

describe('countdown', () => {
  const now = Date.parse('2026-05-01T12:00:00Z')
  it('counts down and turns expired at the deadline', () => {
    const c = countdown('2026-05-02T13:02:03Z', now)
    expect(c).toEqual({ state: 'running', days: 1, hours: 1, minutes: 2, seconds: 3 })
    expect(formatCountdown(c as Extract<typeof c, { state: 'running' }>)).toBe('1d 01:02:03')
    expect(countdown('2026-05-01T12:00:00Z', now)).toEqual({ state: 'expired' })
    expect(countdown('2026-05-01T11:00:00Z', now)).toEqual({ state: 'expired' })
  })
  it('says so when there is no or no readable deadline', () => {
    expect(countdown(null, now)).toEqual({ state: 'none' })
    expect(countdown('tomorrow', now)).toEqual({ state: 'invalid' })
  })
})

describe('svgDataUri', () => {
  it('is a base64 data URI of the UTF-8 bytes', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><title>ç</title></svg>'
    const uri = svgDataUri(svg)
    expect(uri.startsWith('data:image/svg+xml;base64,')).toBe(true)
    const binary = atob(uri.split(',')[1] ?? '')
    expect(new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)))).toBe(svg)
  })
})

describe('txIdProblem', () => {
  it('accepts empty or 64 hex characters only', () => {
    expect(txIdProblem('')).toBeNull()
    expect(txIdProblem('  ')).toBeNull()
    expect(txIdProblem('a'.repeat(64))).toBeNull()
    expect(txIdProblem('A'.repeat(64))).toBeNull()
    expect(txIdProblem('a'.repeat(63))).toBe('txid_format')
    expect(txIdProblem('g'.repeat(64))).toBe('txid_format')
  })
})

describe('remote facts', () => {
  it('reads receipt fields defensively and keeps unknown refund fields', () => {
    const record = {
      lastRemote: { receiverName: 'Fulano', centralBankId: 'E123', receiptUrl: null, other: 1 },
    } as unknown as WithdrawalRecord
    expect(receiptFacts(record)).toEqual([
      ['receiverName', 'Fulano'],
      ['centralBankId', 'E123'],
    ])
    expect(receiptFacts({ lastRemote: null } as unknown as WithdrawalRecord)).toEqual([])
    expect(refundFacts({ feeInCents: 100, reason: 'invalid_pix_key', txId: 'ab' })).toEqual([
      ['txId', 'ab'],
      ['reason', 'invalid_pix_key'],
      ['feeInCents', 100],
    ])
  })
  it('renders raw values as text', () => {
    expect(rawText(null)).toBeNull()
    expect(rawText('')).toBeNull()
    expect(rawText(5)).toBe('5')
    expect(rawText({ a: 1 })).toBe('{"a":1}')
  })
})
