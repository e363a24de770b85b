/** The records table's filter controls: statuses, a São Paulo day range and free text. */
import { useId } from 'react'
import { useTranslation } from 'react-i18next'
import { dateRangeProblem, STATUS_FILTER_OPTIONS, type FilterInput } from './filter-model'

export interface RecordFiltersProps {
  input: FilterInput
  onChange: (patch: Partial<FilterInput>) => void
  onClear: () => void
}

function StatusChoices({ input, onChange }: Omit<RecordFiltersProps, 'onClear'>): React.JSX.Element {
  const { t } = useTranslation(['list', 'status'])
  const toggle = (value: string, on: boolean): void => {
    const next = on ? [...input.statuses, value] : input.statuses.filter((s) => s !== value)
    onChange({ statuses: next })
  }
  const group = (which: 'local' | 'remote'): React.JSX.Element => (
    <fieldset className="status-group">
      <legend>{t(which === 'local' ? 'filters.localGroup' : 'filters.remoteGroup')}</legend>
      {STATUS_FILTER_OPTIONS.filter((o) => o.group === which).map((o) => (
        <label key={o.value} className="check">
          <input
            type="checkbox"
            name="status"
            value={o.value}
            checked={input.statuses.includes(o.value)}
            onChange={(e) => toggle(o.value, e.target.checked)}
          />{' '}
          {t(o.group === 'local' ? `status:state.${o.value}` : `status:remote.${o.value}`)}
          {o.value === 'created' && <span className="field-hint"> ({t('filters.anyCreated')})</span>}
        </label>
      ))}
    </fieldset>
  )
  return (
    <fieldset className="field filter-statuses">
      <legend>{t('filters.status')}</legend>
      {group('local')}
      {group('remote')}
    </fieldset>
  )
}

export function RecordFilters({ input, onChange, onClear }: RecordFiltersProps): React.JSX.Element {
  const { t } = useTranslation('list')
  const id = useId()
  const problem = dateRangeProblem(input)
  const dateHintId = `${id}-date-hint`
  const dateErrorId = `${id}-date-error`
  const fromBad = problem === 'from_invalid'
  const toBad = problem === 'to_invalid' || problem === 'to_before_from'
  const describe = (bad: boolean): string => (bad ? `${dateHintId} ${dateErrorId}` : dateHintId)
  return (
    <section className="record-filters" aria-labelledby={`${id}-heading`}>
      <h3 id={`${id}-heading`}>{t('filters.heading')}</h3>
      <div className="filter-row">
        <div className="field">
          <label htmlFor={`${id}-text`}>{t('filters.text')}</label>
          <input
            id={`${id}-text`}
            type="search"
            value={input.text}
            maxLength={200}
            aria-describedby={`${id}-text-hint`}
            onChange={(e) => onChange({ text: e.target.value })}
          />
          <span id={`${id}-text-hint`} className="field-hint">
            {t('filters.textHint')}
          </span>
        </div>
        <div className="field field-date">
          <label htmlFor={`${id}-from`}>{t('filters.from')}</label>
          <input
            id={`${id}-from`}
            type="date"
            value={input.fromDay}
            aria-invalid={fromBad || undefined}
            aria-describedby={describe(fromBad)}
            onChange={(e) => onChange({ fromDay: e.target.value })}
          />
        </div>
        <div className="field field-date">
          <label htmlFor={`${id}-to`}>{t('filters.to')}</label>
          <input
            id={`${id}-to`}
            type="date"
            value={input.toDay}
            aria-invalid={toBad || undefined}
            aria-describedby={describe(toBad)}
            onChange={(e) => onChange({ toDay: e.target.value })}
          />
        </div>
      </div>
      <p id={dateHintId} className="field-hint">
        {t('filters.dateHint')}
      </p>
      {problem && (
        <p id={dateErrorId} className="field-error" role="alert">
          {t(`filters.problems.${problem}`)}
        </p>
      )}
      <StatusChoices input={input} onChange={onChange} />
      <div className="actions">
        <button type="button" className="btn" onClick={onClear}>
          {t('filters.clear')}
        </button>
      </div>
    </section>
  )
}
