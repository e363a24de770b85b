import { describe, expect, it } from 'vitest'
import {
  calendarDayOf,
  dayStartIso,
  nextCalendarDay,
  parseCalendarDay,
  zoneOffsetMinutes,
  zoneOffsetMs,
} from '../../src/shared/calendar-day'

describe('São Paulo calendar days', () => {
  it('start at local midnight, UTC−3 since 2019', () => {
    expect(dayStartIso('2025-03-01')).toBe('2025-03-01T00:00:00-03:00')
    expect(dayStartIso('2024-02-29')).toBe('2024-02-29T00:00:00-03:00')
    expect(Date.parse(dayStartIso('2025-12-31')!)).toBe(Date.parse('2025-12-31T03:00:00Z'))
  })
  it('under the old daylight saving time, too', () => {
    expect(dayStartIso('2018-01-15')).toBe('2018-01-15T00:00:00-02:00')
    // Clocks jumped from 00:00 to 01:00 on 2018-11-04: the day began at 01:00 (-02:00).
    expect(dayStartIso('2018-11-04')).toBe('2018-11-04T01:00:00-02:00')
    expect(dayStartIso('2018-11-03')).toBe('2018-11-03T00:00:00-03:00')
    // DST ended at 00:00 on 2019-02-17 (back to 23:00 of the 16th): the 17th began once, at -03:00.
    expect(dayStartIso('2019-02-17')).toBe('2019-02-17T00:00:00-03:00')
    expect(dayStartIso('2019-02-16')).toBe('2019-02-16T00:00:00-02:00')
  })
  it('another zone can be asked for', () => {
    expect(dayStartIso('2025-07-01', 'UTC')).toBe('2025-07-01T00:00:00+00:00')
    expect(dayStartIso('2025-07-01', 'Asia/Kolkata')).toBe('2025-07-01T00:00:00+05:30')
  })
  it('refuses days that do not exist', () => {
    for (const bad of ['2025-02-29', '2025-13-01', '2025-00-10', '2025-1-1', '', 'yesterday', '2025-04-31']) {
      expect(dayStartIso(bad)).toBeNull()
    }
  })
  it('nextCalendarDay crosses months and years', () => {
    expect(nextCalendarDay('2025-01-31')).toBe('2025-02-01')
    expect(nextCalendarDay('2024-02-28')).toBe('2024-02-29')
    expect(nextCalendarDay('2025-12-31')).toBe('2026-01-01')
    expect(nextCalendarDay('nope')).toBeNull()
  })
})

describe('offsets and days of an instant', () => {
  it('follow the historical summer time (UTC-2) where the tz database has it', () => {
    expect(zoneOffsetMinutes(Date.parse('2018-01-15T12:00:00Z'))).toBe(-120)
    expect(zoneOffsetMinutes(Date.parse('2018-07-15T12:00:00Z'))).toBe(-180)
  })
  it('before 1914 (local mean time, −3:06:28): exact in milliseconds, rounded in minutes', () => {
    const t = Date.parse('1900-01-01T12:00:00Z')
    expect(zoneOffsetMs(t)).toBe(-(3 * 3600 + 6 * 60 + 28) * 1000)
    expect(zoneOffsetMinutes(t)).toBe(-186)
  })
  it('name the São Paulo day of an instant', () => {
    expect(calendarDayOf(Date.parse('2025-03-10T02:59:59Z'))).toBe('2025-03-09')
    expect(calendarDayOf(Date.parse('2025-03-10T03:00:00Z'))).toBe('2025-03-10')
  })
  it('parse only real days', () => {
    expect(parseCalendarDay('2024-02-29')).toEqual({ y: 2024, m: 2, d: 29 })
    for (const bad of ['2025-02-30', '25-01-01', '2025-01-01T00:00', 'hoje'])
      expect(parseCalendarDay(bad)).toBeNull()
  })
})
