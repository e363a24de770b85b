/**
 * What the payment is for: invoice (NF), cost centre, category, a free note. Optional; kept in the ledger, the
 * exports and the search, never sent to the service. Checked by the shared draft schema (length, plain text).
 */
import { useFormContext } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { REFERENCE_MAX_LENGTH } from '../../../../shared/payment-references'
import { describedBy, FieldError } from '../withdrawal-form/FieldError'
import { REFERENCE_FORM_FIELDS, type WithdrawalFormValues } from '../withdrawal-form/form-model'

export function ReferencesFields(): React.JSX.Element {
  const { t } = useTranslation('payees')
  const { register, formState } = useFormContext<WithdrawalFormValues>()
  return (
    <fieldset className="field references" data-testid="references">
      <legend>{t('references.legend')}</legend>
      <p className="field-hint" id="references-hint">
        {t('references.hint')}
      </p>
      <div className="references-grid">
        {REFERENCE_FORM_FIELDS.map((f) => {
          const code = formState.errors[f]?.message
          return (
            <div className="field" key={f}>
              <label htmlFor={`ref-${f}`}>{t(`references.${f}`)}</label>
              <input
                id={`ref-${f}`}
                type="text"
                autoComplete="off"
                // The schema decides and says why; this only stops a paste from running far past it.
                maxLength={REFERENCE_MAX_LENGTH[f] * 2}
                {...register(f)}
                aria-invalid={code ? true : undefined}
                aria-describedby={describedBy('references-hint', code && `ref-${f}-error`)}
              />
              <FieldError id={`ref-${f}-error`} code={code} />
            </div>
          )
        })}
      </div>
    </fieldset>
  )
}
