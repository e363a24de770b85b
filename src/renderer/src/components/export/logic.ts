/**
 * Pure logic of the export form: São Paulo calendar days → ISO instants, the form's schema, and the request.
 * Finance staff think in local business days; "01/03 to 31/03" must mean every record created (or paid, as the
 * form says) on those days in Brasília time, whatever the computer's own time zone.
 */
import { z } from 'zod'
import { EXPORT_FORMATS, type exportRequestSchema } from '../../../../shared/contract'
import { DATE_BASES } from '../../../../shared/withdrawal-record'
import { KNOWN_STATUSES } from '../../../../shared/withdrawal-status'
import { dayStartIso, nextCalendarDay, parseCalendarDay } from '../../../../shared/calendar-day'

/** What the form decides; the folder token is added once main's dialog has answered. */
export type ExportRequest = Omit<z.input<typeof exportRequestSchema>, 'folder'>
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

export const EXPORT_TEXT_MAX = 200

const dayField = z
  .string()
  .refine((s) => s === '' || parseCalendarDay(s) !== null, { message: 'day_invalid' })

export const exportFormSchema = z
  .object({
    profile: z.string(),
    statuses: z.array(z.string()),
    fromDay: dayField,
    toDay: dayField,
    /** Which date the days read (created or paid); the file's filter says which. */
    dateBasis: z.enum(DATE_BASES),
    text: z.string().max(EXPORT_TEXT_MAX, { message: 'text_too_long' }),
    formats: z
      .array(z.enum(EXPORT_FORMATS), { message: 'formats_required' })
      .min(1, { message: 'formats_required' }),
    csvDelimiter: z.enum([';', ',']),
    locale: z.enum(['pt-BR', 'en']),
    /** Issue #14: copy the stored receipts into the export. */
    includeReceipts: z.boolean().optional(),
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
  const after = v.toDay === '' ? null : nextCalendarDay(v.toDay)
  const to = after ? dayStartIso(after) : null
  if (to) filter.to = to
  if ((from || to) && v.dateBasis === 'paid') filter.dateBasis = 'paid'
  const text = v.text.trim()
  if (text !== '') filter.text = text
  return Object.keys(filter).length > 0 ? filter : undefined
}

/** What records:export is sent, but the folder: main's dialog (dialog:chooseFolder) hands out a token for it. */
export function buildExportRequest(v: ExportFormValues): ExportRequest {
  const filter = buildFilter(v)
  return {
    formats: [...new Set(v.formats)],
    ...(filter ? { filter } : {}),
    ...(v.formats.includes('csv') ? { csvDelimiter: v.csvDelimiter } : {}),
    locale: v.locale,
    ...(v.includeReceipts === true ? { includeReceipts: true } : {}),
  }
}

/** 0..1 for a <progress>, or null while the total is unknown (indeterminate bar). */
export function progressFraction(p: { done: number; total: number } | null): number | null {
  if (!p || p.total <= 0) return null
  return Math.min(1, Math.max(0, p.done / p.total))
}
