import { describe, expect, it } from 'vitest'
import {
  chipFilter,
  chipOf,
  STATUS_CHIPS,
  dateRangeProblem,
  DEFAULT_SORT,
  EMPTY_FILTER,
  queryKey,
  STATUS_FILTER_OPTIONS,
  toRecordFilter,
} from '../../src/renderer/src/components/records-table/filter-model'
import { recordFilterSchema } from '../../src/shared/withdrawal-record'

describe('toRecordFilter', () => {
  it('sends only what is set, with the default sort', () => {
    expect(toRecordFilter(EMPTY_FILTER, DEFAULT_SORT)).toEqual({ sort: { field: 'createdAt', dir: 'desc' } })
  })

  it('makes the "to" day inclusive: `to` is the next day start, exclusive', () => {
    const f = toRecordFilter({ ...EMPTY_FILTER, fromDay: '2025-03-01', toDay: '2025-03-31' }, DEFAULT_SORT)
    expect(f.from).toBe('2025-03-01T00:00:00-03:00')
    expect(f.to).toBe('2025-04-01T00:00:00-03:00')
    // One day: from and to are the same day.
    const one = toRecordFilter({ ...EMPTY_FILTER, fromDay: '2025-03-01', toDay: '2025-03-01' }, DEFAULT_SORT)
    expect(one.to).toBe('2025-03-02T00:00:00-03:00')
  })

  it('ranges on the paid date only when asked and only with a range; the query key tells the bases apart', () => {
    const range = { ...EMPTY_FILTER, fromDay: '2025-03-01', toDay: '2025-03-01' }
    const paid = toRecordFilter({ ...range, dateBasis: 'paid' }, DEFAULT_SORT)
    expect(paid).toMatchObject({ from: '2025-03-01T00:00:00-03:00', dateBasis: 'paid' })
    const created = toRecordFilter(range, DEFAULT_SORT)
    expect(created).not.toHaveProperty('dateBasis')
    expect(queryKey(paid)).not.toBe(queryKey(created))
    expect(toRecordFilter({ ...EMPTY_FILTER, dateBasis: 'paid' }, DEFAULT_SORT)).not.toHaveProperty(
      'dateBasis',
    )
  })

  it('drops an inverted or invalid range instead of guessing, and says why', () => {
    const inverted = { ...EMPTY_FILTER, fromDay: '2025-03-10', toDay: '2025-03-01' }
    expect(dateRangeProblem(inverted)).toBe('to_before_from')
    expect(toRecordFilter(inverted, DEFAULT_SORT)).not.toHaveProperty('from')
    expect(toRecordFilter(inverted, DEFAULT_SORT)).not.toHaveProperty('to')
    expect(dateRangeProblem({ fromDay: '2025-02-30', toDay: '' })).toBe('from_invalid')
    expect(dateRangeProblem({ fromDay: '', toDay: 'x' })).toBe('to_invalid')
    expect(dateRangeProblem({ fromDay: '', toDay: '' })).toBeNull()
  })

  it('trims text, caps it at 200 characters, and passes statuses and sort through', () => {
    const f = toRecordFilter(
      { ...EMPTY_FILTER, text: `  ${'a'.repeat(300)} `, statuses: ['sent', 'outcome_unknown'] },
      { field: 'amount', dir: 'asc' },
    )
    expect(f.text).toHaveLength(200)
    expect(f.statuses).toEqual(['sent', 'outcome_unknown'])
    expect(f.sort).toEqual({ field: 'amount', dir: 'asc' })
    expect(toRecordFilter({ ...EMPTY_FILTER, text: '   ' }, DEFAULT_SORT)).not.toHaveProperty('text')
  })

  it('always produces what the contract accepts', () => {
    const f = toRecordFilter(
      {
        statuses: ['created'],
        attention: true,
        fromDay: '2025-01-01',
        toDay: '2025-06-30',
        dateBasis: 'paid',
        text: 'Conceição',
        run: { id: 'run-00000000-0000-4000-8000-000000000000', name: 'Folha de março' },
      },
      { field: 'status', dir: 'desc' },
    )
    expect(recordFilterSchema.safeParse(f).success).toBe(true)
  })

  it('keys equal queries equally and different ones differently', () => {
    const a = toRecordFilter({ ...EMPTY_FILTER, text: 'ana' }, DEFAULT_SORT)
    const b = toRecordFilter({ ...EMPTY_FILTER, text: ' ana ' }, DEFAULT_SORT)
    const c = toRecordFilter({ ...EMPTY_FILTER, text: 'ana' }, { field: 'createdAt', dir: 'asc' })
    expect(queryKey(a)).toBe(queryKey(b))
    expect(queryKey(a)).not.toBe(queryKey(c))
  })

  it('narrows to one payment run by its id (the name is only shown), and the run is part of the query key', () => {
    const run = { id: 'run-11111111-1111-4111-8111-111111111111', name: 'Fornecedores' }
    const one = toRecordFilter({ ...EMPTY_FILTER, run }, DEFAULT_SORT)
    expect(one.runId).toBe(run.id)
    expect(JSON.stringify(one)).not.toContain('Fornecedores')
    const renamed = toRecordFilter({ ...EMPTY_FILTER, run: { ...run, name: 'Outro nome' } }, DEFAULT_SORT)
    expect(queryKey(renamed)).toBe(queryKey(one))
    const other = toRecordFilter(
      { ...EMPTY_FILTER, run: { id: 'run-22222222-2222-4222-8222-222222222222', name: 'Fornecedores' } },
      DEFAULT_SORT,
    )
    expect(queryKey(other)).not.toBe(queryKey(one))
    expect(queryKey(toRecordFilter(EMPTY_FILTER, DEFAULT_SORT))).not.toBe(queryKey(one))
    expect(toRecordFilter(EMPTY_FILTER, DEFAULT_SORT)).not.toHaveProperty('runId')
  })

  it('offers every local state and every known remote status once', () => {
    const values = STATUS_FILTER_OPTIONS.map((o) => o.value)
    expect(new Set(values).size).toBe(values.length)
    expect(values).toEqual(
      expect.arrayContaining(['outcome_unknown', 'not_created', 'unsent', 'sent', 'refunded']),
    )
  })

  it('chips: each maps to one filter and back; a needs-action query differs from "all"', () => {
    for (const chip of STATUS_CHIPS) expect(chipOf(chipFilter(chip.id))).toBe(chip.id)
    expect(chipOf({ statuses: ['sent', 'unsent'], attention: false })).toBeNull()
    const all = toRecordFilter({ ...EMPTY_FILTER, ...chipFilter('all') }, DEFAULT_SORT)
    const attention = toRecordFilter({ ...EMPTY_FILTER, ...chipFilter('attention') }, DEFAULT_SORT)
    expect(attention.attention).toBe(true)
    expect(all).not.toHaveProperty('attention')
    expect(queryKey(all)).not.toBe(queryKey(attention))
    expect(toRecordFilter({ ...EMPTY_FILTER, ...chipFilter('paid') }, DEFAULT_SORT).statuses).toEqual([
      'sent',
    ])
  })
})
