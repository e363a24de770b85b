/**
 * The records table's filters, compact enough to leave the rows on the first screen: status chips (one choice,
 * a Radix toggle group: arrow keys move, Space/Enter picks), free text, and a São Paulo day range typed as
 * dd/mm/aaaa or picked from a calendar, on the date it names (creation or payment; an opened export has only the
 * creation date: its file keeps no status history).
 */
import * as ToggleGroup from '@radix-ui/react-toggle-group'
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { DateField } from '../ui/DateField'
import { chipFilter, chipOf, dateRangeProblem, STATUS_CHIPS, type FilterInput } from './filter-model'

export interface RecordFiltersProps {
  input: FilterInput
  onChange: (patch: Partial<FilterInput>) => void
  onClear: () => void
  /** An opened export: "needs action" (a deadline relative to now) means nothing there. */
  readOnly?: boolean
}

function StatusChips({ input, onChange, readOnly }: Omit<RecordFiltersProps, 'onClear'>): React.JSX.Element {
  const { t } = useTranslation('layout')
  const current = chipOf(input) ?? ''
  return (
    <ToggleGroup.Root
      type="single"
      className="chips"
      aria-label={t('list.chips')}
      value={current}
      onValueChange={(v) => onChange(chipFilter(v === '' ? 'all' : v))}
      data-testid="status-chips"
    >
      {STATUS_CHIPS.filter((c) => !(readOnly && c.attention)).map((c) => (
        <ToggleGroup.Item
          key={c.id}
          value={c.id}
          className={c.attention ? 'chip chip-attention' : 'chip'}
          data-chip={c.id}
        >
          {t(`list.${c.id}`)}
        </ToggleGroup.Item>
      ))}
    </ToggleGroup.Root>
  )
}

export function RecordFilters({ input, onChange, onClear, readOnly }: RecordFiltersProps): React.JSX.Element {
  const { t } = useTranslation('list')
  const { t: tl } = useTranslation('layout')
  const id = useId()
  const problem = dateRangeProblem(input)
  const dateHintId = `${id}-date-hint`
  const dateErrorId = `${id}-date-error`
  const fromBad = problem === 'from_invalid'
  const toBad = problem === 'to_invalid' || problem === 'to_before_from'
  const describe = (bad: boolean): string => (bad ? `${dateHintId} ${dateErrorId}` : dateHintId)
  return (
    <section className="record-filters" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`} className="visually-hidden">
        {t('filters.heading')}
      </h3>
      <StatusChips input={input} onChange={onChange} readOnly={readOnly} />
      {input.run && (
        <p className="run-filter" data-testid="run-filter">
          <span>{t('filters.run', { name: input.run.name })}</span>{' '}
          <button type="button" className="btn btn-small" onClick={() => onChange({ run: null })}>
            {t('filters.runClear')}
          </button>
        </p>
      )}
      <div className="filter-row">
        <div className="field field-grow">
          {/* Named by its label for assistive technology; the placeholder shows the same word. */}
          <label htmlFor={`${id}-text`} className="visually-hidden">
            {t('filters.text')}
          </label>
          <input
            id={`${id}-text`}
            type="search"
            placeholder={t('filters.text')}
            value={input.text}
            maxLength={200}
            aria-describedby={`${id}-text-hint`}
            onChange={(e) => onChange({ text: e.target.value })}
          />
          <span id={`${id}-text-hint`} className="visually-hidden">
            {t('filters.textHint')}
          </span>
        </div>
        {!readOnly && (
          <div className="field field-basis">
            {/* The options say which date; the label names the control for assistive technology. */}
            <label htmlFor={`${id}-basis`} className="visually-hidden">
              {t('filters.dateBasis')}
            </label>
            <select
              id={`${id}-basis`}
              value={input.dateBasis}
              data-testid="date-basis"
              onChange={(e) => onChange({ dateBasis: e.target.value === 'paid' ? 'paid' : 'created' })}
            >
              <option value="created">{t('filters.basis.created')}</option>
              <option value="paid">{t('filters.basis.paid')}</option>
            </select>
          </div>
        )}
        <DateField
          id={`${id}-from`}
          label={tl('list.from')}
          labelRest={tl('list.fromRest')}
          value={input.fromDay}
          invalid={fromBad}
          describedBy={describe(fromBad)}
          onChange={(fromDay) => onChange({ fromDay })}
        />
        <DateField
          id={`${id}-to`}
          label={tl('list.to')}
          labelRest={tl('list.toRest')}
          value={input.toDay}
          invalid={toBad}
          describedBy={describe(toBad)}
          onChange={(toDay) => onChange({ toDay })}
        />
        <button type="button" className="btn btn-small filter-clear" onClick={onClear}>
          {t('filters.clear')}
        </button>
      </div>
      <p id={dateHintId} className="visually-hidden">
        {t('filters.dateHint')}
      </p>
      {problem && (
        <p id={dateErrorId} className="field-error" role="alert">
          {t(`filters.problems.${problem}`)}
        </p>
      )}
    </section>
  )
}
