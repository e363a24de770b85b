/**
 * The Pix key with its type. While the key is typed, the detected type and the canonical key that will be sent
 * are shown (or why it is not a key yet); the refusal itself appears once the field is left or submitted.
 */
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import { parsePixKey, pixKeyMessages, PIX_KEY_TYPES } from '../../../../shared/pix-key'
import { currentLanguage } from '../../i18n'
import { describedBy, FieldError } from './FieldError'
import type { WithdrawalFormValues } from './form-model'

export function PixKeyField(): React.JSX.Element {
  const { t } = useTranslation('withdrawal')
  const { register, formState, control } = useFormContext<WithdrawalFormValues>()
  const [pixKey, pixKeyType] = useWatch({ control, name: ['pixKey', 'pixKeyType'] })
  const keyError = formState.errors.pixKey?.message
  const typeError = formState.errors.pixKeyType?.message
  const parsed = pixKey.trim() === '' ? null : parsePixKey(pixKey, pixKeyType === '' ? undefined : pixKeyType)

  return (
    <div className="pix-key-row">
      <div className="field">
        <label htmlFor="pixKeyType">{t('pixKey.typeLabel')}</label>
        <select
          id="pixKeyType"
          {...register('pixKeyType')}
          aria-invalid={typeError ? true : undefined}
          aria-describedby={describedBy(typeError && 'pixKeyType-error')}
        >
          <option value="">{t('pixKey.types.auto')}</option>
          {PIX_KEY_TYPES.map((type) => (
            <option key={type} value={type}>
              {t(`pixKey.types.${type}`)}
            </option>
          ))}
        </select>
        <FieldError id="pixKeyType-error" code={typeError} />
      </div>
      <div className="field field-grow">
        <label htmlFor="pixKey">{t('pixKey.label')}</label>
        <input
          id="pixKey"
          type="text"
          autoComplete="off"
          spellCheck={false}
          {...register('pixKey')}
          aria-invalid={keyError ? true : undefined}
          aria-describedby={describedBy('pixKey-live', keyError && 'pixKey-error')}
        />
        <p id="pixKey-live" aria-live="polite" className={parsed?.ok ? 'field-ok' : 'field-hint'}>
          {parsed === null && t('pixKey.hint')}
          {parsed?.ok && (
            <>
              {t(pixKeyType === '' ? 'pixKey.detected' : 'pixKey.matches', {
                type: t(`pixKey.types.${parsed.type}`),
              })}{' '}
              {t('pixKey.canonical')}: <code data-testid="pix-canonical">{parsed.key}</code>
            </>
          )}
          {/* Not yet a key: say why, quietly, until the field is left (then the error below says it). */}
          {parsed && !parsed.ok && !keyError && pixKeyMessages[parsed.reason][currentLanguage()]}
        </p>
        <FieldError id="pixKey-error" code={keyError} />
      </div>
    </div>
  )
}
