/**
 * Pure logic of the export form: São Paulo calendar days → ISO instants, the form's schema, and the request.
 * Finance staff think in local business days; "01/03 to 31/03" must mean every record created on those days in
 * Brasília time, whatever the computer's own time zone.
 */
import { z } from 'zod'
import { EXPORT_FORMATS, type exportRequestSchema } from '../../../../shared/contract'
import { KNOWN_STATUSES } from '../../../../shared/withdrawal-status'
import { DISPLAY_TIME_ZONE } from '../format'

export type ExportRequest = z.input<typeof exportRequestSchema>
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

/** The filter's statuses: remote ones first (what the service says), then our local states. */
export const REMOTE_STATUS_OPTIONS = KNOWN_STATUSES
export const LOCAL_STATUS_OPTIONS = [
  'created',
  'outcome_unknown',
  'rejected',
  'not_created',
  'submitting',
] as const

const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/
const MINUTE_MS = 60_000
const DAY_MS = 86_400_000

function parseDay(day: string): { y: number; m: number; d: number } | null {
  const match = DAY_PATTERN.exec(day)
  if (!match) return null
  const [y, m, d] = [Number(match[1]), Number(match[2]), Number(match[3])]
  const check = new Date(Date.UTC(y, m - 1, d))
  // Date.UTC rolls 31/02 over into March; a day that does not round-trip does not exist.
  if (check.getUTCFullYear() !== y || check.getUTCMonth() !== m - 1 || check.getUTCDate() !== d) return null
  return { y, m, d }
}

interface LocalParts {
  day: string
  hour: number
  minute: number
  second: number
  offsetMinutes: number
}

function localParts(utcMs: number, timeZone: string): LocalParts {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(new Date(utcMs))
  const n = (type: Intl.DateTimeFormatPartTypes): number => Number(parts.find((p) => p.type === type)?.value)
  const [y, m, d, hh, mm, ss] = [n('year'), n('month'), n('day'), n('hour'), n('minute'), n('second')]
  const asUtc = Date.UTC(y, m - 1, d, hh, mm, ss)
  const pad = (v: number, w = 2): string => String(v).padStart(w, '0')
  return {
    day: `${pad(y, 4)}-${pad(m)}-${pad(d)}`,
    hour: hh,
    minute: mm,
    second: ss,
    offsetMinutes: Math.round((asUtc - Math.floor(utcMs / 1000) * 1000) / MINUTE_MS),
  }
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
export function dayStartIso(day: string, timeZone = DISPLAY_TIME_ZONE): string | null {
  const parsed = parseDay(day)
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

/** The calendar day after `day` (YYYY-MM-DD), or null if `day` is not a day. */
export function nextDay(day: string): string | null {
  const parsed = parseDay(day)
  if (!parsed) return null
  return new Date(Date.UTC(parsed.y, parsed.m - 1, parsed.d + 1)).toISOString().slice(0, 10)
}

export const EXPORT_TEXT_MAX = 200

const dayField = z.string().refine((s) => s === '' || parseDay(s) !== null, { message: 'day_invalid' })

export const exportFormSchema = z
  .object({
    profile: z.string(),
    statuses: z.array(z.string()),
    fromDay: dayField,
    toDay: dayField,
    text: z.string().max(EXPORT_TEXT_MAX, { message: 'text_too_long' }),
    formats: z
      .array(z.enum(EXPORT_FORMATS), { message: 'formats_required' })
      .min(1, { message: 'formats_required' }),
    csvDelimiter: z.enum([';', ',']),
    locale: z.enum(['pt-BR', 'en']),
  })
  .superRefine((v, ctx) => {
    // YYYY-MM-DD compares correctly as text.
    if (v.fromDay !== '' && v.toDay !== '' && v.toDay < v.fromDay) {
      ctx.addIssue({ code: 'custom', path: ['toDay'], message: 'range_inverted' })
    }
  })
export type ExportFormValues = z.input<typeof exportFormSchema>

export const EXPORT_FORM_CODES = [
  'day_invalid',
  'text_too_long',
  'formats_required',
  'range_inverted',
] as const

/** The record filter of the form; undefined when the form filters nothing (export everything). */
export function buildFilter(v: ExportFormValues): ExportRequest['filter'] {
  const filter: NonNullable<ExportRequest['filter']> = {}
  if (v.profile !== '') filter.profile = v.profile
  if (v.statuses.length > 0) filter.statuses = [...v.statuses]
  const from = v.fromDay === '' ? null : dayStartIso(v.fromDay)
  if (from) filter.from = from
  // `to` is exclusive: the whole last day is in, so the bound is the start of the next one.
  const after = v.toDay === '' ? null : nextDay(v.toDay)
  const to = after ? dayStartIso(after) : null
  if (to) filter.to = to
  const text = v.text.trim()
  if (text !== '') filter.text = text
  return Object.keys(filter).length > 0 ? filter : undefined
}

/** What records:export is sent. No `dir`: main asks with the OS folder dialog. */
export function buildExportRequest(v: ExportFormValues): ExportRequest {
  const filter = buildFilter(v)
  return {
    formats: [...new Set(v.formats)],
    ...(filter ? { filter } : {}),
    ...(v.formats.includes('csv') ? { csvDelimiter: v.csvDelimiter } : {}),
    locale: v.locale,
  }
}

/** 0..1 for a <progress>, or null while the total is unknown (indeterminate bar). */
export function progressFraction(p: { done: number; total: number } | null): number | null {
  if (!p || p.total <= 0) return null
  return Math.min(1, Math.max(0, p.done / p.total))
}
