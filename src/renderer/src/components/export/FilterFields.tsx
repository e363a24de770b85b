/** Which records go into the export: the active profile (shown, not chosen), statuses, São Paulo days, free text. */
import { useId } from 'react'
import { Controller, useFormContext } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { PublicProfile } from '../../../../shared/profile'
import { Field, FieldMessage } from '../settings/Field'
import { DateField } from '../ui/DateField'
import { errorCodeAt } from '../settings/resolver'
import { EXPORT_TEXT_MAX, LOCAL_STATUS_OPTIONS, REMOTE_STATUS_OPTIONS, type ExportFormValues } from './logic'

export function FilterFields({ profile }: { profile: PublicProfile | null }): React.JSX.Element {
  const { t } = useTranslation(['records', 'status'])
  const id = useId()
  const { register, formState, control } = useFormContext<ExportFormValues>()
  const message = (path: keyof ExportFormValues): string | undefined => {
    const code = errorCodeAt(formState.errors, path)
    return code ? t(`records:errors.${code}`, { defaultValue: t('records:errors.invalid') }) : undefined
  }

  return (
    <fieldset className="card export-filter">
      <legend>{t('records:filter.title')}</legend>
      <Field id={`${id}-profile`} label={t('records:filter.profile')} hint={t('records:filter.profileHint')}>
        {(aria) => <input type="text" readOnly {...aria} value={profile?.name ?? ''} />}
      </Field>
      <fieldset className="field" aria-describedby={`${id}-statuses-hint`}>
        <legend>{t('records:filter.statuses')}</legend>
        <span id={`${id}-statuses-hint`} className="field-hint">
          {t('records:filter.statusesHint')}
        </span>
        <div className="checkbox-columns">
          <div role="group" aria-labelledby={`${id}-remote`}>
            <p id={`${id}-remote`} className="group-label">
              {t('records:filter.remoteStatuses')}
            </p>
            {REMOTE_STATUS_OPTIONS.map((s) => (
              <label key={s} className="option-line">
                <input type="checkbox" value={s} {...register('statuses')} /> {t(`status:remote.${s}`)}
              </label>
            ))}
          </div>
          <div role="group" aria-labelledby={`${id}-local`}>
            <p id={`${id}-local`} className="group-label">
              {t('records:filter.localStates')}
            </p>
            {LOCAL_STATUS_OPTIONS.map((s) => (
              <label key={s} className="option-line">
                <input type="checkbox" value={s} {...register('statuses')} /> {t(`records:filter.local.${s}`)}
              </label>
            ))}
          </div>
        </div>
      </fieldset>
      <Field id={`${id}-basis`} label={t('records:filter.dateBasis')}>
        {(aria) => (
          <select {...aria} {...register('dateBasis')} data-testid="export-date-basis">
            <option value="created">{t('records:filter.basis.created')}</option>
            <option value="paid">{t('records:filter.basis.paid')}</option>
          </select>
        )}
      </Field>
      <div className="date-range">
        {(['fromDay', 'toDay'] as const).map((name) => {
          const fid = `${id}-${name}`
          const error = message(name)
          return (
            <div key={name}>
              <Controller
                name={name}
                control={control}
                render={({ field }) => (
                  <DateField
                    id={fid}
                    label={t(name === 'fromDay' ? 'records:filter.from' : 'records:filter.to')}
                    value={field.value}
                    invalid={error !== undefined}
                    describedBy={error ? `${fid}-error` : `${id}-days-hint`}
                    onChange={field.onChange}
                  />
                )}
              />
              <FieldMessage id={fid} error={error} />
            </div>
          )
        })}
      </div>
      <p id={`${id}-days-hint`} className="field-hint">
        {t('records:filter.daysHint')}
      </p>
      <Field
        id={`${id}-text`}
        label={t('records:filter.text')}
        hint={t('records:filter.textHint')}
        error={message('text')}
      >
        {(aria) => (
          <input
            type="search"
            maxLength={EXPORT_TEXT_MAX}
            autoComplete="off"
            {...aria}
            {...register('text')}
          />
        )}
      </Field>
    </fieldset>
  )
}
