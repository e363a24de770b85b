/**
 * Calendar days in a time zone (São Paulo by default): finance staff think in Brasília business days, whatever
 * the computer's own zone. One implementation for every filter and export that turns days into instants.
 */

export const SAO_PAULO_TIME_ZONE = 'America/Sao_Paulo'

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/
const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

/** `YYYY-MM-DD` → its parts; null for a malformed or non-existent day (2025-02-30 does not roll over). */
export function parseCalendarDay(day: string): { y: number; m: number; d: number } | null {
  const match = DAY_PATTERN.exec(day)
  if (!match) return null
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const check = new Date(Date.UTC(y, m - 1, d))
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null
  return { y, m, d }
}

/** The calendar day after `day`, or null if `day` is not a day. */
export function nextCalendarDay(day: string): string | null {
  const p = parseCalendarDay(day)
  if (!p) return null
  return new Date(Date.UTC(p.y, p.m - 1, p.d + 1)).toISOString().slice(0, 10)
}

interface LocalParts {
  day: string
  hour: number
  minute: number
  second: number
  /** Exact, to the second (São Paulo's local mean time before 1914 was −3:06:28). */
  offsetMs: number
  offsetMinutes: number
}

const formatters = new Map<string, Intl.DateTimeFormat>()

function localParts(utcMs: number, timeZone: string): LocalParts {
  let format = formatters.get(timeZone)
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    })
    formatters.set(timeZone, format)
  }
  const parts = format.formatToParts(new Date(utcMs))
  const n = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value)
  const [y, m, d, hh, mm, ss] = [n('year'), n('month'), n('day'), n('hour'), n('minute'), n('second')]
  const asUtc = Date.UTC(y, m - 1, d, hh, mm, ss)
  const pad = (v: number, w = 2): string => String(v).padStart(w, '0')
  const offsetMs = asUtc - Math.floor(utcMs / 1000) * 1000
  return {
    day: `${pad(y, 4)}-${pad(m)}-${pad(d)}`,
    hour: hh,
    minute: mm,
    second: ss,
    offsetMs,
    offsetMinutes: Math.round(offsetMs / MINUTE_MS),
  }
}

/** Milliseconds `timeZone` is ahead of UTC at `utcMs`, exact to the second (the export's dates: records/format.ts). */
export function zoneOffsetMs(utcMs: number, timeZone = SAO_PAULO_TIME_ZONE): number {
  return localParts(utcMs, timeZone).offsetMs
}

/** Minutes `timeZone` is ahead of UTC at `utcMs` (São Paulo: -180 today, -120 in its former summer time). */
export function zoneOffsetMinutes(utcMs: number, timeZone = SAO_PAULO_TIME_ZONE): number {
  return localParts(utcMs, timeZone).offsetMinutes
}

/** The calendar day (`YYYY-MM-DD`) containing `utcMs` in `timeZone`. */
export function calendarDayOf(utcMs: number, timeZone = SAO_PAULO_TIME_ZONE): string {
  return localParts(utcMs, timeZone).day
}

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+'
  const abs = Math.abs(minutes)
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`
}

/**
 * The first instant of a calendar day in `timeZone`, as ISO 8601 with that zone's offset
 * (`2025-03-01T00:00:00-03:00`). Null for a malformed or non-existent day. Where a daylight-saving change
 * skipped midnight (Brazil until 2019), the day starts at the change: `2018-11-04T01:00:00-02:00`.
 */
export function dayStartIso(day: string, timeZone = SAO_PAULO_TIME_ZONE): string | null {
  const parsed = parseCalendarDay(day)
  if (!parsed) return null
  const midnightUtc = Date.UTC(parsed.y, parsed.m - 1, parsed.d)
  // Every offset in force around that day gives a candidate; the earliest one that falls on the day wins.
  const offsets = new Set(
    [-DAY_MS, 0, DAY_MS].map((delta) => localParts(midnightUtc + delta, timeZone).offsetMinutes),
  )
  const starts = [...offsets]
    .map((offset) => midnightUtc - offset * MINUTE_MS)
    .filter((t) => localParts(t, timeZone).day === day)
    .sort((a, b) => a - b)
  const start = starts[0]
  if (start === undefined) return null
  const p = localParts(start, timeZone)
  const hms = [p.hour, p.minute, p.second].map((v) => String(v).padStart(2, '0')).join(':')
  return `${p.day}T${hms}${formatOffset(p.offsetMinutes)}`
}
