import { describe, expect, it } from 'vitest'
import { profileMessages } from '../../src/shared/profile'
import {
  allowanceRows,
  compact,
  groupFingerprint,
  legacyExpiry,
  optionalInteger,
  optionalText,
  profileFieldMessage,
  withProfileMessage,
} from '../../src/renderer/src/components/settings/logic'
import { mapFieldPath } from '../../src/renderer/src/components/settings/resolver'

const DAY = 86_400_000
const NOW = Date.parse('2025-06-01T12:00:00Z')

describe('profileFieldMessage', () => {
  it('translates a profile code in both languages', () => {
    expect(profileFieldMessage('base_url_https_required', 'pt-BR')).toBe(
      profileMessages.base_url_https_required['pt-BR'],
    )
    expect(profileFieldMessage('name_taken', 'en')).toBe(profileMessages.name_taken.en)
  })
  it('never shows an unknown code or zod text raw', () => {
    expect(profileFieldMessage('Invalid input: expected string', 'en')).toBe(profileMessages.invalid_value.en)
    expect(profileFieldMessage(undefined, 'en')).toBeUndefined()
  })
})

describe('withProfileMessage', () => {
  it('gives profile service codes a user message', () => {
    const e = withProfileMessage({ code: 'sandbox_readonly', message: 'x' })
    expect(e.userMessage).toEqual(profileMessages.sandbox_readonly)
  })
  it('leaves other errors and existing user messages alone', () => {
    const api = { code: 'unauthorized', message: 'x' }
    expect(withProfileMessage(api)).toBe(api)
    const own = { code: 'not_found', message: 'x', userMessage: { 'pt-BR': 'a', en: 'b' } }
    expect(withProfileMessage(own)).toBe(own)
  })
})

describe('form value cleanup', () => {
  it('drops undefined keys deeply, keeps everything else', () => {
    expect(compact({ a: 1, b: undefined, c: { d: undefined, e: '' }, f: [1, undefined] })).toEqual({
      a: 1,
      c: { e: '' },
      f: [1, undefined],
    })
    expect(Object.keys(compact({ rateLimits: { ping: undefined, withdraw: 5 } }).rateLimits)).toEqual([
      'withdraw',
    ])
  })
  it('reads optional integers strictly', () => {
    expect(optionalInteger('')).toBeUndefined()
    expect(optionalInteger('  ')).toBeUndefined()
    expect(optionalInteger(' 150 ')).toBe(150)
    expect(optionalInteger(7)).toBe(7)
    expect(optionalInteger('1.5')).toBeNaN()
    expect(optionalInteger('1e3')).toBeNaN()
    expect(optionalInteger('-1')).toBeNaN()
  })
  it('reads optional text', () => {
    expect(optionalText('  ')).toBeUndefined()
    expect(optionalText(' ab ')).toBe('ab')
  })
  it('maps main field paths to form paths', () => {
    expect(mapFieldPath('credentials.clientSecret', 'credentials', 'auth')).toBe('auth.clientSecret')
    expect(mapFieldPath('credentials', 'credentials', 'auth')).toBe('auth')
    expect(mapFieldPath('credentialsX', 'credentials', 'auth')).toBe('credentialsX')
    expect(mapFieldPath('id', 'credentials', 'auth')).toBe('id')
  })
})

describe('legacyExpiry', () => {
  it('is fine a month or more ahead', () => {
    expect(legacyExpiry(new Date(NOW + 30 * DAY).toISOString(), NOW)).toEqual({ level: 'ok' })
    expect(legacyExpiry(new Date(NOW + 400 * DAY).toISOString(), NOW)).toEqual({ level: 'ok' })
  })
  it('warns under 30 days, with whole days left', () => {
    expect(legacyExpiry(new Date(NOW + 30 * DAY - 1).toISOString(), NOW)).toEqual({ level: 'soon', days: 29 })
    expect(legacyExpiry(new Date(NOW + 2 * DAY + 5).toISOString(), NOW)).toEqual({ level: 'soon', days: 2 })
    expect(legacyExpiry(new Date(NOW + 1000).toISOString(), NOW)).toEqual({ level: 'soon', days: 0 })
  })
  it('is expired at or after exp, and when the date is missing or unreadable', () => {
    expect(legacyExpiry(new Date(NOW).toISOString(), NOW)).toEqual({ level: 'expired' })
    expect(legacyExpiry(new Date(NOW - DAY).toISOString(), NOW)).toEqual({ level: 'expired' })
    expect(legacyExpiry(null, NOW)).toEqual({ level: 'expired' })
    expect(legacyExpiry('soon', NOW)).toEqual({ level: 'expired' })
  })
})

describe('allowanceRows', () => {
  it('orders rows as the API contract lists endpoints, floors availability, rounds the wait up', () => {
    const rows = allowanceRows({
      withdraw: { limitPerMinute: 10, available: 3.7, nextTokenInMs: 1234 },
      ping: { limitPerMinute: 1, available: 1, nextTokenInMs: 0 },
      'withdraw-status': { limitPerMinute: 60, available: 0.2, nextTokenInMs: 800 },
    })
    expect(rows).toEqual([
      { endpoint: 'ping', limitPerMinute: 1, available: 1, nextInSeconds: null },
      { endpoint: 'withdraw', limitPerMinute: 10, available: 3, nextInSeconds: 1.3 },
      { endpoint: 'withdraw-status', limitPerMinute: 60, available: 0, nextInSeconds: 0.8 },
    ])
  })
  it('never shows a negative availability and is empty before main answered', () => {
    expect(
      allowanceRows({ deposit: { limitPerMinute: 15, available: -2, nextTokenInMs: 60_000 } })[0],
    ).toEqual({
      endpoint: 'deposit',
      limitPerMinute: 15,
      available: 0,
      nextInSeconds: 60,
    })
    expect(allowanceRows(null)).toEqual([])
  })
})

describe('groupFingerprint', () => {
  it('groups a hex fingerprint by four', () => {
    expect(groupFingerprint('a1b2c3d4e5f60718')).toBe('a1b2 c3d4 e5f6 0718')
    expect(groupFingerprint('ABCDEF123')).toBe('ABCD EF12 3')
  })
  it('shows anything else as sent', () => {
    expect(groupFingerprint('SHA256:abc/def+')).toBe('SHA256:abc/def+')
    expect(groupFingerprint('ab:cd:ef')).toBe('ab:cd:ef')
  })
})
