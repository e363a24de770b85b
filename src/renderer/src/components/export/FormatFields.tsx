/** Which files to write, and how the CSV spells numbers, dates and separators. */
import { useId } from 'react'
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { EXPORT_FORMATS } from '../../../../shared/contract'
import { fieldAria, FieldMessage } from '../settings/Field'
import { errorCodeAt } from '../settings/resolver'
import type { ExportFormValues } from './logic'

export function FormatFields(): React.JSX.Element {
  const { t } = useTranslation('records')
  const id = useId()
  const { register, control, formState } = useFormContext<ExportFormValues>()
  const formats = useWatch({ control, name: 'formats' })
  const code = errorCodeAt(formState.errors, 'formats')
  const formatsError = code ? t(`errors.${code}`) : undefined
  const aria = fieldAria(`${id}-formats`, true, formatsError)

  return (
    <fieldset className="card export-formats">
      <legend>{t('format.title')}</legend>
      <fieldset className="field" aria-describedby={aria['aria-describedby']}>
        <legend>{t('format.files')}</legend>
        <span id={`${id}-formats-hint`} className="field-hint">
          {t('format.filesHint')}
        </span>
        {EXPORT_FORMATS.map((f) => (
          <label key={f} className="option-line">
            <input type="checkbox" value={f} aria-invalid={aria['aria-invalid']} {...register('formats')} />{' '}
            {t(`format.${f}`)}
          </label>
        ))}
        <FieldMessage id={`${id}-formats`} error={formatsError} />
      </fieldset>
      <label className="option-line">
        <input type="checkbox" data-testid="export-include-receipts" {...register('includeReceipts')} />{' '}
        {t('receipts:exportOption')}
      </label>
      <fieldset className="field" disabled={!formats?.includes('csv')}>
        <legend>{t('format.delimiter')}</legend>
        <label className="option-line">
          <input type="radio" value=";" {...register('csvDelimiter')} /> {t('format.semicolon')}
        </label>
        <label className="option-line">
          <input type="radio" value="," {...register('csvDelimiter')} /> {t('format.comma')}
        </label>
      </fieldset>
      <fieldset className="field">
        <legend>{t('format.locale')}</legend>
        <label className="option-line">
          <input type="radio" value="pt-BR" {...register('locale')} /> {t('format.localePtBR')}
        </label>
        <label className="option-line">
          <input type="radio" value="en" {...register('locale')} /> {t('format.localeIso')}
        </label>
      </fieldset>
    </fieldset>
  )
}
