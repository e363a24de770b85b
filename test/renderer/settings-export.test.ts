import { describe, expect, it } from 'vitest'
import { exportRequestSchema } from '../../src/shared/contract'
import {
  buildExportRequest,
  exportFormSchema,
  progressFraction,
  type ExportFormValues,
} from '../../src/renderer/src/components/export/logic'

/** The shape main's dialog hands out (32 random bytes, base64url). */
const FOLDER_TOKEN = 'A'.repeat(43)

const BASE: ExportFormValues = {
  profile: '',
  statuses: [],
  fromDay: '',
  toDay: '',
  dateBasis: 'created',
  text: '',
  formats: ['csv', 'json', 'html'],
  csvDelimiter: ';',
  locale: 'pt-BR',
}

describe('the export form', () => {
  it('needs at least one format', () => {
    const r = exportFormSchema.safeParse({ ...BASE, formats: [] })
    expect(r.success).toBe(false)
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['formats', 'formats_required'],
    ])
  })
  it('refuses a range that ends before it starts, on the last day', () => {
    const r = exportFormSchema.safeParse({ ...BASE, fromDay: '2025-03-10', toDay: '2025-03-09' })
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([['toDay', 'range_inverted']])
    expect(exportFormSchema.safeParse({ ...BASE, fromDay: '2025-03-10', toDay: '2025-03-10' }).success).toBe(
      true,
    )
  })
  it('refuses an impossible day and overlong text', () => {
    const r = exportFormSchema.safeParse({ ...BASE, fromDay: '2025-02-30', text: 'x'.repeat(201) })
    expect(r.error?.issues.map((i) => i.message).sort()).toEqual(['day_invalid', 'text_too_long'])
  })
})

describe('buildExportRequest', () => {
  it('ranges on the paid date only when asked and only with a range, and the contract takes it', () => {
    const paid = buildExportRequest({
      ...BASE,
      dateBasis: 'paid',
      fromDay: '2025-03-01',
      toDay: '2025-03-01',
    })
    expect(paid.filter).toEqual({
      from: '2025-03-01T00:00:00-03:00',
      to: '2025-03-02T00:00:00-03:00',
      dateBasis: 'paid',
    })
    expect(exportRequestSchema.safeParse({ ...paid, folder: FOLDER_TOKEN }).success).toBe(true)
    expect(buildExportRequest({ ...BASE, dateBasis: 'paid' }).filter).toBeUndefined()
    const created = buildExportRequest({ ...BASE, fromDay: '2025-03-01' })
    expect(created.filter).toEqual({ from: '2025-03-01T00:00:00-03:00' })
  })
  it('exports everything with no filter and no folder', () => {
    const req = buildExportRequest(BASE)
    expect(req).toEqual({ formats: ['csv', 'json', 'html'], csvDelimiter: ';', locale: 'pt-BR' })
    expect('dir' in req).toBe(false)
    // Main refuses it until the folder token of its own dialog is added.
    expect(exportRequestSchema.safeParse(req).success).toBe(false)
    expect(exportRequestSchema.safeParse({ ...req, folder: FOLDER_TOKEN }).success).toBe(true)
  })
  it('asks for the stored receipts only when the option is ticked (issue #14)', () => {
    expect('includeReceipts' in buildExportRequest({ ...BASE, includeReceipts: false })).toBe(false)
    const req = buildExportRequest({ ...BASE, includeReceipts: true })
    expect(req.includeReceipts).toBe(true)
    expect(exportRequestSchema.safeParse({ ...req, folder: FOLDER_TOKEN }).success).toBe(true)
    expect(
      exportRequestSchema.safeParse({ ...req, folder: FOLDER_TOKEN, includeReceipts: 'yes' }).success,
    ).toBe(false)
  })
  it('turns calendar days into an inclusive São Paulo range with an exclusive end', () => {
    const req = buildExportRequest({
      ...BASE,
      profile: 'sandbox',
      statuses: ['sent', 'outcome_unknown'],
      fromDay: '2025-03-01',
      toDay: '2025-03-31',
      text: '  Maria ',
      formats: ['json'],
      locale: 'en',
    })
    expect(req).toEqual({
      formats: ['json'],
      filter: {
        profile: 'sandbox',
        statuses: ['sent', 'outcome_unknown'],
        from: '2025-03-01T00:00:00-03:00',
        to: '2025-04-01T00:00:00-03:00',
        text: 'Maria',
      },
      locale: 'en',
    })
    expect(exportRequestSchema.safeParse({ ...req, folder: FOLDER_TOKEN }).success).toBe(true)
  })
  it('an open-ended range sends only the bound given', () => {
    expect(buildExportRequest({ ...BASE, toDay: '2025-12-31' }).filter).toEqual({
      to: '2026-01-01T00:00:00-03:00',
    })
    expect(buildExportRequest({ ...BASE, fromDay: '2025-12-31' }).filter).toEqual({
      from: '2025-12-31T00:00:00-03:00',
    })
  })
  it('sends the delimiter only with CSV, and each format once', () => {
    expect(buildExportRequest({ ...BASE, formats: ['html', 'html'], csvDelimiter: ',' })).toEqual({
      formats: ['html'],
      locale: 'pt-BR',
    })
    expect(buildExportRequest({ ...BASE, formats: ['csv'], csvDelimiter: ',' }).csvDelimiter).toBe(',')
  })
})

describe('progressFraction', () => {
  it('is indeterminate until a total is known, then clamped', () => {
    expect(progressFraction(null)).toBeNull()
    expect(progressFraction({ done: 0, total: 0 })).toBeNull()
    expect(progressFraction({ done: 5, total: 10 })).toBe(0.5)
    expect(progressFraction({ done: 12, total: 10 })).toBe(1)
  })
})
