/**
 * The one amount of a withdrawal: a radio says what it means (DePix sent, or BRL the beneficiary receives) and a
 * single BRL input holds it. Two amounts cannot be typed, so a request with both can never be built.
 *
 * The input is a cents mask (digits shift in from the right), so what it shows is always exactly what is sent.
 * A pasted amount is read with the shared parser instead, and refused when ambiguous ("12.50" in pt-BR).
 */
import { useState } from 'react'
import { useController, useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { WITHDRAWAL_MAX_CENTS, WITHDRAWAL_MIN_CENTS } from '../../../../shared/api-limits'
import { formatBRL, parseBRLToCents } from '../../../../shared/money'
import { currentLanguage } from '../../i18n'
import { describedBy, FieldError } from './FieldError'
import { centsFromTypedDigits, type AmountKind, type WithdrawalFormValues } from './form-model'

const KINDS: readonly AmountKind[] = ['payout', 'deposit']

export function AmountField(): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const lang = currentLanguage()
  const { register, formState, control, trigger } = useFormContext<WithdrawalFormValues>()
  const {
    field: { name, ref: inputRef, value, onBlur, onChange },
  } = useController({ control, name: 'amountCents' })
  const kind = useWatch({ control, name: 'amountKind' })
  const [pasteRefused, setPasteRefused] = useState<string | null>(null)
  const error = formState.errors.amountCents?.message
  const kindError = formState.errors.amountKind?.message

  const set = (cents: number | null): void => {
    setPasteRefused(null)
    onChange(cents)
    // Bounds are told while typing, not only when the field is left.
    void trigger('amountCents')
  }

  return (
    <fieldset className="field amount">
      <legend>{t('amount.legend')}</legend>
      <div className="radio-row">
        {KINDS.map((k) => (
          <label key={k} className="radio">
            <input type="radio" value={k} {...register('amountKind')} />
            {t(`amount.kind.${k}`)}
          </label>
        ))}
      </div>
      <FieldError id="amountKind-error" code={kindError} />
      <div className="field">
        <label htmlFor="amountCents">{t(`amount.inputLabel.${kind}`)}</label>
        <input
          id="amountCents"
          type="text"
          inputMode="numeric"
          autoComplete="off"
          placeholder={formatBRL(0, lang)}
          name={name}
          ref={inputRef}
          value={value === null ? '' : formatBRL(value, lang)}
          onBlur={onBlur}
          onChange={(e) => set(centsFromTypedDigits(e.target.value))}
          onPaste={(e) => {
            const text = e.clipboardData.getData('text')
            const cents = parseBRLToCents(text, lang)
            e.preventDefault()
            if (cents === null) setPasteRefused(text.slice(0, 40))
            else set(cents)
          }}
          aria-invalid={error || pasteRefused !== null ? true : undefined}
          aria-describedby={describedBy(
            'amount-hint',
            pasteRefused !== null && 'amount-paste',
            error && 'amountCents-error',
          )}
        />
        <p id="amount-hint" className="field-hint">
          {t(`amount.meaning.${kind}`)}{' '}
          {t('amount.hint', {
            min: formatBRL(WITHDRAWAL_MIN_CENTS, lang),
            max: formatBRL(WITHDRAWAL_MAX_CENTS, lang),
          })}
        </p>
        {pasteRefused !== null && (
          <p id="amount-paste" className="field-error">
            {t('amount.pasteRefused', { text: pasteRefused })}
          </p>
        )}
        <FieldError id="amountCents-error" code={error} />
      </div>
    </fieldset>
  )
}
