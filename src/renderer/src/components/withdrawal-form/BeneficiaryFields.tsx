/**
 * Who receives: CPF/CNPJ and/or EUID (the API needs at least one; if both are given they must be the same
 * person). The CPF/CNPJ is masked as typed and its check digits are judged as soon as it has a tax id's length.
 */
import { useController, useFormContext } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { describedBy, FieldError } from './FieldError'
import { maskTaxIdAsTyped, taxIdLiveState, type WithdrawalFormValues } from './form-model'

export function BeneficiaryFields(): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const { register, formState, trigger, control } = useFormContext<WithdrawalFormValues>()
  const {
    field: { name, ref: inputRef, value, onBlur, onChange },
  } = useController({ control, name: 'taxNumber' })
  const taxError = formState.errors.taxNumber?.message
  const euidError = formState.errors.euid?.message
  const live = taxIdLiveState(value)

  // "Identify the beneficiary" sits on both fields; filling either one must clear it from both.
  const recheckBoth = (): void => {
    if (taxError || euidError) void trigger(['taxNumber', 'euid'])
  }

  return (
    <fieldset className="field beneficiary">
      <legend>{t('beneficiary.legend')}</legend>
      <p className="field-hint" id="beneficiary-hint">
        {t('beneficiary.hint')}
      </p>
      <div className="field">
        <label htmlFor="taxNumber">{t('beneficiary.taxNumber')}</label>
        <input
          id="taxNumber"
          type="text"
          inputMode="text"
          autoComplete="off"
          spellCheck={false}
          name={name}
          ref={inputRef}
          value={value}
          onBlur={onBlur}
          onChange={(e) => {
            const masked = maskTaxIdAsTyped(e.target.value)
            onChange(masked)
            const next = taxIdLiveState(masked).state
            if (next === 'valid' || next === 'invalid' || taxError || euidError)
              void trigger(['taxNumber', 'euid'])
          }}
          aria-invalid={taxError ? true : undefined}
          aria-describedby={describedBy('beneficiary-hint', 'taxNumber-live', taxError && 'taxNumber-error')}
        />
        <p
          id="taxNumber-live"
          aria-live="polite"
          className={live.state === 'valid' ? 'field-ok' : 'field-hint'}
        >
          {live.state === 'valid' && t(`beneficiary.valid.${live.kind}`)}
        </p>
        <FieldError id="taxNumber-error" code={taxError} />
      </div>
      <div className="field">
        <label htmlFor="euid">{t('beneficiary.euid')}</label>
        <input
          id="euid"
          type="text"
          autoComplete="off"
          spellCheck={false}
          {...register('euid', { onChange: recheckBoth })}
          aria-invalid={euidError ? true : undefined}
          aria-describedby={describedBy('beneficiary-hint', euidError && 'euid-error')}
        />
        <FieldError id="euid-error" code={euidError} />
      </div>
    </fieldset>
  )
}
