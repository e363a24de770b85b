/**
 * A date filter field: type dd/mm/aaaa (pt-BR) or pick from a calendar in a popover (Radix Popover, focus
 * managed and Escape to close). Holds the typed text while it is incomplete; reports `YYYY-MM-DD`, '' or the
 * raw text (which the filter model calls invalid).
 */
import * as Popover from '@radix-ui/react-popover'
import { lazy, Suspense, useState } from 'react'
import { useTranslation } from 'react-i18next'
import { currentLanguage } from '../../i18n'
import { datePattern, dayToText, textToDay } from './date-text'

const CalendarPanel = lazy(() => import('./CalendarPanel'))

export interface DateFieldProps {
  id: string
  label: string
  /** Read by assistive technology after `label`, not shown (e.g. "(dia, inclusive)"). */
  labelRest?: string
  value: string
  invalid: boolean
  describedBy: string
  onChange: (day: string) => void
}

export function DateField({
  id,
  label,
  labelRest,
  value,
  invalid,
  describedBy,
  onChange,
}: DateFieldProps): React.JSX.Element {
  const { t } = useTranslation('layout')
  const lang = currentLanguage()
  const [open, setOpen] = useState(false)
  // The text being typed; re-derived from the value whenever the value changes from outside.
  const [typed, setTyped] = useState<{ for: string; lang: string; text: string } | null>(null)
  const text = typed && typed.for === value && typed.lang === lang ? typed.text : dayToText(value, lang)
  return (
    <div className="field field-date">
      <label htmlFor={id}>
        {label}
        {labelRest && <span className="visually-hidden"> {labelRest}</span>}
      </label>
      <div className="date-input">
        <input
          id={id}
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={datePattern(lang)}
          value={text}
          aria-invalid={invalid || undefined}
          aria-describedby={describedBy}
          onChange={(e) => {
            const next = textToDay(e.target.value, lang)
            setTyped({ for: next, lang, text: e.target.value })
            onChange(next)
          }}
        />
        <Popover.Root open={open} onOpenChange={setOpen}>
          <Popover.Trigger asChild>
            <button
              type="button"
              className="btn btn-icon"
              aria-label={t('date.pick', { label: labelRest ? `${label} ${labelRest}` : label })}
            >
              <span aria-hidden="true">▦</span>
            </button>
          </Popover.Trigger>
          <Popover.Portal>
            <Popover.Content className="popover" sideOffset={4} align="start" aria-label={t('date.calendar')}>
              <Suspense fallback={<p>{t('today.loading')}</p>}>
                <CalendarPanel
                  day={value}
                  lang={lang}
                  onPick={(day) => {
                    setTyped(null)
                    onChange(day)
                    setOpen(false)
                  }}
                />
              </Suspense>
            </Popover.Content>
          </Popover.Portal>
        </Popover.Root>
      </div>
    </div>
  )
}
