import { describe, expect, it } from 'vitest'
import { formatDateTime, formatDateTimeLines } from '../../src/renderer/src/components/format'

describe('one date policy', () => {
  it('pt-BR: dd/mm/aaaa hh:mm in Brasília time, whatever the computer’s zone', () => {
    // 15:04 UTC is 12:04 in São Paulo (UTC−3).
    expect(formatDateTime('2026-11-27T15:04:59.000Z', 'pt-BR')).toBe('27/11/2026 12:04')
    // Just after midnight UTC is still the previous day in Brasília.
    expect(formatDateTime('2026-01-01T02:30:00.000Z', 'pt-BR')).toBe('31/12/2025 23:30')
  })
  it('en: the viewer’s zone, named', () => {
    expect(formatDateTime('2026-11-27T15:04:59.000Z', 'en')).toMatch(/^Nov 2\d, 2026, \d\d:\d\d \S+/)
  })
  it('an unreadable value is shown as given, never as "Invalid Date"', () => {
    expect(formatDateTime('not a date', 'pt-BR')).toBe('not a date')
  })
  it('two lines for a narrow column: the same text, cut between the day and the time', () => {
    expect(formatDateTimeLines('2026-11-27T15:04:59.000Z', 'pt-BR')).toEqual(['27/11/2026', '12:04'])
    const [day, time] = formatDateTimeLines('2026-11-27T15:04:59.000Z', 'en')
    expect(day).toMatch(/^Nov 2\d, 2026$/)
    expect(time).toMatch(/^\d\d:\d\d \S+/)
    expect(`${day}, ${time}`).toBe(formatDateTime('2026-11-27T15:04:59.000Z', 'en'))
    expect(formatDateTimeLines('not a date', 'pt-BR')).toEqual(['not a date', ''])
  })
})
