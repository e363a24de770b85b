/**
 * The sign-in fields shared by "add live profile" and "replace credentials". Secrets are typed into password
 * inputs with autocomplete off; nothing here ever fills them from main (main never sends a secret back).
 */
import { useFormContext, useWatch } from 'react-hook-form'
import { useTranslation } from 'react-i18next'
import type { CredentialsInput } from '../../../../shared/profile'
import { currentLanguage } from '../../i18n'
import { Field, fieldAria, FieldMessage } from './Field'
import { profileFieldMessage } from './logic'
import { errorCodeAt } from './resolver'

export interface CredentialsFormShape {
  auth: CredentialsInput
}

export function CredentialFields({ idPrefix }: { idPrefix: string }): React.JSX.Element {
  const { t } = useTranslation('settings')
  const lang = currentLanguage()
  const { register, control, formState } = useFormContext<CredentialsFormShape>()
  const kind = useWatch({ control, name: 'auth.kind' })
  const message = (path: string): string | undefined =>
    profileFieldMessage(errorCodeAt(formState.errors, path), lang)
  const kindError = message('auth.kind') ?? message('auth')
  const kindAria = fieldAria(`${idPrefix}-kind`, undefined, kindError)

  return (
    <>
      <fieldset className="field" aria-describedby={kindAria['aria-describedby']}>
        <legend>{t('credentials.kind')}</legend>
        <label className="option-line">
          <input type="radio" value="client_credentials" {...register('auth.kind')} />{' '}
          {t('credentials.clientCredentials')}
        </label>
        <label className="option-line">
          <input type="radio" value="legacy_token" {...register('auth.kind')} />{' '}
          {t('credentials.legacyToken')}
        </label>
        <FieldMessage id={`${idPrefix}-kind`} error={kindError} />
      </fieldset>
      {kind === 'legacy_token' ? (
        <Field
          id={`${idPrefix}-token`}
          label={t('credentials.token')}
          hint={t('credentials.tokenHint')}
          error={message('auth.token')}
        >
          {(aria) => (
            <input
              type="password"
              autoComplete="off"
              spellCheck={false}
              {...aria}
              {...register('auth.token')}
            />
          )}
        </Field>
      ) : (
        <>
          <Field
            id={`${idPrefix}-client-id`}
            label={t('credentials.clientId')}
            error={message('auth.clientId')}
          >
            {(aria) => (
              <input
                type="text"
                autoComplete="off"
                spellCheck={false}
                className="mono"
                {...aria}
                {...register('auth.clientId')}
              />
            )}
          </Field>
          <Field
            id={`${idPrefix}-client-secret`}
            label={t('credentials.clientSecret')}
            hint={t('credentials.secretHint')}
            error={message('auth.clientSecret')}
          >
            {(aria) => (
              <input
                type="password"
                autoComplete="off"
                spellCheck={false}
                {...aria}
                {...register('auth.clientSecret')}
              />
            )}
          </Field>
        </>
      )}
    </>
  )
}
